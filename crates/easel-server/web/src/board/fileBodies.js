// The rendered bodies of the notes that file nodes show, read once per (file, subpath) and read
// again when the note changes on disk.
import { useEffect, useState } from 'preact/hooks';
import { op } from '../api.js';
import { renderMarkdown } from '../markdown.js';

const cache = new Map(); // key -> {html} | {error} | 'loading'
const watchers = new Set();

const keyOf = (file, subpath) => file + '\u0000' + (subpath ?? '');

async function load(file, subpath) {
  const key = keyOf(file, subpath);
  cache.set(key, 'loading');
  try {
    const args = { path: file };
    if (subpath && subpath.startsWith('#')) args.section = subpath;
    const r = await op('note_read', args);
    cache.set(key, { html: renderMarkdown(r.body) });
  } catch (e) {
    cache.set(key, { error: e });
  }
  for (const fn of [...watchers]) fn();
}

/** Forgets what was read of `path`, so file nodes showing it read it again. */
export function invalidateFile(path) {
  let hit = false;
  for (const key of cache.keys()) {
    if (key.startsWith(path + '\u0000')) {
      cache.delete(key);
      hit = true;
    }
  }
  if (hit) for (const fn of [...watchers]) fn();
}

/** The note body for a file node: {html}, {error} or null while it loads. */
export function useFileBody(file, subpath) {
  const [, tick] = useState(0);
  useEffect(() => {
    const fn = () => tick((t) => t + 1);
    watchers.add(fn);
    return () => watchers.delete(fn);
  }, []);
  const key = keyOf(file, subpath);
  const v = cache.get(key);
  if (v === undefined) {
    load(file, subpath);
    return null;
  }
  return v === 'loading' ? null : v;
}
