//! Permission rules: which tool calls run without asking, which ask, which are refused.
//!
//! Rules are tool name globs, each with a [`Decision`]; the last rule that matches a tool
//! decides (OpenCode's rule, so that a broad rule can come first and exceptions after it).
//! OpenCode also writes rules per argument (`bash: {"git push*": ask, "*": allow}`); Easel
//! decides per tool, so such a map becomes one rule with its strictest decision: a rule
//! never allows more than the file allowed for some argument.

use crate::agent::{Agent, Decision, PermissionRule};
use serde_json::Value;

impl Agent {
    /// What the agent's permission rules decide for `tool`: the last matching rule's decision,
    /// or `None` when no rule matches (then the tool's effect decides).
    pub fn decide(&self, tool: &str) -> Option<Decision> {
        decide(&self.permission, tool)
    }
}

/// [`Agent::decide`] over any list of rules.
pub fn decide(rules: &[PermissionRule], tool: &str) -> Option<Decision> {
    rules
        .iter()
        .rev()
        .find(|rule| matches(&rule.pattern, tool))
        .map(|rule| rule.decision)
}

/// Whether the tool-name glob `pattern` matches `tool` (also how an agent's `tools` list picks
/// its tools).
pub(crate) fn matches(pattern: &str, tool: &str) -> bool {
    if pattern == tool {
        return true;
    }
    if !crate::load::is_glob(pattern) {
        return false;
    }
    // Patterns are checked when the file is read; one that still does not parse matches
    // nothing rather than everything.
    globset::Glob::new(pattern).is_ok_and(|g| g.compile_matcher().is_match(tool))
}

impl Decision {
    /// `allow`, `ask` or `deny`, as written in a file.
    pub fn parse(s: &str) -> Option<Decision> {
        match s.trim().to_ascii_lowercase().as_str() {
            "allow" => Some(Decision::Allow),
            "ask" => Some(Decision::Ask),
            "deny" => Some(Decision::Deny),
            _ => None,
        }
    }

