//! Dates: ISO, numeric day-month-year (and the US month-day-year), and with a month name in
//! English (also abbreviated), French, German, Spanish, Italian or Dutch. Each must be a day
//! that exists: 13/32/2026 is not a date.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::{Hit, Kind, bounds};

/// Month names and their numbers: English with its abbreviations, then the other languages
/// whose phone numbers the scanner knows.
#[rustfmt::skip]
const MONTHS: &[(&str, u32)] = &[
    ("january", 1), ("february", 2), ("march", 3), ("april", 4), ("may", 5), ("june", 6),
    ("july", 7), ("august", 8), ("september", 9), ("october", 10), ("november", 11),
    ("december", 12),
    ("jan", 1), ("feb", 2), ("mar", 3), ("apr", 4), ("jun", 6), ("jul", 7), ("aug", 8),
    ("sep", 9), ("sept", 9), ("oct", 10), ("nov", 11), ("dec", 12),
    // French
    ("janvier", 1), ("février", 2), ("mars", 3), ("avril", 4), ("mai", 5), ("juin", 6),
    ("juillet", 7), ("août", 8), ("septembre", 9), ("octobre", 10), ("novembre", 11),
    ("décembre", 12),
    // German
    ("januar", 1), ("februar", 2), ("märz", 3), ("juni", 6), ("juli", 7), ("oktober", 10),
    ("dezember", 12),
    // Spanish
    ("enero", 1), ("febrero", 2), ("marzo", 3), ("abril", 4), ("mayo", 5), ("junio", 6),
    ("julio", 7), ("agosto", 8), ("septiembre", 9), ("setiembre", 9), ("octubre", 10),
    ("noviembre", 11), ("diciembre", 12),
    // Italian
    ("gennaio", 1), ("febbraio", 2), ("aprile", 4), ("maggio", 5), ("giugno", 6),
    ("luglio", 7), ("settembre", 9), ("ottobre", 10), ("dicembre", 12),
    // Dutch
    ("januari", 1), ("februari", 2), ("maart", 3), ("mei", 5), ("augustus", 8),
];

/// The alternation of every month name, longest first so `june` wins over `jun`.
fn month_pattern() -> String {
    let mut names: Vec<&str> = MONTHS.iter().map(|(n, _)| *n).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.chars().count()));
    names.dedup();
    format!("(?i:({}))", names.join("|"))
}

struct Patterns {
    /// `2026-11-27`, `2026/11/27`
    iso: Regex,
    /// `27/11/2026`, `11/27/2026`, `27.11.2026`, `27-11-2026`, `27/11/26`
    numeric: Regex,
    /// `27 November 2026`, `27th Nov. 2026`, `27 Nov, 2026`
    day_month: Regex,
    /// `November 27, 2026`, `Nov 27 2026`, `Nov. 27th, 2026`
    month_day: Regex,
}

static PATTERNS: LazyLock<Option<Patterns>> = LazyLock::new(|| {
    let ord = r"(?:st|nd|rd|th|er)?";
    let month = month_pattern();
    Some(Patterns {
        iso: Regex::new(r"(\d{4})([-/])(\d{1,2})[-/](\d{1,2})").ok()?,
        numeric: Regex::new(r"(\d{1,2})([./-])(\d{1,2})([./-])(\d{4}|\d{2})").ok()?,
        day_month: Regex::new(&format!(
            r"(\d{{1,2}}){ord}\.? (?:of |de )?{month}\.?,? (?:de )?(\d{{4}})"
        ))
        .ok()?,
        month_day: Regex::new(&format!(r"{month}\.? (\d{{1,2}}){ord},? (\d{{4}})")).ok()?,
    })
});

/// Every date of `text`.
pub(super) fn find(text: &str, out: &mut Vec<Hit>) {
    let Some(p) = PATTERNS.as_ref() else {
        return;
    };
    scan(&p.iso, text, out, |c| {
        // The same separator twice, a four-digit year first.
        let sep = c.get(2)?.as_str();
        let whole = c.get(0)?.as_str();
        if whole.matches(sep).count() != 2 {
            return None;
        }
        let (y, m, d) = (num(c, 1)?, num(c, 3)?, num(c, 4)?);
        exists(y, m, d).then_some(())
    });
    scan(&p.numeric, text, out, |c| {
        let (sep, sep2) = (c.get(2)?.as_str(), c.get(4)?.as_str());
        if sep != sep2 {
            return None;
        }
        let year_text = c.get(5)?.as_str();
        // Two-digit years only with slashes: `1.2.34` is a version, `27/11/26` a date.
        if year_text.len() == 2 && sep != "/" {
            return None;
        }
        let (a, b, y) = (num(c, 1)?, num(c, 3)?, num(c, 5)?);
        let y = if year_text.len() == 2 { 2000 + y } else { y };
        // Day first everywhere; with slashes the US month first too.
        (exists(y, b, a) || (sep == "/" && exists(y, a, b))).then_some(())
    });
    scan(&p.day_month, text, out, |c| {
        exists(num(c, 3)?, month(c.get(2)?.as_str())?, num(c, 1)?).then_some(())
    });
    scan(&p.month_day, text, out, |c| {
        exists(num(c, 3)?, month(c.get(1)?.as_str())?, num(c, 2)?).then_some(())
    });
}

/// The matches of `re` that `valid` accepts and that stand alone (not inside a longer
/// number or word); after a refused match the search goes on from its next character.
fn scan(re: &Regex, text: &str, out: &mut Vec<Hit>, valid: impl Fn(&Captures) -> Option<()>) {
    let mut from = 0;
    while let Some(c) = re.captures_at(text, from) {
        let Some(m) = c.get(0) else {
            return;
        };
        // `2026-11-27T10:00` is a date and a time.
        let timed = text[m.end()..].starts_with('T')
            && bounds::second_after(text, m.end()).is_some_and(|c| c.is_ascii_digit());
        let alone = bounds::digits_may_start(text, m.start())
            && bounds::word_may_start(text, m.start())
            && (bounds::digits_may_end(text, m.end()) || timed);
        if alone && valid(&c).is_some() {
            out.push(Hit {
                range: m.range(),
                kind: Kind::Date,
            });
            from = m.end();
        } else {
            from = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

fn num(c: &Captures, i: usize) -> Option<u32> {
    c.get(i)?.as_str().parse().ok()
}

/// The month a name or abbreviation means, 1 to 12. English `may` must be capitalised: in
/// lower case it is the verb (`in may 12 2026 cases`).
fn month(name: &str) -> Option<u32> {
    if name == "may" {
        return None;
    }
    let name = name.to_lowercase();
    MONTHS.iter().find(|(n, _)| *n == name).map(|(_, m)| *m)
}

/// Whether the day exists (30 February does not; 29 February only in a leap year).
fn exists(year: u32, month: u32, day: u32) -> bool {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day) && (1000..=2999).contains(&year)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_that_do_not_exist() {
        assert!(exists(2024, 2, 29));
        assert!(!exists(2026, 2, 29));
        assert!(!exists(2026, 4, 31));
        assert!(!exists(2026, 13, 1));
        assert!(!exists(2026, 1, 0));
    }
}
