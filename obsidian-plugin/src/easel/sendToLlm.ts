// Send to LLM: `thread_send` on one node of a canvas. Easel writes the answer node into the
// canvas file as tokens stream (Obsidian reloads the changed file); the plugin only follows the
// run's events to show the text live, and can stop it (the partial answer is kept).

import type { EaselClient, Run, RunResult } from './client';

export interface SendTarget {
  /** The canvas, relative to the vault. */
  canvas: string;
  /** The node to answer. */
  node: string;
  /** provider:model; empty for the canvas's or the configured default. */
  model?: string;
}

/** What is known of the answer while it streams. */
export interface AnswerProgress {
  text: string;
  /** The answer node's id, once Easel has created it. */
  node?: string;
  model?: string;
}

/** thread_send's output (the fields the plugin reads). */
export interface SendOutput {
  node?: string;
  edge?: string;
  model?: string;
  text?: string;
  /** True when the answer was stopped: the partial text is kept. */
  partial?: boolean;
  run?: string;
}

export function sendToLlm(
  client: EaselClient,
  target: SendTarget,
  onProgress: (p: AnswerProgress) => void,
): Run<SendOutput> {
  const args: Record<string, string> = { canvas: target.canvas, node: target.node };
  if (target.model?.trim()) args.model = target.model.trim();
  const progress: AnswerProgress = { text: '' };
  return client.start<SendOutput>('thread_send', args, (e) => {
    if (e.type === 'answer_started') {
      progress.node = typeof e.node === 'string' ? e.node : undefined;
      progress.model = typeof e.model === 'string' ? e.model : undefined;
    } else if (e.type === 'text_delta' && typeof e.delta === 'string') {
      progress.text += e.delta;
    } else {
      return;
    }
    onProgress({ ...progress });
  });
}

/** A one-line summary of how a Send to LLM ended, for a notice. */
export function describeSendResult(r: RunResult<SendOutput>, streamed: string): string {
  if (r.ok && r.output.partial) return 'Easel: stopped. The partial answer is kept in the canvas.';
  if (r.ok) return `Easel: answered with ${r.output.model ?? 'the model'} (${(r.output.text ?? streamed).length} characters).`;
  if (r.error.kind === 'cancelled') return 'Easel: stopped. The partial answer is kept in the canvas.';
  return `Easel: Send to LLM failed: ${r.error.describe()}`;
}
