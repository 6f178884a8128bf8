// The board's toolbar (view, history, the Layout/Import/Export menus, Send to LLM) and its
// notices: each says what happened and, when there is one, what to do next.
import { html } from '../html.js';
import { SendControls } from './SendToLlm.js';
import { ExportMenu, ImportMenu, LayoutMenu } from './Menus.js';

const PANELS = [
  ['layout', 'Layout'],
  ['import', 'Import'],
  ['export', 'Export'],
];

export function Toolbar({ data, store, selection, answers, panel, setPanel, fit, zoomBy, history }) {
  return html`<div class="board-toolbar" role="toolbar" aria-label="Board">
      <span class="board-title" title=${data.path}>${data.path}</span>
      <button onClick=${fit} title="Zoom to fit (Shift+1)">Zoom to fit</button>
      <button onClick=${() => zoomBy(1.25)} aria-label="Zoom in">+</button>
      <button onClick=${() => zoomBy(0.8)} aria-label="Zoom out">−</button>
      <button onClick=${() => history(false)} title="Ctrl+Z">Undo</button>
      <button onClick=${() => history(true)} title="Ctrl+Shift+Z">Redo</button>
      ${PANELS.map(([p, label]) => html`<button aria-expanded=${panel === p} onClick=${() => setPanel(panel === p ? null : p)}>${label}</button>`)}
      <${SendControls} data=${data} selection=${selection} answers=${answers} store=${store} />
    </div>
    ${panel === 'layout' && html`<${LayoutMenu} store=${store} selection=${selection} onDone=${() => setPanel(null)} />`}
    ${panel === 'import' && html`<${ImportMenu} path=${data.path} />`}
    ${panel === 'export' && html`<${ExportMenu} store=${store} />`}`;
}

export function Notices({ store }) {
  return html`<div class="board-notices">
    ${store.notices.map(
      (n) => html`<div key=${n.id} class=${'notice ' + n.kind} role=${n.kind === 'error' ? 'alert' : 'status'}>
        <span>${n.message}</span>${n.hint && html` <small>${n.hint}</small>`}
        <button class="small" onClick=${() => store.dismiss(n.id)}>Dismiss</button>
      </div>`,
    )}
  </div>`;
}
