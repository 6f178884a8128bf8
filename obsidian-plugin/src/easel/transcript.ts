// The agent chat's transcript as plain data, built from a run's stream events (DESIGN.md
// section 9): streamed text, tool calls with their outputs, handoffs, approvals, errors.

export type Entry =
  | { t: 'user'; key: number; text: string }
  | { t: 'text'; key: number; agent: string; text: string; done: boolean }
  | { t: 'tool'; key: number; id: string; agent: string; name: string; arguments: unknown; output: string | null; isError: boolean }
  | { t: 'handoff'; key: number; from: string; to: string }
  | { t: 'approval'; key: number; id: string | null; agent: string; name: string; arguments: unknown; session: string | null; answer: 'yes' | 'no' | null }
  | { t: 'error'; key: number; message: string; hint: string }
  | { t: 'note'; key: number; text: string };

type Ev = { type: string; [k: string]: unknown };
type NoKey<E> = E extends unknown ? Omit<E, 'key'> : never;

let seq = 0;
function entry(fields: NoKey<Entry>): Entry {
  return { key: ++seq, ...fields } as Entry;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function lastIndex(entries: Entry[], pred: (e: Entry) => boolean): number {
  for (let i = entries.length - 1; i >= 0; i--) if (pred(entries[i])) return i;
  return -1;
}

function replaceAt(entries: Entry[], i: number, fields: Partial<Entry>): Entry[] {
  const next = entries.slice();
  next[i] = { ...entries[i], ...fields } as Entry;
  return next;
}

/** Streamed text is final once something else follows it. */
function closeText(entries: Entry[]): Entry[] {
  const last = entries[entries.length - 1];
  return last?.t === 'text' && !last.done ? replaceAt(entries, entries.length - 1, { done: true }) : entries;
}

function upsertTool(entries: Entry[], id: string, fields: Partial<Extract<Entry, { t: 'tool' }>>): Entry[] {
  // A resumed run announces the approved call again under the same id: one entry per call.
  const i = lastIndex(entries, (x) => x.t === 'tool' && x.id === id);
  if (i >= 0) return replaceAt(entries, i, fields);
  return [
    ...closeText(entries),
    entry({ t: 'tool', id, agent: '', name: '', arguments: null, output: null, isError: false, ...fields }),
  ];
}

/** The approval still waiting for an answer, if any. */
export function pendingApproval(entries: Entry[]): Extract<Entry, { t: 'approval' }> | null {
  const i = lastIndex(entries, (x) => x.t === 'approval');
  const e = entries[i];
  return e?.t === 'approval' && e.answer === null ? e : null;
}

/** The transcript after one event of the run's stream. */
export function applyEvent(entries: Entry[], e: Ev): Entry[] {
  switch (e.type) {
    case 'text_delta': {
      const last = entries[entries.length - 1];
      if (last?.t === 'text' && !last.done && last.agent === str(e.agent)) {
        return replaceAt(entries, entries.length - 1, { text: last.text + str(e.delta) });
      }
      return [...closeText(entries), entry({ t: 'text', agent: str(e.agent), text: str(e.delta), done: false })];
    }
    case 'tool_call':
      return upsertTool(entries, str(e.id), { agent: str(e.agent), name: str(e.name), arguments: e.arguments });
    case 'tool_output':
      return upsertTool(entries, str(e.id), {
        agent: str(e.agent),
        name: str(e.name),
        output: str(e.output),
        isError: e.is_error === true,
      });
    case 'handoff':
      return [...closeText(entries), entry({ t: 'handoff', from: str(e.from), to: str(e.to) })];
    case 'approval_needed':
      if (pendingApproval(entries)?.id === str(e.id)) return entries;
      return [
        ...closeText(entries),
        entry({ t: 'approval', id: str(e.id), agent: str(e.agent), name: str(e.name), arguments: e.arguments, session: str(e.session) || null, answer: null }),
      ];
    case 'error':
      return [...closeText(entries), entry({ t: 'error', message: str(e.message), hint: str(e.hint) })];
    default:
      return entries;
  }
}

/** The session a 'waiting' error names (the API gives it in the message). */
export function sessionOfWaiting(message: string): string | null {
  return /session '([^']+)'/.exec(message)?.[1] ?? null;
}

/** The transcript once the run's request answered: the final output is authoritative. */
export function finishRun(
  entries: Entry[],
  r: { ok: true; output: { output?: string; agent?: string } } | { ok: false; error: { kind: string; message: string; hint: string } },
): Entry[] {
  if (r.ok) {
    const out = r.output.output ?? '';
    const i = lastIndex(entries, (x) => x.t === 'text');
    const last = entries[entries.length - 1];
    if (i >= 0 && i === entries.length - 1 && last.t === 'text') {
      return replaceAt(entries, i, { text: out || last.text, done: true });
    }
    return out ? [...closeText(entries), entry({ t: 'text', agent: r.output.agent ?? '', text: out, done: true })] : closeText(entries);
  }
  const next = closeText(entries);
  const err = r.error;
  if (err.kind === 'waiting') {
    if (pendingApproval(next)) return next;
    const name = /^'([^']+)'/.exec(err.message)?.[1] ?? 'a tool';
    return [...next, entry({ t: 'approval', id: null, agent: '', name, arguments: null, session: sessionOfWaiting(err.message), answer: null })];
  }
  // A stopped agent run is a 'failure' whose message says so (the session is kept).
  if (err.kind === 'cancelled' || /was stopped before it finished/.test(err.message)) return [...next, entry({ t: 'note', text: 'Stopped. What the agent did so far is kept.' })];
  return [...next, entry({ t: 'error', message: err.message, hint: err.hint })];
}

export function answerApproval(entries: Entry[], answer: 'yes' | 'no'): Entry[] {
  const i = lastIndex(entries, (x) => x.t === 'approval' && x.answer === null);
  return i >= 0 ? replaceAt(entries, i, { answer }) : entries;
}

export const userEntry = (text: string): Entry => entry({ t: 'user', text });
export const noteEntry = (text: string): Entry => entry({ t: 'note', text });
