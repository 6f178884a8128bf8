//! `scan_document` for what patterns cannot express ("paragraphs that mention the merger"):
//! a model judges the elements, a batch at a time, and names the ids that match. The answer is
//! data: only ids of the batch it was shown count.

use std::collections::HashSet;

use easel_ops::OpError;

use crate::document::Element;
use crate::scan::{self, Query, ScanMatch};

/// How many characters of element text one model call judges.
pub const BATCH_CHARS: usize = 3_000;

/// The request for one batch: greedy (the same elements judged the same way every time) and
/// short, since the answer is a list of ids.
pub fn judge_request(prompt: &str) -> easel_llm::Request {
    let mut req = easel_llm::Request::prompt(prompt.to_string());
    req.sampling.temperature = Some(0.0);
    req.max_tokens = Some(96);
    req
}

/// The elements `query` concerns: the deterministic scanner for what it recognises, else
/// `ask` (one prompt in, the model's answer out) over batches of elements.
pub fn scan_elements(
    elements: &[Element],
    query: &str,
    ask: &mut dyn FnMut(&str) -> Result<String, OpError>,
) -> Result<Vec<ScanMatch>, OpError> {
    let parsed = scan::parse_query(query).map_err(|e| OpError::from_diagnose(&e))?;
    match parsed {
        Query::Semantic(what) => judge(elements, &what, ask),
        other => Ok(scan::scan(elements, &other)),
    }
}

fn judge(
    elements: &[Element],
    query: &str,
    ask: &mut dyn FnMut(&str) -> Result<String, OpError>,
) -> Result<Vec<ScanMatch>, OpError> {
    let mut out = Vec::new();
    for batch in scan::semantic_batches(elements, BATCH_CHARS) {
        let mut prompt = format!(
            "Which of these document elements match this description: {query}\n\nElements:\n"
        );
        for e in &batch {
            prompt.push_str(&format!("[{}] {}\n", e.id, e.text));
        }
        prompt.push_str(
            "\nAnswer with the ids of the matching elements only, separated by spaces (for example: b2 b5), or NONE.",
        );
        let answer = ask(&prompt)?;
        let ids: HashSet<&str> = answer
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .filter(|t| !t.is_empty())
            .collect();
        for e in batch {
            if ids.contains(e.id.as_str()) {
                out.push(ScanMatch {
                    id: e.id.clone(),
                    text: clip(&e.text, 120),
                    why: format!("the model judged that it matches \"{query}\""),
                });
            }
        }
    }
    Ok(out)
}

fn clip(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
