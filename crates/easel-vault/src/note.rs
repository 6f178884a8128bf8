//! Markdown notes with YAML frontmatter, and the `#Heading` / `#^block` parts of a note.
//!
//! # The frontmatter rule
//!
//! A note has frontmatter when its text starts with a line `---` (the very first bytes, after
//! a byte order mark if there is one; `\r\n` line ends are accepted) and a later line is
//! exactly `---` (trailing spaces allowed). The YAML between them must be a mapping (or
//! empty). If the YAML does not parse, or is not a mapping, the note keeps a [`Frontmatter`]
//! whose [`Frontmatter::fields`] returns the error (so callers can warn) and **the whole text
//! is the body**, delimiters included; setting a field on such a note is refused rather than
//! overwriting the user's text. Without a closing `---` there is no frontmatter at all.
//!
//! The raw YAML text is kept until a field is changed, so an unmodified note serializes back
//! byte for byte, comments and formatting included. Changing a field re-renders the block from
//! the fields, in their original order, with new keys at the end.

use std::fmt;

use serde_json::{Map, Value};

/// Why a note's frontmatter could not be used.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum FrontmatterError {
    /// The text between the `---` lines is not valid YAML.
    #[error("the frontmatter is not valid YAML: {0}")]
    Yaml(String),
    /// The YAML is valid but is not a set of `key: value` properties.
    #[error("the frontmatter is YAML but not a set of 'key: value' properties")]
    NotAMapping,
    /// A value could not be written as YAML.
    #[error("cannot write the frontmatter as YAML: {0}")]
    Serialize(String),
}

impl FrontmatterError {
    /// What the user can do next.
    pub fn hint(&self) -> String {
        match self {
            FrontmatterError::Yaml(_) | FrontmatterError::NotAMapping => {
                "fix the YAML between the '---' lines at the top of the note (Obsidian's Properties view shows the problem)".into()
            }
            FrontmatterError::Serialize(_) => "use a value that YAML can hold (text, numbers, booleans, lists, maps)".into(),
        }
    }
}

/// The YAML block at the top of a note.
#[derive(Clone, Debug, PartialEq)]
pub struct Frontmatter {
    /// The block as it appears in the file, delimiters and final line end included.
    raw: String,
    fields: Result<Map<String, Value>, FrontmatterError>,
    crlf: bool,
}

impl Frontmatter {
    /// The properties, in file order, or why they could not be read.
    pub fn fields(&self) -> Result<&Map<String, Value>, FrontmatterError> {
        self.fields.as_ref().map_err(Clone::clone)
    }

    /// One property, if the frontmatter is valid and has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.as_ref().ok()?.get(key)
    }

    /// The block as it appears in the file (empty after the last field was removed).
    pub fn raw(&self) -> &str {
        &self.raw
    }

    fn render(&mut self) -> Result<(), FrontmatterError> {
        let fields = self.fields.as_ref().map_err(Clone::clone)?;
        if fields.is_empty() {
            self.raw.clear();
            return Ok(());
        }
        let yaml = serde_saphyr::to_string(fields)
            .map_err(|e| FrontmatterError::Serialize(e.to_string()))?;
        let mut raw = String::with_capacity(yaml.len() + 8);
        raw.push_str("---\n");
        raw.push_str(&yaml);
        if !yaml.ends_with('\n') {
            raw.push('\n');
        }
        raw.push_str("---\n");
        self.raw = if self.crlf {
            raw.replace('\n', "\r\n")
        } else {
            raw
        };
        Ok(())
    }
}

/// A Markdown note: optional frontmatter and a body. See the module documentation for the rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    frontmatter: Option<Frontmatter>,
    body: String,
}

impl Note {
    /// Split a note into frontmatter and body. Never fails; see the module documentation.
    pub fn parse(text: &str) -> Note {
        let Some((yaml, block_end)) = split_frontmatter(text) else {
            return Note {
                frontmatter: None,
                body: text.to_string(),
            };
        };
        let fields = parse_fields(yaml);
        let valid = fields.is_ok();
        let frontmatter = Frontmatter {
            raw: text[..block_end].to_string(),
            fields,
            crlf: text.trim_start_matches('\u{feff}').starts_with("---\r\n"),
        };
        let body = if valid { &text[block_end..] } else { text };
        Note {
            frontmatter: Some(frontmatter),
            body: body.to_string(),
        }
    }

    /// The frontmatter, if the note has a `---` block (valid or not).
    pub fn frontmatter(&self) -> Option<&Frontmatter> {
        self.frontmatter.as_ref()
    }

