// The view transform: a screen point is `world * k + (x, y)`. Zoom stays within 0.1–5×.
export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 5;

export const clampZoom = (k) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));

/** The view zoomed by `factor` keeping the world point under screen point (px, py) in place. */
export function zoomAbout(view, px, py, factor) {
  const k = clampZoom(view.k * factor);
  const wx = (px - view.x) / view.k;
  const wy = (py - view.y) / view.k;
  return { k, x: px - wx * k, y: py - wy * k };
}

/** The world point under screen point (px, py). */
export function toWorld(view, px, py) {
  return { x: (px - view.x) / view.k, y: (py - view.y) / view.k };
}

/** The world rectangle a `width`×`height` viewport shows. */
export function worldRect(view, width, height) {
  return { x: -view.x / view.k, y: -view.y / view.k, width: width / view.k, height: height / view.k };
}

/** The bounding box of `nodes`, or null when there are none. */
export function boundsOf(nodes) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of nodes) {
    x0 = Math.min(x0, n.x);
    y0 = Math.min(y0, n.y);
    x1 = Math.max(x1, n.x + n.width);
    y1 = Math.max(y1, n.y + n.height);
  }
  return x0 === Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The view that shows `bounds` whole in a `width`×`height` viewport, at most at `maxZoom`. */
export function fitView(bounds, width, height, maxZoom = 1) {
  if (!bounds) return { x: width / 2, y: height / 2, k: 1 };
  const pad = 40;
  const k = clampZoom(
    Math.min(maxZoom, (width - 2 * pad) / Math.max(bounds.width, 1), (height - 2 * pad) / Math.max(bounds.height, 1)),
  );
  return {
    k,
    x: width / 2 - (bounds.x + bounds.width / 2) * k,
    y: height / 2 - (bounds.y + bounds.height / 2) * k,
  };
}

export const intersects = (a, b) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export const contains = (outer, inner) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

/** `r` grown by `mx` and `my` on each side. */
export const inflate = (r, mx, my) => ({ x: r.x - mx, y: r.y - my, width: r.width + 2 * mx, height: r.height + 2 * my });
