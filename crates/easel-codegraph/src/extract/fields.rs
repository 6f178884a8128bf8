//! Field ids looked up once per grammar. `Node::child_by_field_name` finds the field's id by
//! comparing its name with each of the grammar's field names (`strncmp`) on every call, which
//! cost 2-3% of a cold JavaScript/TypeScript build; the extractor asks for a child by field
//! tens of times per call site.

use std::sync::OnceLock;
use tree_sitter::{Language, Node};

/// A field the extractor reads, as an index into each grammar's table of ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Field(u8);

macro_rules! fields {
    ($($konst:ident = $name:literal,)*) => {
        /// Field names, in the order of the indices.
        const NAMES: &[&str] = &[$($name),*];

        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        enum Index {
            $($konst),*
        }

        impl Field {
            $(pub(crate) const $konst: Field = Field(Index::$konst as u8);)*
        }
    };
}

fields! {
    ALIAS = "alias",
    ALTERNATIVE = "alternative",
    ARGUMENT = "argument",
    ARGUMENTS = "arguments",
    ATTRIBUTE = "attribute",
    BODY = "body",
    CONSEQUENCE = "consequence",
    CONSTRUCTOR = "constructor",
    DEFINITION = "definition",
    EXPRESSION = "expression",
    FIELD = "field",
    FUNCTION = "function",
    INDEX = "index",
    KEY = "key",
    LEFT = "left",
    LIST = "list",
    MACRO = "macro",
    METHOD = "method",
    MODULE = "module",
    MODULE_NAME = "module_name",
    NAME = "name",
    OBJECT = "object",
    OPERAND = "operand",
    OPERATOR = "operator",
    PARAMETER = "parameter",
    PARAMETERS = "parameters",
    PACKAGE = "package",
    PATH = "path",
    PATTERN = "pattern",
    PROPERTY = "property",
    QUALIFIER = "qualifier",
    RECEIVER = "receiver",
    RESULT = "result",
    RETURN_TYPE = "return_type",
    RETURNS = "returns",
    RIGHT = "right",
    SCOPE = "scope",
    SOURCE = "source",
    SUBSCRIPT = "subscript",
    TYPE = "type",
    TYPE_ARGUMENTS = "type_arguments",
    TYPE_CONVERSION = "type_conversion",
    TYPE_PARAMETERS = "type_parameters",
    VALUE = "value",
}

impl Field {
    pub(crate) fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }
}

/// Each grammar with the id of every field in [`NAMES`] (0 where the grammar has no such
/// field, which finds no child, as a name lookup would).
fn tables() -> &'static [(Language, Vec<u16>)] {
    static TABLES: OnceLock<Vec<(Language, Vec<u16>)>> = OnceLock::new();
    TABLES.get_or_init(|| {
        crate::lang::Lang::ALL
            .iter()
            .map(|l| {
                let g = l.grammar();
                let ids = NAMES
                    .iter()
                    .map(|n| g.field_id_for_name(n).map_or(0, |id| id.get()))
                    .collect();
                (g, ids)
            })
            .collect()
    })
}

/// A child by field, through the grammar's table of ids.
pub(crate) trait FieldExt<'t> {
    fn field(&self, f: Field) -> Option<Node<'t>>;
}

impl<'t> FieldExt<'t> for Node<'t> {
    #[inline]
    fn field(&self, f: Field) -> Option<Node<'t>> {
        let lang = self.language();
        match tables().iter().find(|(g, _)| *g == *lang) {
            Some((_, ids)) => match ids[f.0 as usize] {
                0 => None,
                id => self.child_by_field_id(id),
            },
            // A grammar this crate does not know (none today): the slow lookup by name.
            None => self.child_by_field_name(f.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    /// Every field finds the child that a lookup by name finds, in every grammar: an id read
    /// from another grammar's table, or a wrong index, would find another child or none.
    #[test]
    fn field_ids_find_what_names_find() {
        let cases: &[(Lang, &str)] = &[
            (
                Lang::JavaScript,
                "class A extends B { m(x, {y} = {}) { return new C(x).d[y]; } }\n\
                 const f = async (a) => a?.b(...c); import z, { w as v } from 'm';\n\
                 for (const k in o) { try { k(); } catch (e) { o[k] = e; } }",
            ),
            (
                Lang::TypeScript,
                "namespace N.M { export function g<T>(p: T): T { return p; } }\n\
                 export default class K implements I { private q: number = 1; }\n\
                 type U = { r(s: string): void }; let t = <V>(u: V) => u as V;",
            ),
            (
                Lang::Tsx,
                "const El = ({ a }: P) => <Button onPress={save} {...rest} />;",
            ),
            (
                Lang::Python,
                "from a import b as c\nclass D(E):\n    def f(self, g: int = 1) -> H:\n        \
                 return [i for i in g if i]\nwith open(x) as y:\n    y[1:] = lambda z: z.w\n",
            ),
            (
                Lang::Go,
                "package p\nfunc (r *R) M(a int) (b int) { return f.G(a) }\n",
            ),
            (
                Lang::Rust,
                "impl<T> Tr for S<T> { fn m(&self) -> u8 { a::b(self.c[0]) } }",
            ),
            (
                Lang::Ruby,
                "class A < B\n  def m(x)\n    x.y(1)\n  end\nend\n",
            ),
        ];
        let mut checked = 0;
        for (lang, src) in cases {
            let mut p = tree_sitter::Parser::new();
            p.set_language(&lang.grammar()).expect("grammar loads");
            let tree = p.parse(src, None).expect("parses");
            let mut stack = vec![tree.root_node()];
            while let Some(n) = stack.pop() {
                for (i, name) in NAMES.iter().enumerate() {
                    let by_id = n.field(Field(i as u8)).map(|c| c.id());
                    let by_name = n.child_by_field_name(name).map(|c| c.id());
                    assert_eq!(by_id, by_name, "{lang:?} {} field {name}", n.kind());
                    checked += usize::from(by_name.is_some());
                }
                let mut c = n.walk();
                stack.extend(n.children(&mut c));
            }
        }
        assert!(
            checked > 50,
            "only {checked} fields found: the cases lost their fields"
        );
    }
}