    /// The text after the frontmatter (the whole text when the frontmatter is invalid).
    pub fn body(&self) -> &str {
        &self.body
    }

    /// Replace the body, keeping the frontmatter.
    pub fn set_body(&mut self, body: impl Into<String>) {
        self.body = body.into();
    }

    /// One frontmatter property; `None` when absent or when the frontmatter is invalid.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.frontmatter.as_ref()?.get(key)
    }

    /// Set a frontmatter property (an existing key keeps its place; a new one goes last),
    /// creating the frontmatter if needed. Refused when the existing frontmatter is invalid.
    pub fn set(&mut self, key: &str, value: Value) -> Result<(), FrontmatterError> {
        let frontmatter = self.frontmatter.get_or_insert_with(|| Frontmatter {
            raw: String::new(),
            fields: Ok(Map::new()),
            crlf: false,
        });
        let fields = frontmatter.fields.as_mut().map_err(|e| e.clone())?;
        let previous = fields.insert(key.to_string(), value);
        if let Err(e) = frontmatter.render() {
            // Put the fields back so that the note still matches its text.
            if let Ok(fields) = frontmatter.fields.as_mut() {
                match previous {
                    Some(old) => {
                        fields.insert(key.to_string(), old);
                    }
                    None => {
                        fields.shift_remove(key);
                    }
                }
            }
            return Err(e);
        }
        Ok(())
    }

    /// Remove a frontmatter property, returning its value. Removing the last one removes the
    /// `---` block. Refused when the frontmatter is invalid.
    pub fn remove(&mut self, key: &str) -> Result<Option<Value>, FrontmatterError> {
        let Some(frontmatter) = self.frontmatter.as_mut() else {
            return Ok(None);
        };
        let fields = frontmatter.fields.as_mut().map_err(|e| e.clone())?;
        let removed = fields.shift_remove(key);
        if removed.is_some() {
            frontmatter.render()?;
        }
        Ok(removed)
    }

    /// The section under a heading, for `#Heading` subpaths: from the heading up to the next
    /// heading of the same or a higher level (or the end). A leading `#` is ignored and `A#B`
    /// means heading `B` inside section `A`, as in Obsidian links. Heading text must match
    /// exactly after trimming. Headings are found by a CommonMark parser
    /// ([`crate::markdown::headings`]): setext headings and closing hashes count, `#` lines in
    /// code blocks do not.
    pub fn section(&self, heading: &str) -> Option<&str> {
        let (from, to) = crate::markdown::section_range(&self.body, heading)?;
        Some(&self.body[from..to])
    }

    /// The block marked `^id`, for `#^id` subpaths, without the marker; see
    /// [`crate::markdown::block_range`]. A leading `^` in `id` is ignored.
    pub fn block(&self, id: &str) -> Option<&str> {
        let (from, to) = crate::markdown::block_range(&self.body, id)?;
        Some(&self.body[from..to])
    }
}

impl fmt::Display for Note {
    /// The note's text: byte for byte the parsed text while no field was changed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(frontmatter) = &self.frontmatter
            && frontmatter.fields.is_ok()
        {
            f.write_str(&frontmatter.raw)?;
        }
        f.write_str(&self.body)
    }
}

/// The YAML text and the end of the block (after the closing line's line end).
fn split_frontmatter(text: &str) -> Option<(&str, usize)> {
    // A byte order mark (left by some Windows editors) is not content: it stays in the raw
    // block while that is unchanged, and is dropped when the block is re-rendered.
    let bom = if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let yaml_start = if text[bom..].starts_with("---\n") {
        bom + 4
    } else if text[bom..].starts_with("---\r\n") {
        bom + 5
    } else {
        return None;
    };
    let mut pos = yaml_start;
    while pos <= text.len() {
        let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        let line = text[pos..line_end].trim_end();
        if line == "---" {
            let block_end = (line_end + 1).min(text.len());
            return Some((&text[yaml_start..pos], block_end));
        }
        if line_end == text.len() {
            return None;
        }
        pos = line_end + 1;
    }
    None
}

