; Rust: definitions, calls, imports, bindings and returns for easel-code.

(struct_item name: (type_identifier) @class.name) @class
(enum_item name: (type_identifier) @class.name) @class
(union_item name: (type_identifier) @class.name) @class
(trait_item
  name: (type_identifier) @class.name
  bounds: (trait_bounds (type_identifier) @class.base)?
  body: (declaration_list) @class.body) @class
(mod_item name: (identifier) @class.name body: (declaration_list) @class.body) @namespace

(impl_item
  trait: (_)? @impl.trait
  type: (_) @impl.type) @impl

(function_item
  name: (identifier) @func.name
  parameters: (parameters) @func.params
  body: (block) @func.body) @func

(let_declaration
  pattern: (identifier) @lambda.name
  value: (closure_expression) @lambda)

(call_expression) @call
(macro_invocation) @call

(use_declaration) @import

(let_declaration
  pattern: (identifier) @assign.left
  type: [(type_identifier) (generic_type) (scoped_type_identifier)]? @assign.type
  value: (_)? @assign.right) @assign
(let_declaration pattern: [(tuple_pattern) (tuple_struct_pattern) (struct_pattern)] @bind)
(for_expression pattern: (_) @bind)
(closure_parameters (_) @bind)

(return_expression (_) @return.value) @return

; The value of a block is its last expression.
(function_item body: (block (_) @return.value .) @return)

; `mod name;` brings in the file of that module.
(mod_item name: (identifier) !body) @import

; A closure is a scope of its own: its parameters are not the enclosing function's.
(closure_expression) @scope
