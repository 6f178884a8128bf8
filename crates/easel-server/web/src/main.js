// The web UI's entry: the vault panel beside the page the URL names.
import { render } from 'preact';
import { html } from './html.js';
import { route } from './route.js';
import { VaultPanel } from './vault.js';
import { Board } from './board/Board.js';
import { Capsule } from './capsule/Capsule.js';
import { Chat } from './chat/Chat.js';
import { AgentEditor } from './chat/AgentEditor.js';
import { CodeBoard } from './code/CodeBoard.js';

function Home() {
  return html`<main class="home">
    <h1>Easel</h1>
    <p>Open a canvas, a note or a document from the vault on the left, or start a new canvas.</p>
  </main>`;
}

function Page({ page, arg }) {
  switch (page) {
    case 'canvas':
      return html`<${Board} path=${arg} />`;
    case 'doc':
      return html`<${Capsule} path=${arg} />`;
    case 'agent':
      return html`<${Chat} name=${arg} />`;
    case 'agent-edit':
      return html`<${AgentEditor} name=${arg} />`;
    case 'code':
      return html`<${CodeBoard} arg=${arg} />`;
    default:
      return html`<${Home} />`;
  }
}

const { page, arg } = route(location.pathname);
const current = page === 'canvas' || page === 'doc' ? arg : null;
render(
  html`<div class="shell"><${VaultPanel} current=${current} /><${Page} page=${page} arg=${arg} /></div>`,
  document.getElementById('app'),
);
