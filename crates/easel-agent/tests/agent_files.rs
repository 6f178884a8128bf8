//! The agent files users already have, read unchanged from a fixture vault: Claude Code's,
//! VS Code's and OpenCode's next to Easel's own, with every problem and warning asserted.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use easel_agent::{Agent, AgentFormat, Decision, Handoff, LoadReport, load_agents, parse_agent};
use std::path::Path;

/// The operations the binary registers that these files name.
const OPS: &[&str] = &[
    "note_read",
    "note_write",
    "note_edit",
    "note_append",
    "vault_search",
    "vault_list",
    "canvas_add_node",
];

fn is_op(name: &str) -> bool {
    OPS.contains(&name)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn fixture_vault() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vault");
    copy_dir(&fixtures, dir.path());
    dir
}

fn agent<'a>(report: &'a LoadReport, name: &str) -> &'a Agent {
    report
        .get(name)
        .unwrap_or_else(|| panic!("no agent {name}: {:?}", report.names()))
}

fn load() -> LoadReport {
    let dir = fixture_vault();
    load_agents(dir.path(), &is_op)
}

#[test]
fn every_format_loads_and_broken_files_are_problems_with_their_reason() {
    let report = load();
    assert_eq!(
        report.names(),
        [
            "code-reviewer",
            "docs-writer",
            "Implementer",
            "plan",
            "researcher",
            "review",
            "writer"
        ]
    );
    let problems: Vec<(&str, &str)> = report
        .problems
        .iter()
        .map(|p| (p.path.as_str(), p.reason.as_str()))
        .collect();
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert_eq!(problems[0].0, ".easel/agents/bad.name.md");
    assert!(problems[0].1.contains("'.'"), "{}", problems[0].1);
    assert_eq!(problems[1].0, ".easel/agents/broken-yaml.md");
    assert!(
        problems[1].1.contains("not valid YAML"),
        "{}",
        problems[1].1
    );
    assert_eq!(problems[2].0, ".easel/agents/typo.md");
    assert!(
        problems[2].1.contains("'note_write'") && problems[2].1.contains("'alow'"),
        "{}",
        problems[2].1
    );
}

#[test]
fn easel_files_read_every_key_and_keep_unknown_ones() {
    let report = load();
    let w = agent(&report, "writer");
    assert_eq!(w.format, AgentFormat::Easel);
    assert_eq!(w.path, ".easel/agents/writer.md");
    assert_eq!(
        w.description,
        "Turns notes into a finished piece of writing"
    );
    assert_eq!(w.model, ["local:smollm2", "openai:gpt-4o-mini"]);
    assert_eq!(
        w.tools.as_deref().unwrap(),
        ["note_read", "note_write", "vault_search", "canvas_*"]
    );
    assert_eq!(w.handoffs, [Handoff::to("researcher")]);
    assert_eq!(
        w.handoff_description.as_deref(),
        Some("Hand over when the user wants a draft written")
    );
    assert_eq!(w.agents_as_tools, ["researcher"]);
    assert_eq!(w.max_turns, 12);
    assert_eq!(w.temperature, Some(0.4));
    assert!(w.enabled);
    assert_eq!(w.decide("canvas_add_node"), Some(Decision::Allow));
    assert_eq!(w.decide("note_write"), Some(Decision::Deny));
    assert_eq!(w.decide("vault_search"), Some(Decision::Ask));
    assert_eq!(
        w.extra.get("cssclasses"),
        Some(&serde_json::json!(["agent"]))
    );
    assert!(w.instructions.starts_with("You write clear prose"));
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
}

#[test]
fn claude_code_tool_names_map_to_operations_and_bash_is_left_out_with_a_warning() {
    let dir = fixture_vault();
    std::fs::remove_file(dir.path().join(".easel/agents/code-reviewer.md")).unwrap();
    let report = load_agents(dir.path(), &is_op);
    let r = agent(&report, "code-reviewer");
    assert_eq!(r.format, AgentFormat::ClaudeCode);
    assert_eq!(
        r.tools.as_deref().unwrap(),
        ["note_read", "vault_search", "vault_list"]
    );
    assert!(r.model.is_empty(), "inherit is the default model");
    assert_eq!(r.extra.get("color"), Some(&serde_json::json!("purple")));
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("'Bash'"));
    assert!(
        report.warnings.iter().any(|w| w
            .starts_with("agent 'code-reviewer' (.claude/agents/code-reviewer.md): tool 'Bash'")),
        "{:?}",
        report.warnings
    );

    let s = agent(&report, "researcher");
    assert_eq!(s.model, ["sonnet"]);
    assert_eq!(s.max_turns, 6);
    assert_eq!(s.tools, None, "no tools: the default read-only operations");
    assert_eq!(s.decide("note_write"), Some(Decision::Deny));
    assert_eq!(s.decide("note_edit"), Some(Decision::Deny));
    assert_eq!(s.decide("note_read"), None);
}

