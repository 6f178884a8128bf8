// One node of the board: text as sanitised Markdown, a file's rendered note (or its image), a
// link, or a group with its label; with its side handles (for edges) and resize handle.
import { Component } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { html } from '../html.js';
import { renderMarkdown, splitFrontmatter } from '../markdown.js';
import { cssColor } from './colors.js';
import { useFileBody } from './fileBodies.js';

const IMAGE = /\.(png|jpe?g|gif|webp|svg|avif|bmp)$/i;

// Markdown is rendered once per distinct text; the cache is dropped when it grows large.
const rendered = new Map();
function markdown(text) {
  let out = rendered.get(text);
  if (out === undefined) {
    if (rendered.size > 2000) rendered.clear();
    out = renderMarkdown(text);
    rendered.set(text, out);
  }
  return out;
}

const fileUrl = (path) => '/api/files/' + path.split('/').map(encodeURIComponent).join('/');

function roleOf(frontmatter) {
  const m = /^role:\s*["']?(\w+)/im.exec(frontmatter);
  return m ? m[1].toLowerCase() : null;
}

function TextBody({ text }) {
  const [fm, body] = splitFrontmatter(text);
  const role = roleOf(fm);
  return html`${role && html`<span class="node-role">${role}</span>`}
    <div class="md" dangerouslySetInnerHTML=${{ __html: markdown(body) }}></div>`;
}

function FileBody({ file, subpath }) {
  if (IMAGE.test(file)) return html`<img class="node-image" src=${fileUrl(file)} alt=${file} draggable="false" />`;
  if (!/\.md$/i.test(file)) return html`<div class="node-file-name">${file}</div>`;
  return html`<${NoteBody} file=${file} subpath=${subpath} />`;
}

function NoteBody({ file, subpath }) {
  const body = useFileBody(file, subpath);
  return html`<div class="node-file-name">${file}${subpath ?? ''}</div>
    ${body === null && html`<div class="muted">Loading…</div>`}
    ${body?.error && html`<div class="error">${body.error.message}<br /><small>${body.error.hint}</small></div>`}
    ${body?.html !== undefined && html`<div class="md" dangerouslySetInnerHTML=${{ __html: body.html }}></div>`}`;
}

function LinkBody({ url }) {
  const safe = /^https?:\/\//i.test(url ?? '');
  return html`<div class="node-link">
    ${safe ? html`<a href=${url} target="_blank" rel="noopener noreferrer">${url}</a>` : html`<span>${url}</span>`}
  </div>`;
}

function Editor({ value, onSave, onCancel }) {
  const ref = useRef();
  useLayoutEffect(() => {
    ref.current.focus();
    ref.current.select();
  }, []);
  const done = useRef(false);
  const finish = (save) => {
    if (done.current) return;
    done.current = true;
    if (save) onSave(ref.current.value);
    else onCancel();
  };
  return html`<textarea
    ref=${ref}
    class="node-editor"
    aria-label="Node text"
    value=${value}
    onPointerDown=${(e) => e.stopPropagation()}
    onDblClick=${(e) => e.stopPropagation()}
    onKeyDown=${(e) => {
      e.stopPropagation();
      if (e.key === 'Escape') finish(false);
      else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) finish(true);
    }}
    onBlur=${() => finish(true)}
  ></textarea>`;
}

const SIDES = ['top', 'right', 'bottom', 'left'];

/** A node; re-renders only when its own props change (boards hold thousands of them). */
export class NodeView extends Component {
  shouldComponentUpdate(next) {
    const p = this.props;
    return (
      next.node !== p.node ||
      next.selected !== p.selected ||
      next.editing !== p.editing ||
      next.streamText !== p.streamText
    );
  }

  render({ node: n, selected, editing, streamText, onSave, onCancel }) {
    const color = cssColor(n.color);
    const style = `left:${n.x}px;top:${n.y}px;width:${n.width}px;height:${n.height}px;${color ? `--node-color:${color};` : ''}`;
    const cls = `node node-${n.type}${selected ? ' selected' : ''}${color ? ' colored' : ''}${streamText != null ? ' streaming' : ''}`;
    let body;
    if (editing) {
      const value = n.type === 'group' ? n.label ?? '' : n.text ?? '';
      body = html`<${Editor} value=${value} onSave=${onSave} onCancel=${onCancel} />`;
    } else if (streamText != null) {
      body = html`<span class="node-role">assistant</span><div class="md" dangerouslySetInnerHTML=${{ __html: markdown(streamText) }}></div>`;
    } else if (n.type === 'text') body = html`<${TextBody} text=${n.text ?? ''} />`;
    else if (n.type === 'file') body = html`<${FileBody} file=${String(n.file ?? '')} subpath=${n.subpath} />`;
    else if (n.type === 'link') body = html`<${LinkBody} url=${String(n.url ?? '')} />`;
    else body = null;
    return html`<div class=${cls} style=${style} data-node-id=${n.id}>
      ${n.type === 'group' && html`<div class="group-label">${n.label ?? ''}</div>`}
      ${body !== null && html`<div class="node-body">${body}</div>`}
      ${SIDES.map((s) => html`<div class=${'handle handle-' + s} data-handle=${s} title="Drag to another node to connect"></div>`)}
      <div class="resize-handle" data-resize="1" title="Drag to resize"></div>
    </div>`;
  }
}
