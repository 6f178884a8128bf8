// Errors as the Easel API shapes them: `{"error":{"kind","message","hint"}}`. Every error the
// plugin shows says what went wrong and what to do next, so the hint travels with the message.

export class EaselError extends Error {
  readonly kind: string;
  readonly hint: string;
  readonly status: number;

  constructor(kind: string, message: string, hint: string, status = 0) {
    super(message);
    this.name = 'EaselError';
    this.kind = kind;
    this.hint = hint;
    this.status = status;
  }

  /** "message. What to do: hint", for a notice or the chat. */
  describe(): string {
    return this.hint ? `${this.message}. ${this.hint}` : this.message;
  }
}

/** The API's error body as an EaselError, or a plain one when the body is not Easel's. */
export function errorFromBody(status: number, body: string): EaselError {
  try {
    const parsed = JSON.parse(body);
    const e = parsed?.error;
    if (e && typeof e.message === 'string') {
      return new EaselError(String(e.kind ?? 'failure'), e.message, String(e.hint ?? ''), status);
    }
    // The HTTP guard's refusals (403 Host/Origin, 413, 415) are `{"error": "...", "hint": "..."}`.
    if (typeof e === 'string') {
      return new EaselError(status === 403 ? 'forbidden' : 'refused', e, String(parsed.hint ?? ''), status);
    }
  } catch {
    // not JSON: fall through
  }
  return new EaselError(
    'failure',
    `easel serve answered ${status}: ${body.slice(0, 200)}`,
    'check that the server address in the Easel settings is an `easel serve`',
    status,
  );
}

/** Any thrown value as an EaselError (network failures become 'unavailable'). */
export function asEaselError(e: unknown): EaselError {
  if (e instanceof EaselError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new EaselError(
    'unavailable',
    `cannot reach easel serve: ${message}`,
    'check the server address and token in the Easel settings, or leave the address empty so the plugin starts easel itself',
  );
}
