//! What a JavaScript or TypeScript field holds beyond the assignments written to it: a
//! parameter property (`constructor(private repo: Repo)`) holds the constructor's argument,
//! which the second pass takes from every `new` that reaches the constructor.

use super::*;

impl<'a> Resolver<'a> {
    /// The value of assignment `idx` of file `fi` when it is a parameter property with no
    /// value written: the constructor's parameter of that name. Empty otherwise.
    pub(super) fn param_property(&self, fi: FileId, idx: u32, depth: u32) -> Vec<Val> {
        let f = &self.files[fi as usize];
        if !f.lang.is_js_family() {
            return Vec::new();
        }
        let a = &f.assigns[idx as usize];
        let (Some(class), [name]) = (a.scope, a.target.as_slice()) else {
            return Vec::new();
        };
        if f.defs[class as usize].kind != DefKind::Class {
            return Vec::new();
        }
        let Some(ctor) = self.constructor(Ref {
            file: fi,
            def: class,
        }) else {
            return Vec::new();
        };
        if ctor.file != fi {
            return Vec::new();
        }
        let def = &f.defs[ctor.def as usize];
        let Some(i) = def.params.iter().position(|p| p == name) else {
            return Vec::new();
        };
        // Only a parameter written on the constructor's own header is one.
        if a.line < def.start_line || a.line > def.end_line {
            return Vec::new();
        }
        self.eval_binding(
            fi,
            Binding {
                line: a.line,
                kind: BindKind::Param(ctor.def, i as u32),
                cond: None,
            },
            depth + 1,
        )
    }
}

impl<'a> Resolver<'a> {
    /// What a value declared with type `t` is: an instance of the class or interface it names,
    /// or, for an array of one (`Step[]`, `Array<Step>`: segments ending in `Iter`), an array
    /// of such instances. Empty when the type names no class of the repository.
    pub(super) fn typed_vals(
        &self,
        fi: FileId,
        scope: Option<DefId>,
        t: &[Seg],
        line: Option<u32>,
        depth: u32,
    ) -> Vec<Val> {
        let (elem, many) = match t.split_last() {
            Some((Seg::Iter, rest)) if self.lang(fi).is_js_family() => (rest, true),
            _ => (t, false),
        };
        if elem.is_empty() {
            return Vec::new();
        }
        self.eval(fi, scope, elem, line, depth)
            .into_iter()
            .filter_map(|v| match v {
                Val::Class(c) if many => Some(Val::Many(c)),
                Val::Class(c) => Some(Val::Instance(c)),
                _ => None,
            })
            .collect()
    }
}

/// Methods that put their arguments into a collection (all of them), and `Map#set` (its second).
const ADDERS: &[&str] = &["push", "unshift", "add", "set"];

/// JavaScript: per class and field, the calls in the class's methods (or functions nested in
/// them) that put values into the collection the field holds: `this.items.push(v)`.
pub(super) fn field_adds(f: &FileFacts) -> HashMap<(DefId, String), Vec<u32>> {
    let mut out: HashMap<(DefId, String), Vec<u32>> = HashMap::new();
    for (i, c) in f.calls.iter().enumerate() {
        let [Seg::Name(head), Seg::Name(field), Seg::Name(m)] = c.callee.as_slice() else {
            continue;
        };
        if !ADDERS.contains(&m.as_str()) || c.via.is_some() {
            continue;
        }
        // `this.items.push(v)`, or `Registry.items.push(v)` in a class named `Registry`
        // (a static field).
        let class = if head == "this" {
            this_class(f, c.scope)
        } else {
            named_class(f, c.scope, head)
        };
        if let Some(class) = class {
            out.entry((class, field.clone()))
                .or_default()
                .push(i as u32);
        }
    }
    out
}

/// The class named `name` around `scope`.
fn named_class(f: &FileFacts, scope: Option<DefId>, name: &str) -> Option<DefId> {
    let mut cur = scope;
    while let Some(d) = cur {
        let def = &f.defs[d as usize];
        if def.kind == DefKind::Class {
            return (def.name == name).then_some(d);
        }
        cur = def.parent;
    }
    None
}

