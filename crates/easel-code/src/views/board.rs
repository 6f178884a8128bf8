//! The evidence board of a task: a header with the task, the focus and a progress bar, then
//! three columns — claims, evidence (with thumbnails of the pictures), decisions — and arrows
//! from each claim or decision to the evidence it rests on.
//!
//! The board is given as plain data ([`BoardView`]); where the board state lives and how it
//! changes is the caller's business.

use super::canvas_file::CanvasFile;
use super::drawing::{Drawing, Picture, Rect, line};
use super::style::{self, INK, MUTED, PAD};
use super::{PNG_SCALE, View, count, finish};
use crate::error::CodeError;
use easel_canvas::Side;
use std::collections::HashMap;

/// Cards shown per column, newest kept; older ones are counted.
pub const MAX_CARDS: usize = 12;
/// Evidence cards shown, newest kept.
pub const MAX_EVIDENCE: usize = 6;
const SIDE_W: f32 = 300.0;
const MIDDLE_W: f32 = 330.0;
const COLUMN_GAP: f32 = 48.0;
const MARGIN: f32 = 24.0;
const THUMB_H: f32 = 190.0;
const CARD_GAP: f32 = 12.0;
const TEXT_LINES: usize = 8;
const SUMMARY_LINES: usize = 4;

/// What the board shows. Lists are oldest first.
#[derive(Clone, Debug, Default)]
pub struct BoardView<'a> {
    /// The symbol being analysed.
    pub focus: Option<&'a str>,
    /// Affected nodes addressed, out of how many.
    pub progress: Option<(usize, usize)>,
    pub task: Option<&'a str>,
    pub claims: Vec<BoardCard<'a>>,
    pub evidence: Vec<EvidenceCard<'a>>,
    pub decisions: Vec<BoardCard<'a>>,
}

/// A claim or a decision.
#[derive(Clone, Debug)]
pub struct BoardCard<'a> {
    /// `C1`, `D2`, ...
    pub id: &'a str,
    /// `hypothesis`, `finding`, `question`; `plan`, `test`, `edit`, `mark`, `skip`.
    pub kind: &'a str,
    pub text: &'a str,
    /// The evidence it links to (`E2`).
    pub evidence: Option<&'a str>,
}

/// A piece of evidence: a picture made by a view.
#[derive(Clone, Debug)]
pub struct EvidenceCard<'a> {
    /// `E1`, ...
    pub id: &'a str,
    /// `architecture` or `impact`.
    pub kind: &'a str,
    pub symbol: Option<&'a str>,
    pub summary: &'a str,
    /// The picture to show as a thumbnail; `None` draws a text card.
    pub png: Option<&'a [u8]>,
    /// The picture's path relative to the repository root, for the `.canvas` file node.
    pub png_path: Option<&'a str>,
}

/// The newest `max` of `items`, and how many older ones were left out.
fn newest<T>(items: &[T], max: usize) -> (&[T], usize) {
    let skip = items.len().saturating_sub(max);
    (&items[skip..], skip)
}

struct Placed {
    key: String,
    rect: Rect,
    /// The canvas text of the card.
    text: String,
    color: Option<&'static str>,
    /// For evidence: the header, the thumbnail's rect and its file, the summary's rect.
    picture: Option<(String, Rect, String, Rect, String)>,
}

/// Draws a text card at `top` in `column`; returns its rect.
#[allow(clippy::too_many_arguments)]
fn text_card(
    d: &mut Drawing,
    column: usize,
    x: f32,
    top: f32,
    w: f32,
    head: &str,
    head_color: &'static str,
    body: &str,
    foot: Option<String>,
) -> Rect {
    let inner = w - 2.0 * PAD;
    let lines = style::BODY.wrap(body, inner, TEXT_LINES);
    let h = 2.0 * PAD
        + line(style::SMALL_BOLD)
        + 2.0
        + lines.len() as f32 * line(style::BODY)
        + foot.as_ref().map_or(0.0, |_| 2.0 + line(style::SMALL));
    let rect = Rect::new(x, top, w, h);
    let f = d.frame(rect, Some(column), style::card());
    let mut y = d.text(
        Some(f),
        x + PAD,
        top + PAD,
        head,
        style::SMALL_BOLD,
        head_color,
        inner,
    ) + 2.0;
    for l in &lines {
        y = d.text(Some(f), x + PAD, y, l, style::BODY, INK, inner);
    }
    if let Some(foot) = foot {
        d.text(Some(f), x + PAD, y + 2.0, &foot, style::SMALL, MUTED, inner);
    }
    rect
}

