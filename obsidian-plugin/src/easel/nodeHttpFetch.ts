// A `fetch` over Node's http module, for Obsidian on the desktop: its window.fetch runs under the
// page's origin (app://obsidian.md), which easel serve refuses (no CORS, and the guard checks
// Origin against DNS rebinding). Node's http sends no Origin and streams the response.

import * as http from 'http';
import * as https from 'https';
import type { FetchLike, ResponseLike } from './client';

export const nodeHttpFetch: FetchLike = (url, init) =>
  new Promise<ResponseLike>((resolve, reject) => {
    const u = new URL(url);
    const mod = u.protocol === 'https:' ? https : http;
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = new TextEncoder().encode(init.body).length;
    const req = mod.request(u, { method: init.method, headers }, (res) => {
      let onAbort: (() => void) | null = null;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          res.on('data', (c: Buffer) => controller.enqueue(new Uint8Array(c)));
          res.on('end', () => controller.close());
          res.on('error', (e) => controller.error(e));
          onAbort = () => {
            res.destroy();
            try {
              controller.error(new Error('aborted'));
            } catch {
              // already closed
            }
          };
          init.signal?.addEventListener('abort', onAbort, { once: true });
        },
        cancel() {
          res.destroy();
        },
      });
      resolve({
        status: res.statusCode ?? 0,
        body,
        async text() {
          const reader = body.getReader();
          const decoder = new TextDecoder();
          let s = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            s += decoder.decode(value, { stream: true });
          }
          if (onAbort) init.signal?.removeEventListener('abort', onAbort);
          return s + decoder.decode();
        },
      });
    });
    req.on('error', reject);
    if (init.signal) {
      if (init.signal.aborted) req.destroy(new Error('aborted'));
      init.signal.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
    }
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
