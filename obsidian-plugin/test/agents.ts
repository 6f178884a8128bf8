// Two agents for the chat tests (the same as the web UI's chat tests).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRIAGE = `---
name: triage
description: Sends each request to the right agent
handoffs: [writer]
---
You route requests.
`;

export const WRITER = `---
name: writer
description: Writes notes
tools: [note_write, note_read]
---
You write notes.
`;

export function addAgents(vault: string): void {
  const dir = join(vault, '.easel', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'triage.md'), TRIAGE);
  writeFileSync(join(dir, 'writer.md'), WRITER);
}
