// Edits by hand on the selected element, with no model: each is one `doc_*` operation at the
// rev the page shows, so a change made meanwhile is refused rather than overwritten.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { op } from '../api.js';
import { ErrorNote } from './errors.js';

export function ElementActions({ doc, element, onChanged }) {
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  if (!element) {
    return html`<section class="element-actions" aria-label="Selected element">
      <h3>Selected element</h3>
      <p class="muted">Click a block of the document to select it.</p>
    </section>`;
  }
  const run = async (name, extra = {}) => {
    setBusy(true);
    setError(null);
    try {
      await op(name, { path: doc.path, rev: doc.rev, elementId: element.id, ...extra });
      if (name === 'doc_add_comment') setComment('');
      await onChanged(name === 'doc_delete_element');
    } catch (e) {
      setError(e);
      if (e.kind === 'conflict') await onChanged(false);
    } finally {
      setBusy(false);
    }
  };
  const addComment = (ev) => {
    ev.preventDefault();
    if (comment.trim()) run('doc_add_comment', { comment: comment.trim() });
  };
  return html`<section class="element-actions" aria-label="Selected element">
    <h3>Selected element <code>${element.id}</code> <span class="muted">${element.tag}</span></h3>
    <div class="row">
      <button class="danger" disabled=${busy} onClick=${() => run('doc_redact_element')}>Redact</button>
      <button disabled=${busy} onClick=${() => run('doc_add_highlight')}>Highlight</button>
      <button class="danger" disabled=${busy} onClick=${() => run('doc_delete_element')}>Delete</button>
    </div>
    <form class="row" onSubmit=${addComment}>
      <input aria-label="Comment text" placeholder="A comment on this element" value=${comment} onInput=${(e) => setComment(e.currentTarget.value)} />
      <button type="submit" disabled=${busy || !comment.trim()}>Comment</button>
    </form>
    <${ErrorNote} error=${error} />
  </section>`;
}
