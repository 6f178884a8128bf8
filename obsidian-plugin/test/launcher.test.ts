import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServeLine, startServer } from '../src/easel/launcher';
import { EaselError } from '../src/easel/errors';
import { EASEL_BIN, makeVault } from './helpers';

test("parseServeLine reads easel serve's first line and nothing else", () => {
  assert.deepEqual(parseServeLine('Easel at http://127.0.0.1:40123/?token=0a1b\n'), { base: 'http://127.0.0.1:40123', token: '0a1b' });
  assert.equal(parseServeLine('Easel at http://127.0.0.1:40123/'), null, 'no token');
  assert.equal(parseServeLine('error: no vault'), null);
});

test('starts easel serve on a vault and stops it', async () => {
  const vault = makeVault();
  try {
    const s = await startServer({ bin: EASEL_BIN, vault: vault.path });
    assert.match(s.conn.base, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(s.conn.token, /^[0-9a-f]{32}$/);
    await s.stop();
    assert.notEqual(s.process.exitCode ?? s.process.signalCode, null, 'the process ended');
  } finally {
    vault.cleanup();
  }
});

test('a missing binary is an error that says to set its path', async () => {
  await assert.rejects(startServer({ bin: '/nonexistent/easel', vault: '/tmp' }), (e: unknown) => {
    assert.ok(e instanceof EaselError);
    assert.match(e.message, /could not start/);
    assert.match(e.hint, /path of the easel binary/);
    return true;
  });
});

test('a program that exits without printing the address is reported with its stderr', async () => {
  // Node rejects the `--vault` option and exits: the shape of a wrong binary.
  await assert.rejects(startServer({ bin: process.execPath, vault: '/tmp' }), (e: unknown) => {
    assert.ok(e instanceof EaselError);
    assert.match(e.message, /exited \(code \d+\) before printing its address/);
    assert.match(e.message, /--vault/);
    return true;
  });
});
