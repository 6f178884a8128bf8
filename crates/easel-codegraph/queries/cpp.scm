; C++: definitions, calls, includes, bindings and returns for easel-code.

(class_specifier
  name: (type_identifier) @class.name
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @class.base)?
  body: (field_declaration_list) @class.body) @class
(struct_specifier
  name: (type_identifier) @class.name
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @class.base)?
  body: (field_declaration_list) @class.body) @class
(enum_specifier name: (type_identifier) @class.name body: (enumerator_list) @class.body) @class
(namespace_definition name: (namespace_identifier) @class.name body: (declaration_list) @class.body) @namespace

(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @func.name parameters: (parameter_list) @func.params)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @func.name parameters: (parameter_list) @func.params))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier)] @func.name parameters: (parameter_list) @func.params))
  ]
  body: (compound_statement) @func.body) @func

(call_expression) @call
(new_expression) @call

(preproc_include) @import

(declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @assign.type
  declarator: [(identifier) @assign.left
               (init_declarator declarator: (identifier) @assign.left)
               (pointer_declarator declarator: (identifier) @assign.left)
               (init_declarator declarator: (pointer_declarator declarator: (identifier) @assign.left))
               (init_declarator declarator: (reference_declarator (identifier) @assign.left))]) @assign
(field_declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @assign.type
  declarator: (field_identifier) @assign.left) @assign
(for_range_loop declarator: (_) @bind)

(return_statement (_) @return.value) @return
