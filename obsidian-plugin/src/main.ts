// The Obsidian side of the plugin: commands, the canvas node menu, a canvas toolbar button,
// the agent chat view and the settings. Everything that talks to Easel lives in ./easel/, which
// imports nothing from Obsidian. The plugin never writes a vault file itself: every change is an
// Easel operation, so Easel's ledger and undo cover it.

import { FileSystemAdapter, Notice, Plugin, type Events, type Menu, type View, type WorkspaceLeaf } from 'obsidian';
import { AgentChatView, CHAT_VIEW } from './chatView';
import type { Run } from './easel/client';
import { canvasPathOf, nodeOfMenu, selectedNode, type NodeRef } from './easel/canvasInternals';
import { asEaselError } from './easel/errors';
import { applyLayout } from './easel/layout';
import { nodeHttpFetch } from './easel/nodeHttpFetch';
import { describeSendResult, sendToLlm, type SendOutput } from './easel/sendToLlm';
import { EaselService } from './easel/service';
import { DEFAULT_SETTINGS, loadSettings, type EaselSettings } from './easel/settings';
import { EaselSettingTab } from './settingsTab';

/** How much of a streaming answer a notice shows (its end). */
const NOTICE_TAIL = 400;
/** How long a finished notice stays (errors stay until dismissed). */
const DONE_NOTICE_MS = 6000;

export default class EaselPlugin extends Plugin {
  settings: EaselSettings = { ...DEFAULT_SETTINGS };
  service!: EaselService;
  /** Send to LLM runs in progress (Stop cancels them). */
  readonly sends = new Set<Run<SendOutput>>();
  private withButton = new WeakSet<object>();

  async onload(): Promise<void> {
    this.settings = loadSettings(await this.loadData());
    this.service = new EaselService({ vaultPath: this.vaultPath(), settings: () => this.settings, fetch: nodeHttpFetch });

    this.registerView(CHAT_VIEW, (leaf) => new AgentChatView(leaf, this));
    this.addSettingTab(new EaselSettingTab(this.app, this));

    this.addCommand({
      id: 'send-to-llm',
      name: 'Send to LLM',
      checkCallback: (checking) => {
        const ref = selectedNode(this.activeView());
        if (ref && !checking) void this.sendToLlm(ref);
        return ref !== null;
      },
    });
    this.addCommand({
      id: 'stop-answer',
      name: 'Stop the answer',
      checkCallback: (checking) => {
        if (this.sends.size > 0 && !checking) void this.stopAnswers();
        return this.sends.size > 0;
      },
    });
    this.addCommand({
      id: 'apply-layout',
      name: 'Apply layout',
      checkCallback: (checking) => {
        const path = canvasPathOf(this.activeView());
        if (path && !checking) void this.applyLayout(path);
        return path !== null;
      },
    });
    this.addCommand({ id: 'open-agent-chat', name: 'Open agent chat', callback: () => void this.openChat() });
    this.addRibbonIcon('bot', 'Easel agent chat', () => void this.openChat());

    // 'canvas:node-menu' is the canvas's own event, not in the typed Workspace events.
    const workspace = this.app.workspace as unknown as Events;
    this.registerEvent(workspace.on('canvas:node-menu', (menu: unknown, node: unknown) => this.onNodeMenu(menu as Menu, node)));
    this.registerEvent(this.app.workspace.on('active-leaf-change', (leaf) => this.addCanvasButton(leaf)));
    this.app.workspace.onLayoutReady(() => this.app.workspace.iterateAllLeaves((leaf) => this.addCanvasButton(leaf)));
  }

  onunload(): void {
    void this.stopAnswers();
    void this.service.reset();
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
    await this.service.reset();
  }

  private vaultPath(): string | null {
    const adapter = this.app.vault.adapter;
    return adapter instanceof FileSystemAdapter ? adapter.getBasePath() : null;
  }

