; Python: definitions, calls, imports, bindings and returns for easel-code.
; Capture names are shared by every language; see src/extract.rs.

(class_definition
  name: (identifier) @class.name
  superclasses: (argument_list [(identifier) (attribute)] @class.base)?
  body: (block) @class.body) @class

(function_definition
  name: (identifier) @func.name
  parameters: (parameters) @func.params
  body: (block) @func.body) @func

; A lambda bound to a name is a function of that name.
(assignment
  left: (identifier) @lambda.name
  right: (lambda) @lambda)

(call) @call
(decorator [(identifier) (attribute)] @call.decorator)
; `@retry(3)`: the decorator is what the call returns.
(decorator (call) @call.decorator)

(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import

(assignment
  left: (_) @assign.left
  right: (_) @assign.right) @assign
(augmented_assignment left: (_) @bind)
(for_statement left: (_) @bind)
(for_in_clause left: (_) @bind)
(for_in_clause left: (identifier) @iter.left right: (_) @iter.right) @iter
; `with X() as x`: calls `__enter__` and `__exit__`; `x` is what `__enter__` returns (and is
; bound). The `as` parts of this and the next are found in src/extract.rs: patterns reaching
; into `as_pattern` took a third of the query's compile time (~2 ms on every run).
(with_item) @with
; `except E as e`: `e` is an instance of `E`.
(except_clause) @except
; `(x := v)` binds `x` to `v`, as an assignment does.
(named_expression name: (identifier) @assign.left value: (_) @assign.right) @assign
(global_statement (identifier) @global)
(nonlocal_statement (identifier) @global)

(return_statement (_) @return.value) @return

; A lambda is a scope of its own: its parameters are not the enclosing function's names.
(lambda) @scope

; `raise Error` constructs the exception without parentheses.
(raise_statement [(identifier) (attribute)] @call.maybe)

; A loop variable takes the values of what it iterates over; a generator yields them.
(for_statement left: (identifier) @iter.left right: (_) @iter.right) @iter
; `for k, v in d.items()` / `for i, v in enumerate(xs)`: `v` takes the values.
(for_statement left: [(pattern_list) (tuple_pattern)] @iter.left right: (call) @iter.right) @iter
(yield (_) @return.value) @return

; An attribute read or written: a call when a `@property` getter or setter is what it reaches.
(attribute) @prop
