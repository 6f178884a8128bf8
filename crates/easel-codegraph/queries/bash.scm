; Bash: functions, commands and `source` for easel-code.

(function_definition
  name: (word) @func.name
  body: (_) @func.body) @func

((command
   name: (command_name) @_n
   argument: (_)) @import
 (#match? @_n "^(source|\\.)$"))

(command name: (command_name)) @call
