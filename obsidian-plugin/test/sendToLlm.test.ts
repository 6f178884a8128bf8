// Send to LLM and Apply layout through a real easel serve whose model is the scripted one: the
// answer streams to the caller and lands in the canvas file, and nothing else in the file changes.

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { EaselClient } from '../src/easel/client';
import { applyLayout } from '../src/easel/layout';
import { describeSendResult, sendToLlm, type AnswerProgress } from '../src/easel/sendToLlm';
import type { StartedServer } from '../src/easel/launcher';
import { ScriptedModel, gate, held } from './scriptedModel';
import { QUESTION, RESEARCH, makeVault, readJson, startStack, stopStack, waitUntil } from './helpers';

describe('Send to LLM and layout against easel serve', () => {
  let vault: ReturnType<typeof makeVault>;
  let model: ScriptedModel;
  let server: StartedServer;
  let client: EaselClient;
  let before_: any;
  const canvasFile = () => readJson(join(vault.path, RESEARCH));

  before(async () => {
    ({ vault, model, server } = await startStack());
    client = new EaselClient(server.conn);
  });
  after(async () => {
    client?.close();
    await stopStack({ vault, model, server });
  });
  afterEach(() => {
    assert.equal(model.left(), 0, 'every scripted turn was used');
  });

  test('the answer streams while the model writes and lands below the node, nothing else changes', async () => {
    before_ = canvasFile();
    const g = gate();
    model.push(held('Three bullets: nodes, edges, colours.', g.promise));
    const seen: AnswerProgress[] = [];
    const run = sendToLlm(client, { canvas: RESEARCH, node: QUESTION }, (p) => seen.push(p));
    // The first word arrives while the model still holds the rest: it streamed.
    await waitUntil(() => seen.some((p) => p.text === 'Three '), 'the first streamed word');
    const answerId = seen.find((p) => p.node)?.node;
    assert.ok(answerId, 'answer_started named the answer node');
    // Easel created the answer node in the file at once.
    await waitUntil(() => canvasFile().nodes.some((n: any) => n.id === answerId), 'the answer node in the file');
    g.open();
    const r = await run.result;
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.output.node, answerId);
    assert.equal(seen[seen.length - 1].text, 'Three bullets: nodes, edges, colours.');
    assert.match(describeSendResult(r, ''), /answered with openai-compat:scripted/);

    const after = canvasFile();
    // Exactly one node and one edge more; every other node and edge as it was.
    assert.equal(after.nodes.length, before_.nodes.length + 1);
    assert.equal(after.edges.length, before_.edges.length + 1);
    assert.deepEqual(after.nodes.filter((n: any) => n.id !== answerId), before_.nodes);
    const answer = after.nodes.find((n: any) => n.id === answerId);
    const question = before_.nodes.find((n: any) => n.id === QUESTION);
    assert.equal(answer.type, 'text');
    assert.equal(answer.color, '3');
    assert.match(answer.text, /^---\nrole: assistant\nmodel: openai-compat:scripted\n/);
    assert.ok(answer.text.endsWith('Three bullets: nodes, edges, colours.'), answer.text);
    assert.equal(answer.y, question.y + question.height + 60);
    const edge = after.edges.find((e: any) => e.toNode === answerId);
    assert.deepEqual([edge.fromNode, edge.fromSide, edge.toSide], [QUESTION, 'bottom', 'top']);
    assert.deepEqual(after.edges.filter((e: any) => e.toNode !== answerId), before_.edges);
    // The model was sent the conversation up to the question.
    const sent = (model.requests[model.requests.length - 1] as any).messages;
    assert.match(sent[sent.length - 1].content, /three/);
  });

  test('Stop keeps the partial answer in the canvas, marked partial', async () => {
    const g = gate();
    model.push(held('Partial words then the rest that never comes', g.promise));
    const seen: AnswerProgress[] = [];
    const run = sendToLlm(client, { canvas: RESEARCH, node: QUESTION, model: 'openai-compat:scripted' }, (p) => seen.push(p));
    await waitUntil(() => seen.some((p) => p.text === 'Partial '), 'the first streamed word');
    const answerId = seen.find((p) => p.node)!.node!;
    await run.cancel();
    const r = await run.result;
    g.open();
    // A stopped answer is a result, not an error: the output says it is partial.
    assert.ok(r.ok && r.output.partial === true && r.output.node === answerId, JSON.stringify(r));
    assert.match(describeSendResult(r, 'Partial '), /partial answer is kept/);
    const node = await waitUntil(
      () => canvasFile().nodes.find((n: any) => n.id === answerId && /partial: true/.test(n.text)),
      'the partial answer in the file',
    );
    assert.ok(node.text.endsWith('Partial'), node.text);
    assert.ok(!node.text.includes('never comes'));
  });

  test('a node that does not exist fails with a hint and leaves the file alone', async () => {
    const before = canvasFile();
    const r = await sendToLlm(client, { canvas: RESEARCH, node: 'nope' }, () => undefined).result;
    assert.ok(!r.ok);
    assert.equal(r.error.kind, 'not_found');
    assert.ok(r.error.hint);
    assert.match(describeSendResult(r, ''), /^Easel: Send to LLM failed: /);
    assert.deepEqual(canvasFile(), before);
  });

  test('Apply layout moves nodes only: same ids, texts and edges', async () => {
    const path = 'boards/Project plan.canvas';
    const file = () => readJson(join(vault.path, path));
    const before = file();
    await applyLayout(client, path, 'layered');
    const after = file();
    const strip = (n: any) => {
      const { x, y, width, height, ...rest } = n;
      return rest;
    };
    assert.deepEqual(after.nodes.map(strip), before.nodes.map(strip));
    assert.deepEqual(after.edges.map((e: any) => [e.id, e.fromNode, e.toNode, e.label]), before.edges.map((e: any) => [e.id, e.fromNode, e.toNode, e.label]));
    assert.notDeepEqual(after.nodes.map((n: any) => [n.x, n.y]), before.nodes.map((n: any) => [n.x, n.y]), 'something moved');
  });
});
