// Zoomed far out, a canvas can have thousands of nodes in view: they are drawn as rectangles in
// their colours on one <canvas> (edges as straight lines between centres), with no DOM at all.
import { cssColor } from './colors.js';

export function drawOverview(canvas, nodes, view, edges = []) {
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.setTransform(dpr * view.k, 0, 0, dpr * view.k, dpr * view.x, dpr * view.y);
  const x0 = -view.x / view.k;
  const y0 = -view.y / view.k;
  const x1 = x0 + w / view.k;
  const y1 = y0 + h / view.k;
  ctx.lineWidth = 1 / view.k;
  const seen = new Map();
  for (const n of nodes) seen.set(n.id, n);
  ctx.strokeStyle = '#b0b0b8';
  ctx.beginPath();
  for (const e of edges) {
    const a = seen.get(e.fromNode);
    const b = seen.get(e.toNode);
    if (!a || !b) continue;
    const ax = a.x + a.width / 2;
    const ay = a.y + a.height / 2;
    const bx = b.x + b.width / 2;
    const by = b.y + b.height / 2;
    if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
  }
  ctx.stroke();
  for (const n of nodes) {
    if (n.x > x1 || n.y > y1 || n.x + n.width < x0 || n.y + n.height < y0) continue;
    const c = cssColor(n.color) ?? '#8a8a93';
    ctx.globalAlpha = n.type === 'group' ? 0.08 : 0.25;
    ctx.fillStyle = c;
    ctx.fillRect(n.x, n.y, n.width, n.height);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = c;
    ctx.strokeRect(n.x, n.y, n.width, n.height);
  }
}
