//! JavaScript and TypeScript destructuring: each name a pattern binds takes the part of the
//! value it reads (`const { a, b: c = d, inner: { e }, ...rest } = value`, `[f, g] = value`).

use super::*;

impl<'t> Extractor<'_, 't> {
    /// `const { a, b: c = d, inner: { e }, ...rest } = value` and `[f, g] = value`: each name
    /// takes the part of the value it reads (a default is not followed: the part is there).
    pub(super) fn destructure(
        &mut self,
        scope: Option<u32>,
        line: u32,
        pattern: Node,
        value: Vec<Seg>,
        depth: u32,
    ) {
        if depth > 8 {
            return;
        }
        let parts = named_parts(pattern);
        match pattern.kind() {
            "object_pattern" => {
                for ch in parts {
                    match ch.kind() {
                        "shorthand_property_identifier_pattern" => {
                            let name = self.text(ch);
                            let mut v = value.clone();
                            v.push(Seg::Name(name.clone()));
                            self.facts.assigns.push(AssignFact::plain(
                                scope,
                                vec![name],
                                Some(v),
                                line,
                            ));
                        }
                        "object_assignment_pattern" => {
                            if let Some(l) = ch.field(Field::LEFT) {
                                let default = ch.field(Field::RIGHT).and_then(|d| self.segs(d));
                                self.destructure_key(scope, line, l, l, &value, depth, default);
                            }
                        }
                        "pair_pattern" => {
                            if let (Some(k), Some(t)) =
                                (ch.field(Field::KEY), ch.field(Field::VALUE))
                            {
                                self.destructure_key(scope, line, k, t, &value, depth, None);
                            }
                        }
                        // `...rest` holds the other members: reading one of them reads the value.
                        "rest_pattern" => {
                            if let Some(id) = ch.named_child(0).filter(|c| c.kind() == "identifier")
                            {
                                self.facts.assigns.push(AssignFact::plain(
                                    scope,
                                    vec![self.text(id)],
                                    Some(value.clone()),
                                    line,
                                ));
                            }
                        }
                        _ => {}
                    }
                }
            }
            "array_pattern" => {
                for (i, ch) in parts.into_iter().enumerate() {
                    if ch.kind() == "rest_pattern" {
                        break;
                    }
                    let (target, default) = if ch.kind() == "assignment_pattern" {
                        match ch.field(Field::LEFT) {
                            Some(l) => (l, ch.field(Field::RIGHT).and_then(|d| self.segs(d))),
                            None => continue,
                        }
                    } else {
                        (ch, None)
                    };
                    let mut v = value.clone();
                    v.push(Seg::Index(i.to_string()));
                    self.destructure_target(scope, line, target, v, depth, default);
                }
            }
            _ => {}
        }
    }

    /// One `key: target` of an object pattern (`target` may be a pattern itself, or carry a
    /// default: `key: target = d`; `default` is that of a shorthand `{ key = d }`).
    #[allow(clippy::too_many_arguments)]
    fn destructure_key(
        &mut self,
        scope: Option<u32>,
        line: u32,
        key: Node,
        target: Node,
        value: &[Seg],
        depth: u32,
        default: Option<Vec<Seg>>,
    ) {
        let key = match key.kind() {
            "property_identifier" | "shorthand_property_identifier_pattern" | "identifier" => {
                self.text(key)
            }
            "string" | "number" => unquote(self.str(key)),
            _ => return,
        };
        let mut v = value.to_vec();
        v.push(Seg::Name(key));
        let (target, default) = if target.kind() == "assignment_pattern" {
            match target.field(Field::LEFT) {
                Some(l) => (l, target.field(Field::RIGHT).and_then(|d| self.segs(d))),
                None => return,
            }
        } else {
            (target, default)
        };
        self.destructure_target(scope, line, target, v, depth, default);
    }

    fn destructure_target(
        &mut self,
        scope: Option<u32>,
        line: u32,
        target: Node,
        v: Vec<Seg>,
        depth: u32,
        default: Option<Vec<Seg>>,
    ) {
        match target.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                let mut a = AssignFact::plain(scope, vec![self.text(target)], Some(v), line);
                a.default = default;
                self.facts.assigns.push(a);
            }
            "object_pattern" | "array_pattern" => {
                self.destructure(scope, line, target, v, depth + 1)
            }
            _ => {}
        }
    }
}
