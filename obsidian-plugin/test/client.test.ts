// The API client against a real `easel serve`, over Node's fetch and over nodeHttpFetch (what the
// plugin uses inside Obsidian).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EaselClient, parseServeUrl, type EaselEvent, type FetchLike } from '../src/easel/client';
import { EaselError, errorFromBody } from '../src/easel/errors';
import { nodeHttpFetch } from '../src/easel/nodeHttpFetch';
import type { StartedServer } from '../src/easel/launcher';
import { makeVault, startEasel, waitUntil, RESEARCH } from './helpers';

test("the guard's refusals keep their message and hint", () => {
  const e = errorFromBody(403, '{"error":"Origin \'app://obsidian.md\' is not allowed","hint":"API clients send no Origin header"}');
  assert.deepEqual([e.kind, e.message, e.hint, e.status], ['forbidden', "Origin 'app://obsidian.md' is not allowed", 'API clients send no Origin header', 403]);
  const odd = errorFromBody(502, '<html>bad gateway</html>');
  assert.match(odd.message, /answered 502/);
  assert.ok(odd.hint);
});

test('parseServeUrl takes the base and the token from the printed URL', () => {
  assert.deepEqual(parseServeUrl('http://127.0.0.1:4567/?token=abc'), { base: 'http://127.0.0.1:4567', token: 'abc' });
  assert.deepEqual(parseServeUrl('http://localhost:1'), { base: 'http://localhost:1', token: '' });
  assert.equal(parseServeUrl('not a url'), null);
  assert.equal(parseServeUrl('file:///etc/passwd'), null);
});

for (const [label, fetchImpl] of [
  ['fetch', undefined],
  ['nodeHttpFetch', nodeHttpFetch],
] as [string, FetchLike | undefined][]) {
  describe(`the client over ${label}`, () => {
    let vault: ReturnType<typeof makeVault>;
    let server: StartedServer;
    let client: EaselClient;
    before(async () => {
      vault = makeVault();
      server = await startEasel(vault.path);
      client = new EaselClient(server.conn, fetchImpl);
    });
    after(async () => {
      client?.close();
      await server?.stop();
      vault.cleanup();
    });

    test('runs an operation and returns its output', async () => {
      const c = await client.op<{ path: string; nodes: { id: string }[] }>('canvas_read', { path: RESEARCH });
      assert.equal(c.path, RESEARCH);
      assert.equal(c.nodes.length, 6);
      const ops = await client.operations();
      assert.ok(ops.some((o) => o.name === 'thread_send'));
    });

    test("an operation's error comes back with its kind and hint", async () => {
      await assert.rejects(client.op('canvas_read', { path: 'Missing.canvas' }), (e: unknown) => {
        assert.ok(e instanceof EaselError);
        assert.equal(e.kind, 'not_found');
        assert.equal(e.status, 404);
        assert.ok(e.hint.length > 0, 'a hint says what to do');
        return true;
      });
    });

    test('a wrong token is refused with what to do', async () => {
      const wrong = new EaselClient({ base: server.conn.base, token: 'nope' }, fetchImpl);
      await assert.rejects(wrong.op('canvas_list', {}), (e: unknown) => {
        assert.ok(e instanceof EaselError);
        assert.equal(e.status, 401);
        assert.match(e.hint, /Bearer/);
        return true;
      });
      await assert.rejects(wrong.connected(), EaselError);
    });

    test('the stream reports a file changed on disk by another process', async () => {
      const seen: EaselEvent[] = [];
      const off = client.subscribe((e) => seen.push(e));
      await client.connected();
      writeFileSync(join(vault.path, 'notes', `from-${label}.md`), 'hello\n');
      const ev = await waitUntil(() => seen.find((e) => e.type === 'changed' && e.path === `notes/from-${label}.md`), 'the changed event');
      assert.equal(typeof ev?.rev, 'string');
      off();
    });

    test('a named run ends with its output; cancelling a run that is not going says false', async () => {
      const run = client.start<{ canvases: unknown[] }>('canvas_list', {});
      const r = await run.result;
      assert.ok(r.ok && Array.isArray(r.output.canvases), JSON.stringify(r));
      assert.equal(await client.cancel(run.id), false);
    });
  });
}

test('a request with an Origin, as a page in Obsidian would send, is refused; nodeHttpFetch sends none', async () => {
  // Why the plugin does not use Obsidian's window.fetch: its origin is app://obsidian.md.
  const vault = makeVault();
  const server = await startEasel(vault.path);
  try {
    const withOrigin: FetchLike = (url, init) => fetch(url, { ...init, headers: { ...init.headers, origin: 'app://obsidian.md' } }) as any;
    await assert.rejects(new EaselClient(server.conn, withOrigin).op('canvas_list', {}), (e: unknown) => e instanceof EaselError && e.kind === 'forbidden' && /Origin/.test(e.message));
    const out = await new EaselClient(server.conn, nodeHttpFetch).op<{ canvases: unknown[] }>('canvas_list', {});
    assert.equal(out.canvases.length, 2);
  } finally {
    await server.stop();
    vault.cleanup();
  }
});
