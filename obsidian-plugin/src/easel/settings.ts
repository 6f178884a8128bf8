// The plugin's settings: which server (started by the plugin, or one already running), the
// default model for Send to LLM, and the easel binary.

export interface EaselSettings {
  /** URL of a running `easel serve` (its printed URL may include ?token=); empty: start one. */
  serverUrl: string;
  /** The token of that server, when the URL does not carry it. */
  token: string;
  /** provider:model for Send to LLM; empty: the canvas's own, else the vault's configured default. */
  defaultModel: string;
  /** The easel binary the plugin starts. */
  binaryPath: string;
}

export const DEFAULT_SETTINGS: EaselSettings = {
  serverUrl: '',
  token: '',
  defaultModel: '',
  binaryPath: 'easel',
};

/** Saved data merged over the defaults, ignoring anything of the wrong type. */
export function loadSettings(saved: unknown): EaselSettings {
  const s: EaselSettings = { ...DEFAULT_SETTINGS };
  if (typeof saved === 'object' && saved !== null) {
    for (const k of Object.keys(DEFAULT_SETTINGS) as (keyof EaselSettings)[]) {
      const v = (saved as Record<string, unknown>)[k];
      if (typeof v === 'string') s[k] = v;
    }
  }
  return s;
}
