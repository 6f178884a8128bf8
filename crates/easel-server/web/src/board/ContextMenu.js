// The right-click menu: on a node, Send to LLM, Edit text and Delete; on the background, a new
// text node there and Zoom to fit.
import { html } from '../html.js';

export function ContextMenu({ menu, close, actions }) {
  const item = (label, fn) => html`<button role="menuitem" onClick=${() => {
    close();
    fn();
  }}>${label}</button>`;
  return html`<div class="board-menu" role="menu" aria-label="Board menu" style=${`left:${menu.x}px;top:${menu.y}px`}
    onPointerDown=${(e) => e.stopPropagation()}>
    ${menu.node
      ? [item('Send to LLM', () => actions.send(menu.node)), item('Edit text', () => actions.edit(menu.node)), item('Delete', actions.remove)]
      : [item('New text node', () => actions.newNodeAt(menu.world)), item('Zoom to fit', actions.fit)]}
  </div>`;
}
