; Java: definitions, calls, imports, bindings and returns for easel-code.

(package_declaration [(scoped_identifier) (identifier)] @package)

(class_declaration
  name: (identifier) @class.name
  superclass: (superclass (_) @class.base)?
  interfaces: (super_interfaces (type_list (_) @class.base))?
  body: (class_body) @class.body) @class
(interface_declaration
  name: (identifier) @class.name
  (extends_interfaces (type_list (_) @class.base))?
  body: (interface_body) @class.body) @class
(enum_declaration
  name: (identifier) @class.name
  body: (enum_body) @class.body) @class
(record_declaration
  name: (identifier) @class.name
  body: (class_body) @class.body) @class

(method_declaration
  name: (identifier) @func.name
  parameters: (formal_parameters) @func.params
  body: (block)? @func.body) @func
(constructor_declaration
  name: (identifier) @func.name
  parameters: (formal_parameters) @func.params
  body: (constructor_body) @func.body) @func

(method_invocation) @call
(object_creation_expression) @call

(import_declaration) @import

(local_variable_declaration
  type: (_) @assign.type
  declarator: (variable_declarator
    name: (identifier) @assign.left
    value: (_)? @assign.right)) @assign
(field_declaration
  type: (_) @assign.type
  declarator: (variable_declarator
    name: (identifier) @assign.left
    value: (_)? @assign.right)) @assign
(assignment_expression
  left: [(identifier) (field_access)] @assign.left
  right: (_) @assign.right) @assign
(enhanced_for_statement name: (identifier) @bind)
(catch_formal_parameter name: (identifier) @bind)

(return_statement (_) @return.value) @return
(explicit_constructor_invocation) @call

; A lambda bound to a variable is a function of that name; any other lambda is a scope of its
; own, whose calls belong to the enclosing method.
(variable_declarator
  name: (identifier) @lambda.name
  value: (lambda_expression) @lambda)
(lambda_expression) @scope
