// The agent chat view: an agent selector, the transcript (streamed text, tool calls with their
// arguments and outputs, handoffs, approvals with Approve / Deny), a message box, Send and Stop.
// Model and tool text is untrusted: it is only ever set as text, never as HTML.

import { ItemView, type WorkspaceLeaf } from 'obsidian';
import { AgentChat } from './easel/agentChat';
import { asEaselError } from './easel/errors';
import type { Entry } from './easel/transcript';
import type EaselPlugin from './main';

export const CHAT_VIEW = 'easel-agent-chat';

function pretty(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

export class AgentChatView extends ItemView {
  chat: AgentChat | null = null;
  private select!: HTMLSelectElement;
  private conversation!: HTMLElement;
  private input!: HTMLTextAreaElement;
  private sendButton!: HTMLButtonElement;
  private stopButton!: HTMLButtonElement;
  private problem!: HTMLElement;
  /** Resolves when the agents are listed (or listing failed): tests and callers wait on it. */
  ready: Promise<void> = Promise.resolve();

  constructor(
    leaf: WorkspaceLeaf,
    private readonly plugin: EaselPlugin,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return CHAT_VIEW;
  }

  getDisplayText(): string {
    return 'Easel agent chat';
  }

  getIcon(): string {
    return 'bot';
  }

  async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass('easel-chat');
    const head = root.createDiv({ cls: 'easel-chat-head' });
    this.select = head.createEl('select', { cls: 'easel-agent-select', attr: { 'aria-label': 'Agent' } });
    this.select.addEventListener('change', () => {
      this.chat?.setAgent(this.select.value);
    });
    const reload = head.createEl('button', { text: 'Reload agents' });
    reload.addEventListener('click', () => {
      this.ready = this.connect();
    });
    this.problem = root.createDiv({ cls: 'easel-problem' });
    this.conversation = root.createDiv({ cls: 'easel-conversation', attr: { role: 'region', 'aria-label': 'Conversation' } });
    const form = root.createDiv({ cls: 'easel-chat-form' });
    this.input = form.createEl('textarea', { attr: { 'aria-label': 'Message', rows: '3', placeholder: 'Ask the agent…' } });
    this.input.addEventListener('keydown', (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void this.send();
    });
    this.sendButton = form.createEl('button', { text: 'Send', cls: 'mod-cta' });
    this.sendButton.addEventListener('click', () => void this.send());
    this.stopButton = form.createEl('button', { text: 'Stop' });
    this.stopButton.addEventListener('click', () => void this.chat?.stop());
    this.ready = this.connect();
    await this.ready;
  }

  /**
   * Lists the agents (connecting first). The conversation goes on when its agent is still
   * listed; an error says what went wrong and what to do.
   */
  private async connect(): Promise<void> {
    if (this.chat?.busy) return;
    this.problem.empty();
    const chat = this.chat ?? new AgentChat(() => this.plugin.service.get(), () => this.render());
    try {
      const agents = await chat.agents();
      this.chat = chat;
      this.select.empty();
      for (const a of agents) this.select.createEl('option', { text: a.name, value: a.name, attr: { title: a.description ?? '' } });
      if (agents.length === 0) {
        this.problem.createDiv({ text: 'This vault has no agents. Create one in .easel/agents/ (easel agent new NAME), then press Reload agents.' });
      } else {
        const keep = agents.some((a) => a.name === chat.agent) ? chat.agent : agents[0].name;
        chat.setAgent(keep);
        this.select.value = keep;
      }
    } catch (e) {
      this.problem.createDiv({ text: `Easel: ${asEaselError(e).describe()}` });
      this.problem.createDiv({ text: 'Fix that (Settings → Easel), then press Reload agents.' });
    }
    this.render();
  }

  private async send(): Promise<void> {
    const text = this.input.value;
    if (!this.chat || !text.trim() || this.chat.busy) return;
    this.input.value = '';
    await this.chat.send(text);
  }

  private render(): void {
    const chat = this.chat;
    const busy = chat?.busy ?? false;
    this.sendButton.disabled = !chat || busy || chat.waiting;
    this.stopButton.disabled = !busy;
    this.select.disabled = !chat || busy;
    this.conversation.empty();
    for (const e of chat?.entries ?? []) this.renderEntry(e, busy);
  }

  private renderEntry(e: Entry, busy: boolean): void {
    const c = this.conversation;
    switch (e.t) {
      case 'user':
        c.createDiv({ cls: 'easel-msg easel-user', text: e.text });
        break;
      case 'text':
        c.createDiv({ cls: `easel-msg easel-agent${e.done ? '' : ' easel-streaming'}`, text: e.text, attr: { 'data-agent': e.agent } });
        break;
      case 'tool': {
        const d = c.createEl('details', { cls: 'easel-tool' });
        d.createEl('summary', { text: e.output === null ? `${e.name} …` : e.name });
        d.createEl('pre', { cls: 'easel-tool-args', text: pretty(e.arguments) });
        if (e.output !== null) d.createEl('pre', { cls: `easel-tool-output${e.isError ? ' easel-error' : ''}`, text: e.output });
        break;
      }
      case 'handoff':
        c.createDiv({ cls: 'easel-handoff', text: `${e.from} → ${e.to}` });
        break;
      case 'approval': {
        const g = c.createDiv({ cls: 'easel-approval', attr: { role: 'group', 'aria-label': `Approval for ${e.name}` } });
        g.createDiv({ text: `${e.agent || 'The agent'} wants to run ${e.name}` });
        if (e.arguments !== null) g.createEl('pre', { cls: 'easel-tool-args', text: pretty(e.arguments) });
        if (e.answer === null) {
          const yes = g.createEl('button', { text: 'Approve', cls: 'mod-cta' });
          const no = g.createEl('button', { text: 'Deny' });
          yes.disabled = no.disabled = busy;
          yes.addEventListener('click', () => void this.chat?.answer('yes'));
          no.addEventListener('click', () => void this.chat?.answer('no'));
        } else {
          g.createDiv({ cls: 'easel-answer', text: e.answer === 'yes' ? 'Approved' : 'Denied' });
        }
        break;
      }
      case 'error':
        c.createDiv({ cls: 'easel-msg easel-error', text: e.hint ? `${e.message}. ${e.hint}` : e.message });
        break;
      case 'note':
        c.createDiv({ cls: 'easel-note', text: e.text });
        break;
    }
  }
}
