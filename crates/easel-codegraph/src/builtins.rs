//! The functions a language provides without a definition in the repository: Python's `len`,
//! JavaScript's `console.log`, Go's `append`, Rust's `println!`. A call to one is not a gap in
//! the graph, so it is counted apart from the calls that could not be resolved.
//!
//! Only the caller decides whether a name is free: a file that binds `len` itself (a function,
//! an import, an assignment) calls its own `len`, never the builtin.

use crate::lang::Lang;

/// Whether a call written as `head` (the callee's first name) followed by `rest` (the next name,
/// if any) reaches the language's builtins or standard library, assuming `head` is not bound in
/// the caller's file. `macro_call` is a Rust macro invocation (`name!`).
pub(crate) fn is_builtin(lang: Lang, head: &str, macro_call: bool) -> bool {
    match lang {
        Lang::Python => PYTHON.contains(&head),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            JS_FUNCS.contains(&head) || JS_OBJECTS.contains(&head)
        }
        Lang::Go => GO.contains(&head),
        Lang::Rust => {
            if macro_call {
                RUST_MACROS.contains(&head)
            } else {
                RUST_PRELUDE.contains(&head)
            }
        }
        Lang::Ruby => RUBY.contains(&head),
        Lang::Java => JAVA_LANG.contains(&head),
        Lang::CSharp => CSHARP.contains(&head),
        Lang::C | Lang::Cpp => C_STD.contains(&head) || (lang == Lang::Cpp && head == "std"),
        Lang::Bash => BASH.contains(&head),
    }
}

/// Python's `builtins` module.
#[rustfmt::skip]
const PYTHON: &[&str] = &[
    "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray",
    "bytes", "callable", "chr", "classmethod", "compile", "complex", "delattr", "dict", "dir",
    "divmod", "enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr",
    "globals", "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance",
    "issubclass", "iter", "len", "list", "locals", "map", "max", "memoryview", "min", "next",
    "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr", "reversed",
    "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super",
    "tuple", "type", "vars", "zip", "__import__",
    // The exceptions a `raise` constructs.
    "BaseException", "Exception", "ArithmeticError", "AssertionError", "AttributeError",
    "BlockingIOError", "BrokenPipeError", "BufferError", "ConnectionError", "EOFError",
    "FileExistsError", "FileNotFoundError", "FloatingPointError", "ImportError",
    "IndexError", "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt",
    "LookupError", "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError",
    "NotImplementedError", "OSError", "OverflowError", "PermissionError", "RecursionError",
    "ReferenceError", "RuntimeError", "StopAsyncIteration", "StopIteration", "SyntaxError",
    "SystemError", "SystemExit", "TimeoutError", "TypeError", "UnboundLocalError",
    "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError", "ValueError",
    "ZeroDivisionError", "DeprecationWarning", "RuntimeWarning", "UserWarning", "Warning",
    "IOError", "EnvironmentError", "ExceptionGroup", "BaseExceptionGroup",
];

/// ECMAScript global functions and constructors, and the host functions every runtime has.
#[rustfmt::skip]
const JS_FUNCS: &[&str] = &[
    "parseInt", "parseFloat", "isNaN", "isFinite", "encodeURI", "encodeURIComponent",
    "decodeURI", "decodeURIComponent", "eval", "setTimeout", "setInterval", "clearTimeout",
    "clearInterval", "setImmediate", "clearImmediate", "queueMicrotask", "structuredClone",
    "require", "fetch", "String", "Number", "Boolean", "Symbol", "BigInt", "Array", "Object",
    "Function", "Date", "RegExp", "Error", "TypeError", "RangeError", "SyntaxError",
    "ReferenceError", "EvalError", "URIError", "AggregateError", "Map", "Set", "WeakMap",
    "WeakSet", "WeakRef", "Promise", "Proxy", "ArrayBuffer", "DataView", "Uint8Array",
    "Int8Array", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array",
    "Float64Array", "BigInt64Array", "BigUint64Array", "Uint8ClampedArray", "URL",
    "URLSearchParams", "TextEncoder", "TextDecoder", "AbortController", "atob", "btoa",
];

/// Global objects whose methods are builtins (`console.log`, `Math.max`, `JSON.parse`).
#[rustfmt::skip]
const JS_OBJECTS: &[&str] = &[
    "console", "Math", "JSON", "Reflect", "Intl", "Atomics", "globalThis", "process", "Buffer",
];

/// Go's predeclared functions and conversions.
#[rustfmt::skip]
const GO: &[&str] = &[
    "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max",
    "min", "new", "panic", "print", "println", "real", "recover", "bool", "byte", "rune", "int",
    "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
    "float32", "float64", "complex64", "complex128", "string", "error", "any",
];

/// The macros of `std` and `core`.
#[rustfmt::skip]
const RUST_MACROS: &[&str] = &[
    "println", "print", "eprintln", "eprint", "format", "format_args", "write", "writeln",
    "vec", "panic", "assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq",
    "debug_assert_ne", "unreachable", "unimplemented", "todo", "matches", "dbg", "concat",
    "stringify", "include", "include_str", "include_bytes", "env", "option_env", "cfg", "line",
    "column", "file", "module_path", "compile_error", "thread_local", "debug_assert_matches",
    "assert_matches", "const_format_args", "trace_macros", "log_syntax", "concat_idents",
];

