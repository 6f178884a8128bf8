//! What a `scan_document` query asks for: kinds of structured data in plain English, a quoted
//! literal, a `/regex/`, or anything else (semantic, for a model).

use regex::{Regex, RegexBuilder};

use super::Kind;
use crate::error::DocError;

/// A parsed query.
#[derive(Clone, Debug)]
pub enum Query {
    /// Structured kinds: "emails", "phone numbers", "all numbers", "personal data" (email,
    /// phone, IBAN, card), "dates and amounts", ….
    Kinds(Vec<Kind>),
    /// A literal, from `"Project X"` or `'Project X'`; matched ignoring case.
    Quoted(String),
    /// A `/regex/flags` (flags `i`, `m`, `s`, `x`, `U`).
    Regex(Regex),
    /// Anything else: for a model to judge ("paragraphs that mention the merger").
    Semantic(String),
}

/// The largest compiled program a query's regex may make: a pattern is typed by a person or a
/// model, and one that compiles to more is a mistake, not a need.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Reads a query. Fails only for an empty query, an empty quote or a bad `/regex/`.
pub fn parse_query(q: &str) -> Result<Query, DocError> {
    let q = q.trim();
    if q.is_empty() {
        return Err(DocError::Invalid {
            message: "the scan query is empty".into(),
            hint: "name what to find: a kind (\"emails\", \"phone numbers\"), a \"quoted text\", \
                   a /regex/, or describe it in words"
                .into(),
        });
    }
    if let Some((pattern, flags)) = slashed(q) {
        return compile(q, pattern, flags).map(Query::Regex);
    }
    if let Some(literal) = quoted(q) {
        if literal.trim().is_empty() {
            return Err(DocError::Invalid {
                message: "the quoted text of the scan query is empty".into(),
                hint: "put the text to find between the quotes, like \"Project X\"".into(),
            });
        }
        return Ok(Query::Quoted(literal.to_string()));
    }
    match kinds(q) {
        Some(kinds) => Ok(Query::Kinds(kinds)),
        None => Ok(Query::Semantic(q.to_string())),
    }
}

/// `/pattern/flags`: the whole query, or its end after a word ("lines matching /ACME/i").
fn slashed(q: &str) -> Option<(&str, &str)> {
    let close = q.rfind('/')?;
    let flags = &q[close + 1..];
    if !flags.chars().all(|c| "imsxU".contains(c)) {
        return None;
    }
    // The opening slash: the first one that starts the query or follows a space.
    let open = q[..close]
        .char_indices()
        .find(|&(i, c)| c == '/' && (i == 0 || q[..i].ends_with(char::is_whitespace)))?
        .0;
    Some((&q[open + 1..close], flags))
}

fn compile(query: &str, pattern: &str, flags: &str) -> Result<Regex, DocError> {
    let bad = |reason: String| DocError::BadPattern {
        pattern: query.to_string(),
        reason,
    };
    if pattern.is_empty() {
        return Err(bad("the pattern between the slashes is empty".into()));
    }
    let mut builder = RegexBuilder::new(pattern);
    builder.size_limit(REGEX_SIZE_LIMIT);
    for flag in flags.chars() {
        match flag {
            'i' => builder.case_insensitive(true),
            'm' => builder.multi_line(true),
            's' => builder.dot_matches_new_line(true),
            'x' => builder.ignore_whitespace(true),
            _ => builder.swap_greed(true),
        };
    }
    builder.build().map_err(|e| bad(first_line(&e.to_string())))
}

/// The regex engine's complaint without its drawing of the pattern.
fn first_line(message: &str) -> String {
    message
        .lines()
        .rev()
        .find(|l| l.starts_with("error:"))
        .map_or(message, |l| l.trim_start_matches("error:").trim())
        .to_string()
}

/// The quoted literal: the first text between double quotes (straight or curly) anywhere, or
/// between single quotes that stand apart from words (`'Project X'`, not `client's`).
fn quoted(q: &str) -> Option<&str> {
    for (open, close) in [('"', '"'), ('\u{201c}', '\u{201d}'), ('\u{ab}', '\u{bb}')] {
        if let Some(start) = q.find(open) {
            let inner = start + open.len_utf8();
            if let Some(len) = q[inner..].find(close) {
                return Some(&q[inner..inner + len]);
            }
        }
    }
    for (open, close) in [('\'', '\''), ('\u{2018}', '\u{2019}')] {
        let starts = q
            .char_indices()
            .filter(|&(i, c)| c == open && (i == 0 || q[..i].ends_with(char::is_whitespace)));
        for (start, _) in starts {
            let inner = start + open.len_utf8();
            let mut ends = q[inner..].char_indices().filter(|&(i, c)| {
                let after = inner + i + c.len_utf8();
                c == close
                    && i > 0
                    && q[after..]
                        .chars()
                        .next()
                        .is_none_or(|n| !n.is_alphanumeric())
            });
            if let Some((len, _)) = ends.next_back() {
                return Some(&q[inner..inner + len]);
            }
        }
    }
    None
}

/// The kinds a plain-English query names, if it names some and nothing else but filler;
/// `None` for a query that describes something (`paragraphs that mention payment`, `names and
/// phone numbers`).
fn kinds(q: &str) -> Option<Vec<Kind>> {
    let lower = q.to_lowercase().replace("e-mail", "email");
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut found: Vec<Kind> = Vec::new();
    let mut leftover = 0;
    for (i, word) in words.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|p| words.get(p)).copied();
        let next = words.get(i + 1).copied();
        if DESCRIBING.contains(word) {
            return None;
        }
        match named_kinds(word, prev, next) {
            Some(named) => found.extend(named),
            None if FILLER.contains(word) => {}
            None => leftover += 1,
        }
    }
    // Any other word ("names and phone numbers") asks for more than kinds: the model sees it.
    if found.is_empty() || leftover > 0 {
        return None;
    }
    let mut kinds = Vec::new();
    for kind in found {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    Some(kinds)
}

