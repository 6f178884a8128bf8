//! Call sites: written calls, property reads that may call, callbacks handed to builtins, and
//! Python's implicit special-method calls (operators, `with`, builtins).

use super::*;

/// The function a Python builtin or standard function calls with what it is given:
/// `map(f, xs)`, `filter(f, xs)`, `functools.reduce(f, xs)`, `sorted(xs, key=f)`,
/// `min`/`max(..., key=f)`, `xs.sort(key=f)`, `itertools.takewhile(f, xs)` and its kin. The resolver keeps the call only when the outer
/// call really is that builtin (not shadowed, not a method of a class of the repository).
pub(super) fn callback_arg<'a>(
    text: &str,
    args: &'a [Option<Vec<Seg>>],
    kwargs: &'a [(String, Option<Vec<Seg>>)],
) -> Option<&'a Vec<Seg>> {
    let key = || {
        kwargs
            .iter()
            .find(|(k, _)| k == "key")
            .and_then(|(_, v)| v.as_ref())
    };
    let named = |k: &str| {
        kwargs
            .iter()
            .find(|(n, _)| n == k)
            .and_then(|(_, v)| v.as_ref())
    };
    match text {
        "map" | "filter" => args.first()?.as_ref(),
        "sorted" | "min" | "max" => key(),
        _ if text.ends_with(".sort") => key(),
        // Standard-library functions, however they were imported (`itertools.takewhile`,
        // `from itertools import takewhile`, `it.takewhile`): the resolver checks which.
        _ => match text.rsplit('.').next().unwrap_or(text) {
            "reduce" | "takewhile" | "dropwhile" | "filterfalse" | "starmap" => {
                args.first()?.as_ref()
            }
            "groupby" => key().or_else(|| args.get(1)?.as_ref()),
            "accumulate" => named("func").or_else(|| args.get(1)?.as_ref()),
            _ => None,
        },
    }
}

/// The special method a Python binary operator calls on its left operand.
pub(super) fn binary_dunder(op: &str) -> Option<&'static str> {
    Some(match op {
        "+" => "__add__",
        "-" => "__sub__",
        "*" => "__mul__",
        "/" => "__truediv__",
        "//" => "__floordiv__",
        "%" => "__mod__",
        "**" => "__pow__",
        "@" => "__matmul__",
        "&" => "__and__",
        "|" => "__or__",
        "^" => "__xor__",
        "<<" => "__lshift__",
        ">>" => "__rshift__",
        _ => return None,
    })
}

