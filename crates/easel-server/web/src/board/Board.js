// The board page (/canvas/{path}): the canvas drawn at its coordinates, kept live with the file
// on disk, edited through canvas operations, with Send to LLM and the layout/import/export menus.
//
// Rendering cost does not grow with the canvas: nodes are found through a grid index (cull.js)
// and only those in a region around the viewport (the viewport grown by half its size on each
// side) are in the DOM. Panning moves one transformed layer by writing its style directly, with
// no re-render, until the viewport leaves the region; then the region is queried again. When
// the region would hold more than MAX_DOM_NODES nodes (zoomed far out) the board draws them as
// plain rectangles on one <canvas> instead (Overview.js).
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { onEvent } from '../api.js';
import { CanvasStore } from './store.js';
import { buildIndex, query } from './cull.js';
import { boundsOf, contains, fitView, inflate, intersects, worldRect, zoomAbout } from './view.js';
import { NodeView } from './NodeView.js';
import { EdgeLayer, EdgeLabels, shapeEdges } from './EdgeLayer.js';
import { drawOverview } from './Overview.js';
import { startGesture } from './gestures.js';
import { redoOnBoard, undoOnBoard } from './undo.js';
import { useBoardKeys } from './keys.js';
import { ContextMenu } from './ContextMenu.js';
import { invalidateFile } from './fileBodies.js';
import { provisional, streamTexts, useAnswers } from './SendToLlm.js';
import { Notices, Toolbar } from './Toolbar.js';

const MAX_DOM_NODES = 400;
const EMPTY = new Set();

