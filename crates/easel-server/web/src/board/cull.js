// Which nodes are near the viewport. Nodes are bucketed in a grid of CELL-sized world squares,
// so a query touches only the cells the rectangle covers, not every node of the canvas: on a
// 5,000-node canvas a query costs a few hundred node tests.
import { intersects } from './view.js';

const CELL = 512;
const BIG = 'big';

/** A grid index over `nodes` (an array; the index keeps array positions, i.e. z-order). */
export function buildIndex(nodes) {
  const cells = new Map();
  const put = (key, i) => {
    const list = cells.get(key);
    if (list) list.push(i);
    else cells.set(key, [i]);
  };
  nodes.forEach((n, i) => {
    const cx0 = Math.floor(n.x / CELL);
    const cy0 = Math.floor(n.y / CELL);
    const cx1 = Math.floor((n.x + n.width) / CELL);
    const cy1 = Math.floor((n.y + n.height) / CELL);
    // A huge group would fill thousands of cells: such nodes are kept apart and always tested.
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 64) return put(BIG, i);
    for (let cx = cx0; cx <= cx1; cx++) for (let cy = cy0; cy <= cy1; cy++) put(cx + ',' + cy, i);
  });
  return { nodes, cells };
}

/**
 * Array positions (so z-order) of the nodes that meet `rect`. Counting stops a little past
 * `limit`: the caller only needs to know there are more than it will put in the DOM.
 */
export function query(index, rect, limit = Infinity) {
  const seen = new Set();
  const test = (list) => {
    for (const i of list ?? []) if (!seen.has(i) && intersects(index.nodes[i], rect)) seen.add(i);
  };
  test(index.cells.get(BIG));
  const cx0 = Math.floor(rect.x / CELL);
  const cy0 = Math.floor(rect.y / CELL);
  const cx1 = Math.floor((rect.x + rect.width) / CELL);
  const cy1 = Math.floor((rect.y + rect.height) / CELL);
  if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > index.cells.size) {
    for (const [key, list] of index.cells) {
      if (key !== BIG) test(list);
      if (seen.size > limit) break;
    }
  } else {
    for (let cx = cx0; cx <= cx1 && seen.size <= limit; cx++) {
      for (let cy = cy0; cy <= cy1; cy++) test(index.cells.get(cx + ',' + cy));
    }
  }
  return [...seen].sort((a, b) => a - b);
}
