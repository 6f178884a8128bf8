//! The views of each action, drawn by [`crate::views`] and written under `.codecanvas/`.

use super::actions::Image;
use super::error::BoardError;
use super::state::{DecisionKind, EvidenceKind, State};
use crate::views::{self, BoardCard, BoardView, EvidenceCard, View};
use crate::{Graph, Impact};
use std::path::Path;

/// The architecture view laid out, not yet rasterized (see [`views::Sketch`]).
pub(crate) fn architecture_sketch(graph: &Graph) -> Result<views::Sketch, BoardError> {
    Ok(views::architecture_sketch(graph)?)
}

/// Rasterizes a sketch and writes its files.
pub(crate) fn draw(root: &Path, sketch: views::Sketch) -> Result<Image, BoardError> {
    save(root, sketch.render()?)
}

pub(crate) fn impact(root: &Path, graph: &Graph, impact: &Impact) -> Result<Image, BoardError> {
    save(root, views::impact_view(graph, impact)?)
}

/// The evidence board, with the pictures of the newest evidence as thumbnails.
pub(crate) fn board(root: &Path, state: &State) -> Result<Image, BoardError> {
    // The board draws only the newest few pieces of evidence (six); reading the pictures of
    // older ones would only cost time.
    const DRAWN: usize = 6;
    let skip = state.evidence.len().saturating_sub(DRAWN);
    let shown = &state.evidence[skip..];
    let pngs: Vec<Option<Vec<u8>>> = shown
        .iter()
        .map(|e| {
            e.image
                .as_ref()
                .and_then(|p| std::fs::read(root.join(p)).ok())
        })
        .collect();
    let summaries: Vec<String> = shown.iter().map(summary).collect();
    let decision_texts: Vec<String> = state
        .decisions
        .iter()
        .map(|d| match (&d.symbol, d.kind) {
            (Some(s), DecisionKind::Mark | DecisionKind::Skip) => format!("{s}: {}", d.text),
            _ => d.text.clone(),
        })
        .collect();
    let view = BoardView {
        focus: state.focus.as_ref().map(|f| f.symbol.as_str()),
        progress: state.progress(),
        task: state.task.as_ref().map(|t| t.title.as_str()),
        claims: state
            .claims
            .iter()
            .map(|c| BoardCard {
                id: &c.id,
                kind: c.kind.name(),
                text: &c.text,
                evidence: c.evidence.as_deref(),
            })
            .collect(),
        evidence: shown
            .iter()
            .zip(&pngs)
            .zip(&summaries)
            .map(|((e, png), s)| EvidenceCard {
                id: &e.id,
                kind: match e.kind {
                    EvidenceKind::Architecture => "architecture",
                    EvidenceKind::Impact => "impact",
                },
                symbol: e.symbol.as_deref(),
                summary: s,
                png: png.as_deref(),
                png_path: e.image.as_deref(),
            })
            .collect(),
        decisions: state
            .decisions
            .iter()
            .zip(&decision_texts)
            .map(|(d, text)| BoardCard {
                id: &d.id,
                kind: d.kind.name(),
                text,
                evidence: d.evidence.as_deref(),
            })
            .collect(),
    };
    save(root, views::board_view(&view)?)
}

fn summary(e: &super::state::Evidence) -> String {
    let get = |k: &str| e.metrics.get(k).copied().unwrap_or(0);
    match e.kind {
        EvidenceKind::Architecture => format!(
            "{} files, {} functions, {} calls",
            get("files"),
            get("functions"),
            get("calls")
        ),
        EvidenceKind::Impact => format!(
            "{} callers, {} callees, blast radius {}",
            get("callers"),
            get("callees"),
            get("blast_radius")
        ),
    }
}

fn save(root: &Path, view: View) -> Result<Image, BoardError> {
    let files = views::write_view(root, &view)?;
    let path = files
        .png
        .strip_prefix(root)
        .unwrap_or(&files.png)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    Ok(Image {
        name: view.name,
        path,
        png: view.png,
    })
}
