//! JavaScript and TypeScript: the patterns of `queries/javascript.scm` and
//! `queries/typescript.scm` (and `tsx.scm`) matched by one walk of our own over the tree.
//!
//! Why: the query cursor costs about 20% of a cold build, mostly per node and not per
//! pattern (a query of the single pattern `(call_expression) @call` walks effect's files in
//! 400 ms against 490 ms for the whole query), while these patterns only ever look at a node,
//! its parent and its grandparent. The walk dispatches on kind ids looked up once per grammar.
//!
//! It hands the extractor the same matches in the same order as the query cursor, since the
//! order of the pending reads shows in the facts: a match is met at the node where its
//! pattern's last step matches, and the matches met at one node come outermost root first,
//! then by the pattern's place in the query file. A TypeScript declarator or field without a
//! value (`let x: T;`) is met after its subtree, where the cursor stops looking for a value:
//! at the next node, or when the walk leaves its parent. `tests/walk.rs` checks that both
//! give the same facts; a pattern added to those query files must be added here too.

use super::*;
use tree_sitter::Language;

/// The node kinds the patterns name, as small codes (0: none of them).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[repr(u8)]
enum K {
    Other = 0,
    ClassDeclaration,
    AbstractClassDeclaration,
    InterfaceDeclaration,
    EnumDeclaration,
    FunctionDeclaration,
    GeneratorFunctionDeclaration,
    MethodDefinition,
    VariableDeclarator,
    CallExpression,
    NewExpression,
    JsxSelfClosingElement,
    JsxOpeningElement,
    ImportStatement,
    ImportAlias,
    AssignmentExpression,
    PublicFieldDefinition,
    RequiredParameter,
    OptionalParameter,
    ForInStatement,
    CatchClause,
    ReturnStatement,
    ExportStatement,
    InternalModule,
    Module,
    ArrowFunction,
    FunctionExpression,
    Object,
    Class,
    MemberExpression,
    SubscriptExpression,
    This,
    Decorator,
    Identifier,
    TypeIdentifier,
    PropertyIdentifier,
    PrivatePropertyIdentifier,
    FormalParameters,
    StatementBlock,
    ClassHeritage,
    ClassBody,
    ExtendsClause,
    ImplementsClause,
    ExtendsTypeClause,
    ObjectPattern,
    ArrayPattern,
    NestedIdentifier,
    TypeAnnotation,
    GenericType,
    ArrayType,
    AccessibilityModifier,
}

const NAMED: &[(&str, K)] = &[
    ("class_declaration", K::ClassDeclaration),
    ("abstract_class_declaration", K::AbstractClassDeclaration),
    ("interface_declaration", K::InterfaceDeclaration),
    ("enum_declaration", K::EnumDeclaration),
    ("function_declaration", K::FunctionDeclaration),
    (
        "generator_function_declaration",
        K::GeneratorFunctionDeclaration,
    ),
    ("method_definition", K::MethodDefinition),
    ("variable_declarator", K::VariableDeclarator),
    ("call_expression", K::CallExpression),
    ("new_expression", K::NewExpression),
    ("jsx_self_closing_element", K::JsxSelfClosingElement),
    ("jsx_opening_element", K::JsxOpeningElement),
    ("import_statement", K::ImportStatement),
    ("import_alias", K::ImportAlias),
    ("assignment_expression", K::AssignmentExpression),
    ("public_field_definition", K::PublicFieldDefinition),
    ("required_parameter", K::RequiredParameter),
    ("optional_parameter", K::OptionalParameter),
    ("for_in_statement", K::ForInStatement),
    ("catch_clause", K::CatchClause),
    ("return_statement", K::ReturnStatement),
    ("export_statement", K::ExportStatement),
    ("internal_module", K::InternalModule),
    ("module", K::Module),
    ("arrow_function", K::ArrowFunction),
    ("function_expression", K::FunctionExpression),
    ("object", K::Object),
    ("class", K::Class),
    ("member_expression", K::MemberExpression),
    ("subscript_expression", K::SubscriptExpression),
    ("this", K::This),
    ("decorator", K::Decorator),
    ("identifier", K::Identifier),
    ("type_identifier", K::TypeIdentifier),
    ("property_identifier", K::PropertyIdentifier),
    ("private_property_identifier", K::PrivatePropertyIdentifier),
    ("formal_parameters", K::FormalParameters),
    ("statement_block", K::StatementBlock),
    ("class_heritage", K::ClassHeritage),
    ("class_body", K::ClassBody),
    ("extends_clause", K::ExtendsClause),
    ("implements_clause", K::ImplementsClause),
    ("extends_type_clause", K::ExtendsTypeClause),
    ("object_pattern", K::ObjectPattern),
    ("array_pattern", K::ArrayPattern),
    ("nested_identifier", K::NestedIdentifier),
    ("type_annotation", K::TypeAnnotation),
    ("generic_type", K::GenericType),
    ("array_type", K::ArrayType),
    ("accessibility_modifier", K::AccessibilityModifier),
];

