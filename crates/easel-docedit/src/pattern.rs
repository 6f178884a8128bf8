//! Turning a `find` text or a `pattern` into a regular expression.

use regex::{Regex, RegexBuilder};

use crate::error::DocError;

/// A regex that finds `literal` with any run of whitespace standing for any other (texts are
/// compared as a reader sees them, and line breaks in the source do not show).
pub(crate) fn literal(literal: &str, case_sensitive: bool) -> Result<Regex, DocError> {
    let words: Vec<String> = literal.split_whitespace().map(regex::escape).collect();
    if words.is_empty() {
        return Err(DocError::Invalid {
            message: "the text to find is empty".into(),
            hint: "give the text to find, for example \"ACME Corp\"".into(),
        });
    }
    let mut source = words.join(r"\s+");
    if literal.starts_with(char::is_whitespace) {
        source.insert_str(0, r"\s+");
    }
    if literal.ends_with(char::is_whitespace) {
        source.push_str(r"\s+");
    }
    build(&source, !case_sensitive, literal)
}

/// One regex that finds any of `texts` (each as [`literal`] finds it), the longest first where
/// two start at the same place; `None` when there is nothing to find. One regex rather than one
/// per text: a bulk redaction can have thousands.
pub(crate) fn any_of(texts: &[String]) -> Result<Option<Regex>, DocError> {
    let mut sorted: Vec<&String> = texts.iter().filter(|t| !t.trim().is_empty()).collect();
    if sorted.is_empty() {
        return Ok(None);
    }
    sorted.sort_by_key(|t| std::cmp::Reverse(t.len()));
    let source = sorted
        .iter()
        .map(|t| {
            let words: Vec<String> = t.split_whitespace().map(regex::escape).collect();
            format!("(?:{})", words.join(r"\s+"))
        })
        .collect::<Vec<_>>()
        .join("|");
    RegexBuilder::new(&source)
        .case_insensitive(true)
        .size_limit(1 << 26)
        .build()
        .map(Some)
        .map_err(|e| DocError::Invalid {
            message: format!("the redacted texts are too many to search for at once: {e}"),
            hint: "redact fewer elements at a time".into(),
        })
}

/// `redact_all_matching`'s pattern: `/regex/` or `/regex/i`, else a plain text matched without
/// regard to case (a redaction errs on the side of finding more).
pub(crate) fn redaction(pattern: &str) -> Result<Regex, DocError> {
    let trimmed = pattern.trim();
    if let Some(body) = trimmed.strip_prefix('/') {
        let (body, insensitive) = match body.strip_suffix("/i") {
            Some(b) => (b, true),
            None => match body.strip_suffix('/') {
                Some(b) => (b, false),
                None => return literal(pattern, false),
            },
        };
        if body.is_empty() {
            return Err(DocError::BadPattern {
                pattern: pattern.into(),
                reason: "the regular expression is empty".into(),
            });
        }
        let re = build(body, insensitive, pattern)?;
        if re.is_match("") {
            return Err(DocError::BadPattern {
                pattern: pattern.into(),
                reason: "it matches the empty text, so it would match everywhere".into(),
            });
        }
        return Ok(re);
    }
    literal(pattern, false)
}

fn build(source: &str, insensitive: bool, given: &str) -> Result<Regex, DocError> {
    RegexBuilder::new(source)
        .case_insensitive(insensitive)
        .size_limit(1 << 22)
        .build()
        .map_err(|e| DocError::BadPattern {
            pattern: given.into(),
            reason: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_matches_across_line_breaks_and_case() {
        let re = literal("Acme corp", false).unwrap();
        assert!(re.is_match("the ACME\n   Corp."));
        assert!(!literal("Acme corp", true).unwrap().is_match("ACME corp"));
    }

    #[test]
    fn any_of_prefers_the_longest_text() {
        let re = any_of(&["jane".into(), "Jane  Doe".into()])
            .unwrap()
            .unwrap();
        assert_eq!(re.find("to jane\ndoe").unwrap().as_str(), "jane\ndoe");
        assert!(any_of(&[" ".into()]).unwrap().is_none());
    }

    #[test]
    fn slashes_make_a_regex_with_flags() {
        assert!(redaction("/\\d{4}/").unwrap().is_match("in 2026"));
        assert!(redaction("/secret/i").unwrap().is_match("SECRET"));
        assert!(!redaction("/secret/").unwrap().is_match("SECRET"));
        assert!(redaction("a.b").unwrap().is_match("A.B"));
        assert!(!redaction("a.b").unwrap().is_match("axb"));
        assert!(matches!(redaction("/(/"), Err(DocError::BadPattern { .. })));
        assert!(matches!(
            redaction("/x*/"),
            Err(DocError::BadPattern { .. })
        ));
        assert!(matches!(literal("  ", true), Err(DocError::Invalid { .. })));
    }
}
