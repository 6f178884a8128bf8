//! Text as a reader sees it: entities decoded, whitespace collapsed, with the way back from
//! each character to its bytes in the source (so that edits of the text are byte splices).

use std::ops::Range;

/// A run of source text and what it reads as.
#[derive(Clone, Debug)]
pub(crate) struct Seg {
    pub src: Range<usize>,
    pub out: Range<usize>,
    /// Bytes read as themselves (not a character reference).
    pub plain: bool,
}

/// The decoded text of one source range.
#[derive(Clone, Debug, Default)]
pub(crate) struct Decoded {
    pub text: String,
    pub segs: Vec<Seg>,
}

impl Decoded {
    /// The source bytes of the decoded range `out`, widened to whole character references, and
    /// the decoded range they hold.
    pub fn source(&self, out: Range<usize>) -> (Range<usize>, Range<usize>) {
        let (mut src, mut wide) = (0..0, out.clone());
        for (i, seg) in self.segs.iter().enumerate() {
            let first = i == 0;
            if (seg.out.start <= out.start && out.start < seg.out.end)
                || (first && out.start < seg.out.start)
            {
                if seg.plain {
                    src.start = seg.src.start + (out.start - seg.out.start);
                } else {
                    src.start = seg.src.start;
                    wide.start = seg.out.start;
                }
            }
            if seg.out.start < out.end && out.end <= seg.out.end {
                if seg.plain {
                    src.end = seg.src.start + (out.end - seg.out.start);
                } else {
                    src.end = seg.src.end;
                    wide.end = seg.out.end;
                }
            }
        }
        if out.is_empty() {
            src.end = src.start;
        }
        (src, wide)
    }
}

/// Decodes `doc[span]`; character references count only when `entities`.
pub(crate) fn decode(doc: &str, span: Range<usize>, entities: bool) -> Decoded {
    let raw = doc.get(span.clone()).unwrap_or_default();
    let base = span.start;
    let mut d = Decoded::default();
    let mut plain_from = 0;
    let mut i = 0;
    while entities && let Some(pos) = raw.get(i..).and_then(|r| r.find('&')) {
        let at = i + pos;
        let len = reference_len(raw.get(at..).unwrap_or_default());
        let token = raw.get(at..at + len).unwrap_or_default();
        let value = if len > 1 {
            htmlize::unescape(token)
        } else {
            token.into()
        };
        if len > 1 && value != token {
            push(&mut d, raw, base, plain_from..at);
            let start = d.text.len();
            d.text.push_str(&value);
            d.segs.push(Seg {
                src: base + at..base + at + len,
                out: start..d.text.len(),
                plain: false,
            });
            i = at + len;
            plain_from = i;
        } else {
            i = at + 1;
        }
    }
    push(&mut d, raw, base, plain_from..raw.len());
    d
}

fn push(d: &mut Decoded, raw: &str, base: usize, range: Range<usize>) {
    if range.is_empty() {
        return;
    }
    let start = d.text.len();
    d.text.push_str(raw.get(range.clone()).unwrap_or_default());
    d.segs.push(Seg {
        src: base + range.start..base + range.end,
        out: start..d.text.len(),
        plain: true,
    });
}

/// The length of the character reference at the start of `s` (which starts with `&`), 0 if none.
fn reference_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 1;
    if b.get(1) == Some(&b'#') {
        i = 2;
        let hex = matches!(b.get(2), Some(b'x' | b'X'));
        if hex {
            i = 3;
        }
        let digits_from = i;
        while b.get(i).is_some_and(|c| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        }) {
            i += 1;
        }
        if i == digits_from {
            return 0;
        }
    } else {
        while i < 40 && b.get(i).is_some_and(u8::is_ascii_alphanumeric) {
            i += 1;
        }
        if i == 1 {
            return 0;
        }
    }
    if b.get(i) == Some(&b';') {
        i += 1;
    }
    i
}

/// Escapes text for a text node.
pub(crate) fn escape_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Escapes text for a double-quoted attribute value.
pub(crate) fn escape_attr(s: &str) -> String {
    escape_text(s).replace('"', "&quot;").replace('\'', "&#39;")
}

/// Pieces of text with breaks between blocks, collapsed into one line, remembering where each
/// byte of the result came from.
#[derive(Default)]
pub(crate) struct Flat {
    pub text: String,
    /// Per byte of `text`: which piece, and the byte in that piece's decoded text.
    pub origin: Vec<(usize, usize)>,
    pending: bool,
}

impl Flat {
    pub fn push(&mut self, piece: usize, text: &str) {
        for (at, c) in text.char_indices() {
            if c.is_ascii_whitespace() {
                if !self.pending {
                    self.pending = true;
                    if !self.text.is_empty() {
                        self.text.push(' ');
                        self.origin.push((piece, at));
                    }
                }
                continue;
            }
            self.pending = false;
            let mut buf = [0u8; 4];
            for k in 0..c.encode_utf8(&mut buf).len() {
                self.origin.push((piece, at + k));
            }
            self.text.push(c);
        }
    }

    /// A boundary between blocks: reads as a space.
    pub fn brk(&mut self, piece: usize, at: usize) {
        if !self.pending && !self.text.is_empty() {
            self.text.push(' ');
            self.origin.push((piece, at));
        }
        self.pending = true;
    }

    /// The text, trimmed.
    pub fn finish(mut self) -> (String, Vec<(usize, usize)>) {
        while self.text.ends_with(' ') {
            self.text.pop();
            self.origin.pop();
        }
        (self.text, self.origin)
    }
}

/// Whitespace collapsed and trimmed.
pub(crate) fn collapse(s: &str) -> String {
    s.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_maps_back_to_whole_references() {
        let doc = "a&amp;b &#64;x &copy";
        let d = decode(doc, 0..doc.len(), true);
        assert_eq!(d.text, "a&b @x ©");
        let at = d.text.find('@').unwrap();
        let (src, wide) = d.source(at..at + 2);
        assert_eq!(&doc[src], "&#64;x");
        assert_eq!(wide, at..at + 2);
        let (src, _) = d.source(0..1);
        assert_eq!(&doc[src], "a");
    }

    #[test]
    fn flat_collapses_and_remembers_origins() {
        let mut f = Flat::default();
        f.push(0, "  Hello\n  ");
        f.brk(1, 0);
        f.push(1, "world ");
        let (text, origin) = f.finish();
        assert_eq!(text, "Hello world");
        assert_eq!(origin.len(), text.len());
        assert_eq!(origin[6], (1, 0));
    }
}
