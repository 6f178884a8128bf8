// The server's API: every operation of the catalogue over POST /api/ops/{name}, and one shared
// event stream (GET /api/events) of vault changes and running operations.

/** An operation's refusal, as the server reports it: kind, message and what to do next. */
export class OpError extends Error {
  constructor(kind, message, hint, status) {
    super(message);
    this.kind = kind;
    this.hint = hint;
    this.status = status;
  }
}

/** A fresh run id in the server's form: 12 hex digits of milliseconds, then 8 random ones. */
export function newRunId() {
  const ms = Date.now().toString(16).padStart(12, '0').slice(-12);
  const rnd = new Uint32Array(1);
  crypto.getRandomValues(rnd);
  return ms + rnd[0].toString(16).padStart(8, '0');
}

/**
 * Runs operation `name` with `args` and returns its JSON output. `run` names the run, so its
 * events on the stream can be told apart and it can be cancelled with `cancelRun`.
 */
export async function op(name, args = {}, { run, signal } = {}) {
  if (!run && !signal) {
    const key = name + JSON.stringify(args);
    const started = early.get(key);
    if (started) {
      early.delete(key);
      return started;
    }
  }
  return call(name, args, run, signal);
}

// Reads a page will make first, started before its code has loaded (see `prefetch`).
const early = new Map();

/**
 * Starts a read now and hands its answer to the first `op` call with the same name and
 * arguments: the page's data and its code then load at the same time instead of one after the
 * other.
 */
export function prefetch(name, args = {}) {
  const p = call(name, args);
  // A read nobody takes is dropped quietly; the page that takes it sees its error.
  p.catch(() => {});
  early.set(name + JSON.stringify(args), p);
}

async function call(name, args, run, signal) {
  const headers = { 'content-type': 'application/json' };
  if (run) headers['x-easel-run'] = run;
  let res;
  try {
    res = await fetch(`/api/ops/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(args),
      credentials: 'same-origin',
      signal,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new OpError('unavailable', 'the Easel server cannot be reached', 'check that `easel serve` is still running, then reload', 0);
  }
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OpError('failure', `the server answered ${res.status} without JSON`, 'reload the page', res.status);
  }
  if (!res.ok) {
    const e = typeof body.error === 'object' && body.error !== null ? body.error : { message: String(body.error), hint: body.hint };
    throw new OpError(e.kind ?? 'failure', e.message ?? 'the operation failed', e.hint ?? '', res.status);
  }
  return body;
}

/** Asks the server to stop run `run` (a streaming answer keeps what arrived). */
export async function cancelRun(run) {
  await fetch(`/api/runs/${encodeURIComponent(run)}/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    credentials: 'same-origin',
  });
}

/** The operation catalogue (names, titles, effects, input schemas), fetched once. */
let catalogue;
export function ops() {
  catalogue ??= fetch('/api/ops', { credentials: 'same-origin' }).then((r) => r.json());
  return catalogue;
}

const listeners = new Set();
let source;
let opened = false;

function connect() {
  if (source) return;
  source = new EventSource('/api/events');
  source.onopen = () => {
    // After a reconnect the page may have missed changes: tell every view to refresh.
    if (opened) dispatch({ type: 'reconnected' });
    opened = true;
  };
  source.onmessage = (m) => {
    let event;
    try {
      event = JSON.parse(m.data);
    } catch {
      return;
    }
    dispatch(event);
  };
}

function dispatch(event) {
  for (const fn of [...listeners]) {
    try {
      fn(event);
    } catch (e) {
      console.error('event listener failed', e);
    }
  }
}

/** Calls `fn` with every event of the stream; returns the function that stops it. */
export function onEvent(fn) {
  connect();
  listeners.add(fn);
  return () => listeners.delete(fn);
}
