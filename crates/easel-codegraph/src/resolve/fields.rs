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
