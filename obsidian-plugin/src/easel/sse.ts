// Server-Sent Events, parsed by hand: Obsidian's `requestUrl` cannot stream, and the plugin must
// not depend on EventSource (it cannot send the bearer token).

/** Splits an SSE byte stream, fed as text chunks, into the `data` of each event. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  /** Feeds a chunk; returns the data of every event it completed. */
  push(chunk: string): string[] {
    this.buffer += chunk;
    const done: string[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const width = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      // A lone '\r' at the end of a chunk may be the first half of '\r\n': wait for more.
      if (width === 1 && this.buffer[nl] === '\r' && nl === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(nl + width);
      if (line === '') {
        if (this.data.length) done.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) {
        this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
      // Comments (':' keep-alives), 'event:', 'id:' and 'retry:' carry nothing Easel uses.
    }
    return done;
  }
}

/** Reads a byte stream to its end, calling `onData` with each event's data. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const d of parser.push(decoder.decode(value, { stream: true }))) onData(d);
    }
  } finally {
    reader.releaseLock();
  }
}
