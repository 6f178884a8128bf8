// The agent editor (`/agent-edit/{name}`; `/agent-edit/` for a new agent): name, description,
// model, instructions, tools, handoffs and agents-as-tools, saved with `agent_save`, which merges
// the changed keys into `.easel/agents/NAME.md` and keeps every other key of the file.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { op, ops, onEvent } from '../api.js';
import { NAME_RE, formOf, isDirty, saveArgs } from './agentForm.js';
import { ToolPicker } from './ToolPicker.js';
import { ScriptTools } from './ScriptTools.js';
import { ErrorNote } from './ErrorNote.js';

const agentPath = (name) => `.easel/agents/${name}.md`;

/** Every model `llm_list` names, the usable providers' first. */
function modelsOf(llm) {
  const providers = [...(llm?.providers ?? [])].sort((a, b) => Number(b.ready) - Number(a.ready));
  return providers.flatMap((p) => (p.models ?? []).map((m) => ({ id: m, ready: p.ready })));
}

function AgentPicks({ legend, label, agents, chosen, onChange }) {
  const set = new Set(chosen);
  const toggle = (n) => onChange(set.has(n) ? chosen.filter((x) => x !== n) : [...chosen, n]);
  const unknown = chosen.filter((n) => !agents.some((a) => a.name === n));
  return html`<fieldset>
    <legend>${legend}</legend>
    ${agents.length === 0 && unknown.length === 0 && html`<p class="note">There are no other agents yet.</p>`}
    <div class="picks" role="group" aria-label=${label}>
      ${agents.map(
        (a) => html`<label key=${a.name} title=${a.description ?? ''}>
          <input type="checkbox" checked=${set.has(a.name)} onChange=${() => toggle(a.name)} />${a.name}
        </label>`,
      )}
      ${unknown.map(
        (n) => html`<label key=${n} title="not an agent of this vault">
          <input type="checkbox" checked=${true} onChange=${() => toggle(n)} />${n} (unknown)
        </label>`,
      )}
    </div>
  </fieldset>`;
}