/// The class whose instance `this` is in `scope`: that of the nearest method, through arrow
/// functions (which keep the `this` around them); none in a plain function.
pub(super) fn this_class(f: &FileFacts, scope: Option<DefId>) -> Option<DefId> {
    let mut cur = scope;
    while let Some(d) = cur {
        let def = &f.defs[d as usize];
        let parent = def.parent.map(|p| &f.defs[p as usize]);
        if let Some(p) = parent
            && p.kind == DefKind::Class
        {
            return def.parent;
        }
        // Only arrows keep the `this` of the scope around them.
        if def.kind == DefKind::Func && !def.is_lambda {
            return None;
        }
        cur = def.parent;
    }
    None
}

impl<'a> Resolver<'a> {
    /// The collections field `name` of an instance of `c` holds when methods of `c` or of its
    /// bases add to it.
    pub(super) fn field_collections(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        if !self.lang(c.file).is_js_family() {
            return Vec::new();
        }
        self.mro(c, depth)
            .into_iter()
            .filter(|k| {
                self.idx[k.file as usize]
                    .field_adds
                    .contains_key(&(k.def, name.to_string()))
            })
            .map(|k| Val::FieldAdds(k, name.to_string()))
            .collect()
    }

    /// What the collection field `name` of class `c` holds: the values its adders were given.
    pub(super) fn field_values(&self, c: Ref, name: &str, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let Some(calls) = self.idx[c.file as usize]
            .field_adds
            .get(&(c.def, name.to_string()))
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &ci in calls {
            let Some(call) = self.call_site(c.file, ci) else {
                continue;
            };
            let set = matches!(call.callee.last(), Some(Seg::Name(m)) if m == "set");
            for (i, a) in call.args.iter().enumerate() {
                if set && i != 1 {
                    continue;
                }
                if let Some(a) = a {
                    out.extend(self.eval(c.file, call.scope, a, Some(call.line), depth + 1));
                }
            }
        }
        dedup(&mut out);
        if self.too_many(&mut out, MAX_PARAM_VALS) {
            out.clear();
        }
        out
    }
}

/// A method of a collection (array, set, map) that gives one of its values when called
/// (`pop`, `get`, `find`: `true`) or a collection of the same values (`filter`, `values`:
/// `false`).
pub(super) fn collection_method(name: &str) -> Option<bool> {
    match name {
        "pop" | "shift" | "get" | "at" | "find" | "findLast" => Some(true),
        "filter" | "slice" | "values" | "concat" | "reverse" | "toReversed" | "sort"
        | "toSorted" => Some(false),
        _ => None,
    }
}

thread_local! {
    /// JavaScript getters read while evaluating the callee of the call being resolved (a
    /// chain like `this.snake.head.add()` reads `head`): each is called there too.
    static GETTERS_READ: std::cell::RefCell<Option<Vec<Ref>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` noting the getters the callee's own chain reads (members read at depth 1, that
/// is, by the evaluation `f` starts at depth 0); returns them with `f`'s result.
pub(super) fn noting_getters<T>(f: impl FnOnce() -> T) -> (T, Vec<Ref>) {
    // A call resolved while resolving another keeps its own list; the outer one's is restored.
    let outer = GETTERS_READ.with(|g| g.borrow_mut().replace(Vec::new()));
    let out = f();
    let read = GETTERS_READ.with(|g| std::mem::replace(&mut *g.borrow_mut(), outer));
    (out, read.unwrap_or_default())
}

impl<'a> Resolver<'a> {
    /// A JavaScript accessor read as a property is not a function value: reading runs the
    /// getter, and the value is what it returns (setters give nothing to a read).
    pub(super) fn read_accessors(&self, vals: Vec<Val>, depth: u32) -> Vec<Val> {
        let accessor = |v: &Val| match v {
            Val::Func(r) | Val::Bound(r) => self.def(*r).accessor,
            _ => 0,
        };
        if vals.iter().all(|v| accessor(v) == 0) {
            return vals;
        }
        let mut out = Vec::new();
        for v in vals {
            match accessor(&v) {
                0 => out.push(v),
                1 => {
                    if let Val::Func(r) | Val::Bound(r) = v
                        && depth == 1
                    {
                        GETTERS_READ.with(|g| {
                            if let Some(g) = g.borrow_mut().as_mut() {
                                g.push(r);
                            }
                        });
                    }
                    out.extend(self.call_result(&v, depth + 1));
                }
                _ => {}
            }
        }
        dedup(&mut out);
        out
    }
}
