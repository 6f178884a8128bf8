// The vault side panel: canvases, notes and documents, agents, and a new canvas from a template.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';
import { op, onEvent } from './api.js';
import { pageOf } from './route.js';

const TEMPLATES = ['blank', 'mindmap', 'flowchart', 'kanban', 'timeline', 'swot', 'conversation'];

function group(files) {
  const canvases = [];
  const docs = [];
  for (const f of files) {
    if (f.path.endsWith('.canvas')) canvases.push(f);
    else if (/\.(md|html?)$/i.test(f.path)) docs.push(f);
  }
  return { canvases, docs };
}

// A folder holding `.codecanvas/` is a repository with a code board ('' is the vault's root).
function codeBoards(files) {
  const folders = new Set();
  for (const f of files) {
    const m = /^(?:(.*)\/)?\.codecanvas\//.exec(f.path);
    if (m) folders.add(m[1] ?? '');
  }
  return [...folders].sort();
}

export function VaultPanel({ current }) {
  const [files, setFiles] = useState(null);
  const [agents, setAgents] = useState([]);
  const [error, setError] = useState(null);
  const [creating, setCreating] = useState(false);

  const load = () =>
    op('vault_list', { limit: 2000 })
      .then((r) => {
        setFiles(r.files);
        setError(null);
      })
      .catch((e) => setError(e));

  const loadAgents = () =>
    op('agent_list', {})
      .then((r) => setAgents(r.agents ?? []))
      .catch(() => setAgents([]));

  const known = useRef(new Set());
  useEffect(() => {
    known.current = new Set((files ?? []).map((f) => f.path));
  }, [files]);

  useEffect(() => {
    load();
    loadAgents();
    let timer;
    let agentTimer;
    // Only a file created or deleted changes the list (an answer streaming into a canvas
    // rewrites it many times a second); bursts are coalesced.
    return onEvent((e) => {
      const listed = e.type === 'changed' && known.current.has(e.path);
      if (e.type === 'reconnected' || (e.type === 'changed' && (e.rev === null) === listed)) {
        clearTimeout(timer);
        timer = setTimeout(load, 150);
      }
      if (e.type === 'reconnected' || (e.type === 'changed' && /^\.(easel|claude|github|opencode)\/agents\//.test(e.path))) {
        clearTimeout(agentTimer);
        agentTimer = setTimeout(loadAgents, 150);
      }
    });
  }, []);

  const { canvases, docs } = group(files ?? []);
  const boards = codeBoards(files ?? []);
  const item = (f) => {
    const href = pageOf(f.path);
    return html`<li class=${f.path === current ? 'current' : ''}>
      <a href=${href} title=${f.path}>${f.path}</a>
    </li>`;
  };
  return html`<nav class="vault" aria-label="Vault">
    <a class="brand" href="/">Easel</a>
    ${error && html`<p class="error" role="alert">${error.message}<br /><small>${error.hint}</small></p>`}
    <section>
      <h2>Canvases <button class="small" onClick=${() => setCreating(!creating)}>New canvas</button></h2>
      ${creating && html`<${NewCanvas} onDone=${() => setCreating(false)} />`}
      <ul>${canvases.map(item)}</ul>
    </section>
    <section>
      <h2>Notes and documents</h2>
      <ul>${docs.map(item)}</ul>
    </section>
    ${boards.length > 0 &&
    html`<section>
      <h2>Code</h2>
      <ul>
        ${boards.map(
          (d) => html`<li><a href=${'/code/' + d.split('/').map(encodeURIComponent).join('/')}>${d ? `Code board: ${d}` : 'Code board'}</a></li>`,
        )}
      </ul>
    </section>`}
    <section>
      <h2>Agents <a class="small" href="/agent-edit/">New agent</a></h2>
      <ul>
        ${agents.map(
          (a) => html`<li><a href=${'/agent/' + encodeURIComponent(a.name)} title=${a.description ?? ''}>${a.name}</a></li>`,
        )}
      </ul>
    </section>
  </nav>`;
}

function NewCanvas({ onDone }) {
  const [path, setPath] = useState('Untitled.canvas');
  const [template, setTemplate] = useState('blank');
  const [error, setError] = useState(null);
  const submit = async (ev) => {
    ev.preventDefault();
    const p = path.endsWith('.canvas') ? path : path + '.canvas';
    try {
      if (template === 'blank') {
        await op('canvas_write', { path: p, nodes: [], edges: [] });
      } else {
        await op('canvas_new', { path: p, template, set: { topic: p.replace(/\.canvas$/, '').split('/').pop() } });
      }
      onDone();
      location.href = pageOf(p);
    } catch (e) {
      setError(e);
    }
  };
  return html`<form class="new-canvas" onSubmit=${submit}>
    <label>Path <input value=${path} onInput=${(e) => setPath(e.currentTarget.value)} /></label>
    <label>Template
      <select value=${template} onChange=${(e) => setTemplate(e.currentTarget.value)}>
        ${TEMPLATES.map((t) => html`<option value=${t}>${t}</option>`)}
      </select>
    </label>
    <button type="submit">Create</button>
    ${error && html`<p class="error" role="alert">${error.message}<br /><small>${error.hint}</small></p>`}
  </form>`;
}
