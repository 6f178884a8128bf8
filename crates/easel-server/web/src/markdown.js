// Markdown from the vault (node text, notes, model answers) is untrusted: it is rendered with
// marked and then sanitised with DOMPurify before it reaches the DOM.
import { Marked } from 'marked';
import DOMPurify from 'dompurify';

const marked = new Marked({ gfm: true, breaks: false, async: false });

// Links open outside the app and never as javascript:; images load only from this server.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** Strips a leading YAML frontmatter block (`---` … `---`), returning [frontmatter, body]. */
export function splitFrontmatter(text) {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text ?? '');
  return m ? [m[1], text.slice(m[0].length)] : ['', text ?? ''];
}

/** Safe HTML for `text` (Markdown). */
export function renderMarkdown(text) {
  const raw = marked.parse(text ?? '');
  return DOMPurify.sanitize(raw, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'] });
}