export function AgentEditor({ name: initial }) {
  const [name, setName] = useState(initial || '');
  const isNew = !name;
  const [form, setForm] = useState(() => formOf(initial || '', null));
  const [loaded, setLoaded] = useState(null);
  const [rev, setRev] = useState(null);
  const [agents, setAgents] = useState([]);
  const [llm, setLlm] = useState(null);
  const [catalogue, setCatalogue] = useState([]);
  const [scripts, setScripts] = useState(null);
  const [scriptProblems, setScriptProblems] = useState([]);
  const [scriptError, setScriptError] = useState(null);
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(null);
  const [changedOnDisk, setChangedOnDisk] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = async (which) => {
    try {
      const note = await op('note_read', { path: agentPath(which) });
      const f = formOf(which, note);
      setForm(f);
      setLoaded(f);
      setRev(note.rev);
      setChangedOnDisk(false);
      setError(null);
    } catch (e) {
      if (e.kind === 'not_found') {
        setError({
          message: `there is no agent file ${agentPath(which)}`,
          hint: 'agents from .claude/, .github/ or .opencode/ are read-only here; fill in the form and Save to create it in .easel/agents/',
        });
        setForm(formOf(which, null));
      } else setError(e);
    }
  };

  useEffect(() => {
    if (initial) load(initial);
    op('agent_list', {}).then((r) => setAgents(r.agents ?? [])).catch(setError);
    op('llm_list', {}).then(setLlm).catch(setError);
    ops()
      .then((r) => setCatalogue(r.operations ?? []))
      .catch(() => setError({ message: 'the operation catalogue could not be loaded', hint: 'reload the page' }));
    op('agent_tool_list', {})
      .then((r) => {
        setScripts(r.tools ?? []);
        setScriptProblems(r.problems ?? []);
      })
      .catch((e) => setScriptError(e));
  }, []);

  useEffect(() => {
    if (!name) return undefined;
    // Someone else (Obsidian, the CLI) changed the file: say so rather than overwrite it blindly.
    return onEvent((e) => {
      if (e.type === 'changed' && e.path === agentPath(name) && e.rev !== rev) setChangedOnDisk(true);
    });
  }, [name, rev]);

  const set = (key) => (value) => {
    setForm((f) => ({ ...f, [key]: value }));
    setSaved(null);
  };
  const text = (key) => (e) => set(key)(e.currentTarget.value);

  const save = async (ev) => {
    ev.preventDefault();
    if (!NAME_RE.test(form.name)) {
      setError({ message: `'${form.name}' is not a usable agent name`, hint: "use letters, digits, '-' and '_' only, e.g. researcher" });
      return;
    }
    setBusy(true);
    try {
      const out = await op('agent_save', saveArgs(form, loaded, rev));
      setRev(out.rev);
      setLoaded(form);
      setChangedOnDisk(false);
      setError(null);
      setSaved(out.path ?? agentPath(form.name));
      if (isNew) {
        setName(form.name);
        history.replaceState(null, '', '/agent-edit/' + encodeURIComponent(form.name));
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const models = modelsOf(llm);
  const others = agents.filter((a) => a.name !== form.name);
  const dirty = isDirty(form, loaded);
  return html`<main class="agent-editor" data-agent=${name} data-rev=${rev ?? ''}>
    <h1>
      ${isNew ? 'New agent' : `Agent ${name}`}
      ${!isNew && html`<a href=${'/agent/' + encodeURIComponent(name)}>Open chat</a>`}
    </h1>
    <${ErrorNote} error=${error} />
    ${changedOnDisk &&
    html`<div class="error" role="alert">
      The agent file changed on disk since it was loaded.
      <br /><small>Reload it to see the new version (your unsaved edits are dropped), or Save to merge your changes into it.</small>
      <button type="button" onClick=${() => load(name)}>Reload</button>
    </div>`}
    <form onSubmit=${save}>
      <label class="field"><span>Name</span>
        <input value=${form.name} readOnly=${!isNew} onInput=${text('name')} placeholder="researcher" required />
      </label>
      <label class="field"><span>Description</span>
        <input value=${form.description} onInput=${text('description')} placeholder="What it does; other agents read this before handing over" />
      </label>
      <label class="field"><span>Model</span>
        <select value=${form.model} onChange=${text('model')}>
          <option value="">${`The default model${llm?.default_model ? ` (${llm.default_model})` : ''}`}</option>
          ${form.model && !models.some((m) => m.id === form.model) && html`<option value=${form.model}>${form.model}</option>`}
          ${models.map((m) => html`<option value=${m.id}>${m.id}${m.ready ? '' : ' (not set up)'}</option>`)}
        </select>
        ${form.fallbacks.length > 0 && html`<small>Then, if it fails: ${form.fallbacks.join(', ')}</small>`}
      </label>
      <label class="field"><span>Instructions</span>
        <textarea value=${form.instructions} onInput=${text('instructions')} placeholder="You are …"></textarea>
      </label>
      <${ToolPicker} catalogue=${catalogue} scripts=${scripts} tools=${form.tools} onChange=${set('tools')} />
      <${AgentPicks} legend="Handoffs: agents it may hand the conversation to" label="Handoffs" agents=${others}
        chosen=${form.handoffs} onChange=${set('handoffs')} />
      <${AgentPicks} legend="Agents it may ask, as tools" label="Agents as tools" agents=${others}
        chosen=${form.agents_as_tools} onChange=${set('agents_as_tools')} />
      <div class="actions">
        <button type="submit" class="primary" disabled=${busy || !dirty}>Save</button>
        ${saved && html`<span class="saved" role="status">Saved to ${saved}</span>`}
        ${!saved && dirty && !isNew && html`<span class="note">Unsaved changes</span>`}
      </div>
    </form>
    <${ScriptTools} tools=${scripts} problems=${scriptProblems} error=${scriptError} />
  </main>`;
}
