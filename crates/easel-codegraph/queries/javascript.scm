; JavaScript: definitions, calls, imports, bindings and returns for easel-code.

(class_declaration
  name: (identifier) @class.name
  (class_heritage [(identifier) (member_expression) (call_expression)] @class.base)?
  body: (class_body) @class.body) @class

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

; Functions and arrows bound to a name.
(variable_declarator
  name: (identifier) @lambda.name
  value: [(arrow_function) (function_expression)] @lambda)

(call_expression) @call
(new_expression) @call
; JSX: `<Button />` renders the component `Button` (lower-case host elements are skipped).
(jsx_self_closing_element) @call
(jsx_opening_element) @call

(import_statement) @import

(variable_declarator
  name: (_) @assign.left
  value: (_) @assign.right) @assign
(assignment_expression
  left: [(identifier) (member_expression) (object_pattern) (array_pattern)
         (subscript_expression object: (member_expression object: (this)))] @assign.left
  right: (_) @assign.right) @assign
; The loop is captured too: `for (const f of fns)` binds `f` to the elements of `fns`.
(for_in_statement left: (_) @bind) @bind.for
(catch_clause parameter: (_) @bind)

(return_statement (_) @return.value) @return

(export_statement "default" value: (identifier) @export.default)
(export_statement "default" declaration: [(function_declaration name: (identifier) @export.default)
                                          (class_declaration name: (identifier) @export.default)])

; Re-exports (`export { a } from`, `export * from`), `export { a as b }`, TypeScript `export =`;
; anonymous default exports and CommonJS `module.exports = function` are named by the extractor
; (patterns for them would make compiling this query several times slower).
(export_statement !declaration) @import

; Callbacks are scopes of their own: their parameters are not the enclosing names.
(arrow_function) @scope
(function_expression) @scope

; Values that carry functions (see `extract::values`); one cheap pattern each, what they are
; bound to is read from the tree: object literals (bound to a name, they name their methods),
; class expressions (named after their binding), property reads and writes (a getter or
; setter may run), decorators (`@sealed class C`: a call where the class is defined).
(object) @object
(class) @class.expr
(member_expression) @prop
(decorator [(identifier) (member_expression) (call_expression)] @call.decorator)
