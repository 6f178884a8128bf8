//! `scan_document`: which elements a query concerns, and why.
//!
//! The deterministic scanner recognises structured data (emails, phone numbers, URLs, IBANs,
//! card numbers, dates, amounts of money, plain numbers), a quoted literal and a `/regex/`.
//! A query that names none of these ("paragraphs that mention the merger") is semantic: the
//! caller asks a model, element by element in batches ([`semantic_batches`]).
//!
//! Each kind has its own recogniser, which proposes candidates with their exact bytes;
//! [`structured`] then keeps, where candidates overlap, the one of the more specific kind.

use std::ops::Range;

use serde::Serialize;

mod bounds;
mod card;
mod date;
mod email;
mod iban;
mod money;
mod number;
mod phone;
mod query;
mod resolve;
mod search;
mod url;

pub use query::{Query, parse_query};
pub use search::{ScanMatch, scan, semantic_batches};

/// What kind of thing a hit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `name@example.com`
    Email,
    /// International (`+44 20 7946 0958`) and national (`(212) 555-0100`, `030 1234567`) forms.
    Phone,
    /// `https://…`, `www.…`
    Url,
    /// An IBAN whose check digits are right.
    Iban,
    /// A card number that passes the Luhn check.
    Card,
    /// `2026-11-27`, `27/11/2026`, `27 November 2026`, `Nov 27, 2026`, …
    Date,
    /// `$1,200.50`, `€ 300`, `1.200,00 EUR`, …
    Money,
    /// Any other number.
    Number,
    /// The literal of a quoted query.
    Quoted,
    /// A match of a `/regex/` query.
    Regex,
}

impl Kind {
    /// The kinds [`structured`] finds, from the most specific to the least.
    pub const STRUCTURED: [Kind; 8] = [
        Kind::Url,
        Kind::Email,
        Kind::Iban,
        Kind::Card,
        Kind::Date,
        Kind::Money,
        Kind::Phone,
        Kind::Number,
    ];

    /// The kinds a user means by "numbers": every structured kind made of digits.
    pub const NUMERIC: [Kind; 6] = [
        Kind::Phone,
        Kind::Iban,
        Kind::Card,
        Kind::Date,
        Kind::Money,
        Kind::Number,
    ];

    /// The kinds a user means by "personal data".
    pub const PERSONAL: [Kind; 4] = [Kind::Email, Kind::Phone, Kind::Iban, Kind::Card];

    /// What a match of this kind is, as a reader says it: the `why` of a scan match.
    pub fn why(self) -> &'static str {
        match self {
            Kind::Email => "email",
            Kind::Phone => "phone number",
            Kind::Url => "URL",
            Kind::Iban => "IBAN (check digits valid)",
            Kind::Card => "card number (Luhn check passed)",
            Kind::Date => "date",
            Kind::Money => "amount of money",
            Kind::Number => "number",
            Kind::Quoted => "quoted text",
            Kind::Regex => "regular expression",
        }
    }
}

/// One structured piece found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Its bytes in the text.
    pub range: Range<usize>,
    /// What it is.
    pub kind: Kind,
}

/// Every structured piece (emails, phones, URLs, IBANs, cards, dates, money, numbers) of
/// `text`, in order, not overlapping: where two kinds claim the same bytes the more specific
/// wins (a card number is not also a number), in the order of [`Kind::STRUCTURED`].
pub fn structured(text: &str) -> Vec<Hit> {
    let mut candidates = Vec::new();
    // Text shaped like an IBAN or a card that fails its check: no less specific kind (a phone
    // number in `DE88 3704 0044 0532 0130 00`) may claim its bytes; its numbers stay numbers.
    let mut misses = Vec::new();
    // Most elements hold few digits: a recogniser runs only where its kind could be, which is
    // most of the scanner's speed on a whole document.
    let digits = bounds::digit_count(text);
    let bytes = text.as_bytes();
    if text.contains("://") || bytes.windows(4).any(|w| w.eq_ignore_ascii_case(b"www.")) {
        url::find(text, &mut candidates);
    }
    email::find(text, &mut candidates);
    if digits >= 2 {
        iban::find(text, &mut candidates, &mut misses);
    }
    if digits >= 13 {
        card::find(text, &mut candidates, &mut misses);
    }
    if digits >= 4 {
        date::find(text, &mut candidates);
    }
    if digits >= 7 {
        phone::find(text, &mut candidates);
    }
    if digits >= 1 {
        money::find(text, &mut candidates);
        number::find(text, &mut candidates);
    }
    candidates.retain(|h| {
        h.kind == Kind::Number
            || !misses.iter().any(|m| {
                resolve::rank(h.kind) > resolve::rank(m.kind)
                    && m.range.start < h.range.end
                    && h.range.start < m.range.end
            })
    });
    resolve::keep_most_specific(candidates)
}

#[cfg(test)]
mod tests;
