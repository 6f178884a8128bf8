//! The answer node (DESIGN.md section 8.8): where it goes, what it says, and how it is written
//! while the answer streams in without losing edits made to the canvas meanwhile.

use easel_canvas::geometry::{Rect, slide_right_until_free};
use easel_canvas::json::{Map, Value};
use easel_canvas::{Canvas, CanvasError, IdGen, Node};
use easel_vault::canvas::{Actor, CanvasOpError, canvas_path};
use easel_vault::{Change, Expect, Vault, VaultError, VaultPath};
use std::time::{Duration, Instant};

/// Vertical gap between the question and its answer.
pub const ANSWER_GAP: f64 = 60.0;
/// Answers are at least this wide, so short questions do not get narrow, tall answers.
pub const MIN_ANSWER_WIDTH: f64 = 400.0;
/// Obsidian's yellow, used for answers; red for error cards.
pub const ANSWER_COLOR: &str = "3";
pub const ERROR_COLOR: &str = "1";
/// Streaming rewrites are at most this frequent (DESIGN.md section 8.8).
pub const REWRITE_INTERVAL: Duration = Duration::from_millis(250);

/// The text of an answer node: frontmatter that marks it as the model's, then the answer.
pub fn answer_text(model: &str, created: &str, answer: &str, partial: bool) -> String {
    let partial = if partial { "partial: true\n" } else { "" };
    format!("---\nrole: assistant\nmodel: {model}\ncreated: {created}\n{partial}---\n\n{answer}")
}

/// The text of an error card: skipped by the walker (`role: error`), readable by people.
pub fn error_text(model: &str, created: &str, error: &str, hint: &str) -> String {
    format!(
        "---\nrole: error\nmodel: {model}\ncreated: {created}\n---\n\n**Error:** {error}\n\n{hint}"
    )
}

/// A height that shows `text` at `width` in Obsidian's default font: about 8 px per character,
/// 24 px per line, plus padding. Never below 60.
pub fn fit_height(text: &str, width: f64) -> f64 {
    let per_line = ((width - 40.0) / 8.0).max(10.0) as usize;
    let lines: usize = text
        .lines()
        .map(|l| l.chars().count().div_ceil(per_line).max(1))
        .sum();
    (lines as f64 * 24.0 + 40.0).max(60.0).ceil()
}

/// The rectangle of a new answer to `target`: below it, at least 400 wide, moved right until it
/// overlaps no other node.
pub fn answer_rect(canvas: &Canvas, target: &Node, height: f64) -> Option<Rect> {
    let t = target.rect()?;
    let start = Rect::new(
        t.x,
        t.y + t.height + ANSWER_GAP,
        t.width.max(MIN_ANSWER_WIDTH),
        height,
    );
    let others = canvas.node_rects();
    Some(slide_right_until_free(start, &others, 10_000))
}

/// What went wrong while writing an answer.
#[derive(Debug, thiserror::Error)]
pub enum ResponseError {
    #[error(transparent)]
    Canvas(#[from] CanvasOpError),
    #[error("node '{0}' does not exist in this canvas")]
    TargetNotFound(String),
    #[error("node '{0}' has no valid position, so there is nowhere to put the answer")]
    NoGeometry(String),
    #[error("the answer node {0} was removed from the canvas while the answer was being written")]
    AnswerRemoved(String),
    /// The canvas could not be read for longer than a rewrite by another program takes, so the
    /// answer could not be written; the message carries the answer, so it is not lost.
    #[error(
        "the answer could not be written into node {node} because the canvas stayed unreadable ({reason}); the answer was:\n\n{answer}"
    )]
    Unreadable {
        node: String,
        reason: String,
        answer: String,
    },
}

impl From<VaultError> for ResponseError {
    fn from(e: VaultError) -> Self {
        ResponseError::Canvas(CanvasOpError::Vault(e))
    }
}

impl ResponseError {
    pub fn hint(&self) -> String {
        match self {
            ResponseError::Canvas(e) => e.hint(),
            ResponseError::TargetNotFound(_) => {
                "read the canvas to see its node ids (`canvas_read`)".into()
            }
            ResponseError::NoGeometry(_) => {
                "give the node x, y, width and height (`canvas_validate` shows what is missing)".into()
            }
            ResponseError::AnswerRemoved(_) => {
                "nothing else was changed; ask again to get a new answer".into()
            }
            ResponseError::Unreadable { .. } => {
                "check the canvas with `canvas_validate`, then ask again (the answer so far is in the message)".into()
            }
        }
    }

