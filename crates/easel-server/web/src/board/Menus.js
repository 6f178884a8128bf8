// The Layout, Import and Export menus of the board (DESIGN section 16).
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { op } from '../api.js';
import { pageOf } from '../route.js';

const ALGOS = ['layered', 'tree', 'radial', 'grid'];

function Failure({ error }) {
  return error && html`<p class="error" role="alert">${error.message}<br /><small>${error.hint}</small></p>`;
}

export function LayoutMenu({ store, selection, onDone }) {
  const [algo, setAlgo] = useState('layered');
  const [direction, setDirection] = useState('down');
  const [onlySelected, setOnlySelected] = useState(false);
  const apply = async () => {
    const ids = [...selection];
    const out = await store.change((data) => {
      const nodes = onlySelected ? ids.filter((id) => data.nodes.some((n) => n.id === id)) : null;
      if (nodes && nodes.length === 0) return null;
      return { name: 'canvas_layout', args: { algo, direction, ...(nodes ? { nodes } : {}) } };
    });
    if (out) onDone();
  };
  return html`<div class="board-panel" role="dialog" aria-label="Layout">
    <label>Algorithm <select aria-label="Algorithm" value=${algo} onChange=${(e) => setAlgo(e.currentTarget.value)}>
      ${ALGOS.map((a) => html`<option value=${a}>${a}</option>`)}</select></label>
    <label>Direction <select aria-label="Direction" value=${direction} onChange=${(e) => setDirection(e.currentTarget.value)}>
      <option value="down">down</option><option value="right">right</option></select></label>
    <label><input type="checkbox" checked=${onlySelected} disabled=${selection.size === 0}
      onChange=${(e) => setOnlySelected(e.currentTarget.checked)} /> Only the selected nodes</label>
    <button class="primary" onClick=${apply}>Apply layout</button>
  </div>`;
}

export function ImportMenu({ path }) {
  const [text, setText] = useState('');
  const [format, setFormat] = useState('');
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const [out, setOut] = useState(dir + 'Imported.canvas');
  const [error, setError] = useState(null);
  const [made, setMade] = useState(null);
  const run = async () => {
    setError(null);
    try {
      const args = { text, path: out.endsWith('.canvas') ? out : out + '.canvas' };
      if (format) args.format = format;
      const r = await op('canvas_import', args);
      setMade({ path: r.path ?? args.path, warnings: r.warnings ?? [] });
    } catch (e) {
      setError(e);
    }
  };
  return html`<div class="board-panel" role="dialog" aria-label="Import">
    <label>Mermaid, DOT or Markdown outline
      <textarea aria-label="Diagram text" rows="6" value=${text} onInput=${(e) => setText(e.currentTarget.value)}
        placeholder=${'flowchart TD\n  A[Idea] --> B[Draft]'}></textarea></label>
    <label>Format <select aria-label="Format" value=${format} onChange=${(e) => setFormat(e.currentTarget.value)}>
      <option value="">guess</option><option value="mermaid">mermaid</option><option value="dot">dot</option><option value="outline">outline</option>
    </select></label>
    <label>New canvas <input aria-label="New canvas path" value=${out} onInput=${(e) => setOut(e.currentTarget.value)} /></label>
    <button class="primary" disabled=${!text.trim()} onClick=${run}>Import</button>
    <${Failure} error=${error} />
    ${made && html`<p role="status">Made <a href=${pageOf(made.path)}>${made.path}</a>
      ${made.warnings.length > 0 && html`<ul class="warnings">${made.warnings.map((w) => html`<li>${typeof w === 'string' ? w : JSON.stringify(w)}</li>`)}</ul>`}</p>`}
  </div>`;
}

export function ExportMenu({ store }) {
  const [to, setTo] = useState('mermaid');
  const [text, setText] = useState(null);
  const [error, setError] = useState(null);
  const run = async () => {
    setError(null);
    try {
      const r = await op('canvas_export', { path: store.canonicalPath, to });
      setText(r.text ?? '');
    } catch (e) {
      setError(e);
    }
  };
  return html`<div class="board-panel" role="dialog" aria-label="Export">
    <label>Format <select aria-label="Export format" value=${to} onChange=${(e) => setTo(e.currentTarget.value)}>
      <option value="mermaid">mermaid</option><option value="dot">dot</option><option value="outline">outline</option>
    </select></label>
    <button class="primary" onClick=${run}>Export</button>
    <${Failure} error=${error} />
    ${text !== null && html`<textarea aria-label="Exported text" readonly rows="10" value=${text}></textarea>
      <button onClick=${() => navigator.clipboard?.writeText(text).catch(() => {})}>Copy</button>`}
  </div>`;
}
