// What a proposed edit would do to an element, as plain text for the before → after column.
// The server's proposal carries only the tool and its input; the preview is derived here from
// the element texts `doc_show` gave, following DESIGN section 10's rules for each edit.

const REDACT_CAP = 40;

/** The █ text a redaction leaves: one block per character, capped as the editor caps it. */
export function redacted(text) {
  return '█'.repeat(Math.min([...(text ?? '')].length, REDACT_CAP));
}

/** `{element, before, after}` for one proposed operation; `element` is null for bulk edits. */
export function preview(operation, elements) {
  const input = operation.input ?? {};
  const byId = (id) => elements.find((e) => e.id === id);
  const el = input.elementId ? byId(input.elementId) : null;
  const before = el ? el.text : '';
  switch (operation.tool) {
    case 'redact_element':
      return { element: input.elementId, before, after: redacted(before) };
    case 'delete_element':
      return { element: input.elementId, before, after: '(deleted)' };
    case 'add_highlight':
      return { element: input.elementId, before, after: `highlighted: ${before}` };
    case 'add_comment':
      return { element: input.elementId, before, after: `${before}\n💬 ${input.comment ?? ''}` };
    case 'replace_text': {
      const old = input.oldText ?? '';
      const at = before.indexOf(old);
      const after = at < 0 ? before : before.slice(0, at) + (input.newText ?? '') + before.slice(at + old.length);
      return { element: input.elementId, before, after };
    }
    case 'find_and_replace_all':
      return { element: null, before: `every "${input.find ?? ''}"`, after: `"${input.replace ?? ''}"` };
    case 'redact_all_matching':
      return { element: null, before: `every match of ${input.pattern ?? ''}`, after: '█…' };
    default:
      return { element: input.elementId ?? null, before, after: JSON.stringify(input) };
  }
}
