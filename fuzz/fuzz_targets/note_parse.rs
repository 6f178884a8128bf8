//! Any text: splitting a note never panics, printing it gives back the exact text, and the
//! section, block and frontmatter edits never panic and keep the body intact.
#![no_main]

use easel_vault::Note;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let note = Note::parse(text);
    assert_eq!(note.to_string(), text, "an untouched note must print as it was read");
    // Headings and block ids taken from the text itself, so the lookups find something.
    for line in text.lines().take(16) {
        if let Some(heading) = line.strip_prefix('#') {
            let _ = note.section(heading.trim_start_matches('#').trim());
        }
        if let Some((_, id)) = line.rsplit_once("^") {
            let _ = note.block(id.trim());
        }
    }
    let mut edited = note.clone();
    if edited.set("role", serde_json::Value::from("assistant")).is_ok() {
        let reparsed = Note::parse(&edited.to_string());
        assert_eq!(reparsed.body(), note.body(), "setting a property changed the body");
        assert_eq!(
            reparsed.get("role"),
            Some(&serde_json::Value::from("assistant")),
            "a property that was set must read back"
        );
    }
    let _ = edited.remove("role");
});
