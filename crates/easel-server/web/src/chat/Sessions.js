// The saved sessions (`.easel/sessions/*.jsonl`), newest first, each labelled with its agent and
// first message, to reopen and continue.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { op, onEvent } from '../api.js';
import { ErrorNote } from './ErrorNote.js';

export const SESSIONS = '.easel/sessions';
/** Only the newest ones get a label read from their file; older ones show their id. */
const LABELLED = 25;

/** A vault file's text over `GET /api/files`, or null when it does not exist. */
export async function readVaultFile(path) {
  const res = await fetch('/api/files/' + path.split('/').map(encodeURIComponent).join('/'), { credentials: 'same-origin' });
  if (res.status === 404) return null;
  if (!res.ok) throw Object.assign(new Error(`reading ${path} failed (HTTP ${res.status})`), { hint: 'reload the page' });
  return res.text();
}

/** The agent and the first input of a session, from its first line. */
function labelOf(text) {
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl);
  try {
    const r = JSON.parse(first);
    if (r.kind === 'run_started') return { agent: r.agent, input: r.input };
  } catch {
    // an unreadable first line leaves the session labelled by its id
  }
  return {};
}

async function loadSessions() {
  let files;
  try {
    files = (await op('vault_list', { folder: SESSIONS, limit: 2000 })).files ?? [];
  } catch (e) {
    // No agent has run in this vault yet.
    if (e.kind === 'not_found') return [];
    throw e;
  }
  const waiting = new Set(files.filter((f) => f.path.endsWith('.waiting.json')).map((f) => f.path.slice(0, -'.waiting.json'.length)));
  const sessions = files
    .filter((f) => f.path.endsWith('.jsonl'))
    .map((f) => {
      const base = f.path.slice(0, -'.jsonl'.length);
      return { id: base.split('/').pop(), path: f.path, modified: f.modified, waiting: waiting.has(base) };
    })
    .sort((a, b) => b.modified - a.modified);
  await Promise.all(
    sessions.slice(0, LABELLED).map(async (s) => {
      try {
        Object.assign(s, labelOf((await readVaultFile(s.path)) ?? ''));
      } catch {
        // an unreadable session still lists, by id
      }
    }),
  );
  return sessions;
}

export function Sessions({ current, onOpen }) {
  const [sessions, setSessions] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    let timer;
    let alive = true;
    const load = () =>
      loadSessions()
        .then((s) => alive && (setSessions(s), setError(null)))
        .catch((e) => alive && setError(e));
    load();
    const stop = onEvent((e) => {
      const ours = e.type === 'changed' && typeof e.path === 'string' && e.path.startsWith(SESSIONS + '/');
      if (ours || e.type === 'reconnected' || e.type === 'lagged') {
        clearTimeout(timer);
        timer = setTimeout(load, 200);
      }
    });
    return () => {
      alive = false;
      clearTimeout(timer);
      stop();
    };
  }, []);

  return html`<aside class="sessions" aria-label="Sessions">
    <h2>Sessions</h2>
    <${ErrorNote} error=${error} />
    ${sessions && sessions.length === 0 && html`<p class="note">No sessions yet.</p>`}
    <ul>
      ${(sessions ?? []).map(
        (s) => html`<li key=${s.id} class=${s.id === current ? 'current' : ''}>
          <button class="session" data-session=${s.id} title=${s.id} onClick=${() => onOpen(s.id, s.waiting)}>
            <span class="session-agent">${s.agent ?? s.id}</span>
            ${s.waiting && html` <span class="badge">waiting</span>`}
            <span class="session-input">${s.input ?? ''}</span>
            <small>${new Date(s.modified).toLocaleString()}</small>
          </button>
        </li>`,
      )}
    </ul>
  </aside>`;
}
