//! Reading an agent file: bounded, UTF-8, and split into its YAML frontmatter and its body
//! with the vault's note parser (the same rule Obsidian's Properties view follows).

use easel_vault::Note;
use serde_json::{Map, Value};
use std::io::Read;
use std::path::Path;

/// Agent files past this size are refused unread: instructions are prose, and a larger file
/// is a mistake (a log or a dump saved in the wrong folder) that would fill every request.
pub const MAX_AGENT_FILE_BYTES: u64 = 1024 * 1024;

/// The file's text, or why it cannot be an agent file.
pub(super) fn read_text(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_AGENT_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_AGENT_FILE_BYTES {
        return Err("it is larger than 1 MiB; an agent file holds instructions, not data".into());
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (the byte at offset {} is not); save it as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The frontmatter's keys in file order and the body, or why the frontmatter is unusable.
/// A file without frontmatter is all instructions.
pub fn split(text: &str) -> Result<(Map<String, Value>, String), String> {
    let note = Note::parse(text);
    match note.frontmatter() {
        Some(frontmatter) => match frontmatter.fields() {
            Ok(fields) => Ok((fields.clone(), note.body().to_string())),
            Err(e) => Err(e.to_string()),
        },
        None => {
            let start = text.trim_start_matches('\u{feff}');
            if start.starts_with("---\n") || start.starts_with("---\r\n") {
                Err("the frontmatter has no closing '---' line".into())
            } else {
                Ok((Map::new(), text.to_string()))
            }
        }
    }
}

/// A YAML value's kind, as an error message names it.
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "empty",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

/// A scalar as text: `description: 42` means the text "42".
pub(super) fn text(key: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Null => Ok(String::new()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!("'{key}' must be text, not {}", kind(other))),
    }
}

/// A list of names: a YAML list, or one string of comma-separated names (Claude Code's
/// `tools: Read, Grep`). Commas inside parentheses (`Agent(a, b)`) do not split.
pub(super) fn names(key: &str, v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(split_commas(s)),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Array(_) | Value::Object(_) | Value::Null => Err(format!(
                    "'{key}' must list names, but one item is {}",
                    kind(item)
                )),
                other => text(key, other),
            })
            .map(|r| r.map(|s| s.trim().to_string()))
            .filter(|r| !matches!(r, Ok(s) if s.is_empty()))
            .collect(),
        other => Err(format!(
            "'{key}' must be a list of names, not {}",
            kind(other)
        )),
    }
}

fn split_commas(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A yes/no key; `"true"` and `"false"` as text are accepted too.
pub(super) fn flag(key: &str, v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s.trim().eq_ignore_ascii_case("true") => Ok(true),
        Value::String(s) if s.trim().eq_ignore_ascii_case("false") => Ok(false),
        other => Err(format!(
            "'{key}' must be true or false, not {}",
            kind(other)
        )),
    }
}

/// A number, also when written as text (`"0.3"`).
pub(super) fn number(key: &str, v: &Value) -> Result<f64, String> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    n.filter(|n| n.is_finite())
        .ok_or_else(|| format!("'{key}' must be a number, not {}", kind(v)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn comma_separated_names_keep_parenthesised_arguments_together() {
        assert_eq!(
            split_commas("Read, Grep,Glob , Agent(a, b),"),
            ["Read", "Grep", "Glob", "Agent(a, b)"]
        );
    }

    #[test]
    fn a_frontmatter_without_its_closing_line_is_reported() {
        assert!(split("---\nname: x\nbody\n").is_err());
        let (fields, body) = split("no frontmatter\n").unwrap();
        assert!(fields.is_empty());
        assert_eq!(body, "no frontmatter\n");
    }

    #[test]
    fn names_refuse_nested_values_and_skip_blanks() {
        assert_eq!(names("tools", &json!(["a", " ", "b"])).unwrap(), ["a", "b"]);
        assert!(names("tools", &json!([["a"]])).is_err());
        assert!(names("tools", &json!(3)).is_err());
    }
}
