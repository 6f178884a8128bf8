// The document capsule (`/doc/{path}`): an HTML document or a Markdown note as its elements,
// edited by instruction (a reviewed proposal) or by hand, with the document's ledger and Undo.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { op, onEvent } from '../api.js';
import { DocumentView } from './DocumentView.js';
import { ElementActions } from './ElementActions.js';
import { Instruction } from './Instruction.js';
import { ProposalView } from './ProposalView.js';
import { LedgerView, ledgerOf } from './LedgerView.js';
import { Finalize } from './Finalize.js';
import { ErrorNote } from './errors.js';

const IS_HTML = /\.html?$/i;

export function Capsule({ path }) {
  const [doc, setDoc] = useState(null);
  const [ledger, setLedger] = useState([]);
  const [error, setError] = useState(null);
  const [gone, setGone] = useState(false);
  const [selected, setSelected] = useState(null);
  const [proposal, setProposal] = useState(null); // {output, elements, n}
  const [again, setAgain] = useState(0);
  const rev = useRef(null);

  const load = async () => {
    try {
      const d = await op('doc_show', { path });
      rev.current = d.rev;
      setDoc(d);
      setGone(false);
      setError(null);
      setSelected((s) => (s && d.elements.some((e) => e.id === s) ? s : null));
    } catch (e) {
      setError(e);
    }
    try {
      setLedger(await ledgerOf(path));
    } catch (e) {
      setError(e);
    }
  };

  useEffect(() => {
    load();
    return onEvent((e) => {
      if (e.type === 'changed' && e.path === path) {
        if (e.rev === null) setGone(true);
        else if (e.rev !== rev.current) load();
      } else if (e.type === 'reconnected' || e.type === 'lagged') {
        load();
      }
    });
  }, [path]);

  const addIds = async () => {
    try {
      await op('doc_ids', { path });
      await load();
    } catch (e) {
      setError(e);
    }
  };

  if (!doc) {
    // An HTML document is addressable only once its elements carry ids; the server says so.
    const needsIds = error && IS_HTML.test(path) && /doc_ids|doc ids/.test(error.hint ?? '');
    return html`<main class="capsule loading" data-doc-path=${path}>
      <h1>${path}</h1>
      ${error ? html`<${ErrorNote} error=${error} />` : html`<p class="muted">Loading…</p>`}
      ${needsIds &&
      html`<div class="empty">
        <p>Element ids change nothing else in the file; edits need them to name the elements.</p>
        <button onClick=${addIds}>Add element ids</button>
      </div>`}
    </main>`;
  }
  const element = doc.elements.find((e) => e.id === selected) ?? null;
  return html`<main class="capsule" data-doc-path=${doc.path} data-rev=${doc.rev}>
    <div class="capsule-doc">
      <header>
        <h1>${doc.path}</h1>
        <span class="muted">${doc.elements.length} elements · rev <code>${doc.rev}</code></span>
      </header>
      ${gone && html`<p class="error" role="alert">This document was deleted on disk. <small>Open another one from the vault panel.</small></p>`}
      <${ErrorNote} error=${error} />
      ${doc.elements.length === 0 && html`<p class="muted empty">This document has no text blocks yet.</p>`}
      <${DocumentView} doc=${doc} selected=${selected} onSelect=${setSelected} />
    </div>
    <aside class="capsule-side">
      <${Instruction}
        doc=${doc}
        selected=${selected}
        again=${again}
        onProposal=${(output, elements) => setProposal({ output, elements, n: (proposal?.n ?? 0) + 1 })}
      />
      ${proposal &&
      html`<${ProposalView}
        key=${proposal.n}
        proposal=${proposal.output}
        elements=${proposal.elements}
        onApplied=${load}
        onRepropose=${() => {
          setProposal(null);
          setAgain((n) => n + 1);
        }}
        onClose=${() => setProposal(null)}
      />`}
      <${ElementActions} doc=${doc} element=${element} onChanged=${load} />
      <${LedgerView} entries=${ledger} onUndone=${load} />
      <${Finalize} path=${doc.path} onDone=${load} />
    </aside>
  </main>`;
}