    pub fn kind(&self) -> easel_vault::ErrorKind {
        use easel_vault::ErrorKind;
        match self {
            ResponseError::Canvas(e) => e.kind(),
            ResponseError::TargetNotFound(_) => ErrorKind::NotFound,
            ResponseError::NoGeometry(_) | ResponseError::Unreadable { .. } => ErrorKind::Invalid,
            ResponseError::AnswerRemoved(_) => ErrorKind::Conflict,
        }
    }

    /// Whether the canvas could not be read as a canvas right now: missing, not text, not
    /// valid JSON. Programs that rewrite a file in place (truncate, then write) leave it like
    /// that for a moment, so this is a reason to try again rather than to give up.
    pub fn is_unreadable(&self) -> bool {
        matches!(
            self,
            ResponseError::Canvas(
                CanvasOpError::NotFound { .. }
                    | CanvasOpError::NotText { .. }
                    | CanvasOpError::Canvas {
                        source: CanvasError::Parse(_) | CanvasError::Shape(_),
                        ..
                    }
                    | CanvasOpError::Vault(VaultError::NotFound { .. })
            )
        )
    }
}

fn parse(p: &VaultPath, bytes: Option<&[u8]>) -> Result<Canvas, ResponseError> {
    let bytes = bytes.ok_or_else(|| CanvasOpError::NotFound {
        path: p.as_str().to_owned(),
    })?;
    let text = std::str::from_utf8(bytes).map_err(|_| CanvasOpError::NotText {
        path: p.as_str().to_owned(),
    })?;
    Canvas::parse(text).map_err(|source| canvas_error(p, source))
}

fn canvas_error(p: &VaultPath, source: CanvasError) -> ResponseError {
    ResponseError::Canvas(CanvasOpError::Canvas {
        path: p.as_str().to_owned(),
        source,
    })
}

/// How long the last write of an answer keeps trying while the canvas cannot be read. A program
/// rewriting the file in place is done within milliseconds; a canvas still broken after this
/// is broken for good.
pub const UNREADABLE_PATIENCE: Duration = Duration::from_secs(10);
/// The pause between two tries of a last write.
const RETRY_PAUSE: Duration = Duration::from_millis(50);

/// Writes one answer into a canvas as it streams in.
///
/// Every write re-reads the canvas under the vault's lock and changes only the answer node's
/// text and height, so nodes added or moved meanwhile (in Obsidian, by another agent) are kept.
///
/// The node carries `partial: true` from its first write until the complete answer replaces it,
/// so an answer cut short by a crash or a kill says so. The node's creation and the streamed
/// rewrites are drafts ([`Vault::modify_draft`]): the ledger gets one entry per answer, written
/// at the end, whose undo removes the answer node and its edges from the canvas as it is then,
/// keeping everything else that changed meanwhile.
pub struct ResponseWriter<'v> {
    vault: &'v Vault,
    path: VaultPath,
    actor: Actor,
    run: String,
    model: String,
    created: String,
    target: String,
    node_id: String,
    edge_id: String,
    last_write: Instant,
    interval: Duration,
    patience: Duration,
    written: String,
}