export function Board({ path }) {
  const [, rerender] = useReducer((n) => n + 1, 0);
  const store = useMemo(() => new CanvasStore(path, rerender), [path]);
  const viewportRef = useRef();
  const worldRef = useRef();
  const overviewRef = useRef();
  const view = useRef(null); // {x, y, k}; written straight to the world layer while panning
  const [region, setRegion] = useState(null);
  const [selection, setSelection] = useState(EMPTY);
  const [selectedEdges, setSelectedEdges] = useState(EMPTY);
  const [gesture, setGestureState] = useState(null);
  const [editing, setEditing] = useState(null);
  const [menu, setMenu] = useState(null); // context menu {x, y, node|world}
  const [panel, setPanel] = useState(null); // 'layout' | 'import' | 'export'
  const answers = useAnswers(store);
  const data = store.data;

  const pro = useMemo(() => provisional(answers.answers, data), [answers.answers, data]);
  const streams = useMemo(() => streamTexts(answers.answers), [answers.answers]);
  const baseNodes = useMemo(() => (data ? (pro.nodes.length ? [...data.nodes, ...pro.nodes] : data.nodes) : []), [data, pro]);
  const baseEdges = useMemo(() => (data ? (pro.edges.length ? [...data.edges, ...pro.edges] : data.edges) : []), [data, pro]);
  const byId = useMemo(() => new Map(baseNodes.map((n) => [n.id, n])), [baseNodes]);
  const index = useMemo(() => buildIndex(baseNodes), [baseNodes]);

  // A node as shown: with the fields of a write still on its way, and the gesture under way.
  const adjust = (n) => {
    const p = store.pending.get(n.id);
    if (p) n = { ...n, ...p };
    const g = gesture;
    if (g?.kind === 'move' && g.ids.has(n.id)) n = { ...n, x: n.x + g.dx, y: n.y + g.dy };
    else if (g?.kind === 'resize' && g.id === n.id) n = { ...n, width: g.width, height: g.height };
    return n;
  };
  const rectOf = (id) => {
    const n = byId.get(id);
    return n && adjust(n);
  };

  const visible = useMemo(() => (region ? query(index, region, MAX_DOM_NODES) : []), [index, region]);
  const overview = visible.length > MAX_DOM_NODES;
  const shown = [];
  if (!overview) {
    const inRegion = new Set();
    for (const i of visible) {
      inRegion.add(baseNodes[i].id);
      shown.push(adjust(baseNodes[i]));
    }
    // Nodes being dragged or edited stay in the DOM even when they start outside the region.
    if (editing && !inRegion.has(editing) && byId.has(editing)) shown.push(adjust(byId.get(editing)));
  }
  const regionEdges = useMemo(() => {
    if (!region || overview) return [];
    return baseEdges.filter((e) => {
      const a = byId.get(e.fromNode);
      const c = byId.get(e.toNode);
      if (!a || !c) return false;
      const x = Math.min(a.x, c.x);
      const y = Math.min(a.y, c.y);
      return intersects(region, { x, y, width: Math.max(a.x + a.width, c.x + c.width) - x, height: Math.max(a.y + a.height, c.y + c.height) - y });
    });
  }, [baseEdges, byId, region, overview]);
  const shaped = shapeEdges(regionEdges, rectOf);

  // The live state gestures and key handlers read (never a stale closure).
  const b = useRef({}).current;
  Object.assign(b, {
    view: view.current,
    data: () => store.data,
    selection: () => selection,
    selectedEdges: () => selectedEdges,
    gesture: () => b.currentGesture,
    shownNodes: () => shown,
    rectOf,
    select: (nodes, edges) => {
      setSelection(nodes);
      setSelectedEdges(edges);
    },
    setGesture: (g) => {
      b.currentGesture = g;
      setGestureState(g);
    },
    setView: (v) => applyView(v),
    move: (ids, dx, dy) => {
      const start = new Map([...ids].map((id) => [id, byId.get(id)]).filter(([, n]) => n));
      const show = {};
      for (const [id, n] of start) show[id] = { x: n.x + dx, y: n.y + dy };
      store.change((d) => {
        // Re-planned on a fresh read: the nodes that still exist go where the user dropped them.
        const ops = [];
        for (const [id, to] of Object.entries(show)) if (d.nodes.some((n) => n.id === id)) ops.push({ op: 'update_node', id, data: to });
        if (!ops.length) return null;
        return ops.length === 1
          ? { name: 'canvas_update_node', args: { id: ops[0].id, data: ops[0].data } }
          : { name: 'canvas_batch', args: { ops } };
      }, show);
    },
    resize: (id, width, height) => {
      store.change((d) => (d.nodes.some((n) => n.id === id) ? { name: 'canvas_update_node', args: { id, data: { width, height } } } : null), { [id]: { width, height } });
    },
    connect: (from, fromSide, to, toSide) => {
      store.change((d) =>
        d.nodes.some((n) => n.id === from) && d.nodes.some((n) => n.id === to)
          ? { name: 'canvas_add_edge', args: { from, to, from_side: fromSide, to_side: toSide } }
          : null,
      );
    },
  });

  function applyView(v) {
    view.current = v;
    b.view = v;
    const vp = viewportRef.current;
    if (!vp) return;
    if (worldRef.current) worldRef.current.style.transform = `translate(${v.x}px,${v.y}px) scale(${v.k})`;
    const w = worldRect(v, vp.clientWidth, vp.clientHeight);
    setRegion((r) => {
      // Query again only when the viewport leaves the region, or the region is far too big for it.
      if (r && contains(r, w) && r.width < w.width * 3) return r;
      return inflate(w, w.width / 2, w.height / 2);
    });
    if (overviewRef.current) drawOverview(overviewRef.current, b.allNodes ?? [], v, b.allEdges);
  }
  b.allNodes = baseNodes;
  b.allEdges = baseEdges;
  b.applyView = applyView;

  const fit = () => {
    const vp = viewportRef.current;
    const nodes = b.selection().size ? baseNodes.filter((n) => selection.has(n.id)) : baseNodes;
    applyView(fitView(boundsOf(nodes), vp.clientWidth, vp.clientHeight));
  };
  const zoomBy = (f) => {
    const vp = viewportRef.current;
    applyView(zoomAbout(view.current, vp.clientWidth / 2, vp.clientHeight / 2, f));
  };

  // First read, then the first view: the whole canvas, unless that shows too many nodes to keep
  // in the DOM; then its top-left corner at 100%.
  useEffect(() => {
    store.refresh();
  }, [store]);
  useLayoutEffect(() => {
    if (view.current || !data || !viewportRef.current) return;
    const vp = viewportRef.current;
    const bounds = boundsOf(data.nodes);
    let v = fitView(bounds, vp.clientWidth, vp.clientHeight);
    const w = worldRect(v, vp.clientWidth, vp.clientHeight);
    if (bounds && query(index, inflate(w, w.width / 2, w.height / 2), MAX_DOM_NODES).length > MAX_DOM_NODES) {
      v = { k: 1, x: 40 - bounds.x, y: 40 - bounds.y };
    }
    applyView(v);
  }, [data]);
  useLayoutEffect(() => {
    if (view.current && worldRef.current) {
      const v = view.current;
      worldRef.current.style.transform = `translate(${v.x}px,${v.y}px) scale(${v.k})`;
    }
    if (overview && overviewRef.current && view.current) drawOverview(overviewRef.current, baseNodes, view.current, baseEdges);
  });

  // Live: another writer's change re-reads the file; viewport, selection and edits stay.
  useEffect(
    () =>
      onEvent((e) => {
        if (e.type === 'changed') {
          if (typeof e.path === 'string') invalidateFile(e.path);
          if (e.path !== store.canonicalPath) return;
          if (e.rev === null) store.notice('This canvas was deleted on disk.', 'Open another canvas from the vault panel, or undo the deletion.');
          else if (e.rev !== store.data?.rev) store.refresh();
        } else if (e.type === 'reconnected' || e.type === 'lagged') store.refresh();
      }),
    [store],
  );
  // Selection keeps only what still exists after a re-read.
  useEffect(() => {
    if (!data) return;
    const ids = new Set(data.nodes.map((n) => n.id));
    if ([...selection].some((id) => !ids.has(id))) setSelection(new Set([...selection].filter((id) => ids.has(id))));
    const eids = new Set(data.edges.map((e) => e.id));
    if ([...selectedEdges].some((id) => !eids.has(id))) setSelectedEdges(new Set([...selectedEdges].filter((id) => eids.has(id))));
  }, [data]);

  // Wheel: pan, or zoom about the pointer with Ctrl (Chromium reports a pinch as Ctrl+wheel).
  useEffect(() => {
    const vp = viewportRef.current;
    if (!vp) return;
    const onWheel = (e) => {
      if (e.target.closest('.node-editor') || !view.current) return;
      e.preventDefault();
      const box = vp.getBoundingClientRect();
      const v = view.current;
      const unit = e.deltaMode === 1 ? 16 : 1;
      if (e.ctrlKey || e.metaKey) applyView(zoomAbout(v, e.clientX - box.left, e.clientY - box.top, Math.exp(-e.deltaY * unit * 0.01)));
      else applyView({ ...v, x: v.x - e.deltaX * unit, y: v.y - e.deltaY * unit });
    };
    vp.addEventListener('wheel', onWheel, { passive: false });
    const ro = new ResizeObserver(() => view.current && applyView(view.current));
    ro.observe(vp);
    return () => {
      vp.removeEventListener('wheel', onWheel);
      ro.disconnect();
    };
  }, [!!data]);

  const removeSelection = () => {
    const nodes = [...selection];
    const edges = [...selectedEdges];
    if (!nodes.length && !edges.length) return;
    setSelection(EMPTY);
    setSelectedEdges(EMPTY);
    store.change((d) => {
      const ns = nodes.filter((id) => d.nodes.some((n) => n.id === id));
      // Edges of removed nodes go with them.
      const es = edges.filter((id) => d.edges.some((e) => e.id === id && !ns.includes(e.fromNode) && !ns.includes(e.toNode)));
      if (ns.length + es.length === 0) return null;
      if (ns.length === 1 && es.length === 0) return { name: 'canvas_remove_node', args: { id: ns[0] } };
      if (ns.length === 0 && es.length === 1) return { name: 'canvas_remove_edge', args: { id: es[0] } };
      return { name: 'canvas_batch', args: { ops: [...es.map((id) => ({ op: 'remove_edge', id })), ...ns.map((id) => ({ op: 'remove_node', id }))] } };
    });
  };
  const history = (redo) => (redo ? redoOnBoard(store) : undoOnBoard(store));
  const newNodeAt = async (w) => {
    const out = await store.change(() => ({
      name: 'canvas_add_node',
      args: { type: 'text', text: '', x: Math.round(w.x - 125), y: Math.round(w.y - 30), width: 250, height: 60 },
    }));
    if (out?.node?.id) {
      setSelection(new Set([out.node.id]));
      setEditing(out.node.id);
    }
  };
  const saveEdit = (id, value) => {
    setEditing(null);
    const n = byId.get(id);
    if (!n) return;
    const field = n.type === 'group' ? 'label' : 'text';
    if ((n[field] ?? '') === value) return;
    store.change((d) => (d.nodes.some((x) => x.id === id) ? { name: 'canvas_update_node', args: { id, data: { [field]: value } } } : null), { [id]: { [field]: value } });
  };

  useBoardKeys({
    remove: removeSelection,
    selectAll: () => setSelection(new Set((store.data?.nodes ?? []).map((n) => n.id))),
    escape: () => {
      if (answers.running) answers.stop();
      setMenu(null);
      setPanel(null);
      setSelection(EMPTY);
      setSelectedEdges(EMPTY);
    },
    history,
    fit,
  });

  // Double-click a node to edit it (a group: its label); anywhere else, even inside a group,
  // for a new text node there.
  const onDblClick = (e) => {
    const t = e.target;
    if (t.closest('.node-editor, [data-edge-id], .board-menu')) return;
    const nodeEl = t.closest('[data-node-id]');
    const n = nodeEl && byId.get(nodeEl.dataset.nodeId);
    const editable = n && store.data.nodes.some((x) => x.id === n.id);
    if (editable && (n.type === 'text' || (n.type === 'group' && t.closest('.group-label')))) return setEditing(n.id);
    if (n && n.type !== 'group') return;
    const box = viewportRef.current.getBoundingClientRect();
    const v = view.current;
    newNodeAt({ x: (e.clientX - box.left - v.x) / v.k, y: (e.clientY - box.top - v.y) / v.k });
  };
  const onContextMenu = (e) => {
    e.preventDefault();
    const box = viewportRef.current.getBoundingClientRect();
    const nodeEl = e.target.closest('[data-node-id]');
    const at = { x: e.clientX - box.left, y: e.clientY - box.top };
    if (nodeEl) {
      const id = nodeEl.dataset.nodeId;
      if (!selection.has(id)) setSelection(new Set([id]));
      setMenu({ ...at, node: id });
    } else {
      const v = view.current;
      setMenu({ ...at, world: { x: (at.x - v.x) / v.k, y: (at.y - v.y) / v.k } });
    }
  };

  if (!data) {
    return html`<main class="board canvas-board" data-canvas-path=${path}>
      ${store.error ? html`<p class="error" role="alert">${store.error.message}<br /><small>${store.error.hint}</small></p>` : html`<p class="muted">Loading ${path}…</p>`}
    </main>`;
  }
  const g = gesture;
  // Groups lie under the edges and the edges under the other nodes (as in Obsidian), so an edge
  // inside a group can be clicked; within each layer the array order is the z-order.
  const nodeView = (n) => html`<${NodeView} key=${n.id} node=${n} selected=${selection.has(n.id)} editing=${editing === n.id}
    streamText=${streams.get(n.id)} onSave=${(v) => saveEdit(n.id, v)} onCancel=${() => setEditing(null)} />`;
  return html`<main class="board canvas-board" data-canvas-path=${data.path} data-rev=${data.rev}>
    <${Toolbar} data=${data} store=${store} selection=${selection} answers=${answers} panel=${panel} setPanel=${setPanel}
      fit=${fit} zoomBy=${zoomBy} history=${history} />
    <${Notices} store=${store} />
    <div class="board-viewport" ref=${viewportRef} tabIndex="0"
      onPointerDown=${(e) => {
        setMenu(null);
        // Gestures prevent the default focus change, so an open editor is closed (saved) here.
        const active = document.activeElement;
        if (active?.classList?.contains('node-editor') && !e.target.closest('.node-editor')) active.blur();
        startGesture(b, e, viewportRef.current);
      }}
      onDblClick=${onDblClick} onContextMenu=${onContextMenu}>
      ${overview && html`<canvas class="board-overview" ref=${overviewRef}></canvas>`}
      <div class="board-world" ref=${worldRef}>
        ${shown.filter((n) => n.type === 'group').map(nodeView)}
        <${EdgeLayer} shaped=${shaped} selected=${selectedEdges} draft=${g?.kind === 'connect' ? g : null} />
        ${shown.filter((n) => n.type !== 'group').map(nodeView)}
        <${EdgeLabels} shaped=${shaped} />
      </div>
      ${g?.kind === 'box' && html`<div class="board-box" style=${`left:${Math.min(g.x0, g.x1)}px;top:${Math.min(g.y0, g.y1)}px;width:${Math.abs(g.x1 - g.x0)}px;height:${Math.abs(g.y1 - g.y0)}px`}></div>`}
      ${menu && html`<${ContextMenu} menu=${menu} close=${() => setMenu(null)}
        actions=${{ send: answers.send, edit: setEditing, remove: removeSelection, newNodeAt, fit }} />`}
    </div>
  </main>`;
}
