// Bundles the web UI into one script and one stylesheet, with a gzip copy of each, so the
// server can embed them and send the compressed copy to browsers that accept it.
// Usage: node build.mjs --outdir DIR
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? process.argv[at + 1] : join(here, 'dist');
mkdirSync(outdir, { recursive: true });

// Each page is its own chunk, loaded when the page is opened: a board does not download the
// agent chat. Shared code (Preact, the Markdown renderer) goes into shared chunks.
const result = await esbuild.build({
  entryPoints: { app: join(here, 'src/main.js') },
  bundle: true,
  splitting: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
await esbuild.build({
  entryPoints: { app: join(here, 'src/app.css') },
  bundle: true,
  minify: true,
  outdir,
  logLevel: 'warning',
});
copyFileSync(join(here, 'src/index.html'), join(outdir, 'index.html'));

// The chunks of the script, by file name, for the server's table of assets.
const chunks = Object.keys(result.metafile.outputs)
  .map((p) => basename(p))
  .filter((n) => n.endsWith('.js') && n !== 'app.js')
  .sort();
const names = ['app.js', ...chunks, 'app.css', 'index.html'];
let jsTotal = 0;
const sizes = [];
for (const name of names) {
  const raw = readFileSync(join(outdir, name));
  const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
  writeFileSync(join(outdir, name + '.gz'), gz);
  if (name.endsWith('.js')) jsTotal += gz.length;
  sizes.push(`${name} ${raw.length} B (${gz.length} B gzipped)`);
}
writeFileSync(join(outdir, 'assets.json'), JSON.stringify(names));
console.log(sizes.join(', '));
console.log(`all JavaScript: ${jsTotal} B gzipped`);
