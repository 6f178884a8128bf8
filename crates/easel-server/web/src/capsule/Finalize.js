// `doc_finalize`, behind a confirmation: it deletes the copies Easel kept of redacted text, so
// those redactions can no longer be undone.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { op } from '../api.js';
import { ErrorNote } from './errors.js';

export function Finalize({ path, onDone }) {
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const confirm = async () => {
    setError(null);
    try {
      const res = await op('doc_finalize', { path });
      setResult(res);
      setAsking(false);
      await onDone();
    } catch (e) {
      setError(e);
    }
  };
  return html`<section class="finalize" aria-label="Finalize redactions">
    ${!asking && html`<button class="danger" onClick=${() => { setAsking(true); setResult(null); }}>Finalize redactions…</button>`}
    ${asking &&
    html`<div class="confirm" role="alertdialog" aria-label="Confirm finalizing">
      <p>The redacted text is already gone from the document, but Easel keeps earlier versions so
        changes can be undone. Finalizing deletes every kept copy of redacted text (earlier versions
        in the ledger and agent sessions that quoted it): the redactions become permanent and can no
        longer be undone.</p>
      <div class="row">
        <button class="danger" onClick=${confirm}>Finalize</button>
        <button onClick=${() => setAsking(false)}>Cancel</button>
      </div>
    </div>`}
    ${result &&
    html`<p class="done" role="status">
      ${result.redactions} redaction(s) finalized; ${result.blobs_removed} saved version(s) and ${result.sessions_removed} session(s) removed.
      ${result.note ? ` ${result.note}.` : ''}
    </p>`}
    <${ErrorNote} error=${error} />
  </section>`;
}
