// Replaced by the page's own module; until then the page says it is not there yet.
import { html } from '../html.js';

export function CodeBoard() {
  return html`<main class="todo"><p>This page is not built yet.</p></main>`;
}
