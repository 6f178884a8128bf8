//! Reading JSON arguments: files, standard input, inline text.

use crate::failure::UsageError;
use easel_canvas::json::{self, Map, Value};
use std::io::Read;

/// The most `--data` reads, from a file or standard input. Canvases and patches are far
/// smaller; the cap keeps `--data - < /dev/zero` (or a runaway pipe) from eating all memory.
pub const MAX_DATA_BYTES: u64 = 64 * 1024 * 1024;

/// Reads `--data FILE|-`.
pub fn read_data(source: &str) -> anyhow::Result<Value> {
    let (text, origin) = if source == "-" {
        let text = read_capped(std::io::stdin().lock(), "standard input", MAX_DATA_BYTES)?;
        (text, "standard input".to_owned())
    } else {
        let file = std::fs::File::open(source).map_err(|e| {
            UsageError::invalid(
                format!("could not read {source}: {e}"),
                "give the path of a JSON file, or '-' to read standard input",
            )
        })?;
        (
            read_capped(file, source, MAX_DATA_BYTES)?,
            source.to_owned(),
        )
    };
    parse(&text, &origin)
}

/// Reads at most `cap` bytes of UTF-8; one byte more is an error rather than a truncated
/// document, since half a JSON value would only fail later with a confusing message.
fn read_capped(reader: impl Read, origin: &str, cap: u64) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| {
            UsageError::invalid(
                format!("could not read {origin}: {e}"),
                "pipe UTF-8 JSON into the command, or give the path of a JSON file",
            )
        })?;
    if bytes.len() as u64 > cap {
        return Err(UsageError::invalid(
            format!(
                "{origin} is larger than {} MiB, the most --data reads",
                cap / (1024 * 1024)
            ),
            "split the change into several smaller commands, or check that the right file or pipe is given",
        )
        .into());
    }
    String::from_utf8(bytes).map_err(|e| {
        UsageError::invalid(
            format!("{origin} is not UTF-8: {e}"),
            "save the JSON as UTF-8",
        )
        .into()
    })
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_stream_over_the_cap_is_refused_not_truncated() {
        let err = read_capped(std::io::repeat(b' ').take(11), "standard input", 10).unwrap_err();
        let usage = err.downcast_ref::<UsageError>().unwrap();
        assert_eq!(usage.kind, easel_vault::ErrorKind::Invalid);
        assert!(usage.message.contains("larger than"), "{}", usage.message);
        assert_eq!(
            read_capped(std::io::repeat(b' ').take(10), "x", 10)
                .unwrap()
                .len(),
            10
        );
    }
}
