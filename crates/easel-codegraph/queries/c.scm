; C: definitions, calls, includes, bindings and returns for easel-code.

(struct_specifier name: (type_identifier) @class.name body: (field_declaration_list) @class.body) @class
(union_specifier name: (type_identifier) @class.name body: (field_declaration_list) @class.body) @class
(enum_specifier name: (type_identifier) @class.name body: (enumerator_list) @class.body) @class

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @func.name parameters: (parameter_list) @func.params)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @func.name parameters: (parameter_list) @func.params))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @func.name parameters: (parameter_list) @func.params)))
  ]
  body: (compound_statement) @func.body) @func

(call_expression) @call

(preproc_include) @import

(declaration
  type: (type_identifier) @assign.type
  declarator: [(identifier) @assign.left
               (init_declarator declarator: (identifier) @assign.left value: (_) @assign.right)]) @assign

(return_statement (_) @return.value) @return
