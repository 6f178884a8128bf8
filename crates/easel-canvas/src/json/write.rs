//! Compact JSON output, byte-compatible with JavaScript's `JSON.stringify(value)`.

use super::{Map, Value};

/// Appends `v` as compact JSON.
pub fn write_compact(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => out.push_str(n.as_text()),
        Value::String(s) => write_string(out, s),
        Value::Utf16(s) => write_utf16_string(out, s.units()),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => write_compact_map(out, map),
    }
}

/// Appends an object as compact JSON.
pub fn write_compact_map(out: &mut String, map: &Map) {
    out.push('{');
    for (i, (k, v)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, k);
        out.push(':');
        write_compact(out, v);
    }
    out.push('}');
}

/// Appends `s` as a JSON string literal. Like `JSON.stringify`, only `"`, `\` and control
/// characters are escaped; everything else, `/` and non-ASCII included, is written as is.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    // Most strings need no escaping: copy them in one go.
    if super::scan::find_special(bytes).is_none() {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut run_start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escaped = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[run_start..i]);
        if escaped.is_empty() {
            out.push_str(&format!("\\u{b:04x}"));
        } else {
            out.push_str(escaped);
        }
        run_start = i + 1;
    }
    out.push_str(&s[run_start..]);
    out.push('"');
}

/// Appends UTF-16 code units as a JSON string literal, as `JSON.stringify` does: lone
/// surrogates as lowercase `\udxxx` escapes, everything else as [`write_string`] writes it.
pub fn write_utf16_string(out: &mut String, units: &[u16]) {
    let mut text = String::with_capacity(units.len());
    out.push('"');
    for unit in char::decode_utf16(units.iter().copied()) {
        match unit {
            Ok(c) => text.push(c),
            Err(e) => {
                push_inner(out, &text);
                text.clear();
                out.push_str(&format!("\\u{:04x}", e.unpaired_surrogate()));
            }
        }
    }
    push_inner(out, &text);
    out.push('"');
}

/// `s` escaped as the inside of a JSON string literal (no quotes).
fn push_inner(out: &mut String, s: &str) {
    let start = out.len();
    write_string(out, s);
    // Drop the quotes write_string put around it.
    out.pop();
    out.remove(start);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_are_written_as_json_stringify_writes_them() {
        let mut out = String::new();
        // "a\ud800é\"" followed by a low surrogate alone and an emoji as a proper pair.
        let units: Vec<u16> = "a"
            .encode_utf16()
            .chain([0xD800])
            .chain("é\"".encode_utf16())
            .chain([0xDC01])
            .chain("😀".encode_utf16())
            .collect();
        write_utf16_string(&mut out, &units);
        assert_eq!(out, "\"a\\ud800é\\\"\\udc01😀\"");
    }

    #[test]
    fn escapes_like_json_stringify() {
        let mut out = String::new();
        write_string(&mut out, "a\"b\\c/d\n\r\t\u{8}\u{c}\u{1}\u{1f}é\u{2028}");
        // JSON.stringify("a\"b\\c/d\n\r\t\b\f\x01\x1fé\u2028")
        assert_eq!(
            out,
            "\"a\\\"b\\\\c/d\\n\\r\\t\\b\\f\\u0001\\u001fé\u{2028}\""
        );
    }
}
