// Starting `easel --vault VAULT serve --port 0` as a child process and reading the address it
// prints first (DESIGN.md section 17: `Easel at http://127.0.0.1:PORT/?token=TOKEN`).

import { spawn as nodeSpawn, type ChildProcess } from 'child_process';
import { EaselError } from './errors';
import { parseServeUrl, type Connection } from './client';

/** The connection in `easel serve`'s first line, or null when the line is something else. */
export function parseServeLine(line: string): Connection | null {
  const m = /^Easel at (\S+)\s*$/.exec(line.trim());
  if (!m) return null;
  const conn = parseServeUrl(m[1]);
  return conn && conn.token ? conn : null;
}

export interface StartOptions {
  /** The easel binary: a path, or a name found on PATH. */
  bin: string;
  /** The vault folder on disk. */
  vault: string;
  /** More arguments after `serve --port 0`. */
  extraArgs?: string[];
  /** Environment for the child (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** For tests: the spawn function. */
  spawn?: typeof nodeSpawn;
}

/** A server this process started; `stop()` ends it. */
export interface StartedServer {
  conn: Connection;
  process: ChildProcess;
  /** stderr so far (the last 8 KB), for error reports. */
  stderr(): string;
  stop(): Promise<void>;
}

const STDERR_KEEP = 8192;

export function startServer(opts: StartOptions): Promise<StartedServer> {
  const spawn = opts.spawn ?? nodeSpawn;
  const args = ['--vault', opts.vault, 'serve', '--port', '0', ...(opts.extraArgs ?? [])];
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(opts.bin, args, { env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      reject(notStarted(opts.bin, e instanceof Error ? e.message : String(e), ''));
      return;
    }
    let out = '';
    let err = '';
    let settled = false;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      err = (err + d).slice(-STDERR_KEEP);
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (d: string) => {
      if (settled) return; // later output is the server's business; reading it keeps the pipe flowing
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      settled = true;
      const conn = parseServeLine(out.slice(0, nl));
      if (conn) {
        resolve({ conn, process: child, stderr: () => err, stop });
      } else {
        void stop();
        reject(notStarted(opts.bin, `it printed '${out.slice(0, nl).slice(0, 200)}' instead of its address`, err));
      }
    });
    child.once('error', (e) => {
      if (settled) return;
      settled = true;
      reject(notStarted(opts.bin, e.message, err));
    });
    child.once('exit', (code, signal) => {
      if (settled) return;
      settled = true;
      reject(notStarted(opts.bin, `it exited (${signal ?? `code ${code}`}) before printing its address`, err));
    });
  });
}

function notStarted(bin: string, why: string, stderr: string): EaselError {
  const detail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : '';
  return new EaselError(
    'unavailable',
    `could not start '${bin} serve': ${why}${detail}`,
    "set the path of the easel binary in the Easel settings (for example ~/.cargo/bin/easel), or give the address of an `easel serve` you started yourself",
  );
}