/// Words that make a query a description for a model, whatever kinds it names.
#[rustfmt::skip]
const DESCRIBING: &[&str] = &[
    "mention", "mentions", "mentioning", "mentioned", "about", "discuss", "discusses",
    "discussing", "describe", "describes", "describing", "regarding", "concerning", "related",
    "relating", "refer", "refers", "referring", "talk", "talks", "talking", "explain", "explains",
    "seem", "seems", "look", "looks", "like", "similar", "unless", "except", "but", "not",
    "without",
];

/// Words a kind query carries besides the kinds, including whose data it is ("the client's
/// emails"): that does not narrow what the scanner can tell.
#[rustfmt::skip]
const FILLER: &[&str] = &[
    "redact", "remove", "hide", "find", "show", "list", "highlight", "mark", "delete", "scan",
    "search", "for", "all", "every", "each", "any", "the", "a", "an", "and", "or", "of", "in",
    "on", "with", "that", "which", "containing", "contain", "contains", "include", "includes",
    "including", "elements", "element", "paragraphs", "paragraph", "lines", "line", "sentences",
    "sentence", "text", "document", "this", "these", "please", "me", "them", "blocks", "block",
    "cells", "cell", "rows", "row", "items", "item", "where", "there", "is", "are", "has", "have",
    "such", "as", "other", "plus", "also", "address", "addresses", "details", "detail", "info",
    "information", "data", "out", "black", "blank", "strip", "anonymise", "anonymize", "mask",
    "scrub", "get", "give", "s", "their", "its", "my", "our", "your", "from", "to", "too", "both",
    "well", "what", "written", "kind", "kinds", "type", "types", "sort", "sorts", "everything",
    "everywhere", "appear", "appears", "client", "clients", "customer", "customers", "user",
    "users", "people", "person", "persons", "employee", "employees", "staff", "everyone", "anyone",
    "someone", "party", "parties", "supplier", "suppliers", "patient", "patients",
];

/// The kinds one word names, given its neighbours ("phone numbers" is not "all numbers"):
/// empty for a word of a kind's name that the other word names (`credit` of `credit card`),
/// `None` for a word that names no kind.
fn named_kinds(word: &str, prev: Option<&str>, next: Option<&str>) -> Option<Vec<Kind>> {
    let numbered = |w: Option<&str>| {
        w.is_some_and(|w| {
            matches!(
                w,
                "phone"
                    | "telephone"
                    | "tel"
                    | "mobile"
                    | "cell"
                    | "fax"
                    | "card"
                    | "credit"
                    | "debit"
                    | "account"
                    | "iban"
                    | "bank"
                    | "contact"
            )
        })
    };
    Some(match word {
        "email" | "emails" | "mail" | "mails" | "emailaddress" | "emailaddresses" => {
            vec![Kind::Email]
        }
        "phone" | "phones" | "telephone" | "telephones" | "tel" | "mobile" | "mobiles" | "fax"
        | "phonenumber" | "phonenumbers" => vec![Kind::Phone],
        "cell" if next.is_some_and(|n| n.starts_with("phone") || n.starts_with("number")) => {
            vec![Kind::Phone]
        }
        "url" | "urls" | "uri" | "uris" | "link" | "links" | "hyperlink" | "hyperlinks"
        | "website" | "websites" | "webpage" | "webpages" => vec![Kind::Url],
        "web"
            if next.is_some_and(|n| matches!(n, "address" | "addresses" | "site" | "sites"))
                || prev.is_none() =>
        {
            vec![Kind::Url]
        }
        "iban" | "ibans" => vec![Kind::Iban],
        "bank" | "banking" => vec![Kind::Iban],
        "account" | "accounts"
            if next.is_some_and(|n| n.starts_with("number")) || prev == Some("bank") =>
        {
            vec![Kind::Iban]
        }
        "card" | "cards" | "creditcard" | "creditcards" | "visa" | "mastercard" | "amex" => {
            vec![Kind::Card]
        }
        "credit" | "debit" | "payment" if next.is_some_and(|n| n.starts_with("card")) => vec![],
        "number" | "numbers" if numbered(prev) => vec![],
        "date" | "dates" | "birthday" | "birthdays" | "birthdate" | "birthdates" | "dob"
        | "deadline" | "deadlines" => vec![Kind::Date],
        "amount" | "amounts" | "money" | "monetary" | "price" | "prices" | "cost" | "costs"
        | "sum" | "sums" | "currency" | "currencies" | "salary" | "salaries" | "fee" | "fees"
        | "payment" | "payments" | "dollar" | "dollars" | "euro" | "euros" | "pound" | "pounds"
        | "totals" | "total" => vec![Kind::Money],
        "financial" | "finance" | "finances" => vec![Kind::Iban, Kind::Card, Kind::Money],
        "number" | "numbers" | "numeric" | "numerals" | "digits" | "figures" => {
            Kind::NUMERIC.to_vec()
        }
        "personal" | "pii" | "private" | "sensitive" | "identifying" | "identifiable" => {
            Kind::PERSONAL.to_vec()
        }
        "contact" | "contacts" => vec![Kind::Email, Kind::Phone],
        "structured" => Kind::STRUCTURED.to_vec(),
        _ => return None,
    })
}