/// What the Rust prelude names (and the paths into the standard library).
#[rustfmt::skip]
const RUST_PRELUDE: &[&str] = &[
    "Some", "Ok", "Err", "Box", "Vec", "String", "Option", "Result", "drop", "std", "core",
    "alloc", "Default", "ToString", "Into", "From", "Iterator", "Clone",
];

/// `Kernel` and `Module` methods every Ruby object can call.
#[rustfmt::skip]
const RUBY: &[&str] = &[
    "puts", "print", "p", "pp", "require", "require_relative", "load", "raise", "fail",
    "attr_accessor", "attr_reader", "attr_writer", "include", "extend", "prepend", "lambda",
    "proc", "loop", "format", "sprintf", "printf", "Integer", "Float", "String", "Array",
    "Hash", "Rational", "Complex", "rand", "srand", "sleep", "catch", "throw", "block_given?",
    "private", "protected", "public", "module_function", "private_constant", "define_method",
    "instance_variable_get", "instance_variable_set", "respond_to?", "send", "public_send",
    "freeze", "frozen?", "binding", "caller", "exit", "abort", "at_exit", "gets", "warn",
    "alias_method", "autoload", "Struct",
];

/// `java.lang`, imported implicitly into every file.
#[rustfmt::skip]
const JAVA_LANG: &[&str] = &[
    "System", "Math", "String", "Integer", "Long", "Double", "Float", "Short", "Byte",
    "Boolean", "Character", "Objects", "Thread", "Runtime", "StringBuilder", "Object", "Class",
    "Enum", "Exception", "RuntimeException", "IllegalArgumentException",
    "IllegalStateException", "NullPointerException", "UnsupportedOperationException",
    "IndexOutOfBoundsException", "Error", "StrictMath",
];

/// C#'s `System` types that code names without a `using` of its own.
#[rustfmt::skip]
const CSHARP: &[&str] = &[
    "Console", "Math", "String", "string", "Convert", "Int32", "Int64", "Double", "Boolean",
    "Char", "Guid", "DateTime", "TimeSpan", "Array", "Environment", "GC", "Object", "object",
    "Exception", "ArgumentException", "ArgumentNullException", "InvalidOperationException",
    "NotImplementedException", "NotSupportedException", "nameof", "typeof", "Enum", "Tuple",
];

/// The C standard library's common functions (C++ reaches them too, and `std::` for its own).
#[rustfmt::skip]
const C_STD: &[&str] = &[
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsnprintf", "puts",
    "fputs", "putchar", "fputc", "getchar", "fgets", "fgetc", "scanf", "sscanf", "fscanf",
    "fopen", "fclose", "fread", "fwrite", "fflush", "fseek", "ftell", "rewind", "perror",
    "remove", "rename", "malloc", "calloc", "realloc", "free", "exit", "abort", "atexit",
    "atoi", "atol", "atof", "strtol", "strtoul", "strtod", "qsort", "bsearch", "abs", "labs",
    "getenv", "system", "rand", "srand", "memcpy", "memmove", "memset", "memcmp", "memchr",
    "strlen", "strcpy", "strncpy", "strcat", "strncat", "strcmp", "strncmp", "strchr",
    "strrchr", "strstr", "strdup", "strndup", "strtok", "strerror", "isalpha", "isdigit",
    "isalnum", "isspace", "isupper", "islower", "toupper", "tolower", "assert", "sizeof",
    "time", "clock", "va_start", "va_end", "va_arg", "va_copy", "sqrt", "pow", "floor",
    "ceil", "fabs", "sin", "cos", "tan", "exp", "log", "fmod",
];

/// Bash builtins: commands the shell runs itself.
#[rustfmt::skip]
const BASH: &[&str] = &[
    "echo", "printf", "cd", "pwd", "read", "exit", "return", "export", "local", "declare",
    "typeset", "readonly", "set", "unset", "shift", "source", ".", "eval", "exec", "test", "[",
    "[[", "trap", "wait", "getopts", "let", "true", "false", "type", "command", "builtin",
    "alias", "unalias", "hash", "jobs", "kill", "pushd", "popd", "dirs", "shopt", "ulimit",
    "umask", "mapfile", "readarray", "break", "continue", ":",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_knows_its_own_builtins_only() {
        assert!(is_builtin(Lang::Python, "len", false));
        assert!(!is_builtin(Lang::Python, "append", false));
        assert!(is_builtin(Lang::Go, "append", false));
        assert!(is_builtin(Lang::JavaScript, "console", false));
        assert!(!is_builtin(Lang::JavaScript, "len", false));
        assert!(is_builtin(Lang::Rust, "println", true));
        // A function called `println` is not the macro.
        assert!(!is_builtin(Lang::Rust, "println", false));
        assert!(is_builtin(Lang::Bash, "echo", false));
        assert!(!is_builtin(Lang::Bash, "grep", false));
    }
}