fn card_head(c: &BoardCard) -> String {
    if c.kind.is_empty() {
        c.id.to_owned()
    } else {
        format!("{} · {}", c.id, c.kind)
    }
}

fn evidence_head(e: &EvidenceCard) -> String {
    let mut head = format!("{} · {}", e.id, e.kind);
    if let Some(s) = e.symbol {
        head.push_str(" · ");
        head.push_str(s);
    }
    head
}

/// Draws the evidence board.
pub fn board_view(board: &BoardView) -> Result<View, CodeError> {
    let (drawing, canvas, summary) = board_drawing(board)?;
    finish("board".to_owned(), &drawing, canvas, summary)
}

pub(crate) fn board_drawing(board: &BoardView) -> Result<(Drawing, String, String), CodeError> {
    let width = 2.0 * MARGIN + 2.0 * SIDE_W + MIDDLE_W + 2.0 * COLUMN_GAP;
    let full = width - 2.0 * MARGIN;
    // A generous height first; trimmed to the content at the end.
    let mut d = Drawing {
        width,
        height: f32::MAX / 4.0,
        ..Drawing::default()
    };
    let mut y = d.text(
        None,
        MARGIN,
        MARGIN,
        "Evidence board",
        style::TITLE,
        INK,
        full,
    );
    if let Some(task) = board.task {
        for l in style::BODY.wrap(&format!("Task: {task}"), full, 2) {
            y = d.text(None, MARGIN, y, &l, style::BODY, INK, full);
        }
    }
    let focus = board
        .focus
        .map_or("Focus: none yet (run impact on a symbol)".to_owned(), |f| {
            format!("Focus: {f}")
        });
    y = d.text(None, MARGIN, y, &focus, style::BODY, INK, full);
    let mut progress_text = None;
    if let Some((done, total)) = board.progress {
        let bar = Rect::new(MARGIN, y + 4.0, 240.0, 12.0);
        let back = d.frame(bar, None, style::bar_back());
        let share = if total == 0 {
            0.0
        } else {
            (done.min(total) as f32) / total as f32
        };
        if share > 0.0 {
            d.frame(
                Rect::new(bar.x, bar.y, bar.w * share, bar.h),
                Some(back),
                style::bar_fill(),
            );
        }
        let text = format!("{done}/{total} affected nodes addressed");
        d.text(
            None,
            bar.right() + 10.0,
            y,
            &text,
            style::BODY,
            INK,
            full - bar.w - 10.0,
        );
        y += line(style::BODY) + 4.0;
        progress_text = Some(text);
    }
    let header_bottom = y;
    let columns_top = y + 14.0;

    let xs = [
        MARGIN,
        MARGIN + SIDE_W + COLUMN_GAP,
        MARGIN + SIDE_W + MIDDLE_W + 2.0 * COLUMN_GAP,
    ];
    let widths = [SIDE_W, MIDDLE_W, SIDE_W];
    let (claims, old_claims) = newest(&board.claims, MAX_CARDS);
    let (evidence, old_evidence) = newest(&board.evidence, MAX_EVIDENCE);
    let (decisions, old_decisions) = newest(&board.decisions, MAX_CARDS);
    let titles = [
        format!("Claims ({})", board.claims.len()),
        format!("Evidence ({})", board.evidence.len()),
        format!("Decisions ({})", board.decisions.len()),
    ];
    let olds = [old_claims, old_evidence, old_decisions];
    // Columns are drawn with a provisional height and stretched to the tallest afterwards.
    let mut cols = [0usize; 3];
    let mut tops = [0.0f32; 3];
    for k in 0..3 {
        cols[k] = d.frame(
            Rect::new(xs[k], columns_top, widths[k], f32::MAX / 8.0),
            None,
            style::column(),
        );
        let inner = widths[k] - 2.0 * PAD;
        let mut y = d.text(
            Some(cols[k]),
            xs[k] + PAD,
            columns_top + PAD,
            &titles[k],
            style::HEADING,
            INK,
            inner,
        );
        if olds[k] > 0 {
            y = d.text(
                Some(cols[k]),
                xs[k] + PAD,
                y,
                &format!("+{} earlier, not shown", olds[k]),
                style::SMALL,
                MUTED,
                inner,
            );
        }
        tops[k] = y + 6.0;
    }

    let mut placed: Vec<Placed> = Vec::new();
    let mut where_is: HashMap<&str, Rect> = HashMap::new();
    let card_w = |k: usize| widths[k] - 2.0 * PAD;
    // Claims fill the left column and decisions the right one, with the same card.
    for (col, prefix, cards) in [(0, "claim", claims), (2, "decision", decisions)] {
        for c in cards {
            let foot = c.evidence.map(|e| format!("rests on {e}"));
            let r = text_card(
                &mut d,
                cols[col],
                xs[col] + PAD,
                tops[col],
                card_w(col),
                &card_head(c),
                style::kind_color(c.kind),
                c.text,
                foot.clone(),
            );
            tops[col] = r.bottom() + CARD_GAP;
            placed.push(Placed {
                key: format!("{prefix}:{}", c.id),
                rect: r,
                text: format!(
                    "**{}**\n\n{}{}",
                    card_head(c),
                    c.text,
                    foot.map_or(String::new(), |f| format!("\n\n_{f}_"))
                ),
                color: style::kind_preset(c.kind),
                picture: None,
            });
        }
    }
    // Architecture evidence of successive inits shows the same picture file: each distinct
    // picture is decoded and shrunk once (a large view takes ~30 ms to decode).
    let mut thumbs: Vec<(&[u8], Result<easel_render::Thumbnail, String>)> = Vec::new();
    for e in evidence {
        let inner = card_w(1) - 2.0 * PAD;
        let (x, top) = (xs[1] + PAD, tops[1]);
        let head = evidence_head(e);
        let thumb = e.png.map(|png| {
            if let Some((_, t)) = thumbs.iter().find(|(p, _)| *p == png) {
                return t.clone();
            }
            let t = easel_render::thumbnail(png, inner, THUMB_H, PNG_SCALE)
                .map_err(|err| err.to_string());
            thumbs.push((png, t.clone()));
            t
        });
        let summary_lines = style::SMALL.wrap(e.summary, inner, SUMMARY_LINES);
        let mut note = None;
        let thumb = match thumb {
            Some(Ok(t)) => Some(t),
            Some(Err(err)) => {
                note = Some(format!("picture unreadable: {err}"));
                None
            }
            None => None,
        };
        let thumb_h = thumb.as_ref().map_or(0.0, |t| t.height + 6.0);
        let h = 2.0 * PAD
            + line(style::SMALL_BOLD)
            + 4.0
            + thumb_h
            + note.as_ref().map_or(0.0, |_| line(style::SMALL))
            + summary_lines.len() as f32 * line(style::SMALL);
        let rect = Rect::new(x, top, card_w(1), h);
        let f = d.frame(rect, Some(cols[1]), style::card());
        let mut y = d.text(
            Some(f),
            x + PAD,
            top + PAD,
            &head,
            style::SMALL_BOLD,
            INK,
            inner,
        ) + 4.0;
        let mut picture = None;
        if let Some(t) = thumb {
            let r = Rect::new(x + PAD + (inner - t.width) / 2.0, y, t.width, t.height);
            d.pictures.push(Picture {
                rect: r,
                owner: Some(f),
                png: t.png,
            });
            picture = Some(r);
            y += t.height + 6.0;
        }
        if let Some(n) = &note {
            y = d.text(Some(f), x + PAD, y, n, style::SMALL, style::ACCENT, inner);
        }
        let summary_top = y;
        for l in &summary_lines {
            y = d.text(Some(f), x + PAD, y, l, style::SMALL, INK, inner);
        }
        tops[1] = rect.bottom() + CARD_GAP;
        let picture = match (picture, e.png_path) {
            (Some(r), Some(path)) => Some((
                head.clone(),
                r,
                path.to_owned(),
                Rect::new(
                    x + PAD,
                    summary_top,
                    inner,
                    (y - summary_top).max(line(style::SMALL)),
                ),
                e.summary.to_owned(),
            )),
            _ => None,
        };
        placed.push(Placed {
            key: format!("evidence:{}", e.id),
            rect,
            text: format!("**{head}**\n\n{}", e.summary),
            color: None,
            picture,
        });
        where_is.insert(e.id, rect);
    }
    let bottom = tops.iter().copied().fold(columns_top + 60.0, f32::max) - CARD_GAP + PAD;
    for &c in &cols {
        d.frames[c].rect.h = bottom - columns_top;
    }
    d.height = (bottom + MARGIN).ceil();

    // Arrows from claims (left of the evidence) and decisions (right of it) to their evidence.
    let mut links = Vec::new();
    for (c, from_left) in claims
        .iter()
        .map(|c| (c, true))
        .chain(decisions.iter().map(|c| (c, false)))
    {
        let Some(e) = c.evidence else { continue };
        let Some(target) = where_is.get(e) else {
            continue;
        };
        let key = if from_left {
            format!("claim:{}", c.id)
        } else {
            format!("decision:{}", c.id)
        };
        let Some(from) = placed.iter().find(|p| p.key == key) else {
            continue;
        };
        let r = from.rect;
        let (start, end) = if from_left {
            ((r.right(), r.y + r.h / 2.0), (target.x, target.y + 16.0))
        } else {
            ((r.x, r.y + r.h / 2.0), (target.right(), target.y + 16.0))
        };
        d.arrow(vec![start, end], style::ARROW, 1.3);
        links.push((key, format!("evidence:{e}"), from_left));
    }

    let summary = format!(
        "{}, {}, {}{}",
        count(board.claims.len(), "claim", "claims"),
        count(
            board.evidence.len(),
            "piece of evidence",
            "pieces of evidence"
        ),
        count(board.decisions.len(), "decision", "decisions"),
        board
            .focus
            .map_or(String::new(), |f| format!("; focus {f}"))
    );

    let mut c = CanvasFile::new("board");
    let mut head = String::from("## Evidence board");
    if let Some(task) = board.task {
        head.push_str(&format!("\nTask: {task}"));
    }
    head.push_str(&format!("\n{focus}"));
    if let Some(p) = &progress_text {
        head.push_str(&format!("\nProgress: {p}"));
    }
    c.text(
        "header",
        Rect::new(MARGIN, MARGIN, full, header_bottom - MARGIN),
        &head,
        None,
    )?;
    for k in 0..3 {
        c.group(&titles[k], d.frames[cols[k]].rect, &titles[k])?;
    }
    let mut ids: HashMap<String, String> = HashMap::new();
    for p in &placed {
        let id = match &p.picture {
            Some((head, thumb, path, summary_rect, summary)) => {
                c.group(&p.key, p.rect, head)?;
                c.text(&format!("{}:summary", p.key), *summary_rect, summary, None)?;
                c.file(&p.key, *thumb, path)?
            }
            None => c.text(&p.key, p.rect, &p.text, p.color)?,
        };
        ids.insert(p.key.clone(), id);
    }
    for (from, to, from_left) in links {
        if let (Some(a), Some(b)) = (ids.get(&from), ids.get(&to)) {
            let (fs, ts) = if from_left {
                (Side::Right, Side::Left)
            } else {
                (Side::Left, Side::Right)
            };
            let (a, b) = (a.clone(), b.clone());
            c.edge(&a, Some(fs), &b, Some(ts), None)?;
        }
    }
    Ok((d, c.finish(), summary))
}
