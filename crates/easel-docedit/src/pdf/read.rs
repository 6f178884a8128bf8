//! Reading a PDF's pages into blocks with `pdf-extract`, every call guarded against panics.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use pdf_extract::{MediaBox, OutputDev, OutputError, Transform};

use super::layout::{self, Block, Glyph};
use crate::error::DocError;

/// Each page's blocks, in page order, and what the reader should know.
pub(super) struct Pages {
    pub pages: Vec<Vec<Block>>,
    pub warnings: Vec<String>,
}

/// Reads every page of the PDF in `bytes`.
pub(super) fn pages(bytes: &[u8]) -> Result<Pages, DocError> {
    if !bytes.starts_with(b"%PDF-") && !has_header_near_start(bytes) {
        return Err(pdf_error(if bytes.is_empty() {
            "the file is empty".to_string()
        } else {
            "the file does not start like a PDF (no `%PDF-` header): is it really one?".to_string()
        }));
    }
    let doc = guarded(|| pdf_extract::Document::load_mem(bytes))
        .map_err(|panic| pdf_error(format!("the PDF reader gave up on it ({panic})")))?
        .map_err(|e| pdf_error(format!("it is damaged or not a PDF ({e})")))?;
    if doc.is_encrypted() {
        return Err(pdf_error(
            "it is encrypted with a password; save an unprotected copy (for example with \
             `qpdf --decrypt --password=PASSWORD in.pdf out.pdf`) and import that"
                .to_string(),
        ));
    }
    let page_numbers: Vec<u32> = guarded(|| doc.get_pages().into_keys().collect())
        .map_err(|panic| pdf_error(format!("its page tree cannot be read ({panic})")))?;
    if page_numbers.is_empty() {
        return Err(pdf_error("it has no pages".to_string()));
    }

    let mut warnings = Vec::new();
    let mut empty = Vec::new();
    let mut pages: Vec<Vec<Block>> = Vec::with_capacity(page_numbers.len());
    let mut unreadable = 0;
    for (index, number) in page_numbers.iter().enumerate() {
        let shown = index + 1;
        let mut collector = Collector::default();
        let outcome = guarded(|| pdf_extract::output_doc_page(&doc, &mut collector, *number));
        let blocks = match outcome {
            Ok(Ok(())) => {
                let blocks = layout::blocks(&layout::lines(&collector.glyphs));
                if blocks.is_empty() {
                    empty.push(shown);
                } else if looks_garbled(&blocks) {
                    warnings.push(format!(
                        "page {shown}'s text looks garbled: its fonts may have no map to \
                         Unicode; check the HTML against the PDF"
                    ));
                }
                blocks
            }
            Ok(Err(e)) => {
                unreadable += 1;
                warnings.push(format!(
                    "page {shown} could not be read ({e}): its section is empty"
                ));
                Vec::new()
            }
            Err(panic) => {
                unreadable += 1;
                warnings.push(format!(
                    "page {shown} could not be read (the PDF reader gave up: {panic}): its section is empty"
                ));
                Vec::new()
            }
        };
        tracing::debug!(page = shown, blocks = blocks.len(), "pdf page read");
        pages.push(blocks);
    }
    if unreadable == page_numbers.len() {
        let first = warnings.first().map_or("", String::as_str);
        return Err(pdf_error(match page_numbers.len() {
            1 => format!("its only page could not be read: {first}"),
            n => format!("none of its {n} pages could be read: {first}, …"),
        }));
    }
    warnings.extend(empty_pages(&empty));
    Ok(Pages { pages, warnings })
}

/// One warning per run of pages without text: a scanned PDF of 200 pages gets one line, not 200.
fn empty_pages(pages: &[usize]) -> Vec<String> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &page in pages {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == page => *last = page,
            _ => runs.push((page, page)),
        }
    }
    runs.into_iter()
        .map(|(first, last)| {
            if first == last {
                format!("page {first} holds no text: is it a scanned image?")
            } else {
                format!("pages {first} to {last} hold no text: are they scanned images?")
            }
        })
        .collect()
}

