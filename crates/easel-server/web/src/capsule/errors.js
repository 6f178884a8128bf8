// One way to show an operation's refusal: what went wrong, then what to do next.
import { html } from '../html.js';

export function ErrorNote({ error, children }) {
  if (!error) return null;
  return html`<div class="error" role="alert">
    <span class="message">${error.message}</span>
    ${error.hint && html`<small class="hint">${error.hint}</small>`}
    ${children}
  </div>`;
}
