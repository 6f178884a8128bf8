// Builds the plugin into dist/ (main.js, manifest.json, styles.css: what Obsidian loads from
// .obsidian/plugins/easel/), or with --tests the tests into build-test/, with `obsidian` mapped
// to the hand-written fake in test/fake-obsidian.ts.
import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

const here = new URL('.', import.meta.url).pathname;
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

if (process.argv.includes('--tests')) {
  const out = `${here}build-test`;
  rmSync(out, { recursive: true, force: true });
  const entries = readdirSync(`${here}test`).filter((f) => f.endsWith('.test.ts')).map((f) => `${here}test/${f}`);
  await build({
    entryPoints: entries,
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    alias: { obsidian: `${here}test/fake-obsidian.ts` },
    logLevel: 'warning',
  });
} else {
  const out = `${here}dist`;
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [`${here}src/main.ts`],
    outfile: `${out}/main.js`,
    bundle: true,
    // Obsidian loads plugins as CommonJS and provides `obsidian` and Electron's Node built-ins.
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    external: ['obsidian', 'electron', ...nodeBuiltins],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(`${here}manifest.json`, `${out}/manifest.json`);
  copyFileSync(`${here}styles.css`, `${out}/styles.css`);
  for (const f of ['main.js', 'styles.css', 'manifest.json']) {
    const bytes = statSync(`${out}/${f}`).size;
    const gz = gzipSync(readFileSync(`${out}/${f}`)).length;
    console.log(`dist/${f}: ${bytes} bytes (${gz} gzipped)`);
  }
}
