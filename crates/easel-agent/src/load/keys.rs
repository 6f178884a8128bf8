//! The frontmatter keys of DESIGN.md section 9, in every spelling the formats use, turned into
//! an [`Agent`]. A key Easel reads but cannot use as written makes the file a problem (a
//! typo'd permission must not quietly allow); a key it does not know is kept in `extra`.

use super::frontmatter::{flag, kind, names, number, text};
use super::{Source, opencode, tools};
use crate::agent::{Agent, AgentFormat, Decision, Handoff, PermissionRule};
use serde_json::{Map, Value};

/// The longest agent name: `transfer_to_<name>` must fit the 64 characters model APIs
/// allow for a tool name.
pub const MAX_NAME_LEN: usize = 52;

/// The most turns a file may ask for; more is a typo, and a run that long a runaway.
const MAX_TURNS_LIMIT: u64 = 1000;

/// Keys read here; everything else goes to `extra`.
const KNOWN: &[&str] = &[
    "name",
    "description",
    "model",
    "tools",
    "disallowedTools",
    "handoffs",
    "handoff_description",
    "handoffDescription",
    "agents_as_tools",
    "agents",
    "max_turns",
    "maxTurns",
    "maxSteps",
    "max_steps",
    "temperature",
    "max_tokens",
    "tool_choice",
    "tool_use_behavior",
    "enabled",
    "disable",
    "disabled",
    "permission",
];

/// `run_llm_again`, `stop_on_first_tool`, or `{stop_at_tool_names: [a, b]}` (the SDK's names).
fn tool_use_behavior(v: &Value) -> Result<crate::agent::ToolUseBehavior, String> {
    use crate::agent::ToolUseBehavior;
    const WHAT: &str =
        "'tool_use_behavior' is run_llm_again, stop_on_first_tool or {stop_at_tool_names: [tools]}";
    match v {
        Value::String(s) if s == "run_llm_again" => Ok(ToolUseBehavior::RunLlmAgain),
        Value::String(s) if s == "stop_on_first_tool" => Ok(ToolUseBehavior::StopOnFirstTool),
        Value::Object(m) if m.len() == 1 && m.contains_key("stop_at_tool_names") => {
            let tools = names("stop_at_tool_names", &m["stop_at_tool_names"])?;
            for t in &tools {
                valid_tool_name(t).map_err(|why| format!("{WHAT}; {why}"))?;
            }
            Ok(ToolUseBehavior::StopAtTools(tools))
        }
        other => Err(format!("{WHAT}, not {other}")),
    }
}

/// Whether `name` can be a tool's name: `[A-Za-z0-9_-]+`, at most 64 long, as model APIs allow.
fn valid_tool_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!("'{name}' is not a tool name"));
    }
    Ok(())
}

/// Whether `name` can name an agent: `[A-Za-z0-9_-]+`, at most [`MAX_NAME_LEN`] long.
pub fn valid_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("its name is empty".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "its name '{name}' has the character {c:?}; names use letters, digits, '-' and '_' only"
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(format!(
            "its name '{name}' is longer than {MAX_NAME_LEN} characters"
        ));
    }
    Ok(())
}

