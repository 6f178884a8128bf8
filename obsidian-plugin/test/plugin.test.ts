// The Obsidian-facing part (main.ts, the chat view, the settings tab) against the fake Obsidian
// API (test/fake-obsidian.ts, mapped over `obsidian` in the test build) and a real easel serve.

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, ItemView, Menu, Notice, Setting, type FakeEl, type WorkspaceLeaf } from './fake-obsidian';
import EaselPlugin from '../src/main';
import { AgentChatView, CHAT_VIEW } from '../src/chatView';
import type { StartedServer } from '../src/easel/launcher';
import { addAgents } from './agents';
import { ScriptedModel, call, gate, held, text } from './scriptedModel';
import { EASEL_BIN, QUESTION, RESEARCH, makeVault, readJson, startStack, stopStack, waitUntil } from './helpers';

const MANIFEST = { id: 'easel', name: 'Easel', version: '0.1.0' };

/** A canvas view as Obsidian's looks to the plugin: its file and the canvas's selection. */
class FakeCanvasView extends ItemView {
  file: { path: string };
  canvas: { selection: Set<unknown>; view?: unknown };
  constructor(leaf: WorkspaceLeaf, path: string) {
    super(leaf);
    this.file = { path };
    this.canvas = { selection: new Set() };
    this.canvas.view = this;
  }
  getViewType(): string {
    return 'canvas';
  }
  /** A canvas node object: its id and the canvas it belongs to. */
  node(id: string): { id: string; canvas: unknown } {
    return { id, canvas: this.canvas };
  }
}

/** Any other view: a note. */
class FakeNoteView extends ItemView {
  file = { path: 'Welcome.md' };
  getViewType(): string {
    return 'markdown';
  }
}

async function loadPlugin(app: App, data: object): Promise<EaselPlugin> {
  const plugin = new EaselPlugin(app as any, MANIFEST as any);
  (plugin as any).data = data;
  await plugin.onload();
  return plugin;
}

const lastNotice = () => Notice.all[Notice.all.length - 1];

