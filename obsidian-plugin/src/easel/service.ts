// One connection to Easel for the whole plugin: to the server the settings name, or to one the
// plugin starts on the vault (and stops when it unloads).

import { EaselClient, parseServeUrl, type FetchLike } from './client';
import { EaselError } from './errors';
import { startServer, type StartedServer } from './launcher';
import type { EaselSettings } from './settings';

export interface ServiceOptions {
  /** The vault folder on disk (null when the vault is not on a local disk). */
  vaultPath: string | null;
  settings: () => EaselSettings;
  fetch?: FetchLike;
  /** Environment for a started server (tests point it at a scripted model). */
  env?: NodeJS.ProcessEnv;
}

export class EaselService {
  private client: Promise<EaselClient> | null = null;
  private started: StartedServer | null = null;

  constructor(private readonly opts: ServiceOptions) {}

  /** The client, connecting (or starting the server) on first use. */
  get(): Promise<EaselClient> {
    if (!this.client) {
      this.client = this.connect();
      // A failed start is retried on the next use (the user may have fixed the settings).
      this.client.catch(() => {
        this.client = null;
      });
    }
    return this.client;
  }

  /** The server this plugin started, if any. */
  get server(): StartedServer | null {
    return this.started;
  }

  private async connect(): Promise<EaselClient> {
    const s = this.opts.settings();
    if (s.serverUrl.trim()) {
      const conn = parseServeUrl(s.serverUrl);
      if (!conn) {
        throw new EaselError('usage', `'${s.serverUrl}' is not a server address`, 'give the URL easel serve printed, e.g. http://127.0.0.1:8123/?token=…');
      }
      if (s.token.trim()) conn.token = s.token.trim();
      if (!conn.token) {
        throw new EaselError('usage', 'the Easel server needs its token', 'paste the token easel serve printed (after ?token=) in the Easel settings');
      }
      const client = new EaselClient(conn, this.opts.fetch);
      await client.connected();
      return client;
    }
    if (!this.opts.vaultPath) {
      throw new EaselError('unavailable', 'this vault is not a folder on this computer, so the plugin cannot start easel on it', 'start easel serve yourself and give its address in the Easel settings');
    }
    const started = await startServer({ bin: s.binaryPath.trim() || 'easel', vault: this.opts.vaultPath, env: this.opts.env });
    this.started = started;
    const client = new EaselClient(started.conn, this.opts.fetch);
    try {
      await client.connected();
    } catch (e) {
      await started.stop();
      this.started = null;
      throw e;
    }
    return client;
  }

  /** Drops the connection (settings changed); a started server is stopped. */
  async reset(): Promise<void> {
    const pending = this.client;
    this.client = null;
    if (pending) {
      try {
        (await pending).close();
      } catch {
        // it never connected
      }
    }
    const started = this.started;
    this.started = null;
    await started?.stop();
  }
}
