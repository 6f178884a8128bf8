// An error as the API reports it: what went wrong, then what to do next.
import { html } from '../html.js';

export function ErrorNote({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert">
    <span class="error-message">${error.message}</span>
    ${error.hint && html`<br /><small class="error-hint">${error.hint}</small>`}
  </div>`;
}
