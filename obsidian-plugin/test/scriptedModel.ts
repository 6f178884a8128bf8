// A scripted model server, the Node twin of crates/easel-server/tests/browser/scripted_model.py:
// OpenAI's streamed Chat Completions on 127.0.0.1, answering each request with the next turn of
// a script. Easel reaches it through its real openai-compat provider.

import * as http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

export type Turn = { text: string; hold?: Promise<void> } | { calls: [string, object][]; hold?: Promise<void> };

export const text = (t: string): Turn => ({ text: t });
/** A text turn that streams its first word, then waits for `gate` before the rest. */
export const held = (t: string, gate: Promise<void>): Turn => ({ text: t, hold: gate });
export const call = (name: string, args: object, hold?: Promise<void>): Turn => ({ calls: [[name, args]], hold });

/** A gate: `open()` lets a held turn finish. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

export class ScriptedModel {
  requests: unknown[] = [];
  private server: http.Server;
  port = 0;

  constructor(private turns: Turn[] = []) {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', async () => {
        this.requests.push(JSON.parse(body || 'null'));
        const turn = this.turns.shift();
        if (!turn) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":{"message":"the script has no more turns"}}');
          return;
        }
        const parts = this.events(turn, this.requests.length).map((e) => `data: ${JSON.stringify(e)}\n\n`);
        parts.push('data: [DONE]\n\n');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (turn.hold) {
          res.write(parts[0]);
          await turn.hold;
          res.end(parts.slice(1).join(''));
        } else {
          res.end(parts.join(''));
        }
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  push(...turns: Turn[]): void {
    this.turns.push(...turns);
  }

  /** Drops the turns not used. */
  clear(): void {
    this.turns = [];
  }

  left(): number {
    return this.turns.length;
  }

  private events(turn: Turn, n: number): object[] {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: `r${n}`,
      object: 'chat.completion.chunk',
      model: 'scripted',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const events: object[] = [];
    let finish: string;
    if ('text' in turn) {
      const words = turn.text.split(' ');
      words.forEach((w, i) => events.push(chunk({ role: 'assistant', content: i === words.length - 1 ? w : `${w} ` })));
      finish = 'stop';
    } else {
      turn.calls.forEach(([name, args], i) => {
        const a = JSON.stringify(args);
        const half = Math.floor(a.length / 2);
        events.push(chunk({ tool_calls: [{ index: i, id: `call_${n}_${i}`, type: 'function', function: { name, arguments: a.slice(0, half) } }] }));
        events.push(chunk({ tool_calls: [{ index: i, function: { arguments: a.slice(half) } }] }));
      });
      finish = 'tool_calls';
    }
    events.push(chunk({}, finish));
    events.push({ id: `r${n}`, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    return events;
  }

  /** Points the vault's configuration at this server (easel reads it when it starts). */
  configure(vault: string): void {
    mkdirSync(join(vault, '.easel'), { recursive: true });
    writeFileSync(
      join(vault, '.easel', 'config.toml'),
      `[llm]\ndefault_model = "openai-compat:scripted"\nmax_retries = 0\n\n[providers.openai-compat]\nbase_url = "http://127.0.0.1:${this.port}/v1"\n`,
    );
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
