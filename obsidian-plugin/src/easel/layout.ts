// Apply layout: `canvas_layout` on the open canvas. Easel rewrites the file (ledger, undo);
// Obsidian shows the result when it reloads the changed file.

import type { EaselClient } from './client';

export type LayoutAlgo = 'layered' | 'tree' | 'radial' | 'grid';

export async function applyLayout(
  client: EaselClient,
  path: string,
  algo: LayoutAlgo = 'layered',
): Promise<{ path: string; rev?: string; moved?: number; [k: string]: unknown }> {
  return client.op('canvas_layout', { path, algo });
}
