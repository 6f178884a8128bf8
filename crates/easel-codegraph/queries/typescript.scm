; TypeScript: definitions, calls, imports, bindings and returns for easel-code.

(class_declaration
  name: (type_identifier) @class.name
  (class_heritage [(extends_clause value: (_) @class.base) (implements_clause (_) @class.base)])?
  body: (class_body) @class.body) @class

(abstract_class_declaration
  name: (type_identifier) @class.name
  (class_heritage (extends_clause value: (_) @class.base))?
  body: (class_body) @class.body) @class

(interface_declaration
  name: (type_identifier) @class.name
  (extends_type_clause type: (_) @class.base)?
  body: (_) @class.body) @class

(enum_declaration
  name: (identifier) @class.name
  body: (_) @class.body) @class

(function_declaration
  name: (identifier) @func.name
  parameters: (formal_parameters) @func.params
  body: (statement_block) @func.body) @func

(generator_function_declaration
  name: (identifier) @func.name
  parameters: (formal_parameters) @func.params
  body: (statement_block) @func.body) @func

(method_definition
  name: [(property_identifier) (private_property_identifier)] @func.name
  parameters: (formal_parameters) @func.params
  body: (statement_block) @func.body) @func

(variable_declarator
  name: (identifier) @lambda.name
  value: [(arrow_function) (function_expression)] @lambda)

(call_expression) @call
(new_expression) @call

(import_statement) @import

; `import G = Geometry.Shapes` aliases a namespace: a binding of `G`.
(import_alias
  (identifier) @assign.left
  [(identifier) (nested_identifier)] @assign.right) @assign

(variable_declarator
  name: [(identifier) (object_pattern) (array_pattern)] @assign.left
  type: (type_annotation [(type_identifier) (generic_type) (array_type)] @assign.type)?
  value: (_)? @assign.right) @assign
(assignment_expression
  left: [(identifier) (member_expression) (object_pattern) (array_pattern)
         (subscript_expression object: (member_expression object: (this)))] @assign.left
  right: (_) @assign.right) @assign
(public_field_definition
  name: (property_identifier) @assign.left
  type: (type_annotation [(type_identifier) (generic_type) (array_type)] @assign.type)?
  value: (_)? @assign.right) @assign
(required_parameter pattern: (identifier) @bind)
; The loop is captured too: `for (const f of fns)` binds `f` to the elements of `fns`.
(for_in_statement left: (_) @bind) @bind.for
(catch_clause parameter: (_) @bind)

(return_statement (_) @return.value) @return

(export_statement "default" value: (identifier) @export.default)
(export_statement "default" declaration: [(function_declaration name: (identifier) @export.default)
                                          (class_declaration name: (type_identifier) @export.default)])

; Re-exports (`export { a } from`, `export * from`), `export { a as b }`, TypeScript `export =`;
; anonymous default exports and CommonJS `module.exports = function` are named by the extractor
; (patterns for them would make compiling this query several times slower).
(export_statement !declaration) @import

; Namespaces (`namespace A.B { ... }`, `module M { ... }`) are containers of their exports.
(internal_module name: (_) @class.name body: (statement_block) @class.body) @namespace
(module name: [(identifier) (nested_identifier)] @class.name body: (statement_block) @class.body) @namespace

; Callbacks are scopes of their own: their parameters are not the enclosing names.
(arrow_function) @scope
(function_expression) @scope

; Constructor parameter properties (`constructor(private repo: Repo)`, `readonly repo: Repo`)
; are typed fields.
([(required_parameter
    (accessibility_modifier)
    pattern: (identifier) @assign.left
    type: (type_annotation) @assign.type)
  (optional_parameter
    (accessibility_modifier)
    pattern: (identifier) @assign.left
    type: (type_annotation) @assign.type)
  (required_parameter
    "readonly"
    pattern: (identifier) @assign.left
    type: (type_annotation) @assign.type)
  (optional_parameter
    "readonly"
    pattern: (identifier) @assign.left
    type: (type_annotation) @assign.type)] @assign)

; Values that carry functions (see `extract::values`); one cheap pattern each, what they are
; bound to is read from the tree: object literals (bound to a name, they name their methods),
; class expressions (named after their binding), property reads and writes (a getter or
; setter may run), decorators (`@sealed class C`: a call where the class is defined).
(object) @object
(class) @class.expr
(member_expression) @prop
(decorator [(identifier) (member_expression) (call_expression)] @call.decorator)