#[test]
fn a_name_defined_twice_keeps_the_easel_file_with_a_warning() {
    let report = load();
    let r = agent(&report, "code-reviewer");
    assert_eq!(r.path, ".easel/agents/code-reviewer.md");
    assert!(
        report.warnings.contains(
            &"agent 'code-reviewer' is defined twice: .easel/agents/code-reviewer.md is used, .claude/agents/code-reviewer.md is ignored (.easel/ wins)"
                .to_string()
        ),
        "{:?}",
        report.warnings
    );
}

#[test]
fn vscode_display_names_handoffs_tool_sets_and_subagents() {
    let report = load();
    assert!(
        report.get("README").is_none(),
        "the folder's README is not an agent"
    );
    let p = agent(&report, "plan");
    assert_eq!(p.format, AgentFormat::VsCode);
    assert_eq!(p.path, ".github/agents/plan.agent.md");
    assert_eq!(p.model, ["Claude Opus 4.5", "GPT-5.2"]);
    assert_eq!(p.tools.as_deref().unwrap(), ["vault_search", "note_read"]);
    assert_eq!(
        p.handoffs,
        [
            Handoff {
                agent: "Implementer".into(),
                label: Some("Implement Plan".into()),
                prompt: Some("Implement the plan outlined above.".into()),
                send: false,
            },
            Handoff {
                agent: "code-reviewer".into(),
                label: Some("Review".into()),
                prompt: Some("Review the plan.".into()),
                send: true,
            }
        ]
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("'Feature Planner' is a display name"))
    );
    assert!(p.warnings.iter().any(|w| w.contains("'web/fetch'")));
    assert_eq!(
        p.extra.get("argument-hint"),
        Some(&serde_json::json!("Describe the feature to plan"))
    );

    let i = agent(&report, "Implementer");
    assert_eq!(
        i.tools.as_deref().unwrap(),
        ["note_edit", "note_write", "note_append"]
    );
    assert_eq!(
        i.agents_as_tools,
        ["plan"],
        "'Feature Planner' is the agent in plan.agent.md"
    );
    assert!(
        i.warnings
            .iter()
            .any(|w| w.contains("'read/terminalLastCommand'"))
    );
}

#[test]
fn opencode_tools_maps_permissions_steps_models_and_disable() {
    let report = load();
    let r = agent(&report, "review");
    assert_eq!(r.format, AgentFormat::OpenCode);
    assert_eq!(r.model, ["anthropic:claude-sonnet-4-20250514"]);
    assert_eq!(r.max_turns, 8);
    assert_eq!(r.temperature, Some(0.1));
    assert_eq!(r.tools, None, "only tools turned off: the default tools");
    assert_eq!(r.decide("note_edit"), Some(Decision::Deny));
    assert_eq!(r.decide("note_write"), Some(Decision::Deny));
    assert_eq!(r.decide("note_append"), Some(Decision::Deny));
    assert_eq!(
        r.decide("bash"),
        Some(Decision::Ask),
        "the strictest of bash's rules"
    );
    assert_eq!(r.decide("webfetch"), Some(Decision::Ask));
    assert_eq!(r.decide("note_read"), None);
    assert_eq!(r.extra.get("mode"), Some(&serde_json::json!("subagent")));
    assert!(
        r.warnings.iter().any(|w| w.contains("per argument")),
        "{:?}",
        r.warnings
    );

    let d = agent(&report, "docs-writer");
    assert_eq!(d.path, ".opencode/agent/docs-writer.md");
    assert!(!d.enabled);
    assert_eq!(
        d.tools.as_deref().unwrap(),
        ["note_read", "vault_search", "note_write"]
    );
    assert_eq!(d.decide("bash"), Some(Decision::Deny));
}

