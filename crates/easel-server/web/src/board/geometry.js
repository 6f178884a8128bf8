// Where edges meet nodes and how they bend, as JSON Canvas and Obsidian draw them.
import { contains } from './view.js';

const NORMAL = { top: [0, -1], bottom: [0, 1], left: [-1, 0], right: [1, 0] };

/** The middle of side `side` of node `n`. */
export function sidePoint(n, side) {
  switch (side) {
    case 'top':
      return { x: n.x + n.width / 2, y: n.y };
    case 'bottom':
      return { x: n.x + n.width / 2, y: n.y + n.height };
    case 'left':
      return { x: n.x, y: n.y + n.height / 2 };
    default:
      return { x: n.x + n.width, y: n.y + n.height / 2 };
  }
}

/** The side of `n` facing `other` (DESIGN section 8, rule 1), for edges without a side. */
export function sideFacing(n, other) {
  const dx = other.x + other.width / 2 - (n.x + n.width / 2);
  const dy = other.y + other.height / 2 - (n.y + n.height / 2);
  if (Math.abs(dy) >= Math.abs(dx)) return dy < 0 ? 'top' : 'bottom';
  return dx < 0 ? 'left' : 'right';
}

/** The side of `n` nearest the world point `p`. */
export function nearestSide(n, p) {
  const d = {
    top: Math.abs(p.y - n.y),
    bottom: Math.abs(p.y - (n.y + n.height)),
    left: Math.abs(p.x - n.x),
    right: Math.abs(p.x - (n.x + n.width)),
  };
  return Object.keys(d).reduce((a, b) => (d[b] < d[a] ? b : a));
}

/**
 * The drawing of edge `e` between nodes `a` (from) and `b` (to): a cubic Bézier leaving and
 * entering along the sides' normals, the arrow heads, and the label's place (the curve's middle).
 */
export function edgeShape(e, a, b) {
  const fs = NORMAL[e.fromSide] ? e.fromSide : sideFacing(a, b);
  const ts = NORMAL[e.toSide] ? e.toSide : sideFacing(b, a);
  const p0 = sidePoint(a, fs);
  const p3 = sidePoint(b, ts);
  const bend = Math.max(20, Math.min(250, Math.hypot(p3.x - p0.x, p3.y - p0.y) / 2));
  const p1 = { x: p0.x + NORMAL[fs][0] * bend, y: p0.y + NORMAL[fs][1] * bend };
  const p2 = { x: p3.x + NORMAL[ts][0] * bend, y: p3.y + NORMAL[ts][1] * bend };
  const d = `M${p0.x},${p0.y} C${p1.x},${p1.y} ${p2.x},${p2.y} ${p3.x},${p3.y}`;
  const mid = {
    x: 0.125 * p0.x + 0.375 * p1.x + 0.375 * p2.x + 0.125 * p3.x,
    y: 0.125 * p0.y + 0.375 * p1.y + 0.375 * p2.y + 0.125 * p3.y,
  };
  const arrows = [];
  // JSON Canvas: fromEnd defaults to none, toEnd to arrow.
  if ((e.fromEnd ?? 'none') === 'arrow') arrows.push(arrowHead(p0, fs));
  if ((e.toEnd ?? 'arrow') === 'arrow') arrows.push(arrowHead(p3, ts));
  const box = {
    x: Math.min(p0.x, p1.x, p2.x, p3.x),
    y: Math.min(p0.y, p1.y, p2.y, p3.y),
    width: Math.max(p0.x, p1.x, p2.x, p3.x) - Math.min(p0.x, p1.x, p2.x, p3.x),
    height: Math.max(p0.y, p1.y, p2.y, p3.y) - Math.min(p0.y, p1.y, p2.y, p3.y),
  };
  return { d, mid, arrows, box };
}

// A triangle with its tip on the node's side, pointing into the node.
function arrowHead(tip, side) {
  const [nx, ny] = NORMAL[side];
  const len = 14;
  const half = 6;
  const bx = tip.x + nx * len;
  const by = tip.y + ny * len;
  return `${tip.x},${tip.y} ${bx - ny * half},${by + nx * half} ${bx + ny * half},${by - nx * half}`;
}

/** Ids of the nodes inside group `g` (DESIGN section 4: their rectangle lies within it). */
export function membersOf(g, nodes) {
  return nodes.filter((n) => n.id !== g.id && contains(g, n)).map((n) => n.id);
}

/** The topmost non-group node at world point `p` (later in the array is on top), else a group. */
export function nodeAt(nodes, p) {
  let group = null;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    if (p.x >= n.x && p.x <= n.x + n.width && p.y >= n.y && p.y <= n.y + n.height) {
      if (n.type !== 'group') return n;
      group ??= n;
    }
  }
  return group;
}
