// Send to LLM: asks a model about a node (thread_send under a fresh run id) and shows the answer
// node as soon as the server names it, filled with the text as it streams, before the file's
// next write. Stop cancels the run; the server keeps the partial answer with `partial: true`.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { op, onEvent, newRunId, cancelRun } from '../api.js';
import { splitFrontmatter } from '../markdown.js';

/** The running answers and the functions that start and stop them. */
export function useAnswers(store) {
  // run id -> {target, node, edge, text}
  const [answers, setAnswers] = useState(new Map());
  const runs = useRef(new Set());
  const [settings, setSettings] = useState({ model: '', maxTokens: '' });

  useEffect(
    () =>
      onEvent((e) => {
        if (!e.call || !runs.current.has(e.call)) return;
        if (e.type === 'answer_started') {
          setAnswers((m) => new Map(m).set(e.call, { ...m.get(e.call), node: e.node, edge: e.edge, model: e.model, text: '' }));
        } else if (e.type === 'text_delta') {
          setAnswers((m) => {
            const a = m.get(e.call);
            return a ? new Map(m).set(e.call, { ...a, text: (a.text ?? '') + (e.delta ?? '') }) : m;
          });
        }
      }),
    [],
  );

  const send = async (target) => {
    const { model } = settings;
    const maxTokens = parseInt(settings.maxTokens, 10);
    const run = newRunId();
    runs.current.add(run);
    setAnswers((m) => new Map(m).set(run, { target, text: null }));
    const args = { canvas: store.canonicalPath, node: target };
    if (model) args.model = model;
    if (maxTokens > 0) args.max_tokens = maxTokens;
    try {
      const out = await op('thread_send', args, { run });
      if (out?.partial) store.notice('The answer was stopped; its partial text is kept in the canvas.', 'Send to LLM again for a whole answer.', 'info');
    } catch (e) {
      store.notice(e.message, e.hint);
    } finally {
      // The file now holds the whole answer: read it before dropping the streamed copy.
      await store.refresh();
      runs.current.delete(run);
      setAnswers((m) => {
        const n = new Map(m);
        n.delete(run);
        return n;
      });
    }
  };

  const stop = () => {
    for (const run of runs.current) cancelRun(run).catch(() => {});
  };

  return { answers, send, stop, running: answers.size > 0, settings, setSettings };
}

/** Nodes and edges to show for answers the file does not hold yet (placed as section 8 says). */
export function provisional(answers, data) {
  const nodes = [];
  const edges = [];
  if (!data) return { nodes, edges };
  for (const a of answers.values()) {
    if (!a.node || data.nodes.some((n) => n.id === a.node)) continue;
    const t = data.nodes.find((n) => n.id === a.target);
    if (!t) continue;
    nodes.push({ id: a.node, type: 'text', text: '', x: t.x, y: t.y + t.height + 60, width: Math.max(t.width, 400), height: 160, color: '3' });
    if (a.edge && !data.edges.some((e) => e.id === a.edge)) {
      edges.push({ id: a.edge, fromNode: t.id, fromSide: 'bottom', toNode: a.node, toSide: 'top' });
    }
  }
  return { nodes, edges };
}

/** Streamed text by answer node id, for the answers still running. */
export function streamTexts(answers) {
  const m = new Map();
  for (const a of answers.values()) if (a.node && a.text != null) m.set(a.node, a.text);
  return m;
}

/** The model the canvas names (`model:` of its first system node), if any. */
function canvasModel(data) {
  for (const n of data?.nodes ?? []) {
    if (n.type !== 'text') continue;
    const [fm] = splitFrontmatter(n.text ?? '');
    if (!/^role:\s*["']?system/im.test(fm)) continue;
    const m = /^model:\s*["']?([^"'\n]+)/m.exec(fm);
    return m ? m[1].trim() : null;
  }
  return null;
}

/** The model picker and the Send to LLM / Stop buttons of the toolbar. */
export function SendControls({ data, selection, answers: { send, stop, running, settings, setSettings }, store }) {
  const [models, setModels] = useState(null);
  const [fallback, setFallback] = useState(null);
  useEffect(() => {
    op('llm_list', {})
      .then((r) => {
        const ready = [];
        const other = [];
        for (const p of r.providers ?? []) for (const m of p.models ?? []) (p.ready ? ready : other).push(m);
        setModels([...ready, ...other]);
        setFallback(r.default_model ?? null);
      })
      .catch((e) => {
        setModels([]);
        store.notice(`The model list could not be read: ${e.message}`, e.hint);
      });
  }, []);
  const deflt = canvasModel(data) ?? fallback;
  const target = selection.size === 1 ? [...selection][0] : null;
  const sendable = target && data?.nodes.some((n) => n.id === target && n.type !== 'group');
  return html`<span class="send-controls">
    <select aria-label="Model" value=${settings.model}
      onChange=${(e) => setSettings({ ...settings, model: e.currentTarget.value })}>
      <option value="">${deflt ? `Default (${deflt})` : 'Default model'}</option>
      ${(models ?? []).map((m) => html`<option value=${m}>${m}</option>`)}
    </select>
    <input class="max-tokens" type="number" min="1" aria-label="Max tokens" placeholder="max tokens" value=${settings.maxTokens}
      onInput=${(e) => setSettings({ ...settings, maxTokens: e.currentTarget.value })} />
    <button class="primary" disabled=${!sendable} title=${sendable ? 'Ask the model about the selected node' : 'Select one node to ask about'}
      onClick=${() => send(target)}>Send to LLM</button>
    ${running && html`<button class="danger" onClick=${stop} title="Stop the answer (Esc); its text so far is kept">Stop</button>`}
  </span>`;
}
