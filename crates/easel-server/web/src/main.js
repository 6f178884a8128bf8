// The web UI's entry: the vault panel beside the page the URL names.
import { render } from 'preact';
import { html } from './html.js';
import { route } from './route.js';
import { prefetch } from './api.js';
import { VaultPanel } from './vault.js';
import { useEffect, useState } from 'preact/hooks';

// Each page's code is fetched only when that page is opened (a chunk of its own).
const pages = {
  canvas: () => import('./board/Board.js').then((m) => m.Board),
  doc: () => import('./capsule/Capsule.js').then((m) => m.Capsule),
  agent: () => import('./chat/Chat.js').then((m) => m.Chat),
  'agent-edit': () => import('./chat/AgentEditor.js').then((m) => m.AgentEditor),
  code: () => import('./code/CodeBoard.js').then((m) => m.CodeBoard),
};

function Lazy({ page, props }) {
  const [View, setView] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    (page === opening.page ? opening.code : pages[page]())
      .then((v) => setView(() => v))
      .catch(() => setError('this page could not be loaded: reload it, and restart `easel serve` if it keeps failing'));
  }, [page]);
  if (error) return html`<main class="todo"><p class="error" role="alert">${error}</p></main>`;
  return View ? html`<${View} ...${props} />` : html`<main class="loading" aria-busy="true"></main>`;
}

function Home() {
  return html`<main class="home">
    <h1>Easel</h1>
    <p>Open a canvas, a note or a document from the vault on the left, or start a new canvas.</p>
  </main>`;
}

const propsOf = {
  canvas: (arg) => ({ path: arg }),
  doc: (arg) => ({ path: arg }),
  agent: (arg) => ({ name: arg }),
  'agent-edit': (arg) => ({ name: arg }),
  code: (arg) => ({ arg }),
};

function Page({ page, arg }) {
  if (!pages[page]) return html`<${Home} />`;
  return html`<${Lazy} page=${page} props=${propsOf[page](arg)} />`;
}

const { page, arg } = route(location.pathname);
// The page's code and the board's first read start now, side by side, before anything renders.
const opening = { page, code: pages[page]?.() };
// Every page renders Markdown: fetch the renderer beside the page's own code, not after it.
if (opening.code) import('./markdown.js');
if (page === 'canvas') prefetch('canvas_read', { path: arg });
const current = page === 'canvas' || page === 'doc' ? arg : null;
render(
  html`<div class="shell"><${VaultPanel} current=${current} /><${Page} page=${page} arg=${arg} /></div>`,
  document.getElementById('app'),
);