fn parse_fields(yaml: &str) -> Result<Map<String, Value>, FrontmatterError> {
    if yaml.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_saphyr::from_str::<Value>(yaml) {
        Ok(Value::Object(map)) => Ok(map),
        // A block of only comments is an empty document.
        Ok(Value::Null) => Ok(Map::new()),
        Ok(_) => Err(FrontmatterError::NotAMapping),
        Err(e) => Err(FrontmatterError::Yaml(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn unmodified_notes_round_trip_byte_for_byte() {
        for text in [
            "",
            "no frontmatter\n",
            "---\ntitle: A  # comment\ntags: [a, b]\n---\nBody\n",
            "---\r\nrole: system\r\n---\r\nBody\r\n",
            "---\n---\n",
            "---\nonly: yaml\n---",
            "---\nnot closed\n",
            "---\n: bad: yaml: [\n---\nbody",
            "----\nnot: frontmatter\n----\n",
        ] {
            assert_eq!(Note::parse(text).to_string(), text, "{text:?}");
        }
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_frontmatter() {
        let text = "\u{feff}---\r\nrole: system\r\n---\r\nBody";
        let mut note = Note::parse(text);
        assert_eq!(note.get("role"), Some(&json!("system")));
        assert_eq!(note.body(), "Body");
        assert_eq!(note.to_string(), text);
        note.set("model", json!("local:smollm2")).unwrap();
        assert!(
            note.to_string()
                .starts_with("---\r\nrole: system\r\nmodel: local:smollm2\r\n---\r\n")
        );
    }

    #[test]
    fn reads_fields_in_order() {
        let note = Note::parse("---\nzeta: 1\nalpha: two\nrole: System\n---\n\nHello\n");
        let keys: Vec<_> = note
            .frontmatter()
            .unwrap()
            .fields()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["zeta", "alpha", "role"]);
        assert_eq!(note.get("role"), Some(&json!("System")));
        assert_eq!(note.body(), "\nHello\n");
    }

    #[test]
    fn invalid_yaml_makes_the_whole_text_the_body() {
        let text = "---\nrole: [unclosed\n---\nHello\n";
        let mut note = Note::parse(text);
        assert!(matches!(
            note.frontmatter().unwrap().fields(),
            Err(FrontmatterError::Yaml(_))
        ));
        assert_eq!(note.body(), text);
        assert_eq!(note.get("role"), None);
        assert!(note.set("role", json!("user")).is_err());
        assert_eq!(note.to_string(), text);
    }

    #[test]
    fn empty_or_comment_only_frontmatter_has_no_fields() {
        for text in [
            "---\n---\nBody",
            "---\n# just a comment\n---\nBody",
            "---\n\n---\nBody",
        ] {
            let note = Note::parse(text);
            assert!(
                note.frontmatter().unwrap().fields().unwrap().is_empty(),
                "{text:?}"
            );
            assert_eq!(note.body(), "Body");
        }
    }

    #[test]
    fn non_mapping_yaml_is_reported() {
        let note = Note::parse("---\n- a\n- b\n---\nx");
        assert_eq!(
            note.frontmatter().unwrap().fields(),
            Err(FrontmatterError::NotAMapping)
        );
        assert_eq!(note.body(), "---\n- a\n- b\n---\nx");
    }

    #[test]
    fn set_keeps_order_and_unknown_keys() {
        let mut note = Note::parse("---\nb: 1\nplugin: {x: [1, 2]}\na: 3\n---\nBody");
        note.set("plugin", json!("replaced")).unwrap();
        note.set("new", json!(true)).unwrap();
        let reparsed = Note::parse(&note.to_string());
        let keys: Vec<_> = reparsed
            .frontmatter()
            .unwrap()
            .fields()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["b", "plugin", "a", "new"]);
        assert_eq!(reparsed.get("plugin"), Some(&json!("replaced")));
        assert_eq!(reparsed.body(), "Body");
    }

    #[test]
    fn set_on_a_plain_note_creates_frontmatter() {
        let mut note = Note::parse("Hello");
        note.set("role", json!("assistant")).unwrap();
        assert_eq!(note.to_string(), "---\nrole: assistant\n---\nHello");
    }

    #[test]
    fn crlf_notes_stay_crlf_when_changed() {
        let mut note = Note::parse("---\r\na: 1\r\n---\r\nBody\r\n");
        note.set("b", json!(2)).unwrap();
        let text = note.to_string();
        assert!(
            text.starts_with("---\r\na: 1\r\nb: 2\r\n---\r\n"),
            "{text:?}"
        );
        assert!(!text.replace("\r\n", "").contains('\n'));
    }

    #[test]
    fn removing_the_last_field_removes_the_block() {
        let mut note = Note::parse("---\na: 1\n---\nBody");
        assert_eq!(note.remove("a").unwrap(), Some(json!(1)));
        assert_eq!(note.remove("a").unwrap(), None);
        assert_eq!(note.to_string(), "Body");
    }

    #[test]
    fn remove_keeps_the_order_of_the_rest() {
        let mut note = Note::parse("---\na: 1\nb: 2\nc: 3\nd: 4\n---\n");
        note.remove("a").unwrap();
        assert_eq!(note.to_string(), "---\nb: 2\nc: 3\nd: 4\n---\n");
    }

    const DOC: &str = "intro\n# Top\ntop text\n## Sub\nsub text ^sub-id\n```\n# not a heading\n```\n### Deep\ndeep\n## Other\nother\n# Next\n- item one\n- item two\n  continued ^item\n\n| a | b |\n|---|---|\n\n^table\n";

    #[test]
    fn sections_end_at_the_next_heading_of_the_same_or_higher_level() {
        let note = Note::parse(DOC);
        assert_eq!(
            note.section("Sub"),
            Some("## Sub\nsub text ^sub-id\n```\n# not a heading\n```\n### Deep\ndeep\n")
        );
        assert_eq!(note.section("#Other"), Some("## Other\nother\n"));
        assert!(note.section("Top").unwrap().ends_with("other\n"));
        assert_eq!(note.section("Top#Deep"), Some("### Deep\ndeep\n"));
        assert_eq!(note.section("Next#Deep"), None);
        assert_eq!(note.section("not a heading"), None);
        assert_eq!(note.section("Missing"), None);
        assert_eq!(note.section(""), None);
    }

    #[test]
    fn blocks_are_found_without_their_marker() {
        let note = Note::parse(DOC);
        assert_eq!(note.block("sub-id"), Some("sub text"));
        assert_eq!(note.block("^item"), Some("- item two\n  continued"));
        assert_eq!(note.block("table"), Some("| a | b |\n|---|---|"));
        assert_eq!(note.block("missing"), None);
        assert_eq!(note.block("sub"), None);
        assert_eq!(note.block(""), None);
    }

    #[test]
    fn paragraph_blocks_span_their_lines() {
        let note = Note::parse("first\n\nline one\nline two ^p\n```\ncode ^c\n```\n");
        assert_eq!(note.block("p"), Some("line one\nline two"));
        assert_eq!(
            note.block("c"),
            None,
            "markers inside code blocks do not count"
        );
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            "[ -~]{0,20}".prop_map(Value::from),
            "[a-zé€\\n]{0,10}".prop_map(Value::from),
            // Text that YAML would read as something else unless it is quoted.
            prop::sample::select(vec![
                "null", "~", "true", "no", "1e3", "0x10", "012", "- a", ": x", "#c", "'q'",
                "\"dq\"", "", " lead", "a: b", "[x]", "{y}", "*ref", "&anchor", "!tag", "---",
                "..."
            ])
            .prop_map(Value::from),
            (-1.0e12f64..1.0e12).prop_map(Value::from),
        ];
        leaf.prop_recursive(2, 8, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::vec(("[a-z]{1,6}", inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn set_fields_survive_a_write_and_reparse(
            fields in proptest::collection::vec(("[a-zA-Z0-9 _:#-]{1,10}", value()), 1..6),
            body in "([a-z #\\n][ -~\\n]{0,40})?",
        ) {
            let mut note = Note::parse(&body);
            let mut expected = Map::new();
            for (k, v) in fields {
                note.set(&k, v.clone()).unwrap();
                expected.insert(k, v);
            }
            let text = note.to_string();
            let reparsed = Note::parse(&text);
            prop_assert_eq!(reparsed.frontmatter().unwrap().fields().unwrap(), &expected);
            prop_assert_eq!(reparsed.body(), body.as_str());
            prop_assert_eq!(reparsed.to_string(), text);
        }

        #[test]
        fn arbitrary_text_never_panics(
            text in "(---\\r?\\n)?(\\PC|[\\r\\n#^`~ -]){0,120}",
            query in "[#^]?(\\PC|[#^ ]){0,12}",
        ) {
            let note = Note::parse(&text);
            prop_assert_eq!(note.to_string(), text);
            if let Some(section) = note.section(&query) {
                prop_assert!(note.body().contains(section));
            }
            if let Some(block) = note.block(&query) {
                prop_assert!(note.body().contains(block));
            }
        }

        #[test]
        fn parse_then_print_is_identity(text in "(---\\r?\\n)?[ -~\\n]{0,60}(\\n---\\n)?[ -~\\n]{0,20}") {
            prop_assert_eq!(Note::parse(&text).to_string(), text);
        }
    }
}
