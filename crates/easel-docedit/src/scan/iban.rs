//! IBANs: a country's length and the mod-97 check digits, written in groups of four or not.

use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, Kind, bounds};

static START: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"[A-Z]{2}\d{2}").ok());

/// The length of each country's IBAN (the SWIFT IBAN registry).
#[rustfmt::skip]
const LENGTHS: &[(&str, usize)] = &[
    ("AD", 24), ("AE", 23), ("AL", 28), ("AT", 20), ("AZ", 28), ("BA", 20), ("BE", 16),
    ("BG", 22), ("BH", 22), ("BI", 27), ("BR", 29), ("BY", 28), ("CH", 21), ("CR", 22),
    ("CY", 28), ("CZ", 24), ("DE", 22), ("DJ", 27), ("DK", 18), ("DO", 28), ("EE", 20),
    ("EG", 29), ("ES", 24), ("FI", 18), ("FK", 18), ("FO", 18), ("FR", 27), ("GB", 22),
    ("GE", 22), ("GI", 23), ("GL", 18), ("GR", 27), ("GT", 28), ("HN", 28), ("HR", 21),
    ("HU", 28), ("IE", 22), ("IL", 23), ("IQ", 23), ("IS", 26), ("IT", 27), ("JO", 30),
    ("KW", 30), ("KZ", 20), ("LB", 28), ("LC", 32), ("LI", 21), ("LT", 20), ("LU", 20),
    ("LV", 21), ("LY", 25), ("MC", 27), ("MD", 24), ("ME", 22), ("MK", 19), ("MN", 20),
    ("MR", 27), ("MT", 31), ("MU", 30), ("NI", 28), ("NL", 18), ("NO", 15), ("OM", 23),
    ("PK", 24), ("PL", 28), ("PS", 29), ("PT", 25), ("QA", 29), ("RO", 24), ("RS", 22),
    ("RU", 33), ("SA", 24), ("SC", 31), ("SD", 18), ("SE", 24), ("SI", 19), ("SK", 24),
    ("SM", 27), ("SO", 23), ("ST", 25), ("SV", 28), ("TL", 23), ("TN", 24), ("TR", 26),
    ("UA", 29), ("VA", 22), ("VG", 24), ("XK", 20), ("YE", 30),
];

/// Every IBAN of `text` whose country length and check digits are right. The ranges shaped
/// like an IBAN whose check digits are wrong go to `misses`: they are no phone or card number
/// either, only the numbers in them.
pub(super) fn find(text: &str, out: &mut Vec<Hit>, misses: &mut Vec<Hit>) {
    let Some(re) = START.as_ref() else {
        return;
    };
    let mut from = 0;
    while let Some(m) = re.find_at(text, from) {
        match at(text, m.start()) {
            Some((end, true)) => {
                out.push(Hit {
                    range: m.start()..end,
                    kind: Kind::Iban,
                });
                from = end;
            }
            Some((end, false)) => {
                misses.push(Hit {
                    range: m.start()..end,
                    kind: Kind::Iban,
                });
                from = end;
            }
            None => from = m.start() + 1,
        }
    }
}

/// The end of the IBAN-shaped text starting at `start`, if one does, and whether its check
/// digits are right.
fn at(text: &str, start: usize) -> Option<(usize, bool)> {
    if !bounds::word_may_start(text, start) {
        return None;
    }
    let bytes = text.as_bytes();
    let country = text.get(start..start + 2)?;
    let len = LENGTHS.iter().find(|(c, _)| *c == country)?.1;
    // Spaces only between groups of four, all or none of them.
    let mut chars = Vec::with_capacity(len);
    let mut i = start;
    let mut spaced = false;
    while chars.len() < len {
        let n = chars.len();
        if n > 0 && n % 4 == 0 {
            let space = bytes.get(i) == Some(&b' ');
            if n == 4 {
                spaced = space;
            }
            if space != spaced {
                return None;
            }
            if space {
                i += 1;
            }
        }
        let b = *bytes.get(i)?;
        if !(b.is_ascii_uppercase() || b.is_ascii_digit()) {
            return None;
        }
        chars.push(b);
        i += 1;
    }
    if !bounds::word_may_end(text, i) {
        return None;
    }
    Some((i, valid_check_digits(&chars)))
}

/// The ISO 13616 check: the IBAN with its first four characters moved to the end, letters
/// as 10..35, is 1 modulo 97.
fn valid_check_digits(iban: &[u8]) -> bool {
    if iban.len() < 5 {
        return false;
    }
    let mut rest: u32 = 0;
    for &b in iban[4..].iter().chain(&iban[..4]) {
        let value = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'A'..=b'Z' => u32::from(b - b'A') + 10,
            _ => return false,
        };
        rest = if value >= 10 {
            (rest * 100 + value) % 97
        } else {
            (rest * 10 + value) % 97
        };
    }
    rest == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits() {
        assert!(valid_check_digits(b"DE89370400440532013000"));
        assert!(!valid_check_digits(b"DE88370400440532013000"));
        assert!(valid_check_digits(b"GB29NWBK60161331926819"));
    }
}
