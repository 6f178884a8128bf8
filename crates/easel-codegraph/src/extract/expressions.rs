//! Expressions as dotted steps (`a.b().c`), declared types, parameters and arguments.

use super::*;

/// `Foo<T>` → `Foo`, `*Foo` → `Foo`, `&mut Foo` → `Foo`, `a::Foo` stays.
pub(super) fn strip_generics(s: &str) -> String {
    let s = s.trim().trim_start_matches(['*', '&']).trim();
    let s = s.strip_prefix("mut ").unwrap_or(s).trim();
    let end = s.find(['<', '[', '(']).unwrap_or(s.len());
    s[..end].trim().to_string()
}

pub(super) const IDENT_KINDS: &[&str] = &[
    "identifier",
    "type_identifier",
    "field_identifier",
    "property_identifier",
    "private_property_identifier",
    "shorthand_property_identifier",
    "package_identifier",
    "namespace_identifier",
    "constant",
    "simple_identifier",
    "word",
    "command_name",
    "primitive_type",
    "predefined_type",
];

pub(super) fn squash(s: &str) -> String {
    squash_owned(s.to_string())
}

/// [`squash`] of a string already owned: most call texts have no whitespace and are short,
/// and are kept as they are, without a copy.
pub(super) fn squash_owned(s: String) -> String {
    let mut out = if s.contains(char::is_whitespace) {
        let mut out = String::with_capacity(s.len());
        s.split_whitespace().for_each(|w| out.push_str(w));
        out
    } else {
        s
    };
    if out.len() > 120 {
        let mut cut = 120;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

pub(super) fn unquote(s: &str) -> String {
    s.trim()
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
}

pub(super) fn first_identifier(n: Node) -> Option<Node> {
    if n.kind() == "identifier" {
        return Some(n);
    }
    let mut cur = n.walk();
    for ch in n.named_children(&mut cur) {
        if let Some(id) = first_identifier(ch) {
            return Some(id);
        }
    }
    None
}

pub(super) fn identifiers(n: Node) -> Vec<Node> {
    let mut out = Vec::new();
    collect_kind(n, "identifier", &mut out);
    out
}

pub(super) fn collect_kind<'t>(n: Node<'t>, kind: &str, out: &mut Vec<Node<'t>>) {
    if n.kind() == kind {
        out.push(n);
        return;
    }
    let mut cur = n.walk();
    for ch in n.named_children(&mut cur) {
        collect_kind(ch, kind, out);
    }
}

/// A node's named children without comments (which the grammars put anywhere).
pub(super) fn named_parts(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cur = n.walk();
    n.named_children(&mut cur)
        .filter(|c| c.kind() != "comment")
        .collect()
}

impl<'t> Extractor<'_, 't> {
    /// The parameter names of function `f`: its parameter list, or an arrow's single bare
    /// parameter (`x => …`).
    pub(super) fn fn_params(&self, f: Node) -> Vec<String> {
        f.field(Field::PARAMETERS)
            .map(|p| self.params(p))
            .or_else(|| f.field(Field::PARAMETER).map(|p| vec![self.text(p)]))
            .unwrap_or_default()
    }

    pub(super) fn params(&self, p: Node) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = p.walk();
        for ch in p.named_children(&mut cur) {
            if ch.kind() == "comment" {
                continue;
            }
            if IDENT_KINDS.contains(&ch.kind()) {
                out.push(self.text(ch));
                continue;
            }
            // A destructured JavaScript parameter: named by its position, for the names it
            // binds to read from (`Pending::JsParams`).
            if self.lang.is_js_family() && js_pattern(ch).is_some() {
                out.push(format!("{{{}}}", out.len()));
                continue;
            }
            let named = [Field::NAME, Field::PATTERN, Field::LEFT]
                .iter()
                .find_map(|f| ch.field(*f))
                .filter(|n| n.kind() == "identifier");
            if let Some(n) = named.or_else(|| first_identifier(ch)) {
                out.push(self.text(n));
            }
        }
        out
    }

    /// The declared types of the parameters, aligned with [`Extractor::params`].
    pub(super) fn param_types(&self, p: Node) -> Vec<Option<Vec<Seg>>> {
        let mut out = Vec::new();
        let mut cur = p.walk();
        for ch in p.named_children(&mut cur) {
            if ch.kind() == "comment" {
                continue;
            }
            if IDENT_KINDS.contains(&ch.kind()) {
                out.push(None);
                continue;
            }
            if self.lang.is_js_family() && js_pattern(ch).is_some() {
                out.push(None);
                continue;
            }
            let named = [Field::NAME, Field::PATTERN, Field::LEFT]
                .iter()
                .find_map(|f| ch.field(*f))
                .filter(|n| n.kind() == "identifier");
            if named.or_else(|| first_identifier(ch)).is_none() {
                continue;
            }
            out.push(ch.field(Field::TYPE).and_then(|t| self.type_segs(t, 0)));
        }
        out
    }

    /// A declared return type `T` of a TypeScript function with the one type parameter `T`
    /// (`function useContext<T>(): T`): what a call of it gives is its type argument
    /// ([`Seg::Typed`]). Any other return type as it is.
    pub(super) fn returns_type_parameter(&self, f: Node, ret: Vec<Seg>) -> Vec<Seg> {
        let [Seg::Name(r)] = ret.as_slice() else {
            return ret;
        };
        let Some(ps) = f.field(Field::TYPE_PARAMETERS) else {
            return ret;
        };
        let params = named_parts(ps);
        let [p] = params.as_slice() else {
            return ret;
        };
        if p.field(Field::NAME).is_some_and(|n| self.text(n) == *r) {
            return vec![Seg::Typed(ret)];
        }
        ret
    }

    /// A type as segments: `Item`, `pkg.Item`, `&mut Item`, `*Item`, `: Item`, `Item<T>`.
    pub(super) fn type_segs(&self, t: Node, depth: u32) -> Option<Vec<Seg>> {
        if depth > 8 {
            return None;
        }
        match t.kind() {
            "type_annotation" | "type" | "pointer_type" | "nullable_type" => {
                self.type_segs(t.named_child(0)?, depth + 1)
            }
            "reference_type" => self.type_segs(t.field(Field::TYPE)?, depth + 1),
            // TypeScript `T | undefined`, `T | null`: what is there when anything is, is a `T`.
            "union_type" | "parenthesized_type" if self.lang.is_js_family() => {
                let mut named = named_parts(t)
                    .into_iter()
                    .filter(|p| !matches!(self.text(*p).as_str(), "undefined" | "null" | "void"));
                let one = named.next()?;
                if named.next().is_some() {
                    return None;
                }
                self.type_segs(one, depth + 1)
            }
            "readonly_type" => self.type_segs(t.named_child(0)?, depth + 1),
            // `Step[]`: iterating gives instances of `Step` (see `resolve::fields`).
            "array_type" => {
                let mut s = self.type_segs(t.named_child(0)?, depth + 1)?;
                s.push(Seg::Iter);
                Some(s)
            }
            "generic_type"
                if t.field(Field::NAME).is_some_and(|n| {
                    matches!(
                        self.text(n).as_str(),
                        "Array" | "ReadonlyArray" | "Set" | "ReadonlySet"
                    )
                }) =>
            {
                let args = t.field(Field::TYPE_ARGUMENTS)?;
                if args.named_child_count() != 1 {
                    return None;
                }
                let mut s = self.type_segs(args.named_child(0)?, depth + 1)?;
                s.push(Seg::Iter);
                Some(s)
            }
            "generic_type" => {
                let inner = t
                    .field(Field::TYPE)
                    .or_else(|| t.field(Field::NAME))
                    .or_else(|| t.named_child(0))?;
                self.type_segs(inner, depth + 1)
            }
            _ => self.segs(t),
        }
    }

    /// The one explicit type argument of a TypeScript call (`useContext<Theme>()`), when it
    /// names a type.
    fn one_type_argument(&self, call: Node) -> Option<Vec<Seg>> {
        let args = call.field(Field::TYPE_ARGUMENTS)?;
        if args.named_child_count() != 1 {
            return None;
        }
        let t = args.named_child(0)?;
        if !matches!(
            t.kind(),
            "type_identifier" | "nested_type_identifier" | "generic_type"
        ) {
            return None;
        }
        self.type_segs(t, 0)
    }

    /// A dotted expression as segments, or `None` when it is not one.
    /// The callee of `receiver.name(...)` (Java's method invocations, Ruby's calls): the
    /// receiver's segments followed by the name, and the call as written. `None` without a name.
    pub(super) fn receiver_call(
        &self,
        n: Node,
        receiver_field: Field,
        name_field: Field,
    ) -> Option<(Option<Vec<Seg>>, String)> {
        let receiver = n.field(receiver_field);
        let name = n.field(name_field)?;
        let mut segs = match receiver {
            Some(o) => self.segs(o),
            None => Some(Vec::new()),
        };
        if let Some(s) = segs.as_mut() {
            s.push(Seg::Name(self.text(name)));
        }
        let text = match receiver {
            Some(o) => format!("{}.{}", self.text(o), self.text(name)),
            None => self.text(name),
        };
        Some((segs, text))
    }

    /// `a` or `b` as a literal pair, when one of them is a dotted expression (most `||` are
    /// conditions, and are then no value to follow).
    fn js_either(&self, n: Node, a: Node, b: Node) -> Option<u32> {
        // A chain `a || b || c` nests binary expressions that start at one byte: they are
        // keyed by where they end instead.
        let key = if n.kind() == "binary_expression" {
            usize::MAX / 128 - n.end_byte()
        } else {
            usize::MAX - n.start_byte()
        };
        if let Some(&i) = self.lits.borrow().1.get(&key) {
            return Some(i);
        }
        let plain = |x: Node| {
            matches!(
                js_unwrap(x).kind(),
                "identifier"
                    | "member_expression"
                    | "call_expression"
                    | "this"
                    | "new_expression"
                    | "arrow_function"
                    | "function_expression"
                    | "subscript_expression"
                    | "ternary_expression"
                    | "binary_expression"
                    | "object"
                    | "array"
                    | "await_expression"
                    | "class"
            )
        };
        if !plain(a) && !plain(b) {
            return None;
        }
        Some(self.pair(key, n, a, b))
    }

    pub(super) fn segs(&self, n: Node) -> Option<Vec<Seg>> {
        let mut out = Vec::new();
        self.segs_into(n, &mut out, 0)?;
        Some(out)
    }

    pub(super) fn segs_into(&self, n: Node, out: &mut Vec<Seg>, depth: u32) -> Option<()> {
        if depth > 64 {
            return None;
        }
        let k = n.kind();
        let field = |f: Field| n.field(f);
        match k {
            "this" | "self" => out.push(Seg::Name(k.to_string())),
            "super" => out.push(Seg::Super),
            "base" if self.lang == Lang::CSharp => out.push(Seg::Super),
            "this_expression" => out.push(Seg::Name("this".into())),
            "base_expression" => out.push(Seg::Super),
            _ if IDENT_KINDS.contains(&k) => out.push(Seg::Name(self.text(n))),
            "subscript" | "subscript_expression" => {
                let obj = field(Field::VALUE).or_else(|| field(Field::OBJECT))?;
                let key = field(Field::SUBSCRIPT).or_else(|| field(Field::INDEX))?;
                // Python `xs[1:]`: a new sequence holding some of the elements (those between
                // constant bounds, else any of them), at positions not known statically.
                if self.lang == Lang::Python && key.kind() == "slice" {
                    let mut any = self.segs(obj)?;
                    any.push(Seg::Index(self.slice_key(key)));
                    out.push(Seg::Lit(self.holding_any(n, any)));
                    return Some(());
                }
                self.segs_into(obj, out, depth + 1)?;
                // A key known only at run time may be any of the container's keys (Python,
                // and JavaScript's tables of handlers: `handlers[action.type](...)`).
                let key = match self.literal_key(key) {
                    Some(k) => k,
                    None if (self.lang == Lang::Python && key.kind() != "slice")
                        || self.lang.is_js_family() =>
                    {
                        "*".into()
                    }
                    None => return None,
                };
                out.push(Seg::Index(key));
            }
            "attribute" => {
                self.segs_into(field(Field::OBJECT)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::ATTRIBUTE)?)));
            }
            // TypeScript `N.Size` as a type.
            "nested_type_identifier" if self.lang.is_js_family() => {
                self.segs_into(field(Field::MODULE)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::NAME)?)));
            }
            // TypeScript `A.B` in `import X = A.B` is a `nested_identifier`.
            "member_expression" | "nested_identifier" => {
                self.segs_into(field(Field::OBJECT)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::PROPERTY)?)));
            }
            "selector_expression" => {
                self.segs_into(field(Field::OPERAND)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::FIELD)?)));
            }
            "field_expression" => {
                let obj = field(Field::VALUE).or_else(|| field(Field::ARGUMENT))?;
                self.segs_into(obj, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::FIELD)?)));
            }
            "scoped_identifier" | "scoped_type_identifier" => {
                if let Some(p) = field(Field::PATH) {
                    self.segs_into(p, out, depth + 1)?;
                } else if let Some(s) = field(Field::SCOPE) {
                    self.segs_into(s, out, depth + 1)?;
                }
                out.push(Seg::Name(self.text(field(Field::NAME)?)));
            }
            "qualified_identifier" | "scope_resolution" => {
                if let Some(s) = field(Field::SCOPE) {
                    self.segs_into(s, out, depth + 1)?;
                }
                let name = field(Field::NAME)?;
                self.segs_into(name, out, depth + 1)?;
            }
            "member_access_expression" => {
                self.segs_into(field(Field::EXPRESSION)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::NAME)?)));
            }
            "field_access" => {
                self.segs_into(field(Field::OBJECT)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::FIELD)?)));
            }
            "qualified_name" => {
                self.segs_into(field(Field::QUALIFIER)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::NAME)?)));
            }
            "qualified_type" => {
                self.segs_into(field(Field::PACKAGE)?, out, depth + 1)?;
                out.push(Seg::Name(self.text(field(Field::NAME)?)));
            }
            "generic_name" | "generic_type" | "template_type" | "template_function" => {
                let inner = field(Field::NAME).or_else(|| n.named_child(0))?;
                self.segs_into(inner, out, depth + 1)?;
            }
            "generic_function" => {
                self.segs_into(field(Field::FUNCTION)?, out, depth + 1)?;
            }
            "parenthesized_expression" | "non_null_expression" | "await" | "await_expression" => {
                self.segs_into(n.named_child(0)?, out, depth + 1)?;
            }
            // A TypeScript type annotation on a value: the value.
            "satisfies_expression" | "as_expression" | "type_assertion" => {
                let inner = js_unwrap(n);
                if inner.id() == n.id() {
                    return None;
                }
                self.segs_into(inner, out, depth + 1)?;
            }
            // `(x := v)` is `v`.
            "named_expression" if self.lang == Lang::Python => {
                self.segs_into(field(Field::VALUE)?, out, depth + 1)?;
            }
            "pointer_expression" | "unary_expression" | "reference_expression" => {
                let inner = field(Field::ARGUMENT)
                    .or_else(|| field(Field::OPERAND))
                    .or_else(|| field(Field::VALUE))?;
                self.segs_into(inner, out, depth + 1)?;
            }
            "dictionary"
            | "list"
            | "tuple"
            | "set"
            | "expression_list"
            | "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression"
                if self.lang == Lang::Python =>
            {
                out.push(Seg::Lit(self.literal(n)));
            }
            // `[...xs]`: an element of the array is one of the values of `xs`.
            "spread_element" if self.lang.is_js_family() => {
                self.segs_into(n.named_child(0)?, out, depth + 1)?;
                out.push(Seg::Iter);
            }
            // `a if c else b` is either: a pair whose elements iterating gives.
            "conditional_expression" if self.lang == Lang::Python => {
                out.push(Seg::Lit(self.either(n)?));
                out.push(Seg::Iter);
            }
            // JavaScript `c ? a : b`, `a ?? b` and `a || b` are either; `c && a` is `a` when
            // it is anything callable.
            "ternary_expression" if self.lang.is_js_family() => {
                let (a, b) = (field(Field::CONSEQUENCE)?, field(Field::ALTERNATIVE)?);
                out.push(Seg::Lit(self.js_either(n, a, b)?));
                out.push(Seg::Iter);
            }
            "binary_expression" if self.lang.is_js_family() => {
                let (a, b) = (field(Field::LEFT)?, field(Field::RIGHT)?);
                match field(Field::OPERATOR)?.kind() {
                    "??" | "||" => {
                        out.push(Seg::Lit(self.js_either(n, a, b)?));
                        out.push(Seg::Iter);
                    }
                    "&&" => self.segs_into(b, out, depth + 1)?,
                    _ => return None,
                }
            }
            // `a + b` is what `a.__add__(b)` returns (nothing known unless `a` is an
            // instance of a class of the repository that defines it).
            "binary_operator" if self.lang == Lang::Python => {
                let d = binary_dunder(field(Field::OPERATOR)?.kind())?;
                self.segs_into(field(Field::LEFT)?, out, depth + 1)?;
                out.push(Seg::Name(d.to_string()));
                out.push(Seg::Call);
            }
            "lambda" if self.lang == Lang::Python => {
                let d = self.facts.defs.iter().position(|d| {
                    d.start_byte == n.start_byte() as u32 && d.kind == DefKind::Func
                })?;
                out.push(Seg::Lambda(d as u32));
            }
            "call" if self.lang == Lang::Python => {
                let f = field(Field::FUNCTION)?;
                if f.kind() == "identifier" && self.str(f) == "super" {
                    // `super(Mid, self)`: the lookup starts after `Mid` (a class, then `Super`).
                    if let Some(args) = field(Field::ARGUMENTS)
                        && let Some(cls) = args.named_child(0)
                        && matches!(cls.kind(), "identifier" | "attribute")
                        && args.named_child_count() == 2
                    {
                        self.segs_into(cls, out, depth + 1)?;
                    }
                    out.push(Seg::Super);
                } else if let Some(l) = self.with_default(n) {
                    out.push(Seg::Lit(l));
                    out.push(Seg::Iter);
                } else if let Some(key) = self.get_key(n) {
                    self.segs_into(f.field(Field::OBJECT)?, out, depth + 1)?;
                    out.push(Seg::Get(key));
                } else if let Some(key) = self.pop_key(n) {
                    self.segs_into(f.field(Field::OBJECT)?, out, depth + 1)?;
                    out.push(Seg::Pop(key));
                } else if let Some(l) = self.dict_call(n) {
                    out.push(Seg::Lit(l));
                } else if let Some((arg, seg)) = self.builtin_view(n) {
                    self.segs_into(arg, out, depth + 1)?;
                    out.extend(seg);
                } else {
                    self.segs_into(f, out, depth + 1)?;
                    out.push(Seg::Call);
                }
            }
            "call" if self.lang == Lang::Ruby => {
                if let Some(r) = field(Field::RECEIVER) {
                    self.segs_into(r, out, depth + 1)?;
                }
                out.push(Seg::Name(self.text(field(Field::METHOD)?)));
                out.push(Seg::Call);
            }
            "explicit_constructor_invocation" => {
                self.segs_into(field(Field::CONSTRUCTOR)?, out, depth + 1)?;
            }
            // JavaScript literals written in place, and functions and classes written as values
            // (named after their binding, or the key of a bound literal).
            "object" | "array" if self.lang.is_js_family() => {
                out.push(Seg::Lit(self.literal(n)));
            }
            "arrow_function" | "function_expression" | "class" if self.lang.is_js_family() => {
                let d = self.def_at(n, &[DefKind::Func, DefKind::Class, DefKind::Scope])?;
                out.push(Seg::Lambda(d));
            }
            // `f.bind(obj)` is `f` with `this` bound: calling it calls `f`.
            "call_expression"
                if self.lang.is_js_family()
                    && field(Field::FUNCTION).is_some_and(|f| {
                        f.kind() == "member_expression"
                            && f.field(Field::PROPERTY)
                                .is_some_and(|p| self.str(p) == "bind")
                    }) =>
            {
                let obj = field(Field::FUNCTION)?.field(Field::OBJECT)?;
                self.segs_into(obj, out, depth + 1)?;
            }
            "call_expression" | "invocation_expression" => {
                if self.lang.is_js_family()
                    && let Some(path) = self.require_path(n)
                {
                    out.push(Seg::Name(require_key(&path)));
                    return Some(());
                }
                if self.lang.is_js_family()
                    && let Some(lit) = self.object_view(n)
                {
                    out.push(Seg::Lit(lit));
                    return Some(());
                }
                // An IIFE (`(function () { ... return api })()`): the value is what its
                // anonymous function returns (the revealing module pattern).
                if self.lang.is_js_family()
                    && let Some(d) = self.iife_scope(field(Field::FUNCTION)?)
                {
                    out.push(Seg::Lambda(d));
                    out.push(Seg::Call);
                    return Some(());
                }
                self.segs_into(field(Field::FUNCTION)?, out, depth + 1)?;
                out.push(Seg::Call);
                if let Some(t) = self.one_type_argument(n) {
                    out.push(Seg::Typed(t));
                }
            }
            "method_invocation" => {
                if let Some(o) = field(Field::OBJECT) {
                    self.segs_into(o, out, depth + 1)?;
                }
                out.push(Seg::Name(self.text(field(Field::NAME)?)));
                out.push(Seg::Call);
            }
            "new_expression" => {
                let t = field(Field::CONSTRUCTOR).or_else(|| field(Field::TYPE))?;
                if self.lang.is_js_family()
                    && let Some(lit) = self.js_collection(n, t)
                {
                    out.push(Seg::Lit(lit));
                    return Some(());
                }
                self.segs_into(t, out, depth + 1)?;
                out.push(Seg::Call);
            }
            "object_creation_expression" => {
                self.segs_into(field(Field::TYPE)?, out, depth + 1)?;
                out.push(Seg::Call);
            }
            "composite_literal" | "struct_expression" => {
                let t = field(Field::TYPE).or_else(|| field(Field::NAME))?;
                self.segs_into(t, out, depth + 1)?;
                out.push(Seg::Call);
            }
            _ => return None,
        }
        Some(())
    }

    /// The anonymous function a call runs in place, through its parentheses.
    fn iife_scope(&self, f: Node) -> Option<u32> {
        let mut f = f;
        while f.kind() == "parenthesized_expression" {
            f = f.named_child(0)?;
        }
        if !matches!(f.kind(), "function_expression" | "arrow_function") {
            return None;
        }
        self.def_at(f, &[DefKind::Scope])
    }

    #[allow(clippy::type_complexity)]
    pub(super) fn arguments(
        &self,
        a: Node,
    ) -> (Vec<Option<Vec<Seg>>>, Vec<(String, Option<Vec<Seg>>)>, bool) {
        let mut args = Vec::new();
        let mut kwargs = Vec::new();
        let mut spread = false;
        let mut cur = a.walk();
        for ch in a.named_children(&mut cur) {
            match ch.kind() {
                "comment" => {}
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (ch.field(Field::NAME), ch.field(Field::VALUE)) {
                        kwargs.push((self.text(k), self.segs(v)));
                    }
                }
                "list_splat"
                | "dictionary_splat"
                | "spread_element"
                | "splat_argument"
                | "hash_splat_argument" => spread = true,
                "argument" => {
                    // C# wraps each argument.
                    args.push(ch.named_child(0).and_then(|v| self.segs(v)));
                }
                // An anonymous function handed over is a value too: where the callee calls
                // it gives its parameters their arguments (a factory given the container).
                _ if self.lang.is_js_family() => args.push(self.returned(ch)),
                _ => args.push(self.segs(ch)),
            }
        }
        (args, kwargs, spread)
    }
}

#[cfg(test)]
mod squash_tests {
    use super::*;

    #[test]
    fn squash_drops_every_whitespace_and_cuts_at_a_character() {
        assert_eq!(squash("a.b"), "a.b");
        assert_eq!(squash_owned("a\n  .b(\tc)".into()), "a.b(c)");
        // Unicode whitespace too (a no-break space), as `split_whitespace` sees it.
        assert_eq!(squash_owned("a\u{a0}.b".into()), "a.b");
        let long = format!("{}é{}", "x".repeat(119), "y".repeat(10));
        assert_eq!(squash_owned(long.clone()), "x".repeat(119));
        assert_eq!(squash(&format!(" {long} ")), "x".repeat(119));
    }
}
