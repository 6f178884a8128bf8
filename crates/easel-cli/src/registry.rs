//! The one registry of operations, assembled from every crate that exports some, and handed
//! to every front end (the shell's `easel op`, MCP, and the hand-shaped commands).

use easel_ops::Registry;

/// Every operation the binary offers.
pub fn build() -> Registry {
    let mut registry = Registry::new();
    easel_ops::register(&mut registry);
    registry.register(easel_render::ops::CanvasRender);
    registry.register(easel_render::export::CanvasExport);
    easel_llm::ops::register(&mut registry);
    registry.register(easel_code::CodeCanvas::default());
    registry
}
