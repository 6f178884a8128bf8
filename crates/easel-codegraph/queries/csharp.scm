; C#: definitions, calls, usings, bindings and returns for easel-code.

(namespace_declaration name: (_) @package)
(file_scoped_namespace_declaration name: (_) @package)

(class_declaration
  name: (identifier) @class.name
  (base_list (_) @class.base)?
  body: (declaration_list) @class.body) @class
(struct_declaration
  name: (identifier) @class.name
  (base_list (_) @class.base)?
  body: (declaration_list) @class.body) @class
(interface_declaration
  name: (identifier) @class.name
  (base_list (_) @class.base)?
  body: (declaration_list) @class.body) @class
(record_declaration
  name: (identifier) @class.name) @class
(enum_declaration name: (identifier) @class.name) @class

(method_declaration
  name: (identifier) @func.name
  parameters: (parameter_list) @func.params
  body: (_)? @func.body) @func
; The whole constructor is its scope: `: base(...)` runs inside it, before the body.
(constructor_declaration
  name: (identifier) @func.name
  parameters: (parameter_list) @func.params) @func
(local_function_statement
  name: (identifier) @func.name
  parameters: (parameter_list) @func.params
  body: (_)? @func.body) @func

(invocation_expression) @call
(object_creation_expression) @call

(using_directive) @import

(local_declaration_statement
  (variable_declaration
    type: (_) @assign.type
    (variable_declarator name: (identifier) @assign.left (_)? @assign.right))) @assign
(field_declaration
  (variable_declaration
    type: (_) @assign.type
    (variable_declarator name: (identifier) @assign.left))) @assign
(foreach_statement left: (_) @bind)

(return_statement (_) @return.value) @return
(constructor_initializer) @call

; A lambda bound to a variable is a function of that name; any other lambda is a scope of its
; own, whose calls belong to the enclosing method.
(variable_declarator
  name: (identifier) @lambda.name
  (lambda_expression) @lambda)
(lambda_expression) @scope
