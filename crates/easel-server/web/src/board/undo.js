// Undo through the ledger, redo as a batch. The ledger holds every change to the vault, undos
// included (an undo is an entry that `undoes` another), and refuses to undo an undo; so redo
// writes back the state the board showed before its undo. Only this canvas's entries count, so
// another file's changes are never undone from the board.
import { op } from '../api.js';

async function entriesFor(path) {
  const r = await op('ledger_list', { limit: 500 });
  return (r.entries ?? []).filter((e) => e.path === path);
}

/** The ledger entry Ctrl+Z would undo on `path` (newest first, not an undo, not undone), or null. */
export async function undoTarget(path) {
  const entries = await entriesFor(path);
  const undone = new Set(entries.map((e) => e.undoes).filter(Boolean));
  return entries.find((e) => e.op !== 'undo' && !undone.has(e.id)) ?? null;
}

/** The undo entry with id `id` carried out. */
export function undoEntry(id) {
  return op('ledger_undo', { id });
}

// A merge patch turning object `a` into `b` (null removes a key), or null when they are equal.
function patch(a, b) {
  const out = {};
  for (const k of Object.keys(b)) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out[k] = b[k];
  for (const k of Object.keys(a)) if (!(k in b)) out[k] = null;
  delete out.id;
  return Object.keys(out).length ? out : null;
}

/** The canvas_batch that turns canvas `d` back into `target` ({nodes, edges}), or null. */
export function redoPlan(d, target) {
  const ops = [];
  const now = new Map(d.nodes.map((n) => [n.id, n]));
  const want = new Map(target.nodes.map((n) => [n.id, n]));
  const gone = new Set([...now.keys()].filter((id) => !want.has(id)));
  const nowE = new Map(d.edges.map((e) => [e.id, e]));
  const wantE = new Map(target.edges.map((e) => [e.id, e]));
  for (const e of d.edges) if (!wantE.has(e.id) && !gone.has(e.fromNode) && !gone.has(e.toNode)) ops.push({ op: 'remove_edge', id: e.id });
  for (const id of gone) ops.push({ op: 'remove_node', id });
  for (const n of target.nodes) {
    const cur = now.get(n.id);
    if (!cur) ops.push({ ...n, op: 'add_node' });
    else {
      const p = patch(cur, n);
      if (p) ops.push({ op: 'update_node', id: n.id, data: p });
    }
  }
  for (const e of target.edges) {
    const cur = nowE.get(e.id);
    if (!cur) ops.push({ ...e, op: 'add_edge' });
    else {
      const p = patch(cur, e);
      if (p) ops.push({ op: 'update_edge', id: e.id, data: p });
    }
  }
  return ops.length ? { name: 'canvas_batch', args: { ops } } : null;
}

/** Ctrl+Z on the board of `store`: undoes its canvas's latest change still in effect. */
export async function undoOnBoard(store) {
  try {
    const entry = await undoTarget(store.canonicalPath);
    if (!entry) return store.notice('Nothing to undo on this canvas.', 'Only changes recorded in the ledger can be undone.', 'info');
    const seen = store.data;
    await undoEntry(entry.id);
    await store.refresh();
    store.redo.push({ rev: store.data.rev, nodes: seen.nodes, edges: seen.edges });
  } catch (e) {
    store.notice(e.message, e.hint);
    await store.refresh();
  }
}

/** Ctrl+Shift+Z: puts back what the board's last undo took away, if nothing changed since. */
export async function redoOnBoard(store) {
  const next = store.redo.pop();
  if (!next) return store.notice('Nothing to redo on this canvas.', 'Redo takes back an undo made on this board.', 'info');
  if (next.rev !== store.data.rev) {
    store.redo = [];
    return store.notice('The canvas changed since the undo, so it cannot be redone.', 'Make the change again by hand.', 'info');
  }
  const rest = store.redo;
  await store.change((d) => redoPlan(d, next), {}, { keepRedo: true });
  store.redo = rest;
}
