// The board's actions through the `canvas` operation: impact of a symbol (a new impact view),
// a claim, a decision, and a redraw. Each answer's `result` and `next` are shown as text.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { op } from '../api.js';

const CLAIM_KINDS = ['hypothesis', 'finding', 'question'];
const DECISION_KINDS = ['plan', 'test', 'edit'];

export function Actions({ repoPath, onDone }) {
  const [symbol, setSymbol] = useState('');
  const [claim, setClaim] = useState({ text: '', kind: 'finding' });
  const [decision, setDecision] = useState({ text: '', kind: 'plan' });
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState(null);

  const run = async (args, reset) => {
    setBusy(true);
    setError(null);
    try {
      const out = await op('canvas', { repo_path: repoPath, ...args });
      setAnswer(out);
      reset?.();
      await onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const submit = (fn) => (ev) => {
    ev.preventDefault();
    fn();
  };
  return html`<section class="code-actions" aria-label="Board actions">
    <form class="row" onSubmit=${submit(() => symbol.trim() && run({ action: 'impact', symbol: symbol.trim() }, () => setSymbol('')))}>
      <input aria-label="Symbol" placeholder="A function, class or module" value=${symbol} onInput=${(e) => setSymbol(e.currentTarget.value)} />
      <button type="submit" disabled=${busy || !symbol.trim()}>Show impact</button>
    </form>
    <form class="row" onSubmit=${submit(() => claim.text.trim() && run({ action: 'claim', text: claim.text.trim(), kind: claim.kind }, () => setClaim({ ...claim, text: '' })))}>
      <input aria-label="Claim" placeholder="A hypothesis, finding or question" value=${claim.text} onInput=${(e) => setClaim({ ...claim, text: e.currentTarget.value })} />
      <select aria-label="Claim kind" value=${claim.kind} onChange=${(e) => setClaim({ ...claim, kind: e.currentTarget.value })}>
        ${CLAIM_KINDS.map((k) => html`<option value=${k}>${k}</option>`)}
      </select>
      <button type="submit" disabled=${busy || !claim.text.trim()}>Add claim</button>
    </form>
    <form class="row" onSubmit=${submit(() => decision.text.trim() && run({ action: 'decide', text: decision.text.trim(), kind: decision.kind }, () => setDecision({ ...decision, text: '' })))}>
      <input aria-label="Decision" placeholder="A plan, test or edit" value=${decision.text} onInput=${(e) => setDecision({ ...decision, text: e.currentTarget.value })} />
      <select aria-label="Decision kind" value=${decision.kind} onChange=${(e) => setDecision({ ...decision, kind: e.currentTarget.value })}>
        ${DECISION_KINDS.map((k) => html`<option value=${k}>${k}</option>`)}
      </select>
      <button type="submit" disabled=${busy || !decision.text.trim()}>Add decision</button>
    </form>
    <div class="row">
      <button disabled=${busy} onClick=${() => run({ action: 'status' })}>Redraw the board</button>
      ${busy && html`<span class="muted" role="status">Working…</span>`}
    </div>
    ${error && html`<p class="error" role="alert">${error.message}<br /><small>${error.hint}</small></p>`}
    ${answer &&
    html`<div class="answer" role="status" aria-label="Last answer">
      <pre>${answer.result}</pre>
      ${answer.next && html`<p class="muted">${answer.next}</p>`}
    </div>`}
  </section>`;
}
