// The agent editor's form as data: read from the agent file's frontmatter and body, and turned
// back into the arguments of `agent_save` with only the keys the user changed, so every other
// line of the file stays as it was.

export const NAME_RE = /^[A-Za-z0-9_-]+$/;

const list = (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** A handoff is an agent name or VS Code's `{label, agent, prompt}`: the picker works on names. */
export const handoffName = (h) => (typeof h === 'string' ? h : h?.agent ?? '');

/** The form for an agent file read with `note_read` (null for a new agent). */
export function formOf(name, note) {
  const fm = note?.frontmatter ?? {};
  const models = list(fm.model);
  return {
    name: typeof fm.name === 'string' && fm.name ? fm.name : name,
    description: typeof fm.description === 'string' ? fm.description : '',
    model: models.length ? String(models[0]) : '',
    fallbacks: models.slice(1).map(String),
    instructions: note?.body ?? '',
    // null: the agent has no `tools` key, so it gets the read-only operations.
    tools: fm.tools === undefined || fm.tools === null ? null : list(fm.tools).map(String),
    handoffs: list(fm.handoffs).map(handoffName).filter(Boolean),
    agents_as_tools: list(fm.agents_as_tools).map(String),
  };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** `agent_save`'s arguments: the name, the rev last read, and each field that differs. */
export function saveArgs(form, loaded, rev) {
  const args = { name: form.name };
  if (rev) args.rev = rev;
  const base = loaded ?? formOf(form.name, null);
  const isNew = !loaded;
  if (isNew || form.description !== base.description) args.description = form.description;
  // An empty model removes the key: the agent follows the configured default again.
  if (form.model !== base.model && (form.model || !isNew)) args.model = form.model;
  if (isNew || form.instructions !== base.instructions) args.instructions = form.instructions;
  if (form.tools !== null && !same(form.tools, base.tools)) args.tools = form.tools;
  if (!same(form.handoffs, base.handoffs) && (form.handoffs.length || !isNew)) args.handoffs = form.handoffs;
  if (!same(form.agents_as_tools, base.agents_as_tools) && (form.agents_as_tools.length || !isNew)) {
    args.agents_as_tools = form.agents_as_tools;
  }
  return args;
}

/** Whether the form differs from what was loaded. */
export function isDirty(form, loaded) {
  return !loaded || Object.keys(saveArgs(form, loaded, null)).length > 1;
}

/** An operation's area: the word before its first `_` (`canvas_add_node` → canvas). */
export function areaOf(opName) {
  const i = opName.indexOf('_');
  return i < 0 ? opName : opName.slice(0, i);
}