/// Text where many characters are U+FFFD or private-use code points: what a font without a
/// Unicode map gives. Such a page is kept, since some of it may still read.
fn looks_garbled(blocks: &[Block]) -> bool {
    let (mut all, mut bad) = (0usize, 0usize);
    for c in blocks.iter().flat_map(|b| b.text.chars()) {
        if c.is_whitespace() {
            continue;
        }
        all += 1;
        let private = matches!(u32::from(c), 0xE000..=0xF8FF | 0xF0000..=0x10FFFF);
        if c == char::REPLACEMENT_CHARACTER || private {
            bad += 1;
        }
    }
    bad * 4 > all
}

/// PDF readers accept up to 1 KiB of junk before the header, and so do we.
fn has_header_near_start(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
}

fn pdf_error(message: String) -> DocError {
    DocError::Pdf { message }
}

thread_local! {
    /// Set while this thread runs the PDF reader under `guarded`.
    static IN_READER: Cell<bool> = const { Cell::new(false) };
}

static QUIET_HOOK: Once = Once::new();

/// Wraps the panic hook in place at the first import in one that stays silent about the PDF
/// reader's panics, which `guarded` turns into errors (they go to the debug log), and hands
/// every other panic, of any thread, to the previous hook as before. Without it a damaged PDF
/// printed "thread 'main' panicked at …" above its clean error.
fn quiet_reader_panics() {
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if IN_READER.with(Cell::get) {
                tracing::debug!(%info, "the PDF reader panicked; the import reports it");
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into its message.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    quiet_reader_panics();
    IN_READER.with(|flag| flag.set(true));
    let outcome = panic::catch_unwind(AssertUnwindSafe(f));
    IN_READER.with(|flag| flag.set(false));
    outcome.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "an internal error".to_string())
    })
}

/// Collects the glyphs of one page as `pdf-extract` draws them.
#[derive(Default)]
struct Collector {
    glyphs: Vec<Glyph>,
}

impl OutputDev for Collector {
    fn begin_page(
        &mut self,
        _page_num: u32,
        _media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.glyphs.clear();
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        text: &str,
    ) -> Result<(), OutputError> {
        // The text rendering matrix scales glyph space to the page: its determinant gives the
        // rendered size whatever mix of `Tf` size and `Tm` scale the producer chose.
        let scale = (trm.m11 * trm.m22 - trm.m12 * trm.m21).abs().sqrt();
        let stretch = trm.m11.hypot(trm.m12);
        self.glyphs.push(Glyph {
            x: trm.m31,
            y: trm.m32,
            advance: (width * font_size + spacing) * stretch,
            size: font_size.abs() * scale,
            text: text.to_string(),
        });
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(text: &str) -> Block {
        Block {
            text: text.into(),
            size: 10.0,
            chars: text.chars().count(),
        }
    }

    #[test]
    fn private_use_and_replacement_characters_make_a_page_look_garbled() {
        assert!(looks_garbled(&[block("\u{e001}\u{e002}\u{e003} ab")]));
        assert!(looks_garbled(&[block("ab \u{fffd}\u{fffd}")]));
        assert!(!looks_garbled(&[block(
            "Überweisung \u{fffd} an die Bäckerei"
        )]));
    }

    #[test]
    fn runs_of_empty_pages_make_one_warning_each() {
        assert_eq!(
            empty_pages(&[3, 5, 6, 7, 9]),
            [
                "page 3 holds no text: is it a scanned image?",
                "pages 5 to 7 hold no text: are they scanned images?",
                "page 9 holds no text: is it a scanned image?",
            ]
        );
        assert!(empty_pages(&[]).is_empty());
    }

    #[test]
    fn junk_before_the_header_is_allowed_but_not_too_much() {
        assert!(has_header_near_start(b"\r\n%PDF-1.4"));
        let mut far = vec![b' '; 2000];
        far.extend_from_slice(b"%PDF-1.4");
        assert!(!has_header_near_start(&far));
    }
}