impl<'v> ResponseWriter<'v> {
    /// Creates the (empty, `partial`) answer node below `target` and the edge to it, in one
    /// write. The answer's ledger entry belongs to the actor's run, or to a new run of its own.
    pub fn start(
        vault: &'v Vault,
        actor: &Actor,
        canvas: &str,
        target: &str,
        model: &str,
    ) -> Result<ResponseWriter<'v>, ResponseError> {
        let path = canvas_path(vault, canvas, true)?;
        let created = jiff::Timestamp::now()
            .round(jiff::Unit::Second)
            .unwrap_or_else(|_| jiff::Timestamp::now())
            .to_string();
        let text = answer_text(model, &created, "", true);
        let (node_id, edge_id) = vault.modify_draft(&path, |bytes| {
            let mut c = parse(&path, bytes)?;
            let t = c
                .node(target)
                .ok_or_else(|| ResponseError::TargetNotFound(target.to_owned()))?;
            let rect = answer_rect(&c, t, 60.0)
                .ok_or_else(|| ResponseError::NoGeometry(target.to_owned()))?;
            let mut ids = IdGen::new();
            let mut node = Map::new();
            node.insert("type", Value::from("text"));
            node.insert("text", Value::from(text.as_str()));
            node.insert("x", Value::from(rect.x));
            node.insert("y", Value::from(rect.y));
            node.insert("width", Value::from(rect.width));
            node.insert("height", Value::from(rect.height));
            node.insert("color", Value::from(ANSWER_COLOR));
            let node_id = c
                .add_node(node, &mut ids)
                .map_err(|e| canvas_error(&path, e))?
                .id()
                .to_owned();
            let mut edge = Map::new();
            edge.insert("fromNode", Value::from(target));
            edge.insert("fromSide", Value::from("bottom"));
            edge.insert("toNode", Value::from(node_id.as_str()));
            edge.insert("toSide", Value::from("top"));
            let edge_id = c
                .add_edge(edge, &mut ids)
                .map_err(|e| canvas_error(&path, e))?
                .id()
                .to_owned();
            Ok::<_, ResponseError>((c.to_obsidian_string().into_bytes(), (node_id, edge_id)))
        })?;
        Ok(ResponseWriter {
            vault,
            path,
            run: actor
                .run
                .clone()
                .unwrap_or_else(|| easel_core::RunId::new().as_str().to_owned()),
            actor: actor.clone(),
            model: model.to_owned(),
            created,
            target: target.to_owned(),
            node_id,
            edge_id,
            last_write: Instant::now(),
            interval: REWRITE_INTERVAL,
            patience: UNREADABLE_PATIENCE,
            written: String::new(),
        })
    }

    /// Changes how often [`ResponseWriter::update`] may rewrite the canvas.
    pub fn with_interval(mut self, interval: Duration) -> ResponseWriter<'v> {
        self.interval = interval;
        self
    }

    /// Changes how long the last write waits for a canvas that cannot be read.
    pub fn with_patience(mut self, patience: Duration) -> ResponseWriter<'v> {
        self.patience = patience;
        self
    }

    pub fn node_id(&self) -> &str {
        &self.node_id
    }

    pub fn edge_id(&self) -> &str {
        &self.edge_id
    }

    pub fn path(&self) -> &str {
        self.path.as_str()
    }

    /// The run the answer's ledger entry belongs to (`easel undo --run RUN` takes it back).
    pub fn run(&self) -> &str {
        &self.run
    }

    /// Shows the answer so far (still marked `partial`), unless the last write was less than
    /// the interval (250 ms) ago or nothing changed. A canvas that cannot be read right now
    /// (another program is rewriting it) is skipped until the next tick.
    /// Returns whether it wrote.
    pub fn update(&mut self, answer_so_far: &str) -> Result<bool, ResponseError> {
        if self.last_write.elapsed() < self.interval || answer_so_far == self.written {
            return Ok(false);
        }
        let text = answer_text(&self.model, &self.created, answer_so_far, true);
        let node_id = self.node_id.clone();
        let written = self.vault.modify_draft(&self.path, |bytes| {
            let c = with_answer(&self.path, bytes, &node_id, &text, None)?;
            Ok::<_, ResponseError>((c.to_obsidian_string().into_bytes(), ()))
        });
        self.last_write = Instant::now();
        match written {
            Ok(()) => {
                self.written = answer_so_far.to_owned();
                Ok(true)
            }
            Err(e) if e.is_unreadable() => {
                tracing::debug!(canvas = %self.path, error = %e, "canvas unreadable for now; the answer is written on the next tick");
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Writes the complete answer (and drops the `partial` mark).
    pub fn finish(self, answer: &str) -> Result<(), ResponseError> {
        let text = answer_text(&self.model, &self.created, answer, false);
        self.record(&text, None, "answer", answer)
    }

    /// Keeps what arrived before a cancel, marked `partial: true`.
    pub fn cancel(self, partial_answer: &str) -> Result<(), ResponseError> {
        let text = answer_text(&self.model, &self.created, partial_answer, true);
        self.record(&text, None, "partial answer", partial_answer)
    }

    /// Turns the answer node into an error card.
    pub fn fail(self, error: &str, hint: &str) -> Result<(), ResponseError> {
        let text = error_text(&self.model, &self.created, error, hint);
        self.record(&text, Some(ERROR_COLOR), "error card", error)
    }

    /// The last write, recorded in the ledger as the whole answer. Tries again while the canvas
    /// cannot be read, for up to the patience.
    fn record(
        self,
        text: &str,
        color: Option<&str>,
        what: &str,
        answer: &str,
    ) -> Result<(), ResponseError> {
        let change = Change::new(
            self.actor.name.clone(),
            "thread.answer",
            format!(
                "{what} to node {} in node {} of {}",
                self.target,
                self.node_id,
                self.path.as_str()
            ),
        )
        .with_run(self.run.clone());
        let started = Instant::now();
        loop {
            let result =
                self.vault
                    .modify_with_undo(&self.path, Expect::Present, &change, |bytes| {
                        let with = with_answer(&self.path, bytes, &self.node_id, text, color)?;
                        let mut without = with.clone();
                        without
                            .remove_node(&self.node_id)
                            .map_err(|e| canvas_error(&self.path, e))?;
                        Ok::<_, ResponseError>((
                            with.to_obsidian_string().into_bytes(),
                            Some(without.to_obsidian_string().into_bytes()),
                            (),
                        ))
                    });
            match result {
                Ok(_) => return Ok(()),
                Err(e) if e.is_unreadable() && started.elapsed() < self.patience => {
                    tracing::debug!(canvas = %self.path, error = %e, "canvas unreadable for now; trying the last write again");
                    std::thread::sleep(RETRY_PAUSE);
                }
                Err(e) if e.is_unreadable() => {
                    return Err(ResponseError::Unreadable {
                        node: self.node_id.clone(),
                        reason: e.to_string(),
                        answer: answer.to_owned(),
                    });
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// The canvas in `bytes` with the answer node's text set to `text` (and its colour, when
/// given), grown to fit but never shrunk below what a person may have resized it to.
fn with_answer(
    path: &VaultPath,
    bytes: Option<&[u8]>,
    node_id: &str,
    text: &str,
    color: Option<&str>,
) -> Result<Canvas, ResponseError> {
    let mut c = parse(path, bytes)?;
    let node = c
        .node(node_id)
        .ok_or_else(|| ResponseError::AnswerRemoved(node_id.to_owned()))?;
    let width = node.rect().map_or(MIN_ANSWER_WIDTH, |r| r.width);
    let current = node.rect().map_or(0.0, |r| r.height);
    let mut patch = Map::new();
    patch.insert("text", Value::from(text));
    let wanted = fit_height(text, width);
    if wanted > current {
        patch.insert("height", Value::from(wanted));
    }
    if let Some(color) = color {
        patch.insert("color", Value::from(color));
    }
    c.update_node(node_id, &patch)
        .map_err(|e| canvas_error(path, e))?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_text_carries_role_model_and_time() {
        assert_eq!(
            answer_text("local:smollm2", "2026-11-22T03:00:00Z", "Four.", false),
            "---\nrole: assistant\nmodel: local:smollm2\ncreated: 2026-11-22T03:00:00Z\n---\n\nFour."
        );
        assert!(answer_text("m", "t", "Fo", true).contains("\npartial: true\n---"));
        assert!(error_text("m", "t", "timed out", "try again").starts_with("---\nrole: error\n"));
    }

    #[test]
    fn heights_grow_with_text() {
        assert_eq!(fit_height("short", 400.0), 64.0);
        let long = "word ".repeat(200);
        assert!(fit_height(&long, 400.0) > fit_height("short", 400.0) * 5.0);
        assert!(fit_height(&long, 800.0) < fit_height(&long, 400.0));
    }

    #[test]
    fn answers_go_below_and_slide_right_past_other_nodes() {
        let c = Canvas::parse(r#"{"nodes":[
            {"id":"t","type":"text","text":"q","x":0,"y":0,"width":250,"height":100},
            {"id":"a1","type":"text","text":"first answer","x":0,"y":160,"width":400,"height":200}]}"#)
        .unwrap();
        let r = answer_rect(&c, c.node("t").unwrap(), 100.0).unwrap();
        assert_eq!((r.y, r.width, r.height), (160.0, 400.0, 100.0));
        assert!(r.x >= 440.0, "{r:?}");
        assert!(!r.overlaps(&c.node("a1").unwrap().rect().unwrap()));
    }
}
