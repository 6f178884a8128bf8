//! Phone numbers: international (`+44 20 7946 0958`, `+1-212-555-0100`, `+49 (0)30 1234567`,
//! `0044 20 7946 0958`) and the national forms of North America, the United Kingdom,
//! Germany, France, the Netherlands, Spain, Italy, India and Australia.
//!
//! A bare run of digits is never a phone number (it is an order or account number as often);
//! the grouping a country prints its numbers in is what tells them apart.

use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, Kind, bounds};

struct Patterns {
    /// `+CC` or `00CC`, then groups; the country code is checked against the plan.
    international: Regex,
    /// A trunk `0` and an area code, then groups: UK, DE, FR, NL, IT, IN, AU landlines and
    /// mobiles, `(030) 1234567`, `030/1234567`, `01.23.45.67.89`.
    trunk: Regex,
    /// Shapes without a trunk 0: the US and Canada (`(212) 555-0100`, `212.555.0100`, `1-800-…`),
    /// Spain (`612 345 678`, `91 123 45 67`), Italian mobiles (`333 123 4567`), Indian
    /// mobiles (`98765 43210`). One alternation, the longest shapes first, so one pass finds
    /// them all.
    national: Regex,
}

static PATTERNS: LazyLock<Option<Patterns>> = LazyLock::new(|| {
    let national = [
        r"(?:1[ .-])?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])\d{3}[ .-]\d{4}",
        r"[6-9]\d{4}[ -]\d{5}",
        r"3\d{2} \d{3} ?\d{3,4}",
        r"[6789]\d{2} \d{3} \d{3}",
        r"[6789]\d{2} \d{2} \d{2} \d{2}",
        r"[89]\d \d{3} \d{2} \d{2}",
    ];
    Some(Patterns {
        international: Regex::new(
            r"(?:\(\+[1-9]\d{0,2}\)|(?:\+|00)[1-9]\d{0,2})(?:[ .-]?\(0\))?(?:[ .-]?\(\d{1,5}\))?(?:[ .-]?\d{1,6})+",
        )
        .ok()?,
        trunk: Regex::new(r"(?:\(0\d{1,4}\) ?|0\d{1,4}[ ./-])\d{2,8}(?:[ .-]\d{2,8}){0,4}").ok()?,
        national: Regex::new(&national.join("|")).ok()?,
    })
});

/// Every phone number of `text`.
pub(super) fn find(text: &str, out: &mut Vec<Hit>) {
    let Some(p) = PATTERNS.as_ref() else {
        return;
    };
    each(&p.international, text, out, true, |s| {
        international(s).is_some()
    });
    each(&p.trunk, text, out, true, |s| trunk(s).is_some());
    each(&p.national, text, out, false, |_| true);
}

/// The matches of `re` that `accept` keeps, standing alone in the text. With `trim`, trailing
/// groups are dropped until what is left is accepted (`+44 20 7946 0958 12 times`); a fixed
/// national shape is all or nothing.
fn each(re: &Regex, text: &str, out: &mut Vec<Hit>, trim: bool, accept: impl Fn(&str) -> bool) {
    let mut from = 0;
    while let Some(m) = re.find_at(text, from) {
        let start = m.start();
        let begins_alone = if m.as_str().starts_with(['+', '(']) {
            bounds::word_may_start(text, start)
                && !bounds::before(text, start).is_some_and(|c| matches!(c, '+' | '-' | '.'))
        } else {
            bounds::digits_may_start(text, start)
        };
        let mut kept = None;
        if begins_alone && !round(m.as_str()) {
            // Drop trailing groups until the number stands alone and is valid.
            let mut s = m.as_str();
            loop {
                if bounds::digits_may_end(text, start + s.len()) && accept(s) {
                    kept = Some(start + s.len());
                    break;
                }
                match s.rfind([' ', '.', '-', '/']) {
                    Some(cut) if cut > 0 && trim => s = &s[..cut],
                    _ => break,
                }
            }
        }
        match kept {
            Some(end) => {
                out.push(Hit {
                    range: start..end,
                    kind: Kind::Phone,
                });
                from = end;
            }
            None => from = start + 1,
        }
    }
}

/// Country calling codes of two digits (ITU E.164); `1` and `7` are the one-digit codes and
/// every other code has three digits. The plan is prefix-free, so the digits decide.
const TWO_DIGIT_CODES: &[u32] = &[
    20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56,
    57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
];

/// The length of subscriber numbers (without the country code) where a country fixes it.
fn national_length(code: u32) -> Option<std::ops::RangeInclusive<usize>> {
    Some(match code {
        1 => 10..=10,
        44 => 9..=10,
        33 | 31 | 34 | 61 => 9..=9,
        91 => 10..=10,
        49 => 6..=13,
        39 => 6..=11,
        _ => return None,
    })
}

/// Whether the candidate is an international number: a country code of the plan, and as many
/// digits after it as that country's numbers have.
fn international(s: &str) -> Option<()> {
    let body = s
        .strip_prefix("(+")
        .or_else(|| s.strip_prefix('+'))
        .or_else(|| s.strip_prefix("00"))?;
    // `00` needs a separator after the code: `0044 20 …`, never `0044207946…`.
    let digits: String = body
        .replace("(0)", "")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let code_len = code_length(&digits)?;
    if s.starts_with("00") {
        let after_code = body.get(code_len..)?;
        if !after_code.starts_with([' ', '-', '.', '(']) {
            return None;
        }
    }
    let code: u32 = digits.get(..code_len)?.parse().ok()?;
    let national = digits.len() - code_len;
    let fits = match national_length(code) {
        Some(range) => range.contains(&national),
        None => (6..=12).contains(&national),
    };
    (fits && digits.len() <= 15).then_some(())
}

/// How many of the leading digits are the country code.
fn code_length(digits: &str) -> Option<usize> {
    let first = digits.get(..1)?;
    if first == "1" || first == "7" {
        return Some(1);
    }
    let two: u32 = digits.get(..2)?.parse().ok()?;
    if TWO_DIGIT_CODES.contains(&two) {
        return Some(2);
    }
    // Three-digit codes never start with 0 and are followed by the number.
    (digits.len() > 3).then_some(3)
}

/// Whether the candidate is a national number with a trunk 0: 9 to 12
/// digits; dots only in the French pairs `01.23.45.67.89`; a slash only after the area code.
fn trunk(s: &str) -> Option<()> {
    let digits = bounds::digit_count(s);
    if !(9..=12).contains(&digits) {
        return None;
    }
    if s.contains('.') {
        let pairs: Vec<&str> = s.split('.').collect();
        if pairs.len() != 5 || pairs.iter().any(|p| p.len() != 2) {
            return None;
        }
    }
    if s.matches('/').count() > 1 {
        return None;
    }
    // Pairs after the trunk prefix are the French plan: exactly five pairs.
    let groups: Vec<&str> = s.split([' ', '-']).collect();
    if groups.len() > 2 && groups[1..].iter().all(|g| g.len() == 2) && digits != 10 {
        return None;
    }
    Some(())
}

/// Whether the last six digits are all zeros: `0000 0000 0000` and `700 000 000` are numbers.
fn round(s: &str) -> bool {
    s.bytes()
        .rev()
        .filter(u8::is_ascii_digit)
        .take(6)
        .all(|d| d == b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn country_codes_are_read_prefix_free() {
        assert_eq!(code_length("12125550100"), Some(1));
        assert_eq!(code_length("442079460958"), Some(2));
        assert_eq!(code_length("353123456789"), Some(3));
    }
}
