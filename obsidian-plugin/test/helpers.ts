// What the tests share: a fresh copy of examples/vault, a real `easel serve` on it (the binary
// from EASEL_BIN, default target/debug/easel), and waiting for a condition.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type StartedServer } from '../src/easel/launcher';
import { addAgents } from './agents';
import { ScriptedModel } from './scriptedModel';

// The tests run from build-test/, one folder below the plugin.
const PLUGIN = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
export const REPO = resolve(PLUGIN, '..');
export const EASEL_BIN = process.env.EASEL_BIN ?? join(REPO, 'target', 'debug', 'easel');

/** A fresh copy of examples/vault in a temporary folder; `cleanup()` removes it. */
export function makeVault(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'easel-obsidian-'));
  const path = join(dir, 'vault');
  cpSync(join(REPO, 'examples', 'vault'), path, { recursive: true });
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function startEasel(vault: string): Promise<StartedServer> {
  return startServer({ bin: EASEL_BIN, vault });
}

export function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Polls `check` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function waitUntil<T>(check: () => T | Promise<T>, what: string, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await check();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

export const RESEARCH = 'Research.canvas';
/** The question node of examples/vault/Research.canvas. */
export const QUESTION = '4d5e6f708192a3b4';

/** A fresh vault, the scripted model configured in it, and a real `easel serve` on it. */
export interface Stack {
  vault: ReturnType<typeof makeVault>;
  model: ScriptedModel;
  server: StartedServer;
}

/** Starts a [`Stack`]; with `agents`, the vault also holds the chat tests' two agents. */
export async function startStack(opts: { agents?: boolean } = {}): Promise<Stack> {
  const vault = makeVault();
  const model = new ScriptedModel();
  await model.start();
  model.configure(vault.path);
  if (opts.agents) addAgents(vault.path);
  const server = await startEasel(vault.path);
  return { vault, model, server };
}

/** Stops what [`startStack`] started, whatever part of it came up. */
export async function stopStack(stack: Partial<Stack> | undefined): Promise<void> {
  await stack?.server?.stop();
  await stack?.model?.stop();
  stack?.vault?.cleanup();
}
