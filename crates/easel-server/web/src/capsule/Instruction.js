// The instruction box: runs the document agent (`doc_edit`), which proposes edits and applies
// none. While the model works, the run's events on the stream show its text and tool calls.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { op, onEvent, newRunId, cancelRun } from '../api.js';
import { ErrorNote } from './errors.js';

function callText(e) {
  const args = e.arguments && typeof e.arguments === 'object' ? JSON.stringify(e.arguments) : String(e.arguments ?? '');
  return `${e.name}(${args})`;
}

/**
 * `again` is bumped by the page to run the last instruction once more (after a conflict);
 * `onProposal(output, elementsAtProposal)` receives the finished proposal.
 */
export function Instruction({ doc, selected, again, onProposal }) {
  const [text, setText] = useState('');
  const [run, setRun] = useState(null);
  const [progress, setProgress] = useState({ text: '', calls: [] });
  const [error, setError] = useState(null);
  const [stopped, setStopped] = useState(false);
  const last = useRef(null);
  const abort = useRef(null);

  const propose = async (instruction, select) => {
    const id = newRunId();
    last.current = { instruction, select };
    setRun(id);
    setProgress({ text: '', calls: [] });
    setError(null);
    setStopped(false);
    const elements = doc.elements;
    const ctl = new AbortController();
    abort.current = ctl;
    // Listen before the request goes out: the run's first events can come before a re-render.
    const unlisten = onEvent((e) => {
      if (e.call !== id) return;
      if (e.type === 'text_delta') setProgress((p) => ({ ...p, text: p.text + (e.delta ?? '') }));
      else if (e.type === 'tool_call') setProgress((p) => ({ ...p, calls: [...p.calls, callText(e)] }));
    });
    try {
      const args = { path: doc.path, instruction };
      if (select) args.select = select;
      const out = await op('doc_edit', args, { run: id, signal: ctl.signal });
      onProposal(out, elements);
    } catch (e) {
      if (e.name === 'AbortError') setStopped(true);
      else setError(e);
    } finally {
      unlisten();
      setRun(null);
    }
  };

  // The server stops the run where it can; the page stops waiting either way, and a proposal
  // that still arrives is dropped: a proposal applies nothing, so dropping it is safe.
  const stop = () => {
    cancelRun(run).catch(() => {});
    abort.current?.abort();
  };

  useEffect(() => {
    if (again && last.current) propose(last.current.instruction, last.current.select);
  }, [again]);

  const submit = (ev) => {
    ev.preventDefault();
    if (text.trim() && !run) propose(text.trim(), selected);
  };

  return html`<section class="instruction" aria-label="Instruction">
    <h3>Ask the document agent</h3>
    <form onSubmit=${submit}>
      <textarea
        aria-label="Instruction"
        rows="3"
        placeholder=${selected ? `What to do with ${selected} ("redact this")` : 'What to do: "redact every phone number"'}
        value=${text}
        onInput=${(e) => setText(e.currentTarget.value)}
      ></textarea>
      <div class="row">
        <button type="submit" class="primary" disabled=${!!run || !text.trim()}>Propose edits</button>
        ${run && html`<button type="button" onClick=${stop}>Stop</button>`}
        ${selected && html`<span class="muted">about <code>${selected}</code></span>`}
      </div>
    </form>
    ${run &&
    html`<div class="progress" role="status">
      <span class="spinner" aria-hidden="true"></span> The document agent is working…
      ${progress.calls.length > 0 && html`<ul class="calls">${progress.calls.map((c) => html`<li><code>${c}</code></li>`)}</ul>`}
      ${progress.text && html`<p class="agent-text">${progress.text}</p>`}
    </div>`}
    ${stopped && html`<p class="muted" role="note">Stopped: nothing was proposed or applied. Send the instruction again for a proposal.</p>`}
    <${ErrorNote} error=${error} />
  </section>`;
}
