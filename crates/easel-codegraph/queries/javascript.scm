; JavaScript: definitions, calls, imports, bindings and returns for easel-code.

(class_declaration
  name: (identifier) @class.name
  (class_heritage [(identifier) (member_expression)] @class.base)?
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
  left: [(identifier) (member_expression)] @assign.left
  right: (_) @assign.right) @assign
(for_in_statement left: (_) @bind)
(catch_clause parameter: (_) @bind)

(return_statement (_) @return.value) @return

(export_statement "default" value: (identifier) @export.default)
(export_statement "default" declaration: [(function_declaration name: (identifier) @export.default)
                                          (class_declaration name: (identifier) @export.default)])

; Callbacks are scopes of their own: their parameters are not the enclosing names.
(arrow_function) @scope
(function_expression) @scope

; Values: names that functions, classes and object literals are given without a declaration
; of their own (see `extract::values`).
; Class expressions take the name they are bound to (`let X = class Y {}` is `X`).
(variable_declarator
  name: (identifier) @class.name
  value: (class
    (class_heritage [(identifier) (member_expression)] @class.base)?
    body: (class_body) @class.body) @class)
(assignment_expression
  left: (identifier) @class.name
  right: (class
    (class_heritage [(identifier) (member_expression)] @class.base)?
    body: (class_body) @class.body) @class)
; `handler = () => ...` names the function after its target.
(assignment_expression
  left: (identifier) @lambda.name
  right: [(arrow_function) (function_expression)] @lambda)
; Class fields and object-literal keys holding functions (kept only in a literal bound to a name).
(field_definition
  property: [(property_identifier) (private_property_identifier)] @lambda.name
  value: [(arrow_function) (function_expression)] @lambda)
(pair
  key: [(property_identifier) (string) (number)] @lambda.name
  value: [(arrow_function) (function_expression)] @lambda)
; A named function expression (`on('x', function handler() {})`); bound ones take the binding's.
(function_expression
  name: (identifier) @func.name
  parameters: (formal_parameters) @func.params
  body: (statement_block) @func.body) @func
; Object literals bound to a name hold their methods under that name.
(variable_declarator name: (identifier) @object.name value: (object) @object)
(assignment_expression left: (identifier) @object.name right: (object) @object)
(pair key: [(property_identifier) (string) (number)] @object.name value: (object) @object)
; `@sealed class C`, `@track m()`: a call of the decorator where the class is defined.
(decorator [(identifier) (member_expression)] @call.decorator)
; Destructuring: `const { a } = obj`, `[f, g] = fns`.
(assignment_expression
  left: [(object_pattern) (array_pattern)] @assign.left
  right: (_) @assign.right) @assign
; A property read or write runs a getter or setter of that name, where one is defined.
(member_expression) @prop
; A named class expression not bound to a name (`return class Foo {}`) keeps its own name.
(class
  name: (identifier) @class.name
  (class_heritage [(identifier) (member_expression)] @class.base)?
  body: (class_body) @class.body) @class