describe('the plugin in (fake) Obsidian with a running easel serve', () => {
  let vault: ReturnType<typeof makeVault>;
  let model: ScriptedModel;
  let server: StartedServer;
  let app: App;
  let plugin: EaselPlugin;
  const canvasFile = () => readJson(join(vault.path, RESEARCH));

  before(async () => {
    ({ vault, model, server } = await startStack({ agents: true }));
    app = new App(vault.path);
    // Connect to the running server by its printed URL (the token rides in it).
    plugin = await loadPlugin(app, { serverUrl: `${server.conn.base}/?token=${server.conn.token}` });
  });
  after(async () => {
    plugin?.unload();
    await stopStack({ vault, model, server });
  });
  afterEach(() => assert.equal(model.left(), 0, 'every scripted turn was used'));

  test('registers its commands, the chat view, the settings and the node menu', () => {
    assert.deepEqual([...app.commands.keys()].sort(), ['apply-layout', 'open-agent-chat', 'send-to-llm', 'stop-answer']);
    assert.equal(app.commands.get('send-to-llm')!.name, 'Send to LLM');
    assert.equal(app.commands.get('apply-layout')!.name, 'Apply layout');
    assert.ok(app.viewRegistry.has(CHAT_VIEW));
    assert.equal(app.workspace.listenerCount('canvas:node-menu'), 1);
    const tab = app.settingTabs[0];
    Setting.all = [];
    tab.display();
    assert.deepEqual(Setting.all.map((s) => s.name), ['Server', 'Token', 'Default model', 'Easel binary']);
    assert.equal(Setting.all[0].text!.getValue(), `${server.conn.base}/?token=${server.conn.token}`);
  });

  test('"Send to LLM" in a node\'s context menu streams the answer into a notice and the canvas', async () => {
    const before = canvasFile();
    const g = gate();
    model.push(held('Nodes, edges and colours.', g.promise));
    const leaf = app.workspace.openView((l) => new FakeCanvasView(l, RESEARCH));
    const view = leaf.view as FakeCanvasView;
    const menu = new Menu();
    app.workspace.trigger('canvas:node-menu', menu, view.node(QUESTION));
    assert.deepEqual(menu.items.map((i) => i.title), ['Send to LLM']);
    const noticesBefore = Notice.all.length;
    menu.items[0].click();
    const notice = await waitUntil(() => Notice.all[noticesBefore], 'the notice');
    // The streamed text shows live while the model holds the rest.
    await waitUntil(() => notice.text.includes('Nodes,'), 'the first word in the notice');
    assert.ok(notice.messageEl.button('Stop'), 'a Stop button while it streams');
    g.open();
    await waitUntil(() => /answered with openai-compat:scripted/.test(notice.text), 'the finished notice');
    assert.equal(notice.messageEl.button('Stop'), undefined);
    const after = canvasFile();
    assert.equal(after.nodes.length, before.nodes.length + 1);
    const answer = after.nodes.find((n: any) => !before.nodes.some((b: any) => b.id === n.id));
    assert.ok(answer.text.endsWith('Nodes, edges and colours.'));
    assert.ok(after.edges.some((e: any) => e.fromNode === QUESTION && e.toNode === answer.id));
  });

  test('an edge in the context menu gets no Send to LLM', () => {
    const menu = new Menu();
    app.workspace.trigger('canvas:node-menu', menu, { id: 'e1', from: {}, to: {}, canvas: {} });
    assert.equal(menu.items.length, 0);
  });

  test('the canvas toolbar button sends the single selected node; Stop keeps the partial answer', async () => {
    const g = gate();
    model.push(held('Partial words and more', g.promise));
    const leaf = app.workspace.openView((l) => new FakeCanvasView(l, RESEARCH));
    const view = leaf.view as FakeCanvasView;
    app.workspace.trigger('active-leaf-change', leaf); // a second activation adds no second button
    assert.deepEqual(view.actions.map((a) => a.title), ['Send to LLM']);
    // Nothing selected: it says what to do.
    view.actions[0].el.click();
    assert.match(lastNotice().text, /select exactly one node/);
    // Two selected: the command is not available either.
    view.canvas.selection = new Set([view.node(QUESTION), view.node('5e6f708192a3b4c5')]);
    assert.equal(app.commands.get('send-to-llm')!.checkCallback!(true), false);
    view.canvas.selection = new Set([view.node(QUESTION)]);
    assert.equal(app.commands.get('send-to-llm')!.checkCallback!(true), true);
    const n = Notice.all.length;
    view.actions[0].el.click();
    const notice = await waitUntil(() => Notice.all[n], 'the notice');
    await waitUntil(() => notice.text.includes('Partial'), 'the first word');
    assert.equal(app.commands.get('stop-answer')!.checkCallback!(true), true);
    notice.messageEl.button('Stop')!.click();
    await waitUntil(() => /partial answer is kept/.test(notice.text), 'the stopped notice');
    g.open();
    const partial = canvasFile().nodes.find((n: any) => /partial: true/.test(n.text ?? ''));
    assert.ok(partial && partial.text.endsWith('Partial'), JSON.stringify(partial));
    assert.equal(app.commands.get('stop-answer')!.checkCallback!(true), false);
  });

  test('Apply layout is offered on a canvas only and lays it out through Easel', async () => {
    const path = 'boards/Project plan.canvas';
    const file = () => readJson(join(vault.path, path));
    const before = file();
    const cmd = app.commands.get('apply-layout')!;
    app.workspace.openView((l) => new FakeNoteView(l));
    assert.equal(cmd.checkCallback!(true), false);
    app.workspace.openView((l) => new FakeCanvasView(l, path));
    assert.equal(cmd.checkCallback!(true), true);
    const n = Notice.all.length;
    cmd.checkCallback!(false);
    await waitUntil(() => Notice.all.slice(n).find((x) => /laid out/.test(x.text)), 'the layout notice');
    const after = file();
    assert.deepEqual(after.nodes.map((x: any) => x.id), before.nodes.map((x: any) => x.id));
    assert.notDeepEqual(after.nodes.map((x: any) => [x.x, x.y]), before.nodes.map((x: any) => [x.x, x.y]));
    // It went through Easel: the ledger has the write, so easel undo can take it back.
    const ledger = readFileSync(join(vault.path, '.easel', 'ledger.jsonl'), 'utf8');
    assert.ok(ledger.split('\n').some((l) => l.includes('canvas_layout') || (l.includes('Project plan.canvas') && l.includes('http'))), 'a ledger line for the layout');
  });

  test('the agent chat view: pick an agent, stream, see tool calls and approve', async () => {
    model.push(call('note_write', { path: 'drafts/from-obsidian.md', content: 'Written in Obsidian' }), text('Done, the note is written.'));
    await plugin.openChat();
    const leaf = app.workspace.getLeavesOfType(CHAT_VIEW)[0];
    const view = leaf.view as AgentChatView;
    await view.ready;
    const root = view.contentEl as unknown as FakeEl;
    const select = root.findAll((e) => e.getAttr('aria-label') === 'Agent')[0];
    assert.deepEqual(select.children.map((o) => o.value), ['triage', 'writer']);
    select.value = 'writer';
    select.dispatch('change');
    const box = root.findAll((e) => e.getAttr('aria-label') === 'Message')[0];
    box.value = 'Write drafts/from-obsidian.md';
    root.button('Send')!.click();
    const conversation = root.findAll((e) => e.getAttr('aria-label') === 'Conversation')[0];
    const approval = await waitUntil(
      () => conversation.findAll((e) => e.getAttr('aria-label') === 'Approval for note_write')[0],
      'the approval request',
    );
    assert.match(approval.textContent, /drafts\/from-obsidian\.md/);
    assert.equal(root.button('Send')!.disabled, true, 'no new message while an approval waits');
    const target = join(vault.path, 'drafts', 'from-obsidian.md');
    assert.equal(existsSync(target), false);
    approval.button('Approve')!.click();
    await waitUntil(() => conversation.findAll((e) => e.hasClass('easel-agent') && e.textContent === 'Done, the note is written.')[0], 'the final answer');
    assert.equal(readFileSync(target, 'utf8').trimEnd(), 'Written in Obsidian');
    const answered = conversation.findAll((e) => e.getAttr('aria-label') === 'Approval for note_write')[0];
    assert.match(answered.textContent, /Approved/);
    assert.equal(answered.button('Approve'), undefined);
    const tools = conversation.findAll((e) => e.tagName === 'DETAILS');
    assert.equal(tools.length, 1);
    assert.match(tools[0].textContent, /note_write/);
    assert.equal(conversation.findAll((e) => e.hasClass('easel-user'))[0].textContent, 'Write drafts/from-obsidian.md');
    assert.equal(root.button('Send')!.disabled, false);
    // Opening it again reveals the same view.
    await plugin.openChat();
    assert.equal(app.workspace.getLeavesOfType(CHAT_VIEW).length, 1);
  });

  test('the chat view streams text live and shows a handoff as "triage → writer"', async () => {
    const g = gate();
    model.push(call('transfer_to_writer', {}), held('Writer here, writing slowly.', g.promise));
    await plugin.openChat();
    const view = app.workspace.getLeavesOfType(CHAT_VIEW)[0].view as AgentChatView;
    await view.ready;
    const root = view.contentEl as unknown as FakeEl;
    const select = root.findAll((e) => e.getAttr('aria-label') === 'Agent')[0];
    select.value = 'triage';
    select.dispatch('change');
    root.findAll((e) => e.getAttr('aria-label') === 'Message')[0].value = 'Write me something';
    root.button('Send')!.click();
    const conversation = root.findAll((e) => e.getAttr('aria-label') === 'Conversation')[0];
    const streaming = await waitUntil(() => conversation.findAll((e) => e.hasClass('easel-streaming'))[0], 'the streaming text');
    assert.equal(streaming.textContent, 'Writer ');
    assert.equal(streaming.getAttr('data-agent'), 'writer');
    assert.equal(root.button('Stop')!.disabled, false);
    assert.equal(root.button('Send')!.disabled, true);
    assert.deepEqual(conversation.findAll((e) => e.hasClass('easel-handoff')).map((e) => e.textContent), ['triage → writer']);
    g.open();
    await waitUntil(() => conversation.findAll((e) => e.hasClass('easel-agent') && e.textContent === 'Writer here, writing slowly.')[0], 'the final text');
    assert.equal(conversation.findAll((e) => e.hasClass('easel-streaming')).length, 0);
    await waitUntil(() => !root.button('Send')!.disabled, 'Send enabled again');
    assert.equal(root.button('Stop')!.disabled, true);
  });
});

