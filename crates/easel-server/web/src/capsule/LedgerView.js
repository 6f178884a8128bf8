// The document's changes from the ledger (`ledger_list`, kept to this path), newest first, with
// Undo per entry. The ledger refuses an undo that would destroy newer work; its hint is shown.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { op } from '../api.js';
import { ErrorNote } from './errors.js';

// The ledger is vault-wide; this many recent entries are enough to find a document's own.
const LEDGER_WINDOW = 500;

/** The ledger entries of `path`, newest first. */
export async function ledgerOf(path) {
  const res = await op('ledger_list', { limit: LEDGER_WINDOW });
  return (res.entries ?? []).filter((e) => e.path === path);
}

function when(time) {
  const d = new Date(time);
  return Number.isNaN(d.getTime()) ? time : d.toLocaleString();
}

export function LedgerView({ entries, onUndone }) {
  const [busy, setBusy] = useState(null);
  const [error, setError] = useState(null);
  const undone = new Set(entries.filter((e) => e.undoes).map((e) => e.undoes));
  const undo = async (id) => {
    setBusy(id);
    setError(null);
    try {
      await op('ledger_undo', { id });
      await onUndone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  return html`<section class="ledger" aria-label="Ledger">
    <h3>Changes</h3>
    <${ErrorNote} error=${error} />
    ${entries.length === 0 && html`<p class="muted">No change to this document is recorded yet.</p>`}
    <ol class="entries">
      ${entries.map(
        (e) => html`<li key=${e.id} class=${undone.has(e.id) ? 'entry undone' : 'entry'} data-ledger-id=${e.id}>
          <div class="summary">${e.summary}</div>
          <div class="meta muted">${when(e.time)} · ${e.actor}${undone.has(e.id) ? ' · undone' : ''}</div>
          ${!undone.has(e.id) &&
          html`<button class="small" disabled=${busy !== null} onClick=${() => undo(e.id)}>Undo</button>`}
        </li>`,
      )}
    </ol>
  </section>`;
}
