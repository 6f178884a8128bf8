// A proposal of the document agent: its operations with before → after, each applied or
// discarded on its own or all at once. Applying is `doc_apply` at the rev the proposal was made
// for; after this page applies part of it, the rest goes on from the rev that apply produced.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { op } from '../api.js';
import { preview } from './preview.js';
import { ErrorNote } from './errors.js';

function operationKey(o, i) {
  return o.id ?? `op${i + 1}`;
}

export function ProposalView({ proposal, elements, onApplied, onRepropose, onClose }) {
  const [state, setState] = useState({}); // key -> 'applied' | 'discarded'
  const [rev, setRev] = useState(proposal.rev);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const ops = proposal.operations.map((o, i) => ({ ...o, key: operationKey(o, i) }));
  const pending = ops.filter((o) => !state[o.key]);

  const apply = async (chosen) => {
    if (chosen.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const res = await op('doc_apply', {
        path: proposal.path,
        rev,
        operations: chosen.map((o) => ({ id: o.key, tool: o.tool, input: o.input })),
      });
      setRev(res.rev);
      setState((s) => ({ ...s, ...Object.fromEntries(chosen.map((o) => [o.key, 'applied'])) }));
      await onApplied(res);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const discard = (chosen) => setState((s) => ({ ...s, ...Object.fromEntries(chosen.map((o) => [o.key, 'discarded'])) }));

  return html`<section class="proposal" aria-label="Proposal">
    <h3>Proposed edits</h3>
    ${proposal.explanation && html`<p class="explanation">${proposal.explanation}</p>`}
    ${ops.length === 0 && html`<p class="muted">The agent proposed no edits.</p>`}
    <ol class="operations">
      ${ops.map((o) => {
        const p = preview(o, elements);
        const st = state[o.key];
        return html`<li class=${`operation ${st ?? 'pending'}`} data-op-id=${o.key} data-tool=${o.tool}>
          <div class="what"><strong>${o.tool}</strong>${p.element && html` <code>${p.element}</code>`}${st && html` <em class="muted">${st}</em>`}</div>
          <div class="diff">
            <span class="before">${p.before}</span>
            <span class="arrow" aria-hidden="true">→</span>
            <span class="after">${p.after}</span>
          </div>
          ${!st &&
          html`<div class="row">
            <button class="primary" disabled=${busy} onClick=${() => apply([o])}>Apply</button>
            <button disabled=${busy} onClick=${() => discard([o])}>Discard</button>
          </div>`}
        </li>`;
      })}
    </ol>
    <div class="row all" role="group" aria-label="All proposed edits">
      ${pending.length > 0
        ? html`<button class="primary" disabled=${busy} onClick=${() => apply(pending)}>Apply all</button>
            <button disabled=${busy} onClick=${() => discard(pending)}>Discard</button>`
        : html`<button onClick=${onClose}>Close</button>`}
    </div>
    <${ErrorNote} error=${error}>
      ${error?.kind === 'conflict' &&
      html`<p>The document changed since this proposal was made, so nothing was applied.
        <button onClick=${onRepropose}>Propose again</button></p>`}
    </${ErrorNote}>
  </section>`;
}