/// A grammar's codes by kind id, and the ids of the fields the patterns name.
struct Table {
    codes: Vec<K>,
    default_kw: Vec<bool>,
    readonly_kw: Vec<bool>,
    f_name: u16,
    f_body: u16,
    f_value: u16,
    f_right: u16,
    f_left: u16,
    f_parameter: u16,
    f_parameters: u16,
    f_pattern: u16,
    f_type: u16,
    f_declaration: u16,
    f_object: u16,
}

impl Table {
    fn new(g: &Language) -> Table {
        let n = g.node_kind_count();
        let mut codes = vec![K::Other; n];
        let mut default_kw = vec![false; n];
        let mut readonly_kw = vec![false; n];
        // Every id with the name, not only the one `id_for_node_kind` gives: an aliased node
        // keeps its name under other ids.
        for id in 0..n as u16 {
            let Some(name) = g.node_kind_for_id(id) else {
                continue;
            };
            if g.node_kind_is_named(id) {
                if let Some((_, k)) = NAMED.iter().find(|(s, _)| *s == name) {
                    codes[id as usize] = *k;
                }
            } else {
                default_kw[id as usize] = name == "default";
                readonly_kw[id as usize] = name == "readonly";
            }
        }
        let f = |name: &str| g.field_id_for_name(name).map_or(0, |id| id.get());
        Table {
            codes,
            default_kw,
            readonly_kw,
            f_name: f("name"),
            f_body: f("body"),
            f_value: f("value"),
            f_right: f("right"),
            f_left: f("left"),
            f_parameter: f("parameter"),
            f_parameters: f("parameters"),
            f_pattern: f("pattern"),
            f_type: f("type"),
            f_declaration: f("declaration"),
            f_object: f("object"),
        }
    }

    fn of(lang: Lang) -> &'static Table {
        static TABLES: [OnceLock<Table>; 3] = [const { OnceLock::new() }; 3];
        let slot = match lang {
            Lang::TypeScript => 0,
            Lang::Tsx => 1,
            _ => 2,
        };
        TABLES[slot].get_or_init(|| Table::new(&lang.grammar()))
    }

    #[inline]
    fn code(&self, n: Node) -> K {
        self.codes
            .get(n.kind_id() as usize)
            .copied()
            .unwrap_or(K::Other)
    }
}

/// The patterns, ranked as in `queries/typescript.scm` (and `tsx.scm` after it), which
/// orders the matches met at one node with the same root. JavaScript's query lists its
/// patterns in the same order, JSX's aside, which no other pattern shares a node with.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Pat {
    Class,
    Func,
    Lambda,
    Call,
    Import,
    ImportAlias,
    Declarator,
    Assignment,
    Field,
    ParamBind,
    ForIn,
    Catch,
    Return,
    ExportDefault,
    ExportBare,
    Namespace,
    Scope,
    ParamProperty,
    Object,
    ClassExpr,
    Prop,
    Decorator,
    Jsx,
}

/// One match: its pattern, its root and the node its last step matched.
#[derive(Clone, Copy)]
struct Hit<'t> {
    pat: Pat,
    root: Node<'t>,
    /// The node the last step matched (a field's value, a return's value, a base...).
    at: Node<'t>,
}

/// Looks up a grammar's kind ids ahead of its first file.
pub(super) fn prepare(lang: Lang) {
    Table::of(lang);
}

