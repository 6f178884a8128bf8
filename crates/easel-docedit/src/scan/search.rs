//! The scan of a document's elements for a query.

use regex::RegexBuilder;
use serde::{Deserialize, Serialize};

use super::{Query, structured};
use crate::document::Element;

/// One match: the element, the matched text, and why it matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanMatch {
    /// The element's id.
    pub id: String,
    /// The matched text, exactly as it is in the element's text.
    pub text: String,
    /// Why: `email`, `IBAN (check digits valid)`, `matches /regex/`, `contains "literal"`, ….
    pub why: String,
}

/// Every match of `query` in the elements' text, one entry per match, in element order. A
/// semantic query matches nothing here: the caller sends [`semantic_batches`] to a model.
pub fn scan(elements: &[Element], query: &Query) -> Vec<ScanMatch> {
    let mut matches = Vec::new();
    match query {
        Query::Kinds(kinds) => {
            for element in elements {
                for hit in structured(&element.text) {
                    if kinds.contains(&hit.kind) {
                        matches.push(found(element, hit.range, hit.kind.why().to_string()));
                    }
                }
            }
        }
        Query::Quoted(literal) => {
            let why = format!("contains \"{literal}\"");
            // A literal, so the only way this fails is a literal too large to compile.
            let Ok(re) = RegexBuilder::new(&regex::escape(literal))
                .case_insensitive(true)
                .size_limit(1 << 24)
                .build()
            else {
                tracing::warn!(
                    len = literal.len(),
                    "quoted scan text too long to search for"
                );
                return matches;
            };
            for element in elements {
                for m in re.find_iter(&element.text) {
                    matches.push(found(element, m.range(), why.clone()));
                }
            }
        }
        Query::Regex(re) => {
            let why = format!("matches /{}/", re.as_str());
            for element in elements {
                // An empty match (`/x*/`) shows the reader nothing to act on.
                for m in re.find_iter(&element.text).filter(|m| !m.is_empty()) {
                    matches.push(found(element, m.range(), why.clone()));
                }
            }
        }
        Query::Semantic(_) => {}
    }
    matches
}

fn found(element: &Element, range: std::ops::Range<usize>, why: String) -> ScanMatch {
    ScanMatch {
        id: element.id.clone(),
        text: element.text.get(range).unwrap_or_default().to_string(),
        why,
    }
}

/// The elements to ask a model about for a semantic query, in document order, in batches of
/// at most `max_chars` characters of text; an element longer than that is alone in its batch.
/// Elements without text are left out: there is nothing in them to judge.
pub fn semantic_batches(elements: &[Element], max_chars: usize) -> Vec<Vec<&Element>> {
    let mut batches: Vec<Vec<&Element>> = Vec::new();
    let mut current: Vec<&Element> = Vec::new();
    let mut size = 0;
    for element in elements {
        let len = element.text.chars().count();
        if element.text.trim().is_empty() {
            continue;
        }
        if !current.is_empty() && size + len > max_chars {
            batches.push(std::mem::take(&mut current));
            size = 0;
        }
        current.push(element);
        size += len;
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}
