; Ruby: definitions, calls, requires, bindings and returns for easel-code.

(class
  name: [(constant) (scope_resolution)] @class.name
  superclass: (superclass [(constant) (scope_resolution)] @class.base)?
  body: (_)? @class.body) @class
(module
  name: [(constant) (scope_resolution)] @class.name
  body: (_)? @class.body) @namespace

(method
  name: (_) @func.name
  parameters: (method_parameters)? @func.params
  body: (_)? @func.body) @func
(singleton_method
  name: (_) @func.name
  parameters: (method_parameters)? @func.params
  body: (_)? @func.body) @func

(assignment
  left: (identifier) @lambda.name
  right: (lambda) @lambda)

((call
   method: (identifier) @_m
   arguments: (argument_list . (string))) @import
 (#match? @_m "^require(_relative)?$"))

(call) @call

(assignment
  left: [(identifier) (instance_variable) (constant)] @assign.left
  right: (_) @assign.right) @assign
(block_parameters (identifier) @bind)
(for pattern: (_) @bind)

(return (argument_list . (_) @return.value)) @return

; A bare name is a method call when no local variable of that name is in scope: the
; resolver keeps these only when they resolve to a method.
(body_statement (identifier) @call.maybe)
(program (identifier) @call.maybe)
(argument_list (identifier) @call.maybe)
(call receiver: (identifier) @call.maybe)

; A lambda is a scope of its own: its parameters are not the enclosing method's.
(lambda) @scope