/// The walk: every match of the language's patterns, handed to the extractor in the query
/// cursor's order. Checks the budget as it goes; the caller reads `budget.is_over()`.
pub(super) fn walk<'t>(x: &mut Extractor<'_, 't>, root: Node<'t>, budget: &Budget) {
    let t = Table::of(x.lang);
    let ts = x.lang != Lang::JavaScript;
    let mut cursor = root.walk();
    // The ancestors of the cursor's node, with their codes.
    let mut stack: Vec<(Node<'t>, K)> = Vec::new();
    let mut hits: Vec<Hit<'t>> = Vec::new();
    // A TypeScript declarator or field without a value, met when its subtree is left.
    let mut deferred: Option<Hit<'t>> = None;
    let mut seen = 0u32;
    'walk: loop {
        let node = cursor.node();
        let code = t.code(node);
        hits.clear();
        if let Some(&(parent, pk)) = stack.last() {
            // `export default function f`: the name is the last step of a pattern rooted at
            // the export, two levels up.
            if matches!(pk, K::FunctionDeclaration | K::ClassDeclaration)
                && stack.len() >= 2
                && let Some(&(grand, K::ExportStatement)) = stack.get(stack.len() - 2)
                && node.is_named()
                && cursor.field_id().map(|f| f.get()) == Some(t.f_name)
                && default_export_name(t, grand, parent, node, pk, ts)
            {
                hits.push(Hit {
                    pat: Pat::ExportDefault,
                    root: grand,
                    at: node,
                });
            }
            if pk != K::Other {
                parent_hits(t, ts, &cursor, parent, pk, node, code, &mut hits);
            }
        }
        let own = own_pat(code, node, t);
        match (own, deferred.take()) {
            (Some(p), Some(d)) if p < d.pat => {
                hits.push(Hit {
                    pat: p,
                    root: node,
                    at: node,
                });
                hits.push(d);
            }
            (Some(p), d) => {
                hits.extend(d);
                hits.push(Hit {
                    pat: p,
                    root: node,
                    at: node,
                });
            }
            (None, d) => hits.extend(d),
        }
        for h in hits.iter() {
            x.on_hit(t, *h);
        }
        seen += 1;
        if seen & 4095 == 0 && budget.run_out() {
            return;
        }
        if cursor.goto_first_child() {
            stack.push((node, code));
            continue;
        }
        // Leave the node, and its ancestors while they have no next sibling.
        let mut left = (node, code);
        loop {
            if ts && let Some(d) = unvalued(t, left.0, left.1) {
                deferred = Some(d);
            }
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            match stack.pop() {
                Some(p) => left = p,
                None => break 'walk,
            }
            if let Some(d) = deferred.take() {
                x.on_hit(t, d);
            }
        }
    }
    if let Some(d) = deferred.take() {
        x.on_hit(t, d);
    }
}

/// The pattern rooted at a node of this code that matches the node alone.
#[inline]
fn own_pat(code: K, node: Node, t: &Table) -> Option<Pat> {
    match code {
        K::CallExpression | K::NewExpression => Some(Pat::Call),
        K::ImportStatement => Some(Pat::Import),
        K::ExportStatement => (t.f_declaration == 0
            || node.child_by_field_id(t.f_declaration).is_none())
        .then_some(Pat::ExportBare),
        K::ArrowFunction | K::FunctionExpression => Some(Pat::Scope),
        K::Object => Some(Pat::Object),
        K::Class => Some(Pat::ClassExpr),
        K::MemberExpression => Some(Pat::Prop),
        K::JsxSelfClosingElement | K::JsxOpeningElement => Some(Pat::Jsx),
        _ => None,
    }
}

/// Whether a query wildcard `(_)` matches the node: named, and not an error.
#[inline]
fn any(n: Node) -> bool {
    n.is_named() && !n.is_error()
}

