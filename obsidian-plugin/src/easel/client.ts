// The Easel API as the plugin uses it: operations (`POST /api/ops/{name}`), their runs on the
// event stream (`X-Easel-Run`, `GET /api/events`) and cancelling them. Nothing here imports
// Obsidian, so it is tested against a real `easel serve` under Node.

import { EaselError, asEaselError, errorFromBody } from './errors';
import { readSse } from './sse';

/** What the client needs of `fetch`: Node's, the browser's, or `nodeHttpFetch` in Obsidian. */
export interface ResponseLike {
  status: number;
  text(): Promise<string>;
  body: ReadableStream<Uint8Array> | null;
}
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<ResponseLike>;

/** Where a server is and the token it wants. */
export interface Connection {
  base: string;
  token: string;
}

/** An event of the stream: `{type, ...}` (DESIGN.md sections 9 and 17). */
export type EaselEvent = { type: string; call?: string; [k: string]: unknown };

/** How a run ended: the operation's output, or its error. */
export type RunResult<T = unknown> = { ok: true; output: T } | { ok: false; error: EaselError };

/** A run in progress: its id, how it ends, and a way to stop it. */
export interface Run<T = unknown> {
  id: string;
  result: Promise<RunResult<T>>;
  cancel(): Promise<void>;
}

/** The server's address and token from the URL `easel serve` prints (`…/?token=T`). */
export function parseServeUrl(url: string): Connection | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  const token = u.searchParams.get('token') ?? '';
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return { base: `${u.protocol}//${u.host}`, token };
}

let runCounter = 0;
/** A fresh run id: letters, digits and '-' only, as the server requires. */
export function newRunId(): string {
  runCounter = (runCounter + 1) % 1_000_000;
  const rand = Math.random().toString(36).slice(2, 10);
  return `obs-${Date.now().toString(36)}-${runCounter}-${rand}`;
}

/** The stream may deliver a run's last events just after its response; wait this long at most. */
const FINISH_GRACE_MS = 2000;
/** Before reconnecting a dropped stream. */
const RECONNECT_MS = 1000;

export class EaselClient {
  readonly conn: Connection;
  private readonly fetch: FetchLike;
  private listeners = new Set<(e: EaselEvent) => void>();
  private stream: AbortController | null = null;
  private hello: Promise<void> | null = null;
  private closed = false;

