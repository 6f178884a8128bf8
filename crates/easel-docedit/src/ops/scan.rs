//! `doc_scan`: the elements a query concerns, and why.

use std::sync::Arc;

use easel_llm::Event;
use easel_llm::ops::Models;
use easel_ops::{Ctx, Effect, Op, OpError};
use futures_util::StreamExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::read_doc;
use crate::scan::ScanMatch;
use crate::semantic::scan_elements;

/// `doc_scan`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocScanInput {
    /// Document path relative to the vault (.html, .htm or .md).
    pub path: String,
    /// What to find: "emails", "phone numbers", "IBANs", "card numbers", "dates", "amounts", "all numbers", a "quoted literal", a /regex/, or a description the model judges.
    pub query: String,
    /// The model for descriptions, e.g. "local:smollm2" (default: the configured one).
    #[serde(default)]
    pub model: Option<String>,
}

/// What `doc_scan` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocScanOutput {
    /// The vault-relative path.
    pub path: String,
    /// The revision scanned.
    pub rev: String,
    /// One entry per match, in document order.
    pub matches: Vec<ScanMatch>,
}

/// Finds the elements a query concerns.
pub struct DocScan {
    models: Arc<Models>,
}

impl DocScan {
    /// `models` answers the queries patterns cannot.
    pub fn new(models: Arc<Models>) -> DocScan {
        DocScan { models }
    }
}

impl Op for DocScan {
    type Input = DocScanInput;
    type Output = DocScanOutput;
    const NAME: &'static str = "doc_scan";
    const TITLE: &'static str = "Find elements in a document";
    const DESCRIPTION: &'static str = "Find the elements of a document that a query concerns, each with the matched text and why: emails, phone numbers, URLs, IBANs (check digits verified), card numbers (Luhn-checked), dates, amounts of money, numbers, a \"quoted literal\" or a /regex/ are found by patterns; any other description (\"paragraphs about the merger\") is judged by a model. Use it before editing many elements one by one.\n\
Example: {\"path\": \"Lease.html\", \"query\": \"phone numbers\"}";
    // A description is sent to a model.
    const EFFECT: Effect = Effect::External;

    fn run(&self, ctx: &Ctx, input: DocScanInput) -> Result<DocScanOutput, OpError> {
        let (p, doc, rev) = read_doc(ctx, &input.path)?;
        let models = self.models.clone();
        let mut ask = |prompt: &str| -> Result<String, OpError> {
            let llm = models.llm(ctx)?;
            let model = input
                .model
                .clone()
                .unwrap_or_else(|| llm.config().default_model.clone());
            let req = crate::semantic::judge_request(prompt);
            models.block_on(async {
                let mut events = llm.stream(Some(&model), req).await.map_err(OpError::from)?;
                let mut text = String::new();
                while let Some(event) = events.next().await {
                    if let Event::TextDelta { text: t } = event.map_err(OpError::from)? {
                        text.push_str(&t);
                    }
                }
                Ok(text)
            })?
        };
        let matches = scan_elements(doc.elements(), &input.query, &mut ask)?;
        Ok(DocScanOutput {
            path: p.as_str().to_string(),
            rev: rev.to_string(),
            matches,
        })
    }
}
