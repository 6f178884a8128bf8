// Bundles the web UI into one script and one stylesheet, with a gzip copy of each, so the
// server can embed them and send the compressed copy to browsers that accept it.
// Usage: node build.mjs --outdir DIR
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? process.argv[at + 1] : join(here, 'dist');
mkdirSync(outdir, { recursive: true });

await esbuild.build({
  entryPoints: { app: join(here, 'src/main.js') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  outdir,
  legalComments: 'none',
  logLevel: 'warning',
});
await esbuild.build({
  entryPoints: { app: join(here, 'src/app.css') },
  bundle: true,
  minify: true,
  outdir,
  logLevel: 'warning',
});
copyFileSync(join(here, 'src/index.html'), join(outdir, 'index.html'));

const sizes = [];
for (const name of ['app.js', 'app.css', 'index.html']) {
  const raw = readFileSync(join(outdir, name));
  const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
  writeFileSync(join(outdir, name + '.gz'), gz);
  sizes.push(`${name} ${raw.length} B (${gz.length} B gzipped)`);
}
console.log(sizes.join(', '));
