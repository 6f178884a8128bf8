// How the transcript's entries look. Model and tool text is untrusted: final answers go through
// renderMarkdown (sanitised), everything else is shown as text.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { html } from '../html.js';
import { renderMarkdown } from '../markdown.js';
import { ErrorNote } from './ErrorNote.js';

/** Tool arguments and outputs, pretty-printed when they are JSON. */
function pretty(value) {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

function AgentText({ e }) {
  return html`<div class="msg agent" data-agent=${e.agent}>
    <div class="who">${e.agent}</div>
    ${e.done
      ? html`<div class="md" dangerouslySetInnerHTML=${{ __html: renderMarkdown(e.text) }}></div>`
      : html`<div class="streaming">${e.text}</div>`}
  </div>`;
}

function ToolCall({ e }) {
  const state = e.output === null ? 'running' : e.is_error ? 'error' : 'ok';
  return html`<details class=${'tool ' + state} data-tool-id=${e.id ?? ''}>
    <summary><span class="tool-name">${e.name}</span> <span class="tool-state">${state === 'running' ? '…' : state === 'error' ? 'failed' : 'done'}</span></summary>
    <div class="tool-part"><small>Arguments</small><pre class="tool-args">${pretty(e.arguments)}</pre></div>
    ${e.output !== null && html`<div class="tool-part"><small>Output</small><pre class="tool-output">${pretty(e.output)}</pre></div>`}
  </details>`;
}

const ANSWERS = { yes: 'Approved', always: 'Approved', no: 'Denied', expired: 'No longer waiting' };

function Approval({ e, busy, onAnswer }) {
  return html`<div class="approval" role="group" aria-label=${'Approval for ' + e.name}>
    <p><strong>${e.agent || 'The agent'}</strong> wants to run <code>${e.name}</code>. It changes the vault, so it waits for you.</p>
    ${e.arguments !== null && html`<pre class="tool-args">${pretty(e.arguments)}</pre>`}
    ${e.answer === null
      ? html`<div class="approval-buttons">
          <button class="primary" disabled=${busy} onClick=${() => onAnswer(false)}>Approve</button>
          <button class="danger" disabled=${busy} onClick=${() => onAnswer(true)}>Deny</button>
        </div>`
      : html`<p class="answer">${ANSWERS[e.answer] ?? e.answer}</p>`}
  </div>`;
}

function Entry({ e, busy, onAnswer }) {
  switch (e.t) {
    case 'user':
      return html`<div class="msg user"><div class="who">You</div><div class="user-text">${e.text}</div></div>`;
    case 'text':
      return html`<${AgentText} e=${e} />`;
    case 'tool':
      return html`<${ToolCall} e=${e} />`;
    case 'handoff':
      return html`<p class="handoff">${e.from} → ${e.to}</p>`;
    case 'approval':
      return html`<${Approval} e=${e} busy=${busy} onAnswer=${onAnswer} />`;
    case 'error':
      return html`<${ErrorNote} error=${e} />`;
    default:
      return html`<p class="note">${e.text}</p>`;
  }
}

export function Transcript({ entries, busy, onAnswer }) {
  const box = useRef(null);
  const pinned = useRef(true);
  // Follow the answer as it grows, unless the reader scrolled up to read something older.
  useLayoutEffect(() => {
    if (pinned.current && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [entries]);
  const onScroll = (e) => {
    const el = e.currentTarget;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };
  return html`<section class="transcript" aria-label="Conversation" aria-live="polite" ref=${box} onScroll=${onScroll}>
    ${entries.length === 0 && html`<p class="note">Send a message to start. Reading runs freely; a change to the vault waits for your approval.</p>`}
    ${entries.map((e) => html`<${Entry} key=${e.key} e=${e} busy=${busy} onAnswer=${onAnswer} />`)}
  </section>`;
}
