//! What can stop a layout, and what to do about it.

use easel_core::{Diagnose, ErrorKind};

#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    #[error("node '{0}' does not exist")]
    NodeNotFound(String),
    #[error("'{0}' is not a group, so it has no members to lay out")]
    NotAGroup(String),
    #[error("there is nothing to lay out: {0}")]
    Nothing(String),
    #[error(
        "group '{group}' is pinned at {width}x{height} but its members need {need_width}x{need_height}"
    )]
    GroupTooSmall {
        group: String,
        width: f64,
        height: f64,
        need_width: f64,
        need_height: f64,
    },
    #[error("the layout could not be written into the canvas: {0}")]
    Canvas(#[from] easel_canvas::CanvasError),
}

impl Diagnose for LayoutError {
    fn kind(&self) -> ErrorKind {
        match self {
            LayoutError::NodeNotFound(_) => ErrorKind::NotFound,
            LayoutError::Canvas(_) => ErrorKind::Failure,
            _ => ErrorKind::Invalid,
        }
    }

    fn hint(&self) -> String {
        match self {
            LayoutError::NodeNotFound(_) => {
                "run `canvas_read` to see the node ids, and pass ids that exist".into()
            }
            LayoutError::NotAGroup(_) => {
                "pass the id of a group node, or use 'nodes' to lay out a selection".into()
            }
            LayoutError::Nothing(_) => {
                "lay out the whole canvas (no 'nodes' and no 'group'), or name nodes that have a position and size".into()
            }
            LayoutError::GroupTooSmall { .. } => {
                "unpin the group so the layout can grow it, or lay out fewer of its members".into()
            }
            LayoutError::Canvas(e) => e.hint(),
        }
    }
}
