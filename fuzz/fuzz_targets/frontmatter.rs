//! The YAML frontmatter of notes and agent files: any frontmatter text, with any key and value,
//! parses without panicking, and a property that can be set reads back as set, leaves the body
//! and the other properties alone, and can be removed again.
//!
//! Input: `YAML \0 KEY \0 VALUE`; VALUE is taken as JSON when it parses, else as a string.
#![no_main]

use easel_vault::Note;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = input.splitn(3, '\0');
    let yaml = parts.next().unwrap_or_default();
    let key = parts.next().unwrap_or("status");
    let raw_value = parts.next().unwrap_or("draft");
    let value = serde_json::from_str::<Value>(raw_value)
        .unwrap_or_else(|_| Value::from(raw_value));
    let body = "Body text.\n\n## Section\nmore\n";
    let text = format!("---\n{yaml}\n---\n{body}");

    let note = Note::parse(&text);
    assert_eq!(note.to_string(), text, "an untouched note must print as it was read");
    let before = note.frontmatter().and_then(|f| f.fields().ok()).cloned();
    if let Some(fields) = &before {
        for (k, v) in fields {
            assert_eq!(note.get(k), Some(v), "a listed property must be found by its key");
        }
    }

    let mut edited = note.clone();
    if edited.set(key, value.clone()).is_err() {
        return;
    }
    let printed = edited.to_string();
    let reparsed = Note::parse(&printed);
    assert_eq!(reparsed.body(), note.body(), "setting a property changed the body");
    assert_eq!(reparsed.get(key), Some(&value), "a property that was set must read back");
    if let Some(fields) = &before {
        for (k, v) in fields.iter().filter(|(k, _)| k.as_str() != key) {
            assert_eq!(reparsed.get(k), Some(v), "setting {key:?} changed {k:?}");
        }
    }

    let mut removed = reparsed.clone();
    match removed.remove(key) {
        Ok(old) => {
            assert_eq!(old.as_ref(), Some(&value), "remove must return what was set");
            let again = Note::parse(&removed.to_string());
            assert_eq!(again.get(key), None, "a removed property must be gone");
            assert_eq!(again.body(), note.body(), "removing a property changed the body");
        }
        Err(e) => panic!("a property that could be set could not be removed: {e}"),
    }
});
