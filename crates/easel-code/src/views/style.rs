//! The views' type sizes and colours, in one place so the three pictures look like one set.

use super::drawing::Look;
use easel_render::TextStyle;

pub(crate) const TITLE: TextStyle = TextStyle::bold(18.0);
pub(crate) const HEADING: TextStyle = TextStyle::bold(14.0);
pub(crate) const NAME: TextStyle = TextStyle::bold(12.0);
pub(crate) const BODY: TextStyle = TextStyle::regular(12.0);
pub(crate) const SMALL: TextStyle = TextStyle::regular(11.0);
pub(crate) const SMALL_BOLD: TextStyle = TextStyle::bold(11.0);

pub(crate) const INK: &str = "#1d2330";
pub(crate) const MUTED: &str = "#5b6475";
pub(crate) const ACCENT: &str = "#b4233c";
pub(crate) const ARROW: &str = "#6b7388";
pub(crate) const CALL_ARROW: &str = "#3a5bc7";

/// Space between a frame's border and its content.
pub(crate) const PAD: f32 = 10.0;

pub(crate) fn district() -> Look {
    Look {
        fill: "#f1f3f8",
        stroke: "#9aa3b8",
        stroke_width: 1.2,
        dashed: true,
        radius: 10.0,
    }
}

pub(crate) fn module() -> Look {
    Look {
        fill: "#eef3ff",
        stroke: "#3a5bc7",
        stroke_width: 1.5,
        dashed: false,
        radius: 6.0,
    }
}

/// A module many others import: thicker and warmer, so it is found at a glance.
pub(crate) fn hub() -> Look {
    Look {
        fill: "#fff1f1",
        stroke: ACCENT,
        stroke_width: 3.0,
        dashed: false,
        radius: 6.0,
    }
}

pub(crate) fn class() -> Look {
    Look {
        fill: "#fff7e6",
        stroke: "#c98a1b",
        stroke_width: 1.2,
        dashed: false,
        radius: 4.0,
    }
}

pub(crate) fn neighbor() -> Look {
    Look {
        fill: "#ffffff",
        stroke: "#3a5bc7",
        stroke_width: 1.5,
        dashed: false,
        radius: 6.0,
    }
}

/// Boxes that stand for several symbols ("+12 more").
pub(crate) fn aggregate() -> Look {
    Look {
        fill: "#f4f5f8",
        stroke: "#7a8296",
        stroke_width: 1.2,
        dashed: true,
        radius: 6.0,
    }
}

pub(crate) fn target() -> Look {
    Look {
        fill: "#fff1f1",
        stroke: ACCENT,
        stroke_width: 3.0,
        dashed: false,
        radius: 8.0,
    }
}

pub(crate) fn column() -> Look {
    Look {
        fill: "#f1f3f8",
        stroke: "#c3c9d6",
        stroke_width: 1.0,
        dashed: false,
        radius: 10.0,
    }
}

pub(crate) fn card() -> Look {
    Look {
        fill: "#ffffff",
        stroke: "#9aa3b8",
        stroke_width: 1.2,
        dashed: false,
        radius: 6.0,
    }
}

pub(crate) fn bar_back() -> Look {
    Look {
        fill: "#e3e6ee",
        stroke: "#c3c9d6",
        stroke_width: 1.0,
        dashed: false,
        radius: 4.0,
    }
}

pub(crate) fn bar_fill() -> Look {
    Look {
        fill: "#2f9e5b",
        stroke: "#2f9e5b",
        stroke_width: 1.0,
        dashed: false,
        radius: 4.0,
    }
}

/// A colour per claim or decision kind, shared by the picture and the `.canvas` file.
pub(crate) fn kind_color(kind: &str) -> &'static str {
    match kind {
        "hypothesis" => "#b26b00",
        "finding" => "#2f7d4f",
        "question" => "#7048c8",
        "plan" => "#3a5bc7",
        "test" => "#0f7f8c",
        "edit" => "#b4233c",
        "mark" => "#2f9e5b",
        "skip" => "#7a8296",
        _ => INK,
    }
}

/// The Obsidian preset colour (`"1"`..`"6"`) nearest to [`kind_color`].
pub(crate) fn kind_preset(kind: &str) -> Option<&'static str> {
    match kind {
        "hypothesis" => Some("2"),
        "finding" | "mark" => Some("4"),
        "question" => Some("6"),
        "plan" | "test" => Some("5"),
        "edit" => Some("1"),
        _ => None,
    }
}
