//! Reading JSON arguments: files, standard input, inline text.

use crate::failure::UsageError;
use easel_canvas::json::{self, Map, Value};
use std::io::Read;

/// Reads `--data FILE|-`.
pub fn read_data(source: &str) -> anyhow::Result<Value> {
    let (text, origin) = if source == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| {
            UsageError::invalid(
                format!("could not read standard input: {e}"),
                "pipe UTF-8 JSON into the command",
            )
        })?;
        (s, "standard input".to_owned())
    } else {
        let s = std::fs::read_to_string(source).map_err(|e| {
            UsageError::invalid(
                format!("could not read {source}: {e}"),
                "give the path of a JSON file, or '-' to read standard input",
            )
        })?;
        (s, source.to_owned())
    };
    parse(&text, &origin)
}

/// Reads an inline JSON argument; `@FILE` reads a file and `-` standard input.
pub fn read_inline(arg: &str) -> anyhow::Result<Value> {
    if arg == "-" {
        return read_data("-");
    }
    if let Some(path) = arg.strip_prefix('@') {
        return read_data(path);
    }
    parse(arg, "--data")
}

/// Reads an inline JSON object (a merge patch).
pub fn read_patch(arg: &str) -> anyhow::Result<Map> {
    match read_inline(arg)? {
        Value::Object(m) => Ok(m),
        other => Err(UsageError::invalid(
            format!("--data must be a JSON object, it is {}", other.type_name()),
            "for example --data '{\"text\":\"new text\",\"color\":\"4\"}'",
        )
        .into()),
    }
}

fn parse(text: &str, origin: &str) -> anyhow::Result<Value> {
    json::parse(text.strip_prefix('\u{feff}').unwrap_or(text)).map_err(|e| {
        UsageError::invalid(
            format!("{origin} is not valid JSON: {e}"),
            "fix the JSON at that position (a missing comma or quote is the usual cause)",
        )
        .into()
    })
}