/// The agent a file describes, and the name it declared when that was a display name
/// ("Feature Builder") replaced by its file's stem.
pub(super) fn agent(
    src: &Source,
    stem: &str,
    path: &str,
    fields: Map<String, Value>,
    body: String,
    is_tool: &dyn Fn(&str) -> bool,
) -> Result<(Agent, Option<String>), String> {
    let get = |key: &str| fields.get(key).filter(|v| !v.is_null());
    let mut warnings = Vec::new();

    let declared = get("name").map(|v| text("name", v)).transpose()?;
    let declared = declared
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty());
    let (name, display) = match declared {
        None => {
            valid_name(stem).map_err(|e| format!("{e} (the name comes from the file name)"))?;
            (stem.to_string(), None)
        }
        Some(n) => match valid_name(&n) {
            Ok(()) => (n, None),
            Err(e) if src.strict_name => return Err(e),
            // Other tools allow display names; the file's stem is what Easel calls it.
            Err(_) => {
                valid_name(stem)
                    .map_err(|e| format!("{e} (the declared name '{n}' is not usable either)"))?;
                warnings.push(format!(
                    "its name '{n}' is a display name; Easel calls it '{stem}' (the file name)"
                ));
                (stem.to_string(), Some(n))
            }
        },
    };

    let mut agent = Agent::new(name, body);
    agent.path = path.to_string();
    agent.format = src.format;
    if let Some(v) = get("description") {
        agent.description = text("description", v)?.trim().to_string();
    }
    if let Some(v) = get("model") {
        agent.model = names("model", v)?
            .into_iter()
            .filter(|m| m != "inherit")
            .map(|m| match src.format {
                AgentFormat::OpenCode => opencode::model_name(&m),
                _ => m,
            })
            .collect();
    }

    let mut deny: Vec<String> = Vec::new();
    if let Some(v) = get("tools") {
        agent.tools = match v {
            // OpenCode: `{write: false, bash: true}`. Enabled names are the agent's tools
            // (none enabled: the default tools); disabled ones are refused outright.
            Value::Object(map) => {
                let mut on = Vec::new();
                for (tool, enabled) in map {
                    if flag(&format!("tools: {tool}"), enabled)? {
                        on.push(tool.clone());
                    } else {
                        deny.push(tool.clone());
                    }
                }
                if on.is_empty() {
                    None
                } else {
                    Some(tools::resolve(&on, src, is_tool, &mut |w| {
                        warnings.push(w)
                    })?)
                }
            }
            other => Some(tools::resolve(
                &names("tools", other)?,
                src,
                is_tool,
                &mut |w| warnings.push(w),
            )?),
        };
    }
    if let Some(v) = get("disallowedTools") {
        deny.extend(names("disallowedTools", v)?);
    }

    if let Some(v) = get("handoffs") {
        agent.handoffs = handoffs(v)?;
    }
    if let Some(v) = get("handoff_description").or_else(|| get("handoffDescription")) {
        agent.handoff_description =
            Some(text("handoff_description", v)?.trim().to_string()).filter(|d| !d.is_empty());
    }
    if let Some((key, v)) = ["agents_as_tools", "agents"]
        .iter()
        .find_map(|k| get(k).map(|v| (*k, v)))
    {
        for a in names(key, v)? {
            if a == "*" {
                warnings.push(format!(
                    "'{key}: *' (every agent) is not taken; name the agents it may ask"
                ));
            } else {
                agent.agents_as_tools.push(a);
            }
        }
    }
    if let Some((key, v)) = ["max_turns", "maxTurns", "maxSteps", "max_steps"]
        .iter()
        .find_map(|k| get(k).map(|v| (*k, v)))
    {
        agent.max_turns = turns(key, v)?;
    }
    if let Some(v) = get("temperature") {
        let t = number("temperature", v)?;
        if !(0.0..=2.0).contains(&t) {
            return Err(format!("'temperature' must be from 0 to 2, not {t}"));
        }
        agent.temperature = Some(t as f32);
    }
    if let Some(v) = get("max_tokens") {
        let n = number("max_tokens", v)?;
        if !(1.0..=1_000_000.0).contains(&n) || n.fract() != 0.0 {
            return Err(format!(
                "'max_tokens' must be a whole number from 1 to 1000000, not {n}"
            ));
        }
        agent.max_tokens = Some(n as u32);
    }
    if let Some(v) = get("tool_choice") {
        agent.tool_choice = Some(match text("tool_choice", v)?.as_str() {
            "auto" => easel_llm::ToolChoice::Auto,
            "required" => easel_llm::ToolChoice::Required,
            "none" => easel_llm::ToolChoice::None,
            name => {
                valid_tool_name(name).map_err(|why| {
                    format!("'tool_choice' is auto, required, none or a tool's name; {why}")
                })?;
                easel_llm::ToolChoice::Tool(name.to_string())
            }
        });
    }
    if let Some(v) = get("tool_use_behavior") {
        agent.tool_use_behavior = tool_use_behavior(v)?;
    }
    if let Some(v) = get("enabled") {
        agent.enabled = flag("enabled", v)?;
    }
    for key in ["disable", "disabled"] {
        if let Some(v) = get(key) {
            agent.enabled &= !flag(key, v)?;
        }
    }

    let mut rules = match get("permission") {
        Some(v) => crate::permission::read_rules(v, &mut |w| warnings.push(w))?,
        None => Vec::new(),
    };
    // Refusals come last so that they win over any allow.
    rules.extend(deny.into_iter().map(|t| (t, Decision::Deny)));
    for (pattern, decision) in rules {
        for tool in permission_tools(src, &pattern, is_tool, &mut warnings) {
            agent.permission.push(PermissionRule {
                pattern: tool,
                decision,
            });
        }
    }

    for (k, v) in fields {
        if !KNOWN.contains(&k.as_str()) {
            agent.extra.insert(k, v);
        }
    }
    agent.warnings = warnings;
    Ok((agent, display))
}

