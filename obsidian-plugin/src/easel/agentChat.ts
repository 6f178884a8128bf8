// The agent chat without its view: pick an agent, send messages (agent_run), follow the run's
// events, answer approvals (agent_approve), stop. The view only renders `entries`.

import type { EaselClient, Run, RunResult } from './client';
import { asEaselError } from './errors';
import { answerApproval, applyEvent, finishRun, noteEntry, pendingApproval, sessionOfWaiting, userEntry, type Entry } from './transcript';

export interface AgentInfo {
  name: string;
  description?: string;
}

interface RunOutput {
  output?: string;
  agent?: string;
  session?: string;
}

export class AgentChat {
  entries: Entry[] = [];
  agent = '';
  /** The conversation's session: the next message continues it. */
  session: string | null = null;
  private run: Run<RunOutput> | null = null;

  /**
   * `client` is asked for on every call, not kept: the plugin's connection is replaced when its
   * settings change or its server is restarted.
   */
  constructor(
    private readonly client: () => Promise<EaselClient>,
    private readonly onChange: () => void = () => undefined,
  ) {}

  /** The vault's agents (agent_list), enabled ones only. */
  async agents(): Promise<AgentInfo[]> {
    const out = await (await this.client()).op<{ agents?: (AgentInfo & { enabled?: boolean })[] }>('agent_list', {});
    return (out.agents ?? []).filter((a) => a.enabled !== false).map((a) => ({ name: a.name, description: a.description }));
  }

  /** Switches to another agent: a new conversation. */
  setAgent(name: string): void {
    if (name === this.agent) return;
    this.agent = name;
    this.session = null;
    this.entries = [];
    this.onChange();
  }

  get busy(): boolean {
    return this.run !== null;
  }

  get waiting(): boolean {
    return pendingApproval(this.entries) !== null;
  }

  /** Sends a message to the current agent; resolves when the run stops (done, waiting or failed). */
  async send(text: string): Promise<void> {
    const input = text.trim();
    if (!input || this.busy || this.waiting) return;
    if (!this.agent) {
      this.entries = [...this.entries, noteEntry('Pick an agent first.')];
      this.onChange();
      return;
    }
    this.entries = [...this.entries, userEntry(input)];
    const args: Record<string, string> = { agent: this.agent, input };
    if (this.session) args.session = this.session;
    await this.follow('agent_run', args);
  }

  /** Answers the waiting approval: run the call (yes) or refuse it (no). */
  async answer(answer: 'yes' | 'no'): Promise<void> {
    const pending = pendingApproval(this.entries);
    const session = pending?.session ?? this.session;
    if (!pending || !session || this.busy) return;
    this.entries = answerApproval(this.entries, answer);
    const args: Record<string, unknown> = { session };
    if (answer === 'no') args.deny = true;
    await this.follow('agent_approve', args);
  }

  /** Stops the running agent between steps; what it did is kept. */
  async stop(): Promise<void> {
    await this.run?.cancel();
  }

  private async follow(op: string, args: object): Promise<void> {
    let r: RunResult<RunOutput>;
    try {
      const client = await this.client();
      const run = client.start<RunOutput>(op, args, (e) => {
        this.entries = applyEvent(this.entries, e);
        if (e.type === 'approval_needed' && typeof e.session === 'string') this.session = e.session;
        this.onChange();
      });
      this.run = run;
      this.onChange();
      r = await run.result;
    } catch (e) {
      r = { ok: false, error: asEaselError(e) };
    }
    this.run = null;
    if (r.ok) this.session = r.output.session ?? this.session;
    else this.session = sessionOfWaiting(r.error.message) ?? this.session;
    this.entries = finishRun(this.entries, r);
    this.onChange();
  }
}
