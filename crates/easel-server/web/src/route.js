// Which page a URL names. Pages are plain links (a full load each), so the router is this table.

const prefixes = [
  ['/canvas/', 'canvas'],
  ['/doc/', 'doc'],
  ['/agent/', 'agent'],
  ['/agent-edit/', 'agent-edit'],
  ['/code/', 'code'],
];

/** `{page, arg}` for a path such as `/canvas/boards/Plan.canvas`; the home page otherwise. */
export function route(pathname) {
  for (const [prefix, page] of prefixes) {
    if (pathname.startsWith(prefix)) {
      const rest = pathname.slice(prefix.length);
      let arg;
      try {
        arg = decodeURIComponent(rest);
      } catch {
        arg = rest;
      }
      return { page, arg };
    }
  }
  return { page: 'home', arg: '' };
}

/** The URL of a vault file's page, or null when no page shows that kind of file. */
export function pageOf(path) {
  const enc = path.split('/').map(encodeURIComponent).join('/');
  if (path.endsWith('.canvas')) return `/canvas/${enc}`;
  if (/\.(md|html?)$/i.test(path)) return `/doc/${enc}`;
  return null;
}