/// The patterns a permission key stands for: itself when it is a glob or a tool here, else
/// the operations it maps to. A key that stands for nothing is kept as written (it decides
/// for no tool today, and for the right one if such a script tool is added).
fn permission_tools(
    src: &Source,
    pattern: &str,
    is_tool: &dyn Fn(&str) -> bool,
    warnings: &mut Vec<String>,
) -> Vec<String> {
    if tools::is_glob(pattern) || is_tool(pattern) {
        return vec![pattern.to_string()];
    }
    match (src.permission_equivalents)(pattern) {
        Some(ops) if !ops.is_empty() => ops.iter().map(|op| (*op).to_string()).collect(),
        _ => {
            warnings.push(format!(
                "the permission for '{pattern}' applies to no tool here (no operation or script tool has that name)"
            ));
            vec![pattern.to_string()]
        }
    }
}

fn turns(key: &str, v: &Value) -> Result<u32, String> {
    let n = match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    };
    match n {
        Some(n @ 1..=MAX_TURNS_LIMIT) => Ok(n as u32),
        _ => Err(format!(
            "'{key}' must be a whole number from 1 to {MAX_TURNS_LIMIT}, not {}",
            match v {
                Value::Number(n) => n.to_string(),
                Value::String(s) => format!("'{s}'"),
                other => kind(other).to_string(),
            }
        )),
    }
}

/// Handoffs: agent names, or VS Code's `{label, agent, prompt, send}` objects.
fn handoffs(v: &Value) -> Result<Vec<Handoff>, String> {
    let items = match v {
        Value::Array(items) => items.as_slice(),
        Value::String(_) => std::slice::from_ref(v),
        other => {
            return Err(format!(
                "'handoffs' must list agent names or {{label, agent, prompt}} maps, not {}",
                kind(other)
            ));
        }
    };
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::String(_) => {
                for name in names("handoffs", item)? {
                    out.push(Handoff::to(name));
                }
            }
            Value::Object(map) => {
                let agent = map
                    .get("agent")
                    .map(|a| text("handoffs: agent", a))
                    .transpose()?
                    .map(|a| a.trim().to_string())
                    .filter(|a| !a.is_empty())
                    .ok_or("every handoff map needs 'agent': the agent to hand over to")?;
                let opt = |key: &str| -> Result<Option<String>, String> {
                    Ok(map
                        .get(key)
                        .map(|v| text(&format!("handoffs: {key}"), v))
                        .transpose()?
                        .filter(|s| !s.is_empty()))
                };
                out.push(Handoff {
                    agent,
                    label: opt("label")?,
                    prompt: opt("prompt")?,
                    send: match map.get("send") {
                        Some(v) if !v.is_null() => flag("handoffs: send", v)?,
                        _ => false,
                    },
                });
            }
            other => {
                return Err(format!(
                    "'handoffs' must list agent names or {{label, agent, prompt}} maps, but one item is {}",
                    kind(other)
                ));
            }
        }
    }
    Ok(out)
}