    /// How much it restricts: deny over ask over allow.
    fn strictness(self) -> u8 {
        match self {
            Decision::Allow => 0,
            Decision::Ask => 1,
            Decision::Deny => 2,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }
}

/// A `permission` value as written: `{pattern: decision}` in file order, a list of such maps,
/// or one decision for every tool. Nested maps (OpenCode's per-argument rules) become one rule
/// with their strictest decision. Patterns stay as written; mapping them to operation names is
/// the loader's job. `warn` hears of every nested map that lost detail.
pub(crate) fn read_rules(
    value: &Value,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<(String, Decision)>, String> {
    let mut rules = Vec::new();
    match value {
        Value::Null => {}
        Value::String(_) => rules.push(("*".to_string(), decision("*", value, warn)?)),
        Value::Object(map) => {
            for (pattern, v) in map {
                rules.push((pattern.clone(), decision(pattern, v, warn)?));
            }
        }
        Value::Array(items) => {
            for item in items {
                let Value::Object(map) = item else {
                    return Err(format!(
                        "'permission' lists must hold 'pattern: decision' maps, not {}",
                        crate::load::kind(item)
                    ));
                };
                for (pattern, v) in map {
                    rules.push((pattern.clone(), decision(pattern, v, warn)?));
                }
            }
        }
        other => {
            return Err(format!(
                "'permission' must map tool names to allow, ask or deny, not {}",
                crate::load::kind(other)
            ));
        }
    }
    for (pattern, _) in &rules {
        if crate::load::is_glob(pattern) {
            globset::Glob::new(pattern).map_err(|e| {
                format!("the permission pattern '{pattern}' is not a valid glob: {e}")
            })?;
        }
    }
    Ok(rules)
}

fn decision(pattern: &str, v: &Value, warn: &mut dyn FnMut(String)) -> Result<Decision, String> {
    let bad = || {
        format!(
            "the permission for '{pattern}' must be allow, ask or deny, not {}",
            match v {
                Value::String(s) => format!("'{s}'"),
                other => crate::load::kind(other).to_string(),
            }
        )
    };
    match v {
        Value::String(s) => Decision::parse(s).ok_or_else(bad),
        Value::Object(nested) if !nested.is_empty() => {
            let mut decisions = Vec::new();
            for (arg, d) in nested {
                let Value::String(s) = d else {
                    return Err(bad());
                };
                let d = Decision::parse(s).ok_or_else(|| {
                    format!(
                        "the permission for '{pattern}' → '{arg}' must be allow, ask or deny, not '{s}'"
                    )
                })?;
                decisions.push(d);
            }
            let strictest = decisions
                .iter()
                .copied()
                .max_by_key(|d| d.strictness())
                .unwrap_or(Decision::Ask);
            if decisions.iter().any(|d| *d != strictest) {
                warn(format!(
                    "the permission for '{pattern}' has rules per argument; Easel decides per tool, so '{pattern}' is '{}' (the strictest of them)",
                    strictest.as_str()
                ));
            }
            Ok(strictest)
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(pairs: &[(&str, Decision)]) -> Vec<PermissionRule> {
        pairs
            .iter()
            .map(|(p, d)| PermissionRule {
                pattern: (*p).to_string(),
                decision: *d,
            })
            .collect()
    }

    #[test]
    fn the_last_matching_rule_decides() {
        let mut agent = Agent::new("a", "");
        agent.permission = rules(&[
            ("*", Decision::Ask),
            ("canvas_*", Decision::Allow),
            ("canvas_write", Decision::Deny),
        ]);
        assert_eq!(agent.decide("canvas_add_node"), Some(Decision::Allow));
        assert_eq!(agent.decide("canvas_write"), Some(Decision::Deny));
        assert_eq!(agent.decide("note_write"), Some(Decision::Ask));
        agent.permission.push(PermissionRule {
            pattern: "*".into(),
            decision: Decision::Allow,
        });
        assert_eq!(agent.decide("canvas_write"), Some(Decision::Allow));
    }

    #[test]
    fn no_rule_no_decision() {
        let mut agent = Agent::new("a", "");
        assert_eq!(agent.decide("note_write"), None);
        agent.permission = rules(&[("note_*", Decision::Deny)]);
        assert_eq!(agent.decide("vault_search"), None);
        assert_eq!(agent.decide("note"), None);
    }

    #[test]
    fn names_are_not_prefixes_and_a_broken_pattern_matches_nothing() {
        let r = rules(&[("note_read", Decision::Allow), ("[", Decision::Deny)]);
        assert_eq!(decide(&r, "note_read_all"), None);
        assert_eq!(decide(&r, "note_read"), Some(Decision::Allow));
        assert_eq!(decide(&r, "["), Some(Decision::Deny));
    }

    #[test]
    fn opencode_nested_rules_take_their_strictest_decision() {
        let mut warnings = Vec::new();
        let value =
            json!({"edit": "deny", "bash": {"git push*": "ask", "*": "allow"}, "webfetch": "ask"});
        let read = read_rules(&value, &mut |w| warnings.push(w)).unwrap();
        assert_eq!(
            read,
            [
                ("edit".to_string(), Decision::Deny),
                ("bash".to_string(), Decision::Ask),
                ("webfetch".to_string(), Decision::Ask),
            ]
        );
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("'bash'"), "{warnings:?}");

        let mut quiet = Vec::new();
        let same = read_rules(&json!({"bash": {"*": "deny", "ls": "deny"}}), &mut |w| {
            quiet.push(w)
        })
        .unwrap();
        assert_eq!(same, [("bash".to_string(), Decision::Deny)]);
        assert!(quiet.is_empty());
    }

    #[test]
    fn one_decision_lists_and_errors() {
        let mut w = |_: String| {};
        assert_eq!(
            read_rules(&json!("ask"), &mut w).unwrap(),
            [("*".to_string(), Decision::Ask)]
        );
        assert_eq!(
            read_rules(&json!([{"*": "deny"}, {"note_read": "Allow"}]), &mut w).unwrap(),
            [
                ("*".to_string(), Decision::Deny),
                ("note_read".to_string(), Decision::Allow)
            ]
        );
        let e = read_rules(&json!({"edit": "dney"}), &mut w).unwrap_err();
        assert!(e.contains("'dney'") && e.contains("'edit'"), "{e}");
        assert!(read_rules(&json!({"bash": {"*": 1}}), &mut w).is_err());
        assert!(read_rules(&json!({"bash": {}}), &mut w).is_err());
        assert!(read_rules(&json!(3), &mut w).is_err());
        assert!(read_rules(&json!({"canvas_[": "allow"}), &mut w).is_err());
    }
}
