// Undo and redo through the ledger. The ledger holds every change to the vault, undos included
// (an undo is an entry that `undoes` another); redo is undoing an undo. Only this canvas's
// entries count, so another file's changes are never undone from the board.
import { op } from '../api.js';

// Newest first: each entry's kind ('do' or 'undo') and whether it is still in effect (not
// undone by a later entry that is itself in effect).
function classify(entries) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const kind = new Map();
  const kindOf = (e, depth = 0) => {
    if (kind.has(e.id)) return kind.get(e.id);
    let k = 'do';
    if (e.op === 'undo' && depth < 50) {
      const target = byId.get(e.undoes);
      k = target && kindOf(target, depth + 1) === 'undo' ? 'do' : 'undo';
    }
    kind.set(e.id, k);
    return k;
  };
  const undone = new Set();
  const out = [];
  for (const e of entries) {
    const live = !undone.has(e.id);
    if (live && e.undoes) undone.add(e.undoes);
    out.push({ entry: e, kind: kindOf(e), live, redo: e.op === 'undo' && kindOf(e) === 'do' });
  }
  return out;
}

async function entriesFor(path) {
  const r = await op('ledger_list', { limit: 500 });
  return (r.entries ?? []).filter((e) => e.path === path);
}

/** The ledger entry Ctrl+Z would undo on `path`, or null. */
export async function undoTarget(path) {
  for (const c of classify(await entriesFor(path))) if (c.live && c.kind === 'do') return c.entry;
  return null;
}

/** The undo Ctrl+Shift+Z would take back on `path`, or null (a fresh edit ends the redo chain). */
export async function redoTarget(path) {
  for (const c of classify(await entriesFor(path))) {
    if (!c.live) continue;
    if (c.kind === 'undo') return c.entry;
    if (!c.redo) return null;
  }
  return null;
}

/** Undoes ledger entry `id`. */
export function undoEntry(id) {
  return op('ledger_undo', { id });
}