impl<'t> Extractor<'_, 't> {
    pub(super) fn call(&mut self, n: Node) {
        let line = n.start_position().row as u32 + 1;
        let (scope, field_init) = self.field_init_scope(n, self.scope_of(n.start_byte() as u32));
        let first = self.facts.calls.len();
        self.call_in_scope(n, scope, line);
        if field_init {
            for c in &mut self.facts.calls[first..] {
                if c.scope == scope {
                    c.field_init = true;
                }
            }
        }
    }

    fn call_in_scope(&mut self, n: Node, scope: Option<u32>, line: u32) {
        if matches!(n.kind(), "jsx_self_closing_element" | "jsx_opening_element") {
            self.jsx_element(n, scope, line);
            return;
        }
        if self.lang.is_js_family() && n.kind() == "call_expression" {
            self.js_module_call(n, scope, line);
        }
        let field = |f: Field| n.field(f);
        let (callee, text, is_new) = match n.kind() {
            "new_expression" | "object_creation_expression" => {
                let Some(t) = field(Field::CONSTRUCTOR).or_else(|| field(Field::TYPE)) else {
                    return;
                };
                (self.segs(t), self.text(t), true)
            }
            "method_invocation" => {
                let Some((segs, text)) = self.receiver_call(n, Field::OBJECT, Field::NAME) else {
                    return;
                };
                (segs, text, false)
            }
            "call" if self.lang == Lang::Ruby => {
                let Some((segs, text)) = self.receiver_call(n, Field::RECEIVER, Field::METHOD)
                else {
                    return;
                };
                (segs, text, false)
            }
            "command" => {
                let Some(name) = field(Field::NAME) else {
                    return;
                };
                let t = self.text(name);
                (Some(vec![Seg::Name(t.clone())]), t, false)
            }
            // C# `: base(...)` and `: this(...)` before a constructor's body.
            "constructor_initializer" => {
                let t = self.text(n);
                let t = t.trim_start_matches(':').trim_start();
                if t.starts_with("base") {
                    (Some(vec![Seg::Super]), "base".to_string(), false)
                } else {
                    (
                        Some(vec![Seg::Name("this".into())]),
                        "this".to_string(),
                        false,
                    )
                }
            }
            "macro_invocation" => {
                let Some(m) = field(Field::MACRO) else { return };
                let t = self.text(m);
                (self.segs(m), format!("{t}!"), false)
            }
            _ => {
                let Some(f) = field(Field::FUNCTION).or_else(|| n.named_child(0)) else {
                    return;
                };
                // `super()` is a call of the builtin (call-graph tools list it); what is called
                // through it is resolved from `Seg::Super`.
                if self.lang == Lang::Python && f.kind() == "identifier" && self.str(f) == "super" {
                    let t = self.text(f);
                    (Some(vec![Seg::Name(t.clone())]), t, false)
                } else {
                    (self.segs(f), self.text(f), false)
                }
            }
        };
        let text = squash_owned(text);
        let mut callee = callee.unwrap_or_default();
        // `module.exports.f()` is `exports.f()`: the module's own exports.
        if self.lang.is_js_family()
            && matches!(callee.as_slice(), [Seg::Name(m), Seg::Name(e), ..] if m == "module" && e == "exports")
        {
            callee.remove(0);
        }
        let (args, kwargs, spread) = match field(Field::ARGUMENTS) {
            Some(a) => self.arguments(a),
            None => (Vec::new(), Vec::new(), false),
        };
        let callback = if self.lang == Lang::Python {
            callback_arg(&text, &args, &kwargs).cloned()
        } else {
            None
        };
        let js_callbacks: Vec<Vec<Seg>> = if self.lang.is_js_family() {
            let listens = super::flows::registers_listener(&callee);
            js_callback_positions(&callee, is_new)
                .iter()
                .filter_map(|&i| args.get(i).cloned().flatten())
                // An anonymous function run by a library is no node and its calls are its
                // scope's: only a listener's is kept, whose parameters take what is emitted.
                .filter(|a| listens || !self.anonymous_lambda(a))
                .collect()
        } else {
            Vec::new()
        };
        let outer = self.facts.calls.len() as u32;
        let code = if self.lang == Lang::Python && matches!(text.as_str(), "exec" | "eval") {
            field(Field::ARGUMENTS).and_then(|a| self.constant_code(a))
        } else {
            None
        };
        let kwsplat = if self.lang == Lang::Python {
            field(Field::ARGUMENTS).and_then(|a| {
                let mut cur = a.walk();
                let splats: Vec<Node> = a
                    .named_children(&mut cur)
                    .filter(|c| c.kind() == "dictionary_splat")
                    .collect();
                match splats.as_slice() {
                    [] => None,
                    [one] => self.segs(one.named_child(0)?),
                    // `f(**base, **extra)`: each dict gives keys, so the items are looked up
                    // in any of them (a sequence holding the dicts, iterated).
                    many => {
                        let elements = many
                            .iter()
                            .enumerate()
                            .map(|(i, d)| {
                                (i.to_string(), d.named_child(0).and_then(|x| self.segs(x)))
                            })
                            .collect();
                        let lit = self.add_literal(usize::MAX / 16 - a.start_byte(), a, elements);
                        Some(vec![Seg::Lit(lit), Seg::Iter])
                    }
                }
            })
        } else {
            None
        };
        if self.lang.is_js_family()
            && n.kind() == "call_expression"
            && let Some(f) = field(Field::FUNCTION)
        {
            self.iife_args(f, &args);
            if let Some(a) = field(Field::ARGUMENTS) {
                self.element_callback(&callee, a);
                if let [Seg::Name(o), Seg::Name(m)] = callee.as_slice()
                    && o == "Object"
                    && m == "assign"
                {
                    self.assign_to_this(scope, line, a);
                }
            }
            self.this_store(n, f, scope, &args);
        }
        if self.lang.is_js_family() {
            self.note_event(&callee, field(Field::ARGUMENTS));
        }
        self.facts.calls.push(CallSite {
            scope,
            callee,
            text,
            line,
            is_new,
            args,
            kwargs,
            spread,
            decorates: None,
            maybe: false,
            via: None,
            prop: 0,
            kwsplat,
            jsx: 0,
            field_init: false,
        });
        // `exec("setup()")`: the calls in the string are made where exec runs. Kept only when
        // they resolve (`maybe`), since the name may mean the builtin `exec` of no one's code.
        for callee in code.unwrap_or_default() {
            let text = CallSite::dotted(&callee);
            self.facts.calls.push(CallSite {
                maybe: true,
                ..CallSite::bare(scope, callee, text, line)
            });
        }
        for cb in js_callbacks {
            self.facts.calls.push(CallSite {
                maybe: true,
                via: Some(outer),
                ..CallSite::bare(scope, cb, String::new(), line)
            });
        }
        if let Some(cb) = callback {
            self.facts.calls.push(CallSite {
                maybe: true,
                via: Some(outer),
                ..CallSite::bare(scope, cb, String::new(), line)
            });
        }
        if self.lang == Lang::Python {
            self.builtin_dunders(n, outer);
            self.setdefault_add(n);
            self.setattr_assign(n);
        }
    }

    /// A JavaScript call in an instance field's initialiser (`snake = new Snake()`) runs when
    /// an instance is made: in the class's constructor when it writes one. A static field's
    /// runs where the class is defined. Without a written constructor the scope stays the
    /// class and `true` says the call is made by whoever runs `new C()`.
    pub(super) fn field_init_scope(&self, n: Node, scope: Option<u32>) -> (Option<u32>, bool) {
        let Some(c) = scope.filter(|_| self.lang.is_js_family()) else {
            return (scope, false);
        };
        if self.facts.defs.get(c as usize).map(|d| d.kind) != Some(DefKind::Class) {
            return (scope, false);
        }
        let mut cur = n.parent();
        while let Some(p) = cur {
            match p.kind() {
                "public_field_definition" | "field_definition" => {
                    let mut w = p.walk();
                    if p.children(&mut w).any(|ch| ch.kind() == "static") {
                        return (scope, false);
                    }
                    let ctor = self.facts.defs.iter().position(|d| {
                        d.parent == Some(c) && d.kind == DefKind::Func && d.name == "constructor"
                    });
                    return match ctor {
                        Some(d) => (Some(d as u32), false),
                        None => (scope, true),
                    };
                }
                "class_body" | "class" | "class_declaration" => return (scope, false),
                _ => cur = p.parent(),
            }
        }
        (scope, false)
    }

    /// `obj.name` not called: reads call a `@property` getter, assignments its setter
    /// (`obj.name += 1` both). Kept only when one is what it reaches.
    pub(super) fn prop(&mut self, n: Node) {
        let Some(parent) = n.parent() else { return };
        let is = |f: Field| parent.field(f).is_some_and(|c| c.id() == n.id());
        let kinds: &[u8] = match parent.kind() {
            "call" if is(Field::FUNCTION) => return,
            "decorator" => return,
            "assignment" if is(Field::LEFT) => &[2],
            "augmented_assignment" if is(Field::LEFT) => &[1, 2],
            "pattern_list" | "tuple_pattern" | "delete_statement" => return,
            _ => &[1],
        };
        let Some(callee) = self.segs(n) else { return };
        let scope = self.scope_of(n.start_byte() as u32);
        let line = n.start_position().row as u32 + 1;
        for &prop in kinds {
            self.facts.calls.push(CallSite {
                maybe: true,
                prop,
                ..CallSite::bare(scope, callee.clone(), String::new(), line)
            });
        }
    }

    /// `len(x)` calls `x.__len__`, `str(x)` and `print(x)` call `x.__str__`, ...: calls kept
    /// only when the outer call is the builtin (`via`) and `x` is an instance of a class that
    /// defines the method (see `resolve`).
    pub(super) fn builtin_dunders(&mut self, n: Node, outer: u32) {
        let Some(f) = n.field(Field::FUNCTION) else {
            return;
        };
        if f.kind() != "identifier" {
            return;
        }
        let name = self.text(f);
        let (dunder, all) = match name.as_str() {
            "len" => ("__len__", false),
            "str" => ("__str__", false),
            "print" => ("__str__", true),
            "repr" => ("__repr__", false),
            "iter" => ("__iter__", false),
            "next" => ("__next__", false),
            "hash" => ("__hash__", false),
            "abs" => ("__abs__", false),
            "reversed" => ("__reversed__", false),
            "format" => ("__format__", false),
            "int" => ("__int__", false),
            "float" => ("__float__", false),
            "bool" => ("__bool__", false),
            _ => return,
        };
        let Some(a) = n.field(Field::ARGUMENTS) else {
            return;
        };
        let mut cur = a.walk();
        let args: Vec<Node> = a
            .named_children(&mut cur)
            .filter(|c| c.kind() != "comment")
            .take_while(|c| !matches!(c.kind(), "list_splat" | "dictionary_splat"))
            .filter(|c| c.kind() != "keyword_argument")
            .collect();
        let take = if all { args.len() } else { args.len().min(1) };
        for arg in &args[..take] {
            self.push_dunder(n, *arg, dunder, Some(outer));
        }
    }

    /// A call of special method `name` on the value of `recv`, made implicitly by the
    /// expression `at` (an operator, a subscript, a builtin): kept only when it resolves to a
    /// method of a class of the repository reached through an instance.
    pub(super) fn push_dunder(&mut self, at: Node, recv: Node, name: &str, via: Option<u32>) {
        let Some(mut callee) = self.segs(recv) else {
            return;
        };
        callee.push(Seg::Name(name.to_string()));
        self.facts.calls.push(CallSite {
            maybe: true,
            via,
            ..CallSite::bare(
                self.scope_of(at.start_byte() as u32),
                callee,
                String::new(),
                at.start_position().row as u32 + 1,
            )
        });
    }

    /// Python operators, subscripts and f-string fields call special methods of their
    /// operands: `a + b` is `a.__add__(b)`, `k in c` is `c.__contains__(k)`, `d[k] = v` is
    /// `d.__setitem__(k, v)`.
    pub(super) fn operator_dunders(&mut self, root: Node) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let mut cur = n.walk();
            stack.extend(n.named_children(&mut cur));
            match n.kind() {
                "binary_operator" => {
                    let (Some(l), Some(op)) = (n.field(Field::LEFT), n.field(Field::OPERATOR))
                    else {
                        continue;
                    };
                    let Some(d) = binary_dunder(op.kind()) else {
                        continue;
                    };
                    self.push_dunder(n, l, d, None);
                }
                "unary_operator" => {
                    let (Some(a), Some(op)) = (n.field(Field::ARGUMENT), n.field(Field::OPERATOR))
                    else {
                        continue;
                    };
                    let d = match op.kind() {
                        "-" => "__neg__",
                        "+" => "__pos__",
                        "~" => "__invert__",
                        _ => continue,
                    };
                    self.push_dunder(n, a, d, None);
                }
                "comparison_operator" => {
                    // Operands are the named children, operators the tokens between them;
                    // `a < b < c` compares each neighbouring pair.
                    let mut cur = n.walk();
                    let parts: Vec<Node> = n
                        .children(&mut cur)
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    let mut i = 1;
                    while i + 1 < parts.len() {
                        let (l, op, r) = (parts[i - 1], parts[i], parts[i + 1]);
                        let pair = match op.kind() {
                            "==" => Some((l, "__eq__")),
                            "!=" => Some((l, "__ne__")),
                            "<" => Some((l, "__lt__")),
                            "<=" => Some((l, "__le__")),
                            ">" => Some((l, "__gt__")),
                            ">=" => Some((l, "__ge__")),
                            "in" | "not in" => Some((r, "__contains__")),
                            _ => None,
                        };
                        if let Some((recv, d)) = pair {
                            self.push_dunder(n, recv, d, None);
                        }
                        i += 2;
                    }
                }
                "subscript" => {
                    let Some(v) = n.field(Field::VALUE) else {
                        continue;
                    };
                    let mut p = n.parent();
                    let mut child = n;
                    // Targets may sit in a tuple or list of targets.
                    while let Some(q) = p
                        && matches!(
                            q.kind(),
                            "pattern_list" | "tuple_pattern" | "expression_list"
                        )
                    {
                        child = q;
                        p = q.parent();
                    }
                    let is_left =
                        |q: Node| q.field(Field::LEFT).map(|l| l.id()) == Some(child.id());
                    match p {
                        Some(q) if q.kind() == "assignment" && is_left(q) => {
                            self.push_dunder(n, v, "__setitem__", None);
                        }
                        Some(q) if q.kind() == "augmented_assignment" && is_left(q) => {
                            self.push_dunder(n, v, "__getitem__", None);
                            self.push_dunder(n, v, "__setitem__", None);
                        }
                        Some(q) if q.kind() == "delete_statement" => {
                            self.push_dunder(n, v, "__delitem__", None);
                        }
                        Some(q) if q.kind() == "for_statement" && is_left(q) => {
                            self.push_dunder(n, v, "__setitem__", None);
                        }
                        _ => self.push_dunder(n, v, "__getitem__", None),
                    }
                }
                "interpolation" => {
                    let Some(e) = n.field(Field::EXPRESSION) else {
                        continue;
                    };
                    let conv = n
                        .field(Field::TYPE_CONVERSION)
                        .map(|c| self.text(c))
                        .unwrap_or_default();
                    // `format(x, "")` of a class without `__format__` is `str(x)`.
                    let d = if conv == "!r" { "__repr__" } else { "__str__" };
                    self.push_dunder(n, e, d, None);
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// An anonymous function handed to an array method makes no call site of its own (the
    /// elements reach it through its facts); one handed to a listener, or to a function of the
    /// repository, is a value the resolver follows.
    #[test]
    fn only_anonymous_array_callbacks_make_no_call_site() {
        let src = "xs.map((x) => x.go());\nbus.on('e', (m) => m.run());\nrun((k) => k.use());\n";
        let facts = crate::extract::extract(Lang::JavaScript, "a.js", src.as_bytes()).unwrap();
        let lambdas = facts
            .calls
            .iter()
            .filter(|c| matches!(c.callee.as_slice(), [Seg::Lambda(_)]))
            .count();
        assert_eq!(lambdas, 1, "only the listener's: {:?}", facts.calls);
        let run = facts
            .calls
            .iter()
            .find(|c| c.callee == [Seg::Name("run".into())])
            .unwrap();
        assert!(
            matches!(run.args.as_slice(), [Some(a)] if matches!(a.as_slice(), [Seg::Lambda(_)]))
        );
    }
}
