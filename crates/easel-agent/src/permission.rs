//! Permission rules: which tool calls run without asking, which are asked about, which are
//! refused.

use crate::agent::{Agent, Decision};

impl Agent {
    /// What the agent's rules decide for a call of `tool`: the last rule whose glob matches
    /// wins; `None` when no rule matches.
    pub fn decide(&self, tool: &str) -> Option<Decision> {
        self.permission
            .iter()
            .rev()
            .find(|r| glob_matches(&r.pattern, tool))
            .map(|r| r.decision)
    }
}

/// Whether the glob `pattern` matches `name` (a pattern that is not a valid glob matches only
/// itself).
pub(crate) fn glob_matches(pattern: &str, name: &str) -> bool {
    match globset::Glob::new(pattern) {
        Ok(g) => g.compile_matcher().is_match(name),
        Err(_) => pattern == name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::PermissionRule;

    #[test]
    fn the_last_matching_rule_wins() {
        let mut a = Agent::new("a", "");
        a.permission = vec![
            PermissionRule {
                pattern: "*".into(),
                decision: Decision::Ask,
            },
            PermissionRule {
                pattern: "note_*".into(),
                decision: Decision::Allow,
            },
            PermissionRule {
                pattern: "note_write".into(),
                decision: Decision::Deny,
            },
        ];
        assert_eq!(a.decide("note_read"), Some(Decision::Allow));
        assert_eq!(a.decide("note_write"), Some(Decision::Deny));
        assert_eq!(a.decide("canvas_write"), Some(Decision::Ask));
        assert_eq!(Agent::new("b", "").decide("x"), None);
    }
}
