; TSX: what the grammar adds to TypeScript (this file is appended to typescript.scm, since
; tree-sitter queries cannot include one another).

; `<Button label="x" />` renders the component `Button`: a call of it. Lower-case names are
; the host's elements (`<div>`) and are skipped by the extractor.
(jsx_self_closing_element) @call
(jsx_opening_element) @call