/// The matches of patterns rooted at `parent` whose last step is `node`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn parent_hits<'t>(
    t: &Table,
    ts: bool,
    cursor: &tree_sitter::TreeCursor<'t>,
    parent: Node<'t>,
    pk: K,
    node: Node<'t>,
    code: K,
    hits: &mut Vec<Hit<'t>>,
) {
    let field = || cursor.field_id().map_or(0, |f| f.get());
    let mut hit = |pat: Pat| {
        hits.push(Hit {
            pat,
            root: parent,
            at: node,
        })
    };
    let named =
        |f: u16, ok: &dyn Fn(K) -> bool| parent.child_by_field_id(f).is_some_and(|c| ok(t.code(c)));
    match pk {
        K::ClassDeclaration | K::AbstractClassDeclaration
            if code == K::ClassBody && field() == t.f_body =>
        {
            let name = if ts { K::TypeIdentifier } else { K::Identifier };
            if named(t.f_name, &|k| k == name) {
                hit(Pat::Class);
            }
        }
        K::InterfaceDeclaration | K::EnumDeclaration if any(node) && field() == t.f_body => {
            let name = if pk == K::EnumDeclaration {
                K::Identifier
            } else {
                K::TypeIdentifier
            };
            if named(t.f_name, &|k| k == name) {
                hit(Pat::Class);
            }
        }
        K::InternalModule | K::Module if code == K::StatementBlock && field() == t.f_body => {
            let ok = if pk == K::InternalModule {
                parent.child_by_field_id(t.f_name).is_some_and(any)
            } else {
                named(t.f_name, &|k| {
                    matches!(k, K::Identifier | K::NestedIdentifier)
                })
            };
            if ok {
                hit(Pat::Namespace);
            }
        }
        K::FunctionDeclaration | K::GeneratorFunctionDeclaration | K::MethodDefinition
            if code == K::StatementBlock && field() == t.f_body =>
        {
            let name_ok = if pk == K::MethodDefinition {
                named(t.f_name, &|k| {
                    matches!(k, K::PropertyIdentifier | K::PrivatePropertyIdentifier)
                })
            } else {
                named(t.f_name, &|k| k == K::Identifier)
            };
            if name_ok && named(t.f_parameters, &|k| k == K::FormalParameters) {
                hit(Pat::Func);
            }
        }
        K::VariableDeclarator if any(node) && field() == t.f_value => {
            let name = parent.child_by_field_id(t.f_name);
            let name_code = name.map(|n| t.code(n));
            if name_code == Some(K::Identifier)
                && matches!(code, K::ArrowFunction | K::FunctionExpression)
            {
                hit(Pat::Lambda);
            }
            let ok = if ts {
                matches!(
                    name_code,
                    Some(K::Identifier | K::ObjectPattern | K::ArrayPattern)
                )
            } else {
                name.is_some_and(any)
            };
            if ok {
                hit(Pat::Declarator);
            }
        }
        K::PublicFieldDefinition
            if ts
                && any(node)
                && field() == t.f_value
                && named(t.f_name, &|k| k == K::PropertyIdentifier) =>
        {
            hit(Pat::Field)
        }
        K::AssignmentExpression if any(node) && field() == t.f_right => {
            let ok = named(t.f_left, &|k| {
                matches!(
                    k,
                    K::Identifier | K::MemberExpression | K::ObjectPattern | K::ArrayPattern
                )
            }) || parent
                .child_by_field_id(t.f_left)
                .is_some_and(|l| this_field_subscript(t, l));
            if ok {
                hit(Pat::Assignment);
            }
        }
        K::RequiredParameter | K::OptionalParameter if ts => {
            let f = field();
            if pk == K::RequiredParameter && code == K::Identifier && f == t.f_pattern {
                hit(Pat::ParamBind);
            } else if code == K::TypeAnnotation
                && f == t.f_type
                && named(t.f_pattern, &|k| k == K::Identifier)
                && modified(t, parent)
            {
                hit(Pat::ParamProperty);
            }
        }
        K::ForInStatement if any(node) && field() == t.f_left => hit(Pat::ForIn),
        K::CatchClause if any(node) && field() == t.f_parameter => hit(Pat::Catch),
        K::ReturnStatement if any(node) => hit(Pat::Return),
        K::ExportStatement
            if code == K::Identifier && field() == t.f_value && has_default(t, parent, node) =>
        {
            hit(Pat::ExportDefault)
        }
        K::Decorator
            if matches!(
                code,
                K::Identifier | K::MemberExpression | K::CallExpression
            ) =>
        {
            hit(Pat::Decorator)
        }
        K::ImportAlias
            if ts
                && matches!(code, K::Identifier | K::NestedIdentifier)
                && alias_left(t, parent, node).is_some() =>
        {
            hit(Pat::ImportAlias)
        }
        _ => {}
    }
}

