// The chat's transcript as plain data: a list of entries built either from a run's stream events
// (DESIGN section 9) or from a session file's lines, so a reopened session looks like a live one.
//
// Entries: {t:'user', text} · {t:'text', agent, text, done} · {t:'tool', id, agent, name,
// arguments, output, is_error} · {t:'handoff', from, to} · {t:'approval', id, agent, name,
// arguments, session, answer} (answer null while waiting) · {t:'error', message, hint} ·
// {t:'note', text}.

let seq = 0;
const entry = (fields) => ({ key: ++seq, ...fields });

function lastIndex(entries, pred) {
  for (let i = entries.length - 1; i >= 0; i--) if (pred(entries[i])) return i;
  return -1;
}

function replaceAt(entries, i, fields) {
  const next = entries.slice();
  next[i] = { ...entries[i], ...fields };
  return next;
}

/** Streamed text becomes final (rendered as Markdown) once something else follows it. */
function closeText(entries) {
  const i = entries.length - 1;
  return i >= 0 && entries[i].t === 'text' && !entries[i].done ? replaceAt(entries, i, { done: true }) : entries;
}

function upsertTool(entries, fields) {
  // A resumed run announces the approved call again under the same id: one entry per call.
  const i = lastIndex(entries, (x) => x.t === 'tool' && x.id === fields.id);
  if (i >= 0) return replaceAt(entries, i, fields);
  return [...closeText(entries), entry({ t: 'tool', output: null, is_error: false, ...fields })];
}

/** The transcript after one event of the run's stream. */
export function applyEvent(entries, e) {
  switch (e.type) {
    case 'text_delta': {
      const last = entries[entries.length - 1];
      if (last && last.t === 'text' && !last.done && last.agent === e.agent) {
        return replaceAt(entries, entries.length - 1, { text: last.text + (e.delta ?? '') });
      }
      return [...closeText(entries), entry({ t: 'text', agent: e.agent, text: e.delta ?? '', done: false })];
    }
    case 'tool_call':
      return upsertTool(entries, { id: e.id, agent: e.agent, name: e.name, arguments: e.arguments });
    case 'tool_output':
      return upsertTool(entries, { id: e.id, agent: e.agent, name: e.name, output: e.output ?? '', is_error: !!e.is_error });
    case 'handoff':
      return [...closeText(entries), entry({ t: 'handoff', from: e.from, to: e.to })];
    case 'approval_needed':
      if (pendingApproval(entries)?.id === e.id) return entries;
      return [
        ...closeText(entries),
        entry({ t: 'approval', id: e.id, agent: e.agent, name: e.name, arguments: e.arguments, session: e.session, answer: null }),
      ];
    case 'error':
      return [...closeText(entries), entry({ t: 'error', message: e.message, hint: e.hint })];
    default:
      return entries;
  }
}

/** The approval still waiting for an answer, if any. */
export function pendingApproval(entries) {
  const i = lastIndex(entries, (x) => x.t === 'approval');
  return i >= 0 && entries[i].answer === null ? entries[i] : null;
}

/** Marks the waiting approval answered ('yes' or 'no'). */
export function answerApproval(entries, answer) {
  const i = lastIndex(entries, (x) => x.t === 'approval' && x.answer === null);
  return i >= 0 ? replaceAt(entries, i, { answer }) : entries;
}

/** The session a waiting error names: the API gives it only in the message. */
export function sessionOfWaiting(message) {
  return /session '([^']+)'/.exec(message ?? '')?.[1] ?? null;
}

/**
 * The transcript once the run's request has answered: the final output replaces the streamed
 * text (the stream may have dropped a piece); a waiting run keeps an approval to answer.
 */
export function finishRun(entries, result) {
  let next = entries;
  if (result.ok) {
    const out = result.output?.output ?? '';
    const i = lastIndex(next, (x) => x.t === 'text');
    const afterUser = i > lastIndex(next, (x) => x.t === 'user' || x.t === 'approval');
    if (i >= 0 && afterUser && i === next.length - 1) next = replaceAt(next, i, { text: out || next[i].text, done: true });
    else if (out) next = [...closeText(next), entry({ t: 'text', agent: result.output.agent, text: out, done: true })];
    return next;
  }
  const err = result.error;
  next = closeText(next);
  if (err.kind === 'waiting') {
    if (!pendingApproval(next)) {
      const name = /^'([^']+)'/.exec(err.message ?? '')?.[1] ?? 'a tool';
      next = [...next, entry({ t: 'approval', id: null, agent: '', name, arguments: null, session: sessionOfWaiting(err.message), answer: null })];
    }
    return next;
  }
  if (err.kind === 'cancelled') return [...next, entry({ t: 'note', text: 'Stopped. The text so far is kept.' })];
  return [...next, entry({ t: 'error', message: err.message, hint: err.hint })];
}

export function userEntry(text) {
  return entry({ t: 'user', text });
}

export function noteEntry(text) {
  return entry({ t: 'note', text });
}

function textOf(message) {
  return (message?.parts ?? [])
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');
}

function parseArgs(raw) {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * The transcript of a session file (`.easel/sessions/ID.jsonl`) and the agent its last run
 * started with. `waiting` says whether the session still waits for an approval.
 */
export function fromSession(jsonl, waiting) {
  let entries = [];
  let agent = null;
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let r;
    try {
      r = JSON.parse(line);
    } catch {
      continue; // a line cut short by a crash: the rest of the session still reads
    }
    if (r.kind === 'run_started') agent = r.agent ?? agent;
    else if (r.kind === 'message') {
      const m = r.message ?? {};
      if (m.role === 'user') entries = [...entries, userEntry(textOf(m))];
      else if (m.role === 'assistant') {
        const text = textOf(m);
        if (text) entries = [...entries, entry({ t: 'text', agent: r.agent, text, done: true })];
        for (const c of m.tool_calls ?? []) {
          entries = upsertTool(entries, { id: c.id, agent: r.agent, name: c.name, arguments: parseArgs(c.arguments) });
        }
      } else if (m.role === 'tool') {
        const out = textOf(m);
        const i = lastIndex(entries, (x) => x.t === 'tool' && x.id === m.tool_call_id);
        if (i >= 0) entries = replaceAt(entries, i, { output: out, is_error: out.startsWith('error:') });
      }
    } else if (r.kind === 'handoff') entries = [...entries, entry({ t: 'handoff', from: r.from, to: r.to })];
    else if (r.kind === 'approval') {
      if (r.answer === 'waiting') {
        entries = [...entries, entry({ t: 'approval', id: r.id, agent: r.agent, name: r.name, arguments: r.arguments, session: null, answer: null })];
      } else {
        const i = lastIndex(entries, (x) => x.t === 'approval' && x.id === r.id);
        if (i >= 0) entries = replaceAt(entries, i, { answer: r.answer });
      }
    } else if (r.kind === 'run_ended' && r.status && r.status !== 'done' && r.status !== 'waiting') {
      entries = [...entries, entry({ t: 'note', text: `This run ended: ${r.status}${r.error ? ` (${r.error})` : ''}.` })];
    }
  }
  // An approval the file shows unanswered but that no longer waits (its run was abandoned).
  if (!waiting) entries = entries.map((x) => (x.t === 'approval' && x.answer === null ? { ...x, answer: 'expired' } : x));
  return { entries, agent };
}
