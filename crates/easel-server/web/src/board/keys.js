// The board's keys: Delete/Backspace, Ctrl+A, Esc, Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y), Shift+1.
// Typing in a field (a node's editor, the toolbar's inputs) never triggers them.
import { useEffect } from 'preact/hooks';

export function useBoardKeys({ remove, selectAll, escape, history, fit }) {
  useEffect(() => {
    const onKey = (e) => {
      if (e.target.closest?.('input, textarea, select, [contenteditable]')) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      let handled = true;
      if (e.key === 'Delete' || e.key === 'Backspace') remove();
      else if (mod && key === 'a') selectAll();
      else if (e.key === 'Escape') escape();
      else if (mod && key === 'z') history(e.shiftKey);
      else if (mod && key === 'y') history(true);
      else if (e.shiftKey && e.code === 'Digit1') fit();
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}