/// A TypeScript declarator or field with no value (`let x: T;`, `x: T;`): its match, met
/// once the walk has left it.
fn unvalued<'t>(t: &Table, n: Node<'t>, code: K) -> Option<Hit<'t>> {
    let pat = match code {
        K::VariableDeclarator => Pat::Declarator,
        K::PublicFieldDefinition => Pat::Field,
        _ => return None,
    };
    if n.child_by_field_id(t.f_value).is_some_and(any) {
        return None;
    }
    let name = t.code(n.child_by_field_id(t.f_name)?);
    let ok = match code {
        K::VariableDeclarator => {
            matches!(name, K::Identifier | K::ObjectPattern | K::ArrayPattern)
        }
        _ => name == K::PropertyIdentifier,
    };
    ok.then_some(Hit {
        pat,
        root: n,
        at: n,
    })
}

/// Whether a parameter has an accessibility modifier or `readonly` before its pattern.
fn modified(t: &Table, p: Node) -> bool {
    let mut c = p.walk();
    p.children(&mut c).any(|ch| {
        let id = ch.kind_id() as usize;
        t.code(ch) == K::AccessibilityModifier || t.readonly_kw.get(id).copied().unwrap_or(false)
    })
}

/// Whether an `export` statement has the `default` keyword before `value`.
fn has_default(t: &Table, e: Node, value: Node) -> bool {
    let mut c = e.walk();
    e.children(&mut c)
        .take_while(|ch| ch.id() != value.id())
        .any(|ch| {
            t.default_kw
                .get(ch.kind_id() as usize)
                .copied()
                .unwrap_or(false)
        })
}

/// `export default function f` / `export default class C`: whether `name` names the
/// declaration `decl` of the default export `e`.
fn default_export_name(t: &Table, e: Node, decl: Node, name: Node, dk: K, ts: bool) -> bool {
    let name_kind = if dk == K::ClassDeclaration && ts {
        K::TypeIdentifier
    } else {
        K::Identifier
    };
    if t.code(name) != name_kind {
        return false;
    }
    let is_decl = e
        .child_by_field_id(t.f_declaration)
        .is_some_and(|d| d.id() == decl.id());
    is_decl && has_default(t, e, decl)
}

/// `import G = A.B`: the alias `G` (the first identifier), when `right` comes after it.
fn alias_left<'t>(t: &Table, a: Node<'t>, right: Node<'t>) -> Option<Node<'t>> {
    let mut c = a.walk();
    let left = a
        .named_children(&mut c)
        .find(|ch| t.code(*ch) == K::Identifier)?;
    (left.end_byte() <= right.start_byte() && left.id() != right.id()).then_some(left)
}

