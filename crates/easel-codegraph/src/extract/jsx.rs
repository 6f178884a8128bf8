//! JSX elements as the calls they compile to. `<Item label={x} />` is
//! `React.createElement(Item, { label: x })` (tsc's and Babel's classic runtime): the scope
//! writing the element calls the factory, and the component runs wherever the factory (or a
//! renderer it hands the tree to) calls it. So each element is a call of the factory with the
//! component and the props as arguments, and, for a component, a call of the component kept
//! only when the factory is not a function of the repository (React, Preact or Solid from npm
//! run the component for the scope that wrote the element).
//!
//! The factory is the file's `/** @jsx h */` pragma, else `React.createElement`; the
//! `tsconfig.json`/`jsconfig.json` that applies to the file may name another (`jsxFactory`) or
//! the automatic runtime (`jsx: react-jsx`, whose `jsx()` comes from a package): that is
//! applied after extraction ([`crate::tsconfig::TsConfigs::rewrite`]), to calls marked
//! [`JSX_FACTORY`].

use super::*;

/// [`CallSite::jsx`] of a factory call whose factory the file does not name (a config may).
pub const JSX_FACTORY: u8 = 1;
/// [`CallSite::jsx`] of a factory call named by the file's own pragma.
pub const JSX_PRAGMA: u8 = 2;
/// [`CallSite::jsx`] of the call of a component by an element: a class component is
/// constructed and its `render` runs.
pub const JSX_COMPONENT: u8 = 3;

/// What a file's leading comments say of its JSX.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Pragma {
    /// `@jsx h` / `@jsx Preact.h`: the factory, dotted.
    Factory(Vec<Seg>),
    /// `@jsxImportSource pkg` or `@jsxRuntime automatic`: `jsx()` of a package's runtime.
    Automatic,
}

/// The JSX pragma in the comments before a file's first statement, as tsc and Babel read it.
pub(super) fn jsx_pragma(src: &[u8]) -> Option<Pragma> {
    let mut rest = src;
    let mut found = None;
    loop {
        let start = rest
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        rest = &rest[start..];
        let comment = if rest.starts_with(b"//") {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            &rest[..end]
        } else if rest.starts_with(b"/*") {
            let end = rest
                .windows(2)
                .skip(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |p| p + 4);
            &rest[..end]
        } else if rest.starts_with(b"#!") && std::ptr::eq(rest.as_ptr(), src.as_ptr()) {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            rest = &rest[end..];
            continue;
        } else {
            return found;
        };
        rest = &rest[comment.len()..];
        let text = String::from_utf8_lossy(comment);
        let mut words = text
            .split(|c: char| c.is_whitespace() || c == '*' || c == '/')
            .filter(|w| !w.is_empty());
        while let Some(w) = words.next() {
            match w {
                "@jsx" => {
                    if let Some(f) = words.next() {
                        let segs: Vec<Seg> = f.split('.').map(|s| Seg::Name(s.into())).collect();
                        if f.split('.').all(is_ident) {
                            found = Some(Pragma::Factory(segs));
                        }
                    }
                }
                "@jsxImportSource" => found = Some(Pragma::Automatic),
                "@jsxRuntime" if words.next() == Some("automatic") => {
                    found = Some(Pragma::Automatic)
                }
                _ => {}
            }
        }
    }
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

impl<'t> Extractor<'_, 't> {
    /// A JSX element (its opening or self-closing tag): the factory call, and the component
    /// call kept when the factory is not the repository's.
    pub(super) fn jsx_element(&mut self, n: Node, scope: Option<u32>, line: u32) {
        let name = n.field(Field::NAME);
        let component = name.and_then(|name| {
            let t = self.text(name);
            // `<div>` and `<my-widget>` are the host's own elements, not code of the repository.
            (t.starts_with(|c: char| c.is_ascii_uppercase()) || t.contains('.'))
                .then(|| (self.segs(name), squash(&t)))
        });
        let props = self.jsx_props(n);
        let pragma = self.jsx_pragma.get_or_init(|| jsx_pragma(self.src)).clone();
        let factory = match pragma {
            Some(Pragma::Automatic) => None,
            Some(Pragma::Factory(f)) => Some((f, JSX_PRAGMA)),
            None => Some((
                vec![Seg::Name("React".into()), Seg::Name("createElement".into())],
                JSX_FACTORY,
            )),
        };
        let via = factory.map(|(callee, jsx)| {
            let text = CallSite::dotted(&callee);
            let first = component.as_ref().and_then(|(segs, _)| segs.clone());
            self.facts.calls.push(CallSite {
                args: vec![first, props.clone()],
                maybe: true,
                jsx,
                ..CallSite::bare(scope, callee, text, line)
            });
            self.facts.calls.len() as u32 - 1
        });
        if let Some((Some(segs), text)) = component {
            self.facts.calls.push(CallSite {
                args: vec![props],
                via,
                jsx: JSX_COMPONENT,
                ..CallSite::bare(scope, segs, text, line)
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: Option<Pragma>) -> Option<String> {
        match p? {
            Pragma::Factory(s) => Some(
                s.iter()
                    .map(|s| match s {
                        Seg::Name(n) => n.as_str(),
                        _ => "?",
                    })
                    .collect::<Vec<_>>()
                    .join("."),
            ),
            Pragma::Automatic => Some("<automatic>".into()),
        }
    }

    #[test]
    fn pragmas_are_read_from_the_leading_comments_only() {
        assert_eq!(
            names(jsx_pragma(b"/** @jsx h */\nimport { h } from './h';")),
            Some("h".into())
        );
        assert_eq!(
            names(jsx_pragma(b"// license\n/* @jsx Preact.h */\nlet x = 1;")),
            Some("Preact.h".into())
        );
        assert_eq!(
            names(jsx_pragma(b"/** @jsxImportSource preact */\n")),
            Some("<automatic>".into())
        );
        assert_eq!(names(jsx_pragma(b"let x = 1;\n/** @jsx h */")), None);
        assert_eq!(names(jsx_pragma(b"/** @jsx 1bad */")), None);
        assert_eq!(
            names(jsx_pragma(b"#!/usr/bin/env node\n/* @jsx h */")),
            Some("h".into())
        );
    }
}
