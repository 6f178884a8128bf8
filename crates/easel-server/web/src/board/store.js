// The canvas as the board last read it, and every change to it as an operation carrying that
// read's `rev`. When the file changed meanwhile (409 conflict) the change is planned again on a
// fresh read and retried, as the vault's own read-modify-write does; when it no longer applies
// (its node is gone) the board shows the file as it is and says so.
import { op } from '../api.js';

const GEOMETRY = { x: 0, y: 0, width: 250, height: 60 };

// Coordinates end up in style attributes and in arithmetic: a node whose geometry is not made of
// numbers (a hand-edited file) is shown with numbers instead, never with the file's strings.
function sane(n) {
  if (Object.keys(GEOMETRY).every((k) => Number.isFinite(n[k]))) return n;
  const out = { ...n };
  for (const [k, d] of Object.entries(GEOMETRY)) out[k] = Number.isFinite(Number(n[k])) && n[k] !== null && n[k] !== '' ? Number(n[k]) : d;
  return out;
}

// A re-read keeps the objects of unchanged nodes and edges, so only what changed re-renders
// (the board never flashes on a change made elsewhere).
function reuse(before, after) {
  if (!before) return after;
  const old = new Map(before.map((x) => [x.id, x]));
  return after.map((x) => {
    const o = old.get(x.id);
    return o && JSON.stringify(o) === JSON.stringify(x) ? o : x;
  });
}

export class CanvasStore {
  constructor(path, onUpdate) {
    this.path = path;
    this.onUpdate = onUpdate;
    this.data = null; // {path, rev, nodes, edges}
    this.error = null;
    this.pending = new Map(); // node id -> fields shown until the write that sets them lands
    this.notices = [];
    this.reading = null;
    this.again = false;
    this.noticeId = 0;
    this.redo = []; // states undone from this board, newest last (see undo.js)
  }

  notify() {
    this.onUpdate();
  }

  /** The canonical path (as the server names it), for matching change events. */
  get canonicalPath() {
    return this.data?.path ?? this.path;
  }

  notice(message, hint = '', kind = 'error') {
    this.notices = [...this.notices, { id: ++this.noticeId, message, hint, kind }];
    this.notify();
  }

  dismiss(id) {
    this.notices = this.notices.filter((n) => n.id !== id);
    this.notify();
  }

  /** Reads the canvas again; calls made while a read is going are folded into one more read. */
  refresh() {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        try {
          const r = await op('canvas_read', { path: this.path });
          this.data = { path: r.path, rev: r.rev, nodes: reuse(this.data?.nodes, (r.nodes ?? []).map(sane)), edges: reuse(this.data?.edges, r.edges ?? []) };
          this.error = null;
        } catch (e) {
          this.error = e;
        }
        this.notify();
      } while (this.again);
      this.reading = null;
    })();
    return this.reading;
  }

  /**
   * Applies a change. `plan(data)` returns `{name, args}` (the operation, without path and rev)
   * for the canvas as it is, or null when the change cannot apply to it. `show` holds node
   * fields to display at once, until the write lands.
   */
  async change(plan, show = {}, { keepRedo = false } = {}) {
    if (!keepRedo) this.redo = [];
    for (const [id, fields] of Object.entries(show)) this.pending.set(id, { ...this.pending.get(id), ...fields });
    this.notify();
    try {
      for (let attempt = 0; ; attempt++) {
        const p = this.data && plan(this.data);
        if (!p) {
          await this.refresh();
          this.notice(
            'The canvas changed on disk and your change no longer applies to it.',
            'The board now shows the file as it is; make the change again if you still want it.',
            'info',
          );
          return null;
        }
        try {
          const out = await op(p.name, { ...p.args, path: this.canonicalPath, rev: this.data.rev });
          if (out && typeof out.rev === 'string') this.data = { ...this.data, rev: out.rev };
          await this.refresh();
          return out;
        } catch (e) {
          if (e.kind === 'conflict' && attempt < 3) {
            await this.refresh();
            continue;
          }
          await this.refresh();
          this.notice(e.message, e.hint);
          return null;
        }
      }
    } finally {
      for (const id of Object.keys(show)) this.pending.delete(id);
      this.notify();
    }
  }
}
