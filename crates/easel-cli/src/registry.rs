//! The one registry of operations, assembled from every crate that exports some, and handed
//! to every front end (the shell's `easel op`, MCP, and the hand-shaped commands).

use easel_ops::Registry;

/// Every operation the binary offers.
pub fn build() -> Registry {
    let mut registry = Registry::new();
    easel_ops::register(&mut registry);
    registry.register(easel_render::ops::CanvasRender);
    registry.register(easel_render::export::CanvasExport);
    // One model client for every operation that calls a model, so the local model loads once.
    let models = std::sync::Arc::new(easel_llm::ops::Models::default());
    registry
        .register(easel_llm::ops::LlmList::new(models.clone()))
        .register(easel_llm::ops::LlmAsk::new(models.clone()));
    easel_thread::register(&mut registry, models);
    registry.register(easel_code::CodeCanvas::default());
    // Last: agent files are read against the names of every operation registered above.
    easel_agent::register_files_ops(&mut registry);
    registry
}
