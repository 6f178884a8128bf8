// Pointer gestures on the board: pan (drag the background), box selection (Shift+drag on the
// background), move (drag nodes; groups carry their members), resize (corner handle) and
// connect (drag from a side handle to another node). Each ends in at most one write.
import { toWorld } from './view.js';
import { membersOf, nearestSide, nodeAt } from './geometry.js';

const CLICK_SLOP = 3;

function swallow(e) {
  e.preventDefault();
  e.stopPropagation();
}

/**
 * Starts the gesture a pointerdown on the viewport begins. `b` is the board's live state
 * (view, data, selection, setters and writers), read at each event so it is never stale.
 */
export function startGesture(b, e, viewportEl) {
  if (e.button !== 0) return;
  const t = e.target;
  if (t.closest('.node-editor, .board-menu')) return;
  const box = viewportEl.getBoundingClientRect();
  const screen = (ev) => ({ x: ev.clientX - box.left, y: ev.clientY - box.top });
  const s0 = screen(e);
  const nodeEl = t.closest('[data-node-id]');
  const edgeEl = t.closest('[data-edge-id]');
  const id = nodeEl?.dataset.nodeId;
  const node = id && b.rectOf(id);
  let onMove;
  let onUp;

  if (node && t.dataset.handle) {
    const side = t.dataset.handle;
    onMove = (ev) => {
      const s = screen(ev);
      const w = toWorld(b.view, s.x, s.y);
      const from = b.rectOf(id);
      const p = side === 'top' || side === 'bottom' ? { x: from.x + from.width / 2, y: side === 'top' ? from.y : from.y + from.height } : { x: side === 'left' ? from.x : from.x + from.width, y: from.y + from.height / 2 };
      b.setGesture({ kind: 'connect', x0: p.x, y0: p.y, x1: w.x, y1: w.y });
    };
    onUp = (ev) => {
      const s = screen(ev);
      const w = toWorld(b.view, s.x, s.y);
      const target = nodeAt(b.shownNodes().filter((n) => n.id !== id), w);
      if (target) b.connect(id, side, target.id, nearestSide(target, w));
    };
  } else if (node && t.dataset.resize) {
    onMove = (ev) => {
      const s = screen(ev);
      const w = toWorld(b.view, s.x, s.y);
      b.setGesture({ kind: 'resize', id, width: Math.max(60, Math.round(w.x - node.x)), height: Math.max(40, Math.round(w.y - node.y)) });
    };
    onUp = () => {
      const g = b.gesture();
      if (g?.kind === 'resize') b.resize(id, g.width, g.height);
    };
  } else if (node) {
    let sel = b.selection();
    if (e.shiftKey) {
      sel = new Set(sel);
      if (sel.has(id)) sel.delete(id);
      else sel.add(id);
      b.select(sel, new Set());
    } else if (!sel.has(id)) {
      sel = new Set([id]);
      b.select(sel, new Set());
    }
    // What moves: the selection and, for each selected group, the nodes inside it.
    const all = b.data().nodes;
    const moving = new Set();
    for (const sid of sel) {
      const n = all.find((x) => x.id === sid);
      if (!n) continue;
      moving.add(sid);
      if (n.type === 'group') for (const m of membersOf(n, all)) moving.add(m);
    }
    let moved = false;
    onMove = (ev) => {
      const s = screen(ev);
      if (!moved && Math.hypot(s.x - s0.x, s.y - s0.y) < CLICK_SLOP) return;
      moved = true;
      b.setGesture({ kind: 'move', ids: moving, dx: Math.round((s.x - s0.x) / b.view.k), dy: Math.round((s.y - s0.y) / b.view.k) });
    };
    onUp = () => {
      const g = b.gesture();
      if (moved && g?.kind === 'move' && (g.dx || g.dy)) b.move(g.ids, g.dx, g.dy);
      else if (!moved && !e.shiftKey) b.select(new Set([id]), new Set());
    };
  } else if (edgeEl) {
    const eid = edgeEl.dataset.edgeId;
    if (e.shiftKey) {
      const se = new Set(b.selectedEdges());
      if (se.has(eid)) se.delete(eid);
      else se.add(eid);
      b.select(b.selection(), se);
    } else b.select(new Set(), new Set([eid]));
    return;
  } else if (e.shiftKey) {
    onMove = (ev) => {
      const s = screen(ev);
      b.setGesture({ kind: 'box', x0: s0.x, y0: s0.y, x1: s.x, y1: s.y });
    };
    onUp = () => {
      const g = b.gesture();
      if (g?.kind !== 'box') return;
      const a = toWorld(b.view, Math.min(g.x0, g.x1), Math.min(g.y0, g.y1));
      const z = toWorld(b.view, Math.max(g.x0, g.x1), Math.max(g.y0, g.y1));
      const inside = b.data().nodes.filter((n) => n.x >= a.x && n.y >= a.y && n.x + n.width <= z.x && n.y + n.height <= z.y);
      b.select(new Set([...b.selection(), ...inside.map((n) => n.id)]), b.selectedEdges());
    };
  } else {
    const v0 = { ...b.view };
    let moved = false;
    onMove = (ev) => {
      const s = screen(ev);
      if (!moved && Math.hypot(s.x - s0.x, s.y - s0.y) < CLICK_SLOP) return;
      moved = true;
      b.setView({ ...v0, x: v0.x + s.x - s0.x, y: v0.y + s.y - s0.y });
    };
    onUp = () => {
      if (!moved) b.select(new Set(), new Set());
    };
  }

  // No pointer capture: the window follows the pointer instead, so clicks and double-clicks
  // still name the element under the pointer (a link in a node stays a link).
  e.preventDefault();
  let travelled = false;
  const move = (ev) => {
    if (Math.hypot(ev.clientX - e.clientX, ev.clientY - e.clientY) >= CLICK_SLOP) travelled = true;
    onMove?.(ev);
  };
  const up = (ev) => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', up);
    // A drag that ends where it began must not also click what is there.
    if (travelled) window.addEventListener('click', swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
    try {
      onUp?.(ev);
    } finally {
      b.setGesture(null);
    }
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
}
