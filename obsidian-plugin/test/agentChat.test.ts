// The agent chat's logic against a real easel serve with the scripted model: streamed text,
// tool calls, handoffs, approvals (approve runs the call once, deny leaves the file absent).

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentChat } from '../src/easel/agentChat';
import { EaselClient } from '../src/easel/client';
import type { StartedServer } from '../src/easel/launcher';
import { applyEvent, finishRun, type Entry } from '../src/easel/transcript';
import { ScriptedModel, call, gate, held, text } from './scriptedModel';
import { makeVault, startStack, stopStack, waitUntil } from './helpers';

test('the transcript folds text deltas, tool calls and their outputs into entries', () => {
  let t: Entry[] = [];
  t = applyEvent(t, { type: 'text_delta', agent: 'a', delta: 'Hel' });
  t = applyEvent(t, { type: 'text_delta', agent: 'a', delta: 'lo' });
  t = applyEvent(t, { type: 'tool_call', agent: 'a', id: 'c1', name: 'note_read', arguments: { path: 'x.md' } });
  t = applyEvent(t, { type: 'tool_output', agent: 'a', id: 'c1', name: 'note_read', output: 'body', is_error: false });
  t = applyEvent(t, { type: 'handoff', from: 'a', to: 'b' });
  assert.deepEqual(
    t.map((e) => e.t),
    ['text', 'tool', 'handoff'],
  );
  assert.equal(t[0].t === 'text' && t[0].text, 'Hello');
  assert.equal(t[0].t === 'text' && t[0].done, true, 'text is final once a tool call follows');
  assert.equal(t[1].t === 'tool' && t[1].output, 'body');
  t = finishRun(t, { ok: false, error: { kind: 'failure', message: 'model down', hint: 'start it' } });
  assert.deepEqual(t[t.length - 1], { ...t[t.length - 1], t: 'error', message: 'model down', hint: 'start it' });
});

