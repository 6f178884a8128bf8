// The vault's script and command tools (`.easel/tools/`), each with its parameters, its source and
// a "Try it" call with JSON arguments (`agent_tool_call`).
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { op } from '../api.js';
import { ErrorNote } from './ErrorNote.js';

/** Arguments to start from: each parameter with an empty value of its type. */
function sampleArgs(parameters) {
  const props = parameters?.properties ?? parameters ?? {};
  const out = {};
  for (const [k, v] of Object.entries(props)) {
    const t = v?.type;
    out[k] = t === 'number' || t === 'integer' ? 0 : t === 'boolean' ? false : t === 'array' ? [] : t === 'object' ? {} : '';
  }
  return JSON.stringify(out, null, 2);
}

function ScriptTool({ tool }) {
  const [args, setArgs] = useState(() => sampleArgs(tool.parameters));
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const tryIt = async () => {
    let parsed;
    try {
      parsed = JSON.parse(args);
    } catch (e) {
      setError({ message: `the arguments are not JSON: ${e.message}`, hint: 'write one JSON object, e.g. {"text": "a b c"}' });
      return;
    }
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await op('agent_tool_call', { name: tool.name, arguments: parsed }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="script-tool" data-tool=${tool.name}>
    <div><strong>${tool.name}</strong> <small>${tool.path ?? ''}</small></div>
    <p>${tool.description ?? ''}</p>
    <details>
      <summary>Parameters and source</summary>
      <pre class="tool-params">${JSON.stringify(tool.parameters ?? {}, null, 2)}</pre>
      ${tool.source && html`<pre class="tool-source">${tool.source}</pre>`}
    </details>
    <label class="field"><span>Arguments (JSON)</span>
      <textarea aria-label=${'Arguments for ' + tool.name} value=${args} onInput=${(e) => setArgs(e.currentTarget.value)}></textarea>
    </label>
    <button type="button" onClick=${tryIt} disabled=${busy}>Try it</button>
    <${ErrorNote} error=${error} />
    ${result !== null &&
    html`<pre class=${'try-output' + (result.is_error ? ' failed' : '')}>${typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2)}</pre>`}
  </div>`;
}

export function ScriptTools({ tools, problems, error }) {
  return html`<section class="script-tools" aria-label="Script tools">
    <h2>Script tools</h2>
    <${ErrorNote} error=${error} />
    ${(problems ?? []).map(
      (p) => html`<p class="error">${p.path ?? p.name ?? 'a tool file'}: ${p.reason ?? p.message ?? JSON.stringify(p)}<br /><small>fix the file; the other tools still load</small></p>`,
    )}
    ${tools && tools.length === 0 && html`<p class="note">No script tools yet: a script tool is a JavaScript file in .easel/tools/, such as .easel/tools/word_count.js.</p>`}
    ${(tools ?? []).map((t) => html`<${ScriptTool} key=${t.name} tool=${t} />`)}
  </section>`;
}