impl<'s, 't> Extractor<'s, 't> {
    /// Hands one match to the reader of its role.
    fn on_hit(&mut self, t: &Table, h: Hit<'t>) {
        let ts = self.lang != Lang::JavaScript;
        let (root, at) = (h.root, h.at);
        match h.pat {
            Pat::Class | Pat::Namespace => {
                let name = root.child_by_field_id(t.f_name);
                let bases = class_bases(t, root, ts);
                self.on_class(root, h.pat == Pat::Namespace, name, &bases, Some(at));
            }
            Pat::Func => {
                let parts = FuncParts {
                    name: root.child_by_field_id(t.f_name),
                    params: root.child_by_field_id(t.f_parameters),
                    body: Some(at),
                    ..FuncParts::default()
                };
                self.on_func(root, parts);
            }
            Pat::Lambda => {
                if let Some(name) = root.child_by_field_id(t.f_name) {
                    self.on_lambda(at, name);
                }
            }
            Pat::Scope => self.function_value(root),
            Pat::Object => self.objects.push(root),
            Pat::ClassExpr => self.class_expression(root),
            Pat::Call | Pat::Jsx => self.pending.push(Pending::Call(root)),
            Pat::Prop => self.pending.push(Pending::Prop(root)),
            Pat::Decorator => self.pending.push(Pending::Decorator(at)),
            Pat::Import | Pat::ExportBare => self.on_import(root),
            Pat::ImportAlias => {
                let left = alias_left(t, root, at);
                self.on_assign(root, left, Some(at), None);
            }
            Pat::Declarator | Pat::Field => {
                let left = root.child_by_field_id(t.f_name);
                // A match met after its subtree has no value.
                let value = (at.id() != root.id()).then_some(at);
                let ty = if ts { annotated(t, root) } else { None };
                self.on_assign(root, left, value, ty);
            }
            Pat::Assignment => {
                let left = root.child_by_field_id(t.f_left);
                self.on_assign(root, left, Some(at), None);
            }
            Pat::ParamProperty => {
                let left = root.child_by_field_id(t.f_pattern);
                self.on_assign(root, left, None, Some(at));
            }
            Pat::ParamBind | Pat::Catch => self.on_bind(at, None),
            Pat::ForIn => self.on_bind(at, Some(root)),
            Pat::Return => self.pending.push(Pending::Return(root, Some(at))),
            Pat::ExportDefault => self.facts.default_export = Some(self.text(at)),
        }
    }
}

/// A TypeScript binding's declared type, when it is a name, a generic or an array type.
fn annotated<'t>(t: &Table, n: Node<'t>) -> Option<Node<'t>> {
    let ann = n.child_by_field_id(t.f_type)?;
    if t.code(ann) != K::TypeAnnotation {
        return None;
    }
    let mut c = ann.walk();
    ann.named_children(&mut c).find(|ty| {
        matches!(
            t.code(*ty),
            K::TypeIdentifier | K::GenericType | K::ArrayType
        )
    })
}

/// A class's bases in source order, as its pattern captures them.
fn class_bases<'t>(t: &Table, class: Node<'t>, ts: bool) -> Vec<Node<'t>> {
    let code = t.code(class);
    let mut out = Vec::new();
    let mut c = class.walk();
    for part in class.named_children(&mut c) {
        match (t.code(part), code) {
            (K::ClassHeritage, K::ClassDeclaration) if !ts => {
                let mut cc = part.walk();
                out.extend(part.named_children(&mut cc).filter(|b| {
                    matches!(
                        t.code(*b),
                        K::Identifier | K::MemberExpression | K::CallExpression
                    )
                }));
            }
            (K::ClassHeritage, K::ClassDeclaration | K::AbstractClassDeclaration) => {
                let mut cc = part.walk();
                for clause in part.named_children(&mut cc) {
                    match t.code(clause) {
                        K::ExtendsClause => out.extend(with_field(clause, t.f_value)),
                        K::ImplementsClause if code == K::ClassDeclaration => {
                            let mut c3 = clause.walk();
                            out.extend(clause.named_children(&mut c3).filter(|b| any(*b)));
                        }
                        _ => {}
                    }
                }
            }
            (K::ExtendsTypeClause, K::InterfaceDeclaration) => {
                out.extend(with_field(part, t.f_type));
            }
            _ => {}
        }
    }
    out
}

/// The children of `n` in field `f` that a wildcard matches, in order.
fn with_field(n: Node<'_>, f: u16) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut c = n.walk();
    if f == 0 || !c.goto_first_child() {
        return out;
    }
    loop {
        if c.field_id().map(|id| id.get()) == Some(f) && any(c.node()) {
            out.push(c.node());
        }
        if !c.goto_next_sibling() {
            return out;
        }
    }
}

/// `this.f[k]`: a subscript of a field of `this`, as the assignment pattern's left side.
fn this_field_subscript(t: &Table, l: Node) -> bool {
    t.code(l) == K::SubscriptExpression
        && l.child_by_field_id(t.f_object).is_some_and(|m| {
            t.code(m) == K::MemberExpression
                && m.child_by_field_id(t.f_object)
                    .is_some_and(|o| t.code(o) == K::This)
        })
}
