// The agent chat (`/agent/{name}`): pick an agent, send a message, follow the run on the event
// stream (text, tool calls, handoffs, approvals), answer approvals, and reopen old sessions.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { op, cancelRun, onEvent, newRunId } from '../api.js';
import { applyEvent, answerApproval, finishRun, fromSession, noteEntry, pendingApproval, sessionOfWaiting, userEntry } from './entries.js';
import { Transcript } from './Transcript.js';
import { Sessions, SESSIONS, readVaultFile } from './Sessions.js';
import { ErrorNote } from './ErrorNote.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** How long a finished request waits for its last events on the stream (a separate connection). */
const STREAM_GRACE_MS = 1500;

const agentUrl = (name) => '/agent/' + encodeURIComponent(name);
const editUrl = (name) => '/agent-edit/' + encodeURIComponent(name);

/** An operation's answer as {ok, output} or {ok:false, error}; a 202 `waiting` body is an error. */
async function callRun(name, args, run) {
  try {
    const out = await op(name, args, { run });
    if (out && typeof out.error === 'object' && out.error !== null) return { ok: false, error: out.error };
    return { ok: true, output: out };
  } catch (e) {
    return { ok: false, error: { kind: e.kind ?? 'failure', message: e.message, hint: e.hint ?? '' } };
  }
}

export function Chat({ name }) {
  const [agents, setAgents] = useState(null);
  const [agent, setAgent] = useState(name || '');
  const [entries, setEntries] = useState([]);
  const [session, setSession] = useState(null);
  const [running, setRunning] = useState(null);
  const [input, setInput] = useState('');
  const [error, setError] = useState(null);
  const current = useRef(null); // the run whose events the transcript follows
  const streamDone = useRef(new Map()); // run id → resolves when its run_finished arrives
  const streamReady = useRef(null);
  const stopped = useRef(new Set());

  useEffect(() => {
    let ready;
    streamReady.current = new Promise((r) => (ready = r));
    const stop = onEvent((e) => {
      if (e.type === 'hello') ready();
      if (!e.call || e.call !== current.current) return;
      if (e.type === 'run_finished') {
        streamDone.current.get(e.call)?.();
        return;
      }
      if ((e.type === 'approval_needed' || e.type === 'done') && e.session) setSession(e.session);
      setEntries((prev) => applyEvent(prev, e));
    });
    op('agent_list', {})
      .then((r) => {
        const list = r.agents ?? [];
        setAgents(list);
        if (!name && list.length) choose(list[0].name);
        if (name && !list.some((a) => a.name === name)) {
          setError({ message: `there is no agent named '${name}'`, hint: 'pick one of the agents, or create it with "New agent"' });
        }
      })
      .catch(setError);
    return stop;
  }, []);

  function choose(next) {
    setAgent(next);
    history.replaceState(null, '', agentUrl(next));
  }

  /** Runs `opName` as a named run, shows its events, and settles the transcript at the end. */
  async function follow(opName, args) {
    const run = newRunId();
    // A run sent before the stream is open would lose its first events (not its answer).
    await Promise.race([streamReady.current, sleep(2000)]);
    const finished = new Promise((r) => streamDone.current.set(run, r));
    current.current = run;
    setRunning(run);
    const result = await callRun(opName, args, run);
    await Promise.race([finished, sleep(STREAM_GRACE_MS)]);
    streamDone.current.delete(run);
    current.current = null;
    setRunning(null);
    if (result.ok && result.output?.session) setSession(result.output.session);
    if (!result.ok && result.error.kind === 'waiting') setSession((s) => sessionOfWaiting(result.error.message) ?? s);
    if (stopped.current.delete(run)) {
      setEntries((prev) => [...finishRun(prev, { ok: true, output: null }), noteEntry('Stopped. The text so far is kept; send another message to go on.')]);
    } else {
      setEntries((prev) => finishRun(prev, result));
    }
  }

  const send = async (ev) => {
    ev?.preventDefault();
    const text = input.trim();
    if (!text || running || !agent) return;
    setInput('');
    setEntries((prev) => [...prev, userEntry(text)]);
    await follow('agent_run', session ? { agent, input: text, session } : { agent, input: text });
  };

  const answer = async (deny) => {
    const waiting = pendingApproval(entries);
    const s = waiting?.session ?? session;
    if (!s || running) return;
    setEntries((prev) => answerApproval(prev, deny ? 'no' : 'yes'));
    await follow('agent_approve', { session: s, deny });
  };

  const stop = () => {
    if (!running) return;
    stopped.current.add(running);
    cancelRun(running).catch(() => {
      // the run ended meanwhile: its answer is on its way anyway
    });
  };

  const openSession = async (id, waiting) => {
    if (running) return;
    try {
      const text = await readVaultFile(`${SESSIONS}/${id}.jsonl`);
      if (text === null) throw Object.assign(new Error(`session '${id}' is gone`), { hint: 'pick another session or start a new chat' });
      const old = fromSession(text, waiting);
      setEntries(old.entries);
      setSession(id);
      if (old.agent) choose(old.agent);
      setError(null);
    } catch (e) {
      setError(e);
    }
  };

  const newChat = () => {
    if (running) return;
    setEntries([]);
    setSession(null);
    setError(null);
  };

  const onKey = (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) send(e);
  };

  const waiting = pendingApproval(entries);
  return html`<main class="chat" data-agent=${agent} data-session=${session ?? ''} data-running=${running ? 'true' : 'false'}>
    <header class="chat-head">
      <label>Agent
        <select aria-label="Agent" value=${agent} onChange=${(e) => choose(e.currentTarget.value)} disabled=${!!running}>
          ${agent && !(agents ?? []).some((a) => a.name === agent) && html`<option value=${agent}>${agent}</option>`}
          ${(agents ?? []).map((a) => html`<option value=${a.name}>${a.name}</option>`)}
        </select>
      </label>
      <span class="agent-desc">${(agents ?? []).find((a) => a.name === agent)?.description ?? ''}</span>
      ${agent && html`<a href=${editUrl(agent)}>Edit agent</a>`}
      <a href="/agent-edit/">New agent</a>
      <button onClick=${newChat} disabled=${!!running}>New chat</button>
      <span class="session-id">${session ? 'session ' + session : 'new session'}</span>
    </header>
    <${ErrorNote} error=${error} />
    <div class="chat-body">
      <div class="chat-main">
        <${Transcript} entries=${entries} busy=${!!running} onAnswer=${answer} />
        <form class="composer" onSubmit=${send}>
          <textarea
            aria-label="Message"
            placeholder=${waiting ? 'Answer the approval above first' : `Message ${agent || 'the agent'} (Enter sends, Shift+Enter for a new line)`}
            value=${input}
            onInput=${(e) => setInput(e.currentTarget.value)}
            onKeyDown=${onKey}
            rows="3"
          ></textarea>
          ${running
            ? html`<button type="button" class="danger" onClick=${stop}>Stop</button>`
            : html`<button type="submit" class="primary" disabled=${!agent || !!waiting || !input.trim()}>Send</button>`}
        </form>
      </div>
      <${Sessions} current=${session} onOpen=${openSession} />
    </div>
  </main>`;
}
