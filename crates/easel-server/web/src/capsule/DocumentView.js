// The document as a flow of its elements (from `doc_show`), each a selectable block. Element
// text is untrusted and is rendered as text, never as HTML.
import { html } from '../html.js';

const HEADING = /^h[1-6]$/;

function blockClass(tag, selected) {
  const kind = HEADING.test(tag) ? `heading ${tag}` : tag === 'li' ? 'item' : tag === 'pre' || tag === 'code' ? 'code' : tag;
  return `block ${kind}${selected ? ' selected' : ''}`;
}

export function DocumentView({ doc, selected, onSelect }) {
  if (doc.elements.length === 0) return null;
  const key = (ev, id) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      onSelect(id);
    }
  };
  return html`<div class="doc-flow" role="listbox" aria-label="Elements of ${doc.path}">
    ${doc.elements.map(
      (e) => html`<div
        key=${e.id}
        class=${blockClass(e.tag, e.id === selected)}
        role="option"
        tabindex="0"
        aria-selected=${e.id === selected ? 'true' : 'false'}
        data-element-id=${e.id}
        data-tag=${e.tag}
        title=${`${e.tag} ${e.id}`}
        onClick=${() => onSelect(e.id === selected ? null : e.id)}
        onKeyDown=${(ev) => key(ev, e.id)}
      >${e.text}</div>`,
    )}
  </div>`;
}