#[test]
fn large_binary_and_escaping_files_are_problems_and_the_rest_still_load() {
    let dir = fixture_vault();
    let agents = dir.path().join(".easel/agents");
    std::fs::write(agents.join("huge.md"), "x".repeat(1024 * 1024 + 1)).unwrap();
    std::fs::write(agents.join("latin1.md"), b"---\nname: caf\xe9\n---\n").unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "top secret instructions").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path().join("secret.md"), agents.join("leak.md")).unwrap();

    let report = load_agents(dir.path(), &is_op);
    let reason = |path: &str| {
        report
            .problems
            .iter()
            .find(|p| p.path == path)
            .map(|p| p.reason.clone())
            .unwrap_or_else(|| panic!("no problem for {path}: {:?}", report.problems))
    };
    assert!(reason(".easel/agents/huge.md").contains("1 MiB"));
    assert!(reason(".easel/agents/latin1.md").contains("UTF-8"));
    #[cfg(unix)]
    assert!(reason(".easel/agents/leak.md").contains("outside the vault"));
    assert_eq!(report.agents.len(), 7);
}

#[test]
fn a_vault_without_agent_folders_has_no_agents_and_no_problems() {
    let dir = tempfile::tempdir().unwrap();
    let report = load_agents(dir.path(), &is_op);
    assert!(report.agents.is_empty() && report.problems.is_empty() && report.warnings.is_empty());
}

#[test]
fn wrong_types_of_known_keys_are_reasons() {
    let cases = [
        ("max_turns: 0", "'max_turns'"),
        ("maxSteps: many", "'maxSteps'"),
        ("temperature: 3", "'temperature'"),
        ("enabled: maybe", "'enabled'"),
        ("tools: {write: sometimes}", "'tools: write'"),
        ("handoffs: [{label: x}]", "'agent'"),
        ("tools: ['canvas_[']", "glob"),
        ("description: [a, b]", "'description'"),
        ("name: two words", "' '"),
        (
            "tool_choice: call it",
            "'tool_choice' is auto, required, none or a tool's name",
        ),
        ("tool_choice: [a]", "'tool_choice'"),
        (
            "tool_use_behavior: stop",
            "'tool_use_behavior' is run_llm_again",
        ),
        (
            "tool_use_behavior: {stop_at_tool_names: ['a b']}",
            "'a b' is not a tool name",
        ),
    ];
    for (yaml, expected) in cases {
        let text = format!("---\n{yaml}\n---\nbody\n");
        let e =
            parse_agent(&text, ".easel/agents/x.md", AgentFormat::Easel, &is_op).expect_err(yaml);
        assert!(e.contains(expected), "{yaml}: {e}");
    }
}

#[test]
fn tool_choice_is_auto_required_none_or_a_tools_name() {
    use easel_llm::ToolChoice;
    for (yaml, expected) in [
        ("auto", ToolChoice::Auto),
        ("required", ToolChoice::Required),
        ("none", ToolChoice::None),
        (
            "canvas_add_node",
            ToolChoice::Tool("canvas_add_node".into()),
        ),
    ] {
        let text = format!("---\ntool_choice: {yaml}\n---\nbody\n");
        let a = parse_agent(&text, ".easel/agents/x.md", AgentFormat::Easel, &is_op).unwrap();
        assert_eq!(a.tool_choice, Some(expected));
        assert!(a.extra.is_empty());
    }
}

#[test]
fn tool_use_behavior_takes_the_sdks_three_forms() {
    use easel_agent::ToolUseBehavior;
    for (yaml, expected) in [
        ("run_llm_again", ToolUseBehavior::RunLlmAgain),
        ("stop_on_first_tool", ToolUseBehavior::StopOnFirstTool),
        (
            "{stop_at_tool_names: [note_write, add_item]}",
            ToolUseBehavior::StopAtTools(vec!["note_write".into(), "add_item".into()]),
        ),
    ] {
        let text = format!("---\ntool_use_behavior: {yaml}\n---\nbody\n");
        let a = parse_agent(&text, ".easel/agents/x.md", AgentFormat::Easel, &is_op).unwrap();
        assert_eq!(a.tool_use_behavior, expected);
    }
    let stop = ToolUseBehavior::StopAtTools(vec!["note_write".into()]);
    assert!(stop.stops_at("note_write") && !stop.stops_at("note_read"));
    assert!(!ToolUseBehavior::StopOnFirstTool.stops_at("transfer_to_writer"));
}
