//! Properties of the structured scanner: what is generated valid is found with its exact
//! bytes, and nothing makes it panic or return ranges out of order.

use easel_docedit::scan::{Kind, structured};
use proptest::prelude::*;

/// Filler around an embedded piece: words, spaces and punctuation that cannot glue to it.
fn filler() -> impl Strategy<Value = String> {
    "[a-zA-Z ]{0,12}".prop_map(|s| format!(" {} ", s.trim()))
}

fn luhn_check_digit(body: &[u32]) -> u32 {
    // The digit that makes body+digit pass: double every second digit from the right of body.
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 0 {
                let t = d * 2;
                if t > 9 { t - 9 } else { t }
            } else {
                d
            }
        })
        .sum();
    (10 - sum % 10) % 10
}

/// A valid card: a network prefix, 16 digits in fours with spaces or dashes or none.
fn card() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![4u32, 51, 55, 2221, 6011, 35]),
        prop::collection::vec(0u32..10, 16),
        prop::sample::select(vec!["", " ", "-"]),
    )
        .prop_map(|(prefix, mut digits, sep)| {
            let p: Vec<u32> = prefix
                .to_string()
                .chars()
                .filter_map(|c| c.to_digit(10))
                .collect();
            digits[..p.len()].copy_from_slice(&p);
            let check = luhn_check_digit(&digits[..15]);
            digits[15] = check;
            let s: String = digits.iter().map(|d| d.to_string()).collect();
            s.as_bytes()
                .chunks(4)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect::<Vec<_>>()
                .join(sep)
        })
}

/// A valid IBAN of one of a few countries, grouped by four or not.
fn iban() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            ("DE", 18usize),
            ("FR", 23),
            ("NL", 14),
            ("BE", 12),
            ("GB", 18),
        ]),
        prop::collection::vec(0u32..10, 23),
        any::<bool>(),
    )
        .prop_map(|((country, bban_len), digits, spaced)| {
            let bban: String = digits[..bban_len].iter().map(|d| d.to_string()).collect();
            let rearranged = format!("{bban}{country}00");
            let mut rest = 0u32;
            for c in rearranged.chars() {
                let v = c.to_digit(36).unwrap_or(0);
                rest = if v >= 10 {
                    (rest * 100 + v) % 97
                } else {
                    (rest * 10 + v) % 97
                };
            }
            let iban = format!("{country}{:02}{bban}", 98 - rest);
            if spaced {
                iban.as_bytes()
                    .chunks(4)
                    .map(|c| String::from_utf8_lossy(c).into_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                iban
            }
        })
}

fn email() -> impl Strategy<Value = String> {
    (
        "[a-z][a-z0-9]{0,8}(\\.[a-z]{1,6})?",
        "[a-z]{2,10}",
        "(com|org|de|co\\.uk|io)",
    )
        .prop_map(|(local, domain, tld)| format!("{local}@{domain}.{tld}"))
}

fn date() -> impl Strategy<Value = String> {
    (1900u32..2100, 1u32..=12, 1u32..=28, 0usize..6).prop_map(|(y, m, d, form)| {
        let months = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        let name = months[(m - 1) as usize];
        match form {
            0 => format!("{y}-{m:02}-{d:02}"),
            1 => format!("{d:02}/{m:02}/{y}"),
            2 => format!("{d}.{m}.{y}"),
            3 => format!("{d} {name} {y}"),
            4 => format!("{name} {d}, {y}"),
            _ => format!("{} {d} {y}", &name[..3]),
        }
    })
}

fn found_exactly(piece: &str, kind: Kind, before: &str, after: &str) -> Result<(), TestCaseError> {
    let text = format!("{before}{piece}{after}");
    let start = before.len();
    let hits = structured(&text);
    prop_assert!(
        hits.iter()
            .any(|h| h.kind == kind && h.range == (start..start + piece.len())),
        "{kind:?} {piece:?} not found exactly in {text:?}: {hits:?}"
    );
    Ok(())
}

proptest! {
    #[test]
    fn valid_cards_are_found(c in card(), a in filler(), b in filler()) {
        found_exactly(&c, Kind::Card, &a, &b)?;
    }

    #[test]
    fn valid_ibans_are_found(i in iban(), a in filler(), b in filler()) {
        found_exactly(&i, Kind::Iban, &a, &b)?;
    }

    #[test]
    fn emails_are_found(e in email(), a in filler(), b in filler()) {
        found_exactly(&e, Kind::Email, &a, &b)?;
    }

    #[test]
    fn dates_are_found(d in date(), a in filler(), b in filler()) {
        found_exactly(&d, Kind::Date, &a, &b)?;
    }

    #[test]
    fn hits_are_ordered_disjoint_and_on_char_boundaries(text in any::<String>()) {
        check_hits(&text)?;
    }

    #[test]
    fn hits_on_number_like_text_too(text in "[0-9 .,/+()\\-a-zA-Z@€$%:]{0,80}") {
        check_hits(&text)?;
    }
}

fn check_hits(text: &str) -> Result<(), TestCaseError> {
    let hits = structured(text);
    let mut end = 0;
    for h in &hits {
        prop_assert!(
            h.range.start >= end,
            "out of order or overlapping: {hits:?}"
        );
        prop_assert!(h.range.start < h.range.end, "empty hit: {hits:?}");
        prop_assert!(text.is_char_boundary(h.range.start) && text.is_char_boundary(h.range.end));
        prop_assert!(h.range.end <= text.len());
        end = h.range.end;
    }
    Ok(())
}
