; Go: definitions, calls, imports, bindings and returns for easel-code.

(package_clause (package_identifier) @package)

(type_declaration
  (type_spec
    name: (type_identifier) @class.name
    type: [(struct_type) (interface_type)] @class.body) @class)

(function_declaration
  name: (identifier) @func.name
  parameters: (parameter_list) @func.params
  body: (block) @func.body) @func

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      name: (identifier)? @func.self
      type: [(type_identifier) @func.receiver
             (pointer_type (type_identifier) @func.receiver)
             (generic_type type: (type_identifier) @func.receiver)
             (pointer_type (generic_type type: (type_identifier) @func.receiver))]))
  name: (field_identifier) @func.name
  parameters: (parameter_list) @func.params
  body: (block) @func.body) @func

(short_var_declaration
  left: (expression_list . (identifier) @lambda.name)
  right: (expression_list . (func_literal) @lambda))

(call_expression) @call

(import_declaration) @import

(short_var_declaration
  left: (expression_list . (identifier) @assign.left)
  right: (expression_list . (_) @assign.right)) @assign
(var_spec
  name: (identifier) @assign.left
  type: [(type_identifier) (pointer_type) (qualified_type)]? @assign.type
  value: (expression_list . (_) @assign.right)?) @assign
(assignment_statement
  left: (expression_list . [(identifier) (selector_expression)] @assign.left)
  right: (expression_list . (_) @assign.right)) @assign
(range_clause left: (_) @bind)

(return_statement (expression_list . (_) @return.value)) @return

; A function literal is a scope of its own: its parameters are not the enclosing function's.
(func_literal) @scope
