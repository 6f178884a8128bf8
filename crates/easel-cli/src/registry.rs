//! The one registry of operations, assembled from every crate that exports some, and handed
//! to every front end (the shell's `easel op`, MCP, and the hand-shaped commands).

use easel_ops::Registry;
use std::sync::Arc;

/// Every operation the binary offers.
pub fn build() -> Registry {
    let models = Arc::new(easel_llm::ops::Models::default());
    let mut registry = build_for_agents(models.clone());
    // The document agent runs an agent of its own: not a tool for other agents.
    registry.register(easel_agent::doc_agent::DocEdit::new(models.clone()));
    // Agents get every operation above, but not these two: an agent reaches other agents
    // through its handoffs and agents as tools, bounded by its own permissions.
    easel_agent::register_run_ops(
        &mut registry,
        models,
        Arc::new(|ctx, registry, model| {
            easel_agent::load_runtime(ctx.vault(), registry, model)
                .map(|(rt, _)| rt)
                .map_err(|e| easel_ops::OpError::from_diagnose(&e))
        }),
    );
    registry
}

/// Every operation an agent may be given as a tool, sharing `models` (so the local model
/// loads once per process).
pub fn build_for_agents(models: Arc<easel_llm::ops::Models>) -> Registry {
    let mut registry = Registry::new();
    easel_ops::register(&mut registry);
    registry.register(easel_render::ops::CanvasRender);
    registry.register(easel_render::export::CanvasExport);
    registry
        .register(easel_llm::ops::LlmList::new(models.clone()))
        .register(easel_llm::ops::LlmAsk::new(models.clone()));
    easel_thread::register(&mut registry, models.clone());
    easel_docedit::ops::register(&mut registry, models);
    registry.register(easel_code::CodeCanvas::default());
    // Last: agent files are read against the names of every operation registered above.
    easel_agent::register_files_ops(&mut registry);
    registry
}