  private activeView(): View | null {
    return this.app.workspace.getMostRecentLeaf()?.view ?? null;
  }

  private onNodeMenu(menu: Menu, node: unknown): void {
    const ref = nodeOfMenu(node);
    if (!ref) return;
    menu.addItem((item) => item.setTitle('Send to LLM').setIcon('bot').onClick(() => void this.sendToLlm(ref)));
  }

  /** The toolbar button of a canvas view: the view header's action, which is public API. */
  private addCanvasButton(leaf: WorkspaceLeaf | null): void {
    const view = leaf?.view as (View & { addAction?: (icon: string, title: string, cb: () => void) => HTMLElement }) | undefined;
    if (!view || view.getViewType() !== 'canvas' || typeof view.addAction !== 'function' || this.withButton.has(view)) return;
    this.withButton.add(view);
    view.addAction('bot', 'Send to LLM', () => {
      const ref = selectedNode(view);
      if (ref) void this.sendToLlm(ref);
      else new Notice('Easel: select exactly one node (not an edge) of the canvas, then press Send to LLM.');
    });
  }

  /** Sends one node to the model; the answer streams into the canvas and into a notice. */
  async sendToLlm(ref: NodeRef): Promise<void> {
    const notice = new Notice('Easel: asking the model…', 0);
    // `messageEl` is newer than some Obsidian versions: without it, plain text and no button
    // (the "Stop the answer" command still works).
    const box = (notice as Partial<Notice>).messageEl;
    box?.empty();
    const text = box?.createDiv({ cls: 'easel-answer', text: 'Easel: asking the model…' });
    const stop = box?.createEl('button', { text: 'Stop', cls: 'easel-stop' });
    const show = (s: string) => {
      if (text) text.setText(s);
      else notice.setMessage(s);
    };
    let client;
    try {
      client = await this.service.get();
    } catch (e) {
      stop?.remove();
      show(`Easel: ${asEaselError(e).describe()}`);
      return;
    }
    let streamed = '';
    const run = sendToLlm(client, { ...ref, model: this.settings.defaultModel }, (p) => {
      streamed = p.text;
      const tail = p.text.length > NOTICE_TAIL ? `…${p.text.slice(-NOTICE_TAIL)}` : p.text;
      show(`${p.model ?? 'Easel'}: ${tail}`);
    });
    stop?.addEventListener('click', (ev: MouseEvent) => {
      // A click on a notice dismisses it; the notice must stay to say the answer stopped.
      ev?.stopPropagation?.();
      void run.cancel();
    });
    this.sends.add(run);
    const r = await run.result;
    this.sends.delete(run);
    stop?.remove();
    show(describeSendResult(r, streamed));
    if (r.ok || r.error.kind === 'cancelled') {
      const timer: { unref?: () => void } | number = setTimeout(() => notice.hide(), DONE_NOTICE_MS);
      // Under Node (the tests) a pending timer would hold the process open.
      if (typeof timer === 'object') timer.unref?.();
    }
  }

  async stopAnswers(): Promise<void> {
    await Promise.all([...this.sends].map((r) => r.cancel()));
  }

  /** Lays out a canvas through Easel (Obsidian reloads the rewritten file). */
  async applyLayout(path: string): Promise<void> {
    try {
      const client = await this.service.get();
      await applyLayout(client, path);
      new Notice(`Easel: laid out ${path}. Undo with easel undo.`);
    } catch (e) {
      new Notice(`Easel: layout failed: ${asEaselError(e).describe()}`, 0);
    }
  }

  async openChat(): Promise<void> {
    const { workspace } = this.app;
    let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(CHAT_VIEW)[0] ?? null;
    if (!leaf) {
      leaf = workspace.getRightLeaf(false);
      if (!leaf) return;
      await leaf.setViewState({ type: CHAT_VIEW, active: true });
    }
    await workspace.revealLeaf(leaf);
  }
}
