//! The languages Easel parses, their grammars and their query files.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// A language with a grammar and a query file of its own, or the generic fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Python,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    Rust,
    Java,
    C,
    Cpp,
    Ruby,
    CSharp,
    Bash,
}

impl Lang {
    /// Every language, in a fixed order.
    pub const ALL: [Lang; 12] = [
        Lang::Python,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::JavaScript,
        Lang::Go,
        Lang::Rust,
        Lang::Java,
        Lang::C,
        Lang::Cpp,
        Lang::Ruby,
        Lang::CSharp,
        Lang::Bash,
    ];

    /// The language of a file, from its extension. TypeScript declaration files (`.d.ts`,
    /// `.d.mts`, `.d.cts`) are none: they declare types and globals and hold no code, so
    /// they are no modules of the graph (most are generated next to the sources they
    /// describe).
    pub fn from_path(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?;
        if matches!(ext, "ts" | "mts" | "cts")
            && path
                .file_stem()
                .and_then(|s| s.to_str())
                .is_some_and(|s| s.ends_with(".d"))
        {
            return None;
        }
        Some(match ext {
            "py" | "pyi" => Lang::Python,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
            "go" => Lang::Go,
            "rs" => Lang::Rust,
            "java" => Lang::Java,
            "c" | "h" => Lang::C,
            "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "c++" | "h++" => Lang::Cpp,
            "rb" => Lang::Ruby,
            "cs" => Lang::CSharp,
            "sh" | "bash" => Lang::Bash,
            _ => return None,
        })
    }

    /// Lower-case name, as used in `queries/<name>.scm` and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::JavaScript => "javascript",
            Lang::Go => "go",
            Lang::Rust => "rust",
            Lang::Java => "java",
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Ruby => "ruby",
            Lang::CSharp => "csharp",
            Lang::Bash => "bash",
        }
    }

    /// The tree-sitter grammar.
    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Lang::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Lang::Bash => tree_sitter_bash::LANGUAGE.into(),
        }
    }

    /// The query file, embedded at build time.
    pub fn query_source(self) -> &'static str {
        match self {
            Lang::Python => include_str!("../queries/python.scm"),
            Lang::TypeScript => include_str!("../queries/typescript.scm"),
            Lang::Tsx => concat!(
                include_str!("../queries/typescript.scm"),
                include_str!("../queries/tsx.scm")
            ),
            Lang::JavaScript => include_str!("../queries/javascript.scm"),
            Lang::Go => include_str!("../queries/go.scm"),
            Lang::Rust => include_str!("../queries/rust.scm"),
            Lang::Java => include_str!("../queries/java.scm"),
            Lang::C => include_str!("../queries/c.scm"),
            Lang::Cpp => include_str!("../queries/cpp.scm"),
            Lang::Ruby => include_str!("../queries/ruby.scm"),
            Lang::CSharp => include_str!("../queries/csharp.scm"),
            Lang::Bash => include_str!("../queries/bash.scm"),
        }
    }

    /// The separator of qualified names in the language's own convention.
    pub fn sep(self) -> &'static str {
        match self {
            Lang::Rust | Lang::Cpp | Lang::Ruby => "::",
            _ => ".",
        }
    }

    /// Whether a bare name inside a method can mean a member of the enclosing class
    /// (implicit `this`), as in Java, C#, C++ and Ruby, but not Python or JavaScript.
    pub(crate) fn implicit_this(self) -> bool {
        matches!(self, Lang::Java | Lang::CSharp | Lang::Cpp | Lang::Ruby)
    }

    /// Languages whose top-level names are visible to the other files of the same folder
    /// (a Go package) without an import.
    pub(crate) fn package_is_folder(self) -> bool {
        matches!(self, Lang::Go)
    }

    /// The name of the constructor method of a class in this language, if it has a fixed one.
    pub(crate) fn constructor_name(self) -> Option<&'static str> {
        match self {
            Lang::Python => Some("__init__"),
            Lang::TypeScript | Lang::Tsx | Lang::JavaScript => Some("constructor"),
            Lang::Ruby => Some("initialize"),
            _ => None,
        }
    }

    /// Languages where a constructor is the method named like its class.
    pub(crate) fn constructor_is_class_name(self) -> bool {
        matches!(self, Lang::Java | Lang::CSharp | Lang::Cpp)
    }

    pub(crate) fn is_js_family(self) -> bool {
        matches!(self, Lang::TypeScript | Lang::Tsx | Lang::JavaScript)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declaration_files_are_no_sources() {
        for p in ["types/globals.d.ts", "a.d.mts", "lib/x.d.cts"] {
            assert_eq!(Lang::from_path(Path::new(p)), None, "{p}");
        }
        assert_eq!(Lang::from_path(Path::new("a.ts")), Some(Lang::TypeScript));
        assert_eq!(Lang::from_path(Path::new("d.ts")), Some(Lang::TypeScript));
        assert_eq!(Lang::from_path(Path::new("odd.d.tsx")), Some(Lang::Tsx));
    }
}
