// The agent's tools, picked from the operation catalogue (grouped by area, each with its effect)
// and the vault's script tools; entries the pickers do not know (globs such as `canvas_*`,
// Claude Code names) stay listed so saving never drops them silently.
import { html } from '../html.js';
import { areaOf } from './agentForm.js';

function Pick({ name, checked, disabled, effect, title, onToggle }) {
  return html`<label title=${title ?? ''}>
    <input type="checkbox" checked=${checked} disabled=${disabled} onChange=${() => onToggle(name)} />
    <span class="tool-pick-name">${name}</span>
    ${effect && html`<span class=${'effect ' + effect}>${effect}</span>`}
  </label>`;
}

export function ToolPicker({ catalogue, scripts, tools, onChange }) {
  const readOnly = catalogue.filter((o) => o.effect === 'read').map((o) => o.name);
  const byDefault = tools === null;
  const chosen = new Set(byDefault ? readOnly : tools);
  const toggle = (name) => {
    const next = new Set(chosen);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    onChange([...next]);
  };
  const areas = new Map();
  for (const o of catalogue) {
    const a = areaOf(o.name);
    if (!areas.has(a)) areas.set(a, []);
    areas.get(a).push(o);
  }
  const known = new Set([...catalogue.map((o) => o.name), ...(scripts ?? []).map((s) => s.name)]);
  const others = byDefault ? [] : tools.filter((t) => !known.has(t));

  return html`<fieldset class="tool-picker">
    <legend>Tools</legend>
    <label class="default-tools">
      <input
        type="checkbox"
        checked=${byDefault}
        onChange=${(e) => onChange(e.currentTarget.checked ? null : readOnly)}
      />
      Use the default tools (the read-only operations)
    </label>
    ${[...areas].map(
      ([area, list]) => html`<div class="area">${area}</div>
        <div class="picks" role="group" aria-label=${'Operations: ' + area}>
          ${list.map(
            (o) => html`<${Pick} key=${o.name} name=${o.name} title=${o.title} effect=${o.effect}
              checked=${chosen.has(o.name)} disabled=${byDefault} onToggle=${toggle} />`,
          )}
        </div>`,
    )}
    ${scripts &&
    scripts.length > 0 &&
    html`<div class="area">script tools</div>
      <div class="picks" role="group" aria-label="Script tools">
        ${scripts.map(
          (s) => html`<${Pick} key=${s.name} name=${s.name} title=${s.description} effect=${s.effect ?? 'script'}
            checked=${chosen.has(s.name)} disabled=${byDefault} onToggle=${toggle} />`,
        )}
      </div>`}
    ${others.length > 0 &&
    html`<div class="area">other entries of the file</div>
      <div class="picks" role="group" aria-label="Other tool entries">
        ${others.map((t) => html`<${Pick} key=${t} name=${t} checked=${true} onToggle=${toggle} />`)}
      </div>`}
  </fieldset>`;
}