describe('the agent chat against easel serve', () => {
  let vault: ReturnType<typeof makeVault>;
  let model: ScriptedModel;
  let server: StartedServer;
  let client: EaselClient;

  before(async () => {
    ({ vault, model, server } = await startStack({ agents: true }));
    client = new EaselClient(server.conn);
  });
  after(async () => {
    client?.close();
    await stopStack({ vault, model, server });
  });
  afterEach(() => assert.equal(model.left(), 0, 'every scripted turn was used'));

  test('lists the agents', async () => {
    const chat = new AgentChat(async () => client);
    const names = (await chat.agents()).map((a) => a.name).sort();
    assert.deepEqual(names, ['triage', 'writer']);
  });

  test('a message streams its answer, and the next message continues the session', async () => {
    const g = gate();
    model.push(held('Hello from the writer.', g.promise), text('Still here.'));
    let changes = 0;
    const chat = new AgentChat(async () => client, () => changes++);
    chat.setAgent('writer');
    const sending = chat.send('Say hello');
    await waitUntil(() => chat.entries.some((e) => e.t === 'text' && e.text === 'Hello ' && !e.done), 'the first streamed word');
    assert.equal(chat.busy, true);
    g.open();
    await sending;
    assert.equal(chat.busy, false);
    assert.deepEqual(
      chat.entries.map((e) => [e.t, e.t === 'user' || e.t === 'text' ? e.text : '']),
      [
        ['user', 'Say hello'],
        ['text', 'Hello from the writer.'],
      ],
    );
    const session = chat.session;
    assert.ok(session && existsSync(join(vault.path, '.easel', 'sessions', `${session}.jsonl`)));
    await chat.send('Are you there?');
    assert.equal(chat.session, session, 'one conversation, one session');
    const last = chat.entries[chat.entries.length - 1];
    assert.ok(last.t === 'text' && last.text === 'Still here.' && last.done);
    // The model saw the first exchange again: the session carried the history.
    const msgs = (model.requests[model.requests.length - 1] as any).messages.map((m: any) => m.content);
    assert.ok(msgs.includes('Say hello') && msgs.includes('Are you there?'), JSON.stringify(msgs));
    assert.ok(changes > 3);
  });

  test('a handoff shows who hands over to whom and the next agent answers', async () => {
    model.push(call('transfer_to_writer', {}), text('Writer here.'));
    const chat = new AgentChat(async () => client);
    chat.setAgent('triage');
    await chat.send('Please write something');
    const handoff = chat.entries.find((e) => e.t === 'handoff');
    assert.deepEqual(handoff && [handoff.from, handoff.to], ['triage', 'writer']);
    const tool = chat.entries.find((e) => e.t === 'tool');
    assert.ok(tool?.t === 'tool' && tool.name === 'transfer_to_writer' && tool.output === 'transferred to writer', JSON.stringify(tool));
    const last = chat.entries[chat.entries.length - 1];
    assert.ok(last.t === 'text' && last.agent === 'writer' && last.text === 'Writer here.', JSON.stringify(last));
  });

  test('approve runs the waiting call once; the file is written and the run finishes', async () => {
    model.push(call('note_write', { path: 'drafts/hello.md', content: 'Hello from the agent' }), text('I wrote the note.'));
    const chat = new AgentChat(async () => client);
    chat.setAgent('writer');
    const target = join(vault.path, 'drafts', 'hello.md');
    await chat.send('Write drafts/hello.md');
    const approval = chat.entries.find((e) => e.t === 'approval');
    assert.ok(approval?.t === 'approval' && approval.name === 'note_write' && approval.answer === null, JSON.stringify(chat.entries));
    assert.deepEqual(approval.arguments, { path: 'drafts/hello.md', content: 'Hello from the agent' });
    assert.equal(chat.waiting, true);
    assert.equal(existsSync(target), false, 'nothing written before the approval');
    await chat.send('ignored while waiting');
    assert.equal(chat.entries.filter((e) => e.t === 'user').length, 1, 'no message while an approval waits');
    await chat.answer('yes');
    assert.equal(readFileSync(target, 'utf8').trimEnd(), 'Hello from the agent');
    const last = chat.entries[chat.entries.length - 1];
    assert.ok(last.t === 'text' && last.text === 'I wrote the note.', JSON.stringify(chat.entries));
    assert.equal(chat.entries.filter((e) => e.t === 'tool' && e.name === 'note_write').length, 1, 'one entry for the call');
    const ledger = await client.op<{ entries: { path?: string; actor?: string }[] }>('ledger_list', { limit: 50 });
    const writes = ledger.entries.filter((e) => e.path === 'drafts/hello.md');
    assert.equal(writes.length, 1, 'written once');
    assert.equal(writes[0].actor, 'agent:writer');
  });

  test('deny leaves the file absent and the agent is told', async () => {
    model.push(call('note_write', { path: 'drafts/no.md', content: 'Nope' }), text('Understood, I did not write it.'));
    const chat = new AgentChat(async () => client);
    chat.setAgent('writer');
    await chat.send('Write drafts/no.md');
    assert.equal(chat.waiting, true);
    await chat.answer('no');
    assert.equal(existsSync(join(vault.path, 'drafts', 'no.md')), false);
    const approval = chat.entries.find((e) => e.t === 'approval');
    assert.ok(approval?.t === 'approval' && approval.answer === 'no');
    const told = JSON.stringify((model.requests[model.requests.length - 1] as any).messages);
    assert.match(told, /error:/, 'the refusal went back to the model as an error output');
    const last = chat.entries[chat.entries.length - 1];
    assert.ok(last.t === 'text' && last.text === 'Understood, I did not write it.');
  });

  test('Stop ends the run before its next step; what it did is kept', async () => {
    const g = gate();
    model.push(call('note_read', { path: 'Welcome.md' }, g.promise), text('never asked for'));
    const chat = new AgentChat(async () => client);
    chat.setAgent('writer');
    const calls = model.requests.length;
    const sending = chat.send('Read Welcome.md');
    await waitUntil(() => model.requests.length === calls + 1 && chat.busy, 'the model call');
    await chat.stop();
    g.open();
    await sending;
    assert.equal(chat.busy, false);
    const last = chat.entries[chat.entries.length - 1];
    assert.ok(last.t === 'note' && /Stopped/.test(last.text), JSON.stringify(chat.entries));
    assert.ok(chat.session, 'the stopped session can be continued');
    assert.equal(model.requests.length, calls + 1, 'no model call after Stop');
    model.clear();
  });
});
