//! The words of a response: the board line, `Next:` hints and action names in the vocabulary
//! of whoever reads them (a person at a shell, or a model calling the `canvas` tool).

use super::state::State;

/// Who reads a response, so hints name commands they can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Front {
    /// A person at a shell: `easel code impact NAME`.
    Cli,
    /// A model calling the MCP tool: `canvas(action="impact", symbol="NAME")`.
    Mcp,
    /// A model reading hook context; it has the MCP tool when Easel is configured as a server.
    Hook,
}

/// How to invoke `action` with `args` from `front`.
pub fn call(front: Front, action: &str, args: &[(&str, &str)]) -> String {
    match front {
        Front::Mcp | Front::Hook => {
            let mut s = format!("canvas(action=\"{action}\"");
            for (k, v) in args {
                s.push_str(&format!(", {k}=\"{v}\""));
            }
            s.push(')');
            s
        }
        Front::Cli => {
            let verb = match action {
                "task_select" => "task",
                other => other,
            };
            let mut s = format!("'easel code {verb}");
            for (k, v) in args {
                match *k {
                    // The main argument of each verb is positional.
                    "symbol" | "text" | "task_id" | "repo_path" => {
                        if v.contains(' ') || v.is_empty() || v.contains('…') {
                            s.push_str(&format!(" \"{v}\""));
                        } else {
                            s.push_str(&format!(" {v}"));
                        }
                    }
                    other => s.push_str(&format!(" --{} {v}", other.replace('_', "-"))),
                }
            }
            s.push('\'');
            s
        }
    }
}

/// `Board: N evidence, M claims, K decisions | Focus: X | Progress: a/b`.
pub fn board_line(state: &State) -> String {
    let mut s = format!(
        "Board: {} evidence, {} claims, {} decisions | Focus: {}",
        state.evidence.len(),
        state.claims.len(),
        state.decisions.len(),
        state
            .focus
            .as_ref()
            .map(|f| f.symbol.as_str())
            .unwrap_or("none")
    );
    if let Some((done, total)) = state.progress() {
        s.push_str(&format!(" | Progress: {done}/{total} addressed"));
    }
    if let Some(t) = &state.task {
        s.push_str(&format!(" | Task: {}", t.id));
    }
    s
}

/// The next step once `action` is done, from the state the board is in now.
pub fn next_hint(state: &State, action: &str, front: Front) -> String {
    let c = |a: &str, args: &[(&str, &str)]| call(front, a, args);
    if state.evidence.is_empty() {
        return format!(
            "Next: {} to parse the repository and see its architecture.",
            c("init", &[])
        );
    }
    let Some(focus) = &state.focus else {
        let target = state
            .task
            .as_ref()
            .and_then(|t| t.symbols.first().cloned())
            .or_else(|| state.suggested.clone())
            .unwrap_or_else(|| "NAME".into());
        return match action {
            "claim" | "decide" => format!(
                "Next: see the blast radius before changing code: {}.",
                c("impact", &[("symbol", &target)])
            ),
            _ => format!(
                "Next: {} on the symbol you will change, to see its callers before editing.",
                c("impact", &[("symbol", &target)])
            ),
        };
    };
    let open = state.unaddressed();
    match action {
        "impact" if focus.affected.len() <= 1 => format!(
            "Next: nothing else calls {}; record a plan with {} and make the change.",
            focus.symbol,
            c("decide", &[("text", "…")])
        ),
        "impact" => format!(
            "Next: record your analysis with {} or a plan with {}; then check each affected symbol and mark it ({} open, first: {}).",
            c("claim", &[("text", "…")]),
            c("decide", &[("text", "…")]),
            open.len(),
            open.first()
                .map(|a| a.qualname.as_str())
                .unwrap_or(&focus.symbol)
        ),
        "claim" => format!(
            "Next: commit to a plan with {}, or gather more evidence with {}.",
            c("decide", &[("text", "…")]),
            c("impact", &[("symbol", "NAME")])
        ),
        _ if open.is_empty() => format!(
            "Next: all {} affected symbols of {} are addressed; run the tests and record them with {}, or look at the next symbol with {}.",
            focus.affected.len(),
            focus.symbol,
            c("decide", &[("kind", "test"), ("text", "…")]),
            c("impact", &[("symbol", "NAME")])
        ),
        _ => format!(
            "Next: check {} ({}), then {} or {} ({} of {} left).",
            open[0].qualname,
            open[0].location,
            c("mark", &[("symbol", &open[0].qualname)]),
            c("skip", &[("symbol", &open[0].qualname), ("text", "why")]),
            open.len(),
            focus.affected.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_read_as_the_front_expects() {
        assert_eq!(
            call(Front::Mcp, "impact", &[("symbol", "foo")]),
            "canvas(action=\"impact\", symbol=\"foo\")"
        );
        assert_eq!(
            call(Front::Cli, "impact", &[("symbol", "foo")]),
            "'easel code impact foo'"
        );
        assert_eq!(
            call(
                Front::Cli,
                "decide",
                &[("kind", "test"), ("text", "run it")]
            ),
            "'easel code decide --kind test \"run it\"'"
        );
        assert_eq!(
            call(Front::Cli, "task_select", &[("task_id", "T1")]),
            "'easel code task T1'"
        );
    }
}
