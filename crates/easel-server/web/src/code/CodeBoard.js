// The code board (`/code/{folder}`) of a repository opened as a vault: the architecture, impact
// and board views that the `canvas` operation drew, and the evidence, claims and decisions of
// its evidence board. `folder` is the repository inside the vault ('' for the vault itself).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { op, onEvent } from '../api.js';
import { loadBoard, stateText, codecanvasOf, fileUrl, canvasPage } from './boardData.js';
import { Actions } from './Actions.js';

const POLL_MS = 2000;

function Metrics({ metrics }) {
  const parts = Object.entries(metrics ?? {}).filter(([k]) => k !== 'millis' && k !== 'cached' && k !== 'parsed');
  return parts.length > 0 ? html`<span class="muted"> ${parts.map(([k, v]) => `${v} ${k.replace(/_/g, ' ')}`).join(', ')}</span>` : null;
}

function View({ view }) {
  const title = view.kind === 'impact' ? `impact: ${view.name.replace(/^impact_/, '')}` : view.name;
  return html`<figure class=${`view ${view.kind}`} data-view=${view.name} data-kind=${view.kind}>
    <figcaption>
      <strong>${title}</strong>
      ${view.canvas && html` <a href=${canvasPage(view.canvas)}>Open as canvas</a>`}
    </figcaption>
    ${view.image && html`<a href=${fileUrl(view.image)} target="_blank" rel="noopener"><img src=${fileUrl(view.image, view.imageVersion)} alt=${`${title} view`} loading="lazy" /></a>`}
  </figure>`;
}

function Items({ label, items, render }) {
  return html`<section class="items" aria-label=${label}>
    <h3>${label} <span class="muted">(${items.length})</span></h3>
    ${items.length === 0 ? html`<p class="muted">None yet.</p>` : html`<ul>${items.map(render)}</ul>`}
  </section>`;
}

// A mark or skip is a decision naming the node it addressed.
function addressedNodes(state) {
  return new Set((state.decisions ?? []).filter((d) => (d.kind === 'mark' || d.kind === 'skip') && d.node).map((d) => d.node));
}

function Evidence({ state }) {
  const focus = state.focus;
  const done = addressedNodes(state);
  return html`<div class="lists">
    <${Items}
      label="Evidence"
      items=${state.evidence ?? []}
      render=${(e) => html`<li data-item=${e.id}><code>${e.id}</code> ${e.kind}${e.symbol && html` <q>${e.symbol}</q>`}<${Metrics} metrics=${e.metrics} /></li>`}
    />
    <${Items}
      label="Claims"
      items=${state.claims ?? []}
      render=${(c) => html`<li data-item=${c.id}><code>${c.id}</code> <em>${c.kind}</em> ${c.text}${c.evidence && html` <span class="muted">[${c.evidence}]</span>`}</li>`}
    />
    <${Items}
      label="Decisions"
      items=${state.decisions ?? []}
      render=${(d) => html`<li data-item=${d.id}><code>${d.id}</code> <em>${d.kind}</em> ${d.text}${d.evidence && html` <span class="muted">[${d.evidence}]</span>`}</li>`}
    />
    ${focus &&
    html`<section class="items" aria-label="Focus">
      <h3>Focus <code>${focus.symbol}</code></h3>
      <ul class="affected">
        ${(focus.affected ?? []).map(
          (a) => html`<li><span aria-hidden="true">${done.has(a.node) ? '☑' : '☐'}</span> ${a.qualname} <span class="muted">${a.location}</span></li>`,
        )}
      </ul>
    </section>`}
  </div>`;
}

export function CodeBoard({ arg }) {
  const folder = (arg ?? '').replace(/^\/+|\/+$/g, '');
  const repoPath = folder || '.';
  const [board, setBoard] = useState(null);
  const seen = useRef(undefined);
  const [error, setError] = useState(null);
  const [parsing, setParsing] = useState(false);

  const load = () =>
    loadBoard(folder)
      .then((b) => {
        seen.current = b.stateText;
        setBoard(b);
        setError(null);
      })
      .catch(setError);

  useEffect(() => {
    load();
    let timer;
    const soon = () => {
      // The operation rewrites several files at once: one reload for the burst.
      clearTimeout(timer);
      timer = setTimeout(load, 200);
    };
    const stop = onEvent((e) => {
      const ours = e.type === 'changed' && typeof e.path === 'string' && e.path.includes('.codecanvas/');
      if (ours || e.type === 'reconnected' || e.type === 'lagged') soon();
    });
    // The server's file watcher skips dot folders, so a board changed by the CLI, MCP or the
    // hooks never reaches the event stream: ask for state.json now and then (a 304 when same).
    const poll = setInterval(() => {
      if (document.visibilityState !== 'visible' || seen.current === undefined) return;
      stateText(codecanvasOf(folder))
        .then((t) => {
          if (t !== seen.current) soon();
        })
        .catch(() => {});
    }, POLL_MS);
    return () => {
      stop();
      clearInterval(poll);
      clearTimeout(timer);
    };
  }, [folder]);

  const init = async () => {
    setParsing(true);
    setError(null);
    try {
      await op('canvas', { action: 'init', repo_path: repoPath });
      await load();
    } catch (e) {
      setError(e);
    } finally {
      setParsing(false);
    }
  };

  const heading = folder ? `Code board: ${folder}` : 'Code board';
  return html`<main class="code-board" data-code-folder=${folder}>
    <header>
      <h1>${heading}</h1>
      ${board?.state?.focus && html`<span class="muted">focus ${board.state.focus.symbol}</span>`}
    </header>
    ${error && html`<p class="error" role="alert">${error.message}<br /><small>${error.hint}</small></p>`}
    ${!board && !error && html`<p class="muted">Loading…</p>`}
    ${board &&
    !board.state &&
    html`<div class="empty">
      <p>${folder || 'This vault'} has no code board yet: parsing the code draws its architecture and starts the evidence board in <code>${board.prefix}</code>.</p>
      <button class="primary" disabled=${parsing} onClick=${init}>${parsing ? 'Parsing…' : 'Parse the code'}</button>
    </div>`}
    ${board?.state &&
    html`<div class="code-layout">
      <section class="views" aria-label="Views">
        ${board.views.length === 0 && html`<p class="muted">No view drawn yet: use Redraw the board.</p>`}
        ${board.views.map((v) => html`<${View} key=${v.name} view=${v} />`)}
      </section>
      <aside class="code-side">
        <${Actions} repoPath=${repoPath} onDone=${load} />
        <${Evidence} state=${board.state} />
      </aside>
    </div>`}
  </main>`;
}
