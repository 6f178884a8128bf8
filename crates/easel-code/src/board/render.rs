//! TEMPORARY until the views branch is merged.
use super::actions::Image;
use super::error::BoardError;
use super::state::State;
use crate::{Graph, Impact};
use std::path::Path;

fn missing() -> BoardError {
    BoardError::Damaged {
        path: "views".into(),
        reason: "views not merged yet".into(),
    }
}
pub(crate) fn architecture(_root: &Path, _g: &Graph) -> Result<Image, BoardError> {
    Err(missing())
}
pub(crate) fn impact(_root: &Path, _g: &Graph, _i: &Impact) -> Result<Image, BoardError> {
    Err(missing())
}
pub(crate) fn board(_root: &Path, _s: &State) -> Result<Image, BoardError> {
    Err(missing())
}
