import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SseParser } from '../src/easel/sse';

test('events split across chunks, CRLF and comments come out whole', () => {
  const p = new SseParser();
  assert.deepEqual(p.push(': keep-alive\n\ndata: {"a"'), []);
  assert.deepEqual(p.push(':1}\r'), []);
  assert.deepEqual(p.push('\n\r\ndata:x\nevent: y\n\n'), ['{"a":1}', 'x']);
});

test('multi-line data joins with newlines; a blank event yields nothing', () => {
  const p = new SseParser();
  assert.deepEqual(p.push('data: one\ndata: two\n\n\n\n'), ['one\ntwo']);
});