  constructor(conn: Connection, fetchImpl?: FetchLike) {
    this.conn = { base: conn.base.replace(/\/+$/, ''), token: conn.token };
    this.fetch = fetchImpl ?? (globalThis.fetch as unknown as FetchLike);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.conn.token}`, ...extra };
  }

  /** Runs operation `name`; resolves with its output, rejects with an EaselError. */
  async op<T = unknown>(name: string, args: object = {}, opts: { run?: string } = {}): Promise<T> {
    const headers = this.headers({ 'content-type': 'application/json' });
    if (opts.run) headers['x-easel-run'] = opts.run;
    let res: ResponseLike;
    let body: string;
    try {
      res = await this.fetch(`${this.conn.base}/api/ops/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(args),
      });
      body = await res.text();
    } catch (e) {
      throw asEaselError(e);
    }
    if (res.status !== 200) throw errorFromBody(res.status, body);
    try {
      return JSON.parse(body) as T;
    } catch {
      throw new EaselError('failure', `${name} answered something that is not JSON`, 'update easel: the plugin and the server may not match');
    }
  }

  /** The operation catalogue (`GET /api/ops`). */
  async operations(): Promise<{ name: string }[]> {
    try {
      const res = await this.fetch(`${this.conn.base}/api/ops`, { method: 'GET', headers: this.headers() });
      const body = await res.text();
      if (res.status !== 200) throw errorFromBody(res.status, body);
      return (JSON.parse(body).operations ?? []) as { name: string }[];
    } catch (e) {
      throw asEaselError(e);
    }
  }

  /** Stops run `id`; false when it is not going (it may have just finished). */
  async cancel(id: string): Promise<boolean> {
    try {
      const res = await this.fetch(`${this.conn.base}/api/runs/${encodeURIComponent(id)}/cancel`, {
        method: 'POST',
        headers: this.headers({ 'content-type': 'application/json' }),
        body: '{}',
      });
      await res.text();
      return res.status === 200;
    } catch {
      return false;
    }
  }

  /** Calls `fn` with every event of the stream until the returned function is called. */
  subscribe(fn: (e: EaselEvent) => void): () => void {
    this.listeners.add(fn);
    void this.connected().catch(() => undefined);
    return () => this.listeners.delete(fn);
  }

  /** Resolves once the event stream is open (the server said hello). */
  connected(): Promise<void> {
    if (!this.hello) this.hello = this.openStream();
    return this.hello;
  }

  private emit(e: EaselEvent): void {
    for (const fn of [...this.listeners]) {
      try {
        fn(e);
      } catch {
        // one listener's bug must not starve the others
      }
    }
  }

  private openStream(): Promise<void> {
    const ctrl = new AbortController();
    this.stream = ctrl;
    return new Promise<void>((resolve, reject) => {
      let greeted = false;
      const run = async () => {
        const res = await this.fetch(`${this.conn.base}/api/events`, {
          method: 'GET',
          headers: this.headers({ accept: 'text/event-stream' }),
          signal: ctrl.signal,
        });
        if (res.status !== 200 || !res.body) throw errorFromBody(res.status, await res.text());
        await readSse(res.body, (data) => {
          let e: EaselEvent;
          try {
            e = JSON.parse(data);
          } catch {
            return;
          }
          if (e.type === 'hello' && !greeted) {
            greeted = true;
            resolve();
          }
          this.emit(e);
        });
      };
      run().then(
        () => this.streamEnded(ctrl, greeted, reject, null),
        (err) => this.streamEnded(ctrl, greeted, reject, err),
      );
    });
  }

  private streamEnded(ctrl: AbortController, greeted: boolean, reject: (e: unknown) => void, err: unknown): void {
    if (this.closed || ctrl.signal.aborted) return;
    if (!greeted) {
      this.hello = null;
      reject(asEaselError(err ?? new Error('the event stream closed before it started')));
      return;
    }
    // The stream dropped (server restarted, sleep): listeners refetch on `reconnected`.
    this.emit({ type: 'stream_lost' });
    this.hello = null;
    setTimeout(() => {
      if (this.closed || this.listeners.size === 0) return;
      this.connected().then(
        () => this.emit({ type: 'reconnected' }),
        () => this.streamEnded(ctrl, true, () => undefined, null),
      );
    }, RECONNECT_MS);
  }

  /**
   * Runs operation `name` as a named run: `onEvent` gets the run's own events from the stream
   * (text deltas, tool calls…) and `result` settles once the response and the run's last event
   * are in.
   */
  start<T = unknown>(name: string, args: object, onEvent: (e: EaselEvent) => void = () => undefined): Run<T> {
    const id = newRunId();
    let finished!: () => void;
    const finishedSeen = new Promise<void>((r) => (finished = r));
    const off = this.subscribe((e) => {
      if (e.type === 'stream_lost' || e.type === 'lagged') finished();
      if (e.call !== id) return;
      if (e.type === 'run_finished') finished();
      else if (e.type !== 'run_started') onEvent(e);
    });
    const result = (async (): Promise<RunResult<T>> => {
      try {
        await this.connected();
        const output = await this.op<T>(name, args, { run: id });
        return { ok: true, output };
      } catch (e) {
        return { ok: false, error: asEaselError(e) };
      }
    })().then(async (r) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([finishedSeen, new Promise<void>((res) => (timer = setTimeout(res, FINISH_GRACE_MS)))]);
      clearTimeout(timer);
      off();
      return r;
    });
    return { id, result, cancel: async () => void (await this.cancel(id)) };
  }

  /** Closes the event stream for good. */
  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.stream?.abort();
  }
}
