// The edges of the board: one SVG over the rendered region (paths, arrow heads, a wide invisible
// stroke to click on) and the labels as HTML text beside it.
import { html } from '../html.js';
import { cssColor } from './colors.js';
import { edgeShape } from './geometry.js';

const DEFAULT_STROKE = '#8a8a93';

/** The shapes of `edges` whose two nodes `rectOf` knows, with their bounds. */
export function shapeEdges(edges, rectOf) {
  const out = [];
  for (const e of edges) {
    const a = rectOf(e.fromNode);
    const b = rectOf(e.toNode);
    if (a && b) out.push({ edge: e, shape: edgeShape(e, a, b) });
  }
  return out;
}

export function EdgeLayer({ shaped, selected, draft }) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const grow = (r) => {
    x0 = Math.min(x0, r.x - 20);
    y0 = Math.min(y0, r.y - 20);
    x1 = Math.max(x1, r.x + r.width + 20);
    y1 = Math.max(y1, r.y + r.height + 20);
  };
  for (const { shape } of shaped) grow(shape.box);
  if (draft) grow({ x: Math.min(draft.x0, draft.x1), y: Math.min(draft.y0, draft.y1), width: Math.abs(draft.x1 - draft.x0), height: Math.abs(draft.y1 - draft.y0) });
  if (x0 === Infinity) return null;
  // The SVG covers exactly what it draws, so hit testing never depends on overflow painting.
  const w = x1 - x0;
  const h = y1 - y0;
  return html`<svg class="board-edges" style=${`left:${x0}px;top:${y0}px;width:${w}px;height:${h}px`} viewBox=${`${x0} ${y0} ${w} ${h}`}>
      ${shaped.map(({ edge: e, shape }) => {
        const stroke = cssColor(e.color) ?? DEFAULT_STROKE;
        return html`<g key=${e.id} data-edge-id=${e.id} class=${selected.has(e.id) ? 'edge selected' : 'edge'}>
          <path class="edge-hit" d=${shape.d} />
          <path class="edge-line" d=${shape.d} stroke=${stroke} />
          ${shape.arrows.map((pts) => html`<polygon class="edge-arrow" points=${pts} fill=${stroke} />`)}
        </g>`;
      })}
      ${draft && html`<line class="edge-draft" x1=${draft.x0} y1=${draft.y0} x2=${draft.x1} y2=${draft.y1} />`}
    </svg>`;
}

export function EdgeLabels({ shaped }) {
  return shaped
    .filter(({ edge }) => edge.label != null && edge.label !== '')
    .map(
      ({ edge: e, shape }) =>
        html`<div key=${'l' + e.id} class="edge-label" data-edge-label=${e.id} style=${`left:${shape.mid.x}px;top:${shape.mid.y}px`}>${String(e.label)}</div>`,
    );
}