describe('the plugin starting easel itself', () => {
  test('starts easel serve on the vault, uses it, and stops it on unload', async () => {
    const vault = makeVault();
    try {
      const app = new App(vault.path);
      const plugin = await loadPlugin(app, { binaryPath: EASEL_BIN });
      const client = await plugin.service.get();
      const started = plugin.service.server!;
      assert.ok(started, 'the plugin started a server');
      assert.equal(client.conn.base, started.conn.base);
      const list = await client.op<{ canvases: unknown[] }>('canvas_list', {});
      assert.equal(list.canvases.length, 2);
      plugin.unload();
      await waitUntil(() => started.process.exitCode !== null || started.process.signalCode !== null, 'the server to stop');
    } finally {
      vault.cleanup();
    }
  });

  test('a wrong binary path is reported with what to do, and nothing is written', async () => {
    const vault = makeVault();
    try {
      const app = new App(vault.path);
      const plugin = await loadPlugin(app, { binaryPath: '/nonexistent/easel' });
      const before = readFileSync(join(vault.path, RESEARCH), 'utf8');
      await plugin.sendToLlm({ canvas: RESEARCH, node: QUESTION });
      const notice = lastNotice();
      assert.match(notice.text, /could not start '\/nonexistent\/easel serve'/);
      assert.match(notice.text, /path of the easel binary/);
      assert.equal(notice.hidden, false, 'an error stays until dismissed');
      assert.equal(readFileSync(join(vault.path, RESEARCH), 'utf8'), before);
      plugin.unload();
    } finally {
      vault.cleanup();
    }
  });

  test('the chat view says what is wrong when easel cannot start, and recovers after the fix', async () => {
    const vault = makeVault();
    const model = new ScriptedModel();
    try {
      await model.start();
      model.configure(vault.path);
      addAgents(vault.path);
      const app = new App(vault.path);
      const plugin = await loadPlugin(app, { binaryPath: '/nonexistent/easel' });
      await plugin.openChat();
      const view = app.workspace.getLeavesOfType(CHAT_VIEW)[0].view as AgentChatView;
      await view.ready;
      const root = view.contentEl as unknown as FakeEl;
      const problem = root.findAll((e) => e.hasClass('easel-problem'))[0];
      assert.match(problem.textContent, /could not start '\/nonexistent\/easel serve'.*path of the easel binary/);
      assert.equal(root.button('Send')!.disabled, true);
      Setting.all = [];
      app.settingTabs[0].display();
      await Setting.all.find((s) => s.name === 'Easel binary')!.text!.type(EASEL_BIN);
      root.button('Reload agents')!.click();
      await view.ready;
      assert.equal(problem.textContent, '');
      const select = root.findAll((e) => e.getAttr('aria-label') === 'Agent')[0];
      assert.deepEqual(select.children.map((o) => o.value), ['triage', 'writer']);
      assert.equal(root.button('Send')!.disabled, false);
      plugin.unload();
    } finally {
      await model.stop();
      vault.cleanup();
    }
  });

  test('changing a setting saves it and reconnects', async () => {
    const vault = makeVault();
    try {
      const app = new App(vault.path);
      const plugin = await loadPlugin(app, { binaryPath: EASEL_BIN });
      await plugin.service.get();
      const first = plugin.service.server!;
      Setting.all = [];
      app.settingTabs[0].display();
      await Setting.all.find((s) => s.name === 'Default model')!.text!.type('openai-compat:scripted');
      assert.equal(((plugin as any).data as any).defaultModel, 'openai-compat:scripted');
      await waitUntil(() => first.process.exitCode !== null || first.process.signalCode !== null, 'the old server to stop');
      assert.equal(plugin.service.server, null);
      plugin.unload();
    } finally {
      vault.cleanup();
    }
  });
});
