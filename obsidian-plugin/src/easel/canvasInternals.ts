// The few pieces of Obsidian's canvas view the plugin reads. They are not public API (the
// `obsidian` package types none of them), so every access is feature-detected: when a future
// Obsidian changes them, Send to LLM says it cannot find the selection instead of breaking.
//
// Relied on: a canvas view's `file.path` and `canvas.selection` (a Set of nodes and edges), a
// canvas node's `id` and `canvas.view.file.path` (the node handed to `canvas:node-menu`).

/** A node of a canvas file, by path and id. */
export interface NodeRef {
  canvas: string;
  node: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

function canvasPathOfView(view: unknown): string | null {
  if (!isObj(view) || !isObj(view.file)) return null;
  const path = view.file.path;
  return typeof path === 'string' && path.endsWith('.canvas') ? path : null;
}

/** A node (not an edge: edges have `from`/`to`) with a string id. */
function nodeId(item: unknown): string | null {
  if (!isObj(item) || typeof item.id !== 'string') return null;
  if ('from' in item && 'to' in item) return null;
  return item.id;
}

/** The canvas path of a canvas view, or null when `view` is not one. */
export function canvasPathOf(view: unknown): string | null {
  return isObj(view) && isObj(view.canvas) ? canvasPathOfView(view) : null;
}

/** The single node selected in a canvas view; null for none, several, an edge, or another view. */
export function selectedNode(view: unknown): NodeRef | null {
  const canvas = canvasPathOf(view);
  if (!canvas || !isObj(view) || !isObj(view.canvas)) return null;
  const selection = view.canvas.selection;
  if (!(selection instanceof Set) || selection.size !== 1) return null;
  const node = nodeId([...selection][0]);
  return node ? { canvas, node } : null;
}

/** The node a `canvas:node-menu` event is about. */
export function nodeOfMenu(node: unknown): NodeRef | null {
  const id = nodeId(node);
  if (!id || !isObj(node) || !isObj(node.canvas)) return null;
  const canvas = canvasPathOfView(node.canvas.view);
  return canvas ? { canvas, node: id } : null;
}
