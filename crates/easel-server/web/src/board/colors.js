// JSON Canvas colours: the presets "1".."6" as Obsidian draws them, or a hex colour as written.
const PRESETS = {
  1: '#e93147',
  2: '#ec7500',
  3: '#e0ac00',
  4: '#08b94e',
  5: '#00bfbc',
  6: '#7852ee',
};

/** A CSS colour for a canvas colour, or null when there is none (or it is not a colour). */
export function cssColor(color) {
  if (color == null || color === '') return null;
  const c = String(color);
  if (PRESETS[c]) return PRESETS[c];
  // Anything else from the file goes into a style attribute: only plain hex gets through.
  return /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : null;
}
