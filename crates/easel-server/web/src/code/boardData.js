// What the code board shows, read from the vault: the evidence board (`.codecanvas/state.json`,
// written by the `canvas` operation) and the views it drew (a PNG/SVG picture and a `.canvas`
// of the same name for each of architecture, impact and board).
import { op } from '../api.js';

/** The folder's `.codecanvas/` path prefix ('' is the vault's root). */
export function codecanvasOf(folder) {
  return folder ? `${folder.replace(/\/+$/, '')}/.codecanvas/` : '.codecanvas/';
}

/** The URL of a vault file (each path segment encoded). */
export function fileUrl(path, version) {
  const enc = path.split('/').map(encodeURIComponent).join('/');
  return `/api/files/${enc}${version ? `?v=${version}` : ''}`;
}

/** The board page of a canvas in the vault. */
export function canvasPage(path) {
  return `/canvas/${path.split('/').map(encodeURIComponent).join('/')}`;
}

function viewKind(name) {
  if (name === 'architecture') return 'architecture';
  if (name === 'board') return 'board';
  if (name.startsWith('impact')) return 'impact';
  return 'other';
}

const ORDER = { architecture: 0, impact: 1, board: 2, other: 3 };

/**
 * The views in `prefix`: `[{name, kind, image, imageVersion, canvas}]`, architecture first, then
 * impact views newest first, then the board.
 */
export function viewsOf(files, prefix) {
  const byName = new Map();
  for (const f of files) {
    if (!f.path.startsWith(prefix)) continue;
    const rest = f.path.slice(prefix.length);
    const m = /^([^/]+)\.(png|svg|canvas)$/.exec(rest);
    if (!m) continue;
    const v = byName.get(m[1]) ?? { name: m[1], kind: viewKind(m[1]), modified: 0 };
    if (m[2] === 'canvas') v.canvas = f.path;
    // A PNG is what the operation returns as its picture; the SVG stands in where there is none.
    else if (m[2] === 'png' || !v.image) {
      v.image = f.path;
      v.imageVersion = f.modified;
    }
    v.modified = Math.max(v.modified, f.modified ?? 0);
    byName.set(m[1], v);
  }
  return [...byName.values()].sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || b.modified - a.modified);
}

/** Every folder of the vault that holds a `.codecanvas/` (its path, '' for the root). */
export function codeFolders(files) {
  const out = new Set();
  for (const f of files) {
    const m = /^(?:(.*)\/)?\.codecanvas\//.exec(f.path);
    if (m) out.add(m[1] ?? '');
  }
  return [...out].sort();
}

/**
 * The text of the folder's `state.json`, or null. The server answers a repeated request with 304
 * (its ETag), so asking often costs little.
 */
export async function stateText(prefix) {
  const res = await fetch(fileUrl(`${prefix}state.json`), { credentials: 'same-origin' });
  return res.ok ? res.text() : null;
}

/** The vault's files and the evidence board of `folder` (null when it has none yet). */
export async function loadBoard(folder) {
  const prefix = codecanvasOf(folder);
  let files = [];
  try {
    const listing = await op('vault_list', { folder: prefix.slice(0, -1), recursive: false, limit: 1000 });
    files = listing.files ?? [];
  } catch (e) {
    // No `.codecanvas/` yet is the page's "parse the code" state, not an error.
    if (e.kind !== 'not_found' && e.status !== 404) throw e;
  }
  const stateFile = files.find((f) => f.path === `${prefix}state.json`);
  const text = stateFile ? await stateText(prefix) : null;
  let state = null;
  try {
    state = text ? JSON.parse(text) : null;
  } catch {
    state = null;
  }
  return { prefix, state, stateText: text, views: viewsOf(files, prefix), exists: files.some((f) => f.path.startsWith(prefix)) };
}
