//! Payment card numbers: 13 to 19 digits, as printed on cards (groups of four, Amex's
//! 4-6-5, Diners' 4-6-4, or one run), from a card network's range, passing the Luhn check.

use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, Kind, bounds};

// Digit groups joined by one space or dash: the runs a card number can hide in.
static RUN: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\d+(?:[ -]\d+)*").ok());

/// Every card number of `text`. Runs printed like a card (4-4-4-4, 4-6-5, 4-6-4, from a
/// network's range) that fail the Luhn check go to `misses`: they are not a phone number
/// either, only numbers.
pub(super) fn find(text: &str, out: &mut Vec<Hit>, misses: &mut Vec<Hit>) {
    let Some(re) = RUN.as_ref() else {
        return;
    };
    for m in re.find_iter(text) {
        if m.len() < 13 {
            continue;
        }
        in_run(text, m.start(), m.as_str(), out, misses);
    }
}

/// The card numbers among the groups of one run: each group may start one, and the longest
/// valid number starting there wins.
fn in_run(text: &str, offset: usize, run: &str, out: &mut Vec<Hit>, misses: &mut Vec<Hit>) {
    // (start, end, separator before) of each group, in bytes of `run`.
    let mut groups: Vec<(usize, usize, u8)> = Vec::new();
    let mut start = 0;
    let bytes = run.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b' ' || b == b'-' {
            let sep = if groups.is_empty() {
                0
            } else {
                bytes[start - 1]
            };
            groups.push((start, i, sep));
            start = i + 1;
        }
    }
    let last_sep = if groups.is_empty() {
        0
    } else {
        bytes[start - 1]
    };
    groups.push((start, run.len(), last_sep));

    let mut first = 0;
    while first < groups.len() {
        // A card has at most five groups (4-4-4-4-3).
        let most = groups.len().min(first + 5);
        let printed_alone = |last: usize| {
            let g = &groups[first..=last];
            let (s, e) = (offset + g[0].0, offset + g[g.len() - 1].1);
            g.iter().skip(1).all(|x| x.2 == g[1].2)
                && bounds::digits_may_start(text, s)
                && bounds::digits_may_end(text, e)
                && matches!(text[s..].chars().next(), Some('2'..='6'))
        };
        let found = (first..most).rev().find(|&last| {
            let g = &groups[first..=last];
            let (s, e) = (offset + g[0].0, offset + g[g.len() - 1].1);
            shaped_like_a_card(g) && printed_alone(last) && valid_number(&text[s..e])
        });
        let missed = || {
            (first..most).rev().find(|&last| {
                let lens: Vec<usize> = groups[first..=last].iter().map(|g| g.1 - g.0).collect();
                matches!(lens.as_slice(), [4, 4, 4, 4] | [4, 6, 5] | [4, 6, 4])
                    && printed_alone(last)
            })
        };
        let (target, last) = match found {
            Some(last) => (&mut *out, last),
            None => match missed() {
                Some(last) => (&mut *misses, last),
                None => {
                    first += 1;
                    continue;
                }
            },
        };
        target.push(Hit {
            range: offset + groups[first].0..offset + groups[last].1,
            kind: Kind::Card,
        });
        first = last + 1;
    }
}

/// Whether the groups' lengths are a card's: one run of 13-19, fours with a shorter last
/// group, or Amex's and Diners' 4-6-5 and 4-6-4.
fn shaped_like_a_card(groups: &[(usize, usize, u8)]) -> bool {
    let lens: Vec<usize> = groups.iter().map(|g| g.1 - g.0).collect();
    let digits: usize = lens.iter().sum();
    if !(13..=19).contains(&digits) {
        return false;
    }
    match lens.as_slice() {
        [_] => true,
        [4, 6, 5] | [4, 6, 4] => true,
        [init @ .., last] => init.iter().all(|&l| l == 4) && (1..=4).contains(last),
        [] => false,
    }
}

/// Whether the digits of `number` (separators skipped) start like a card of a network
/// (2 to 6: Mastercard, Amex, Diners, JCB, Visa, Discover, UnionPay, Maestro) and pass Luhn.
fn valid_number(number: &str) -> bool {
    let digits: Vec<u32> = number.chars().filter_map(|c| c.to_digit(10)).collect();
    if !matches!(digits.first(), Some(2..=6)) {
        return false;
    }
    luhn(&digits)
}

/// The Luhn check: doubling every second digit from the right, the sum is a multiple of 10.
pub(super) fn luhn(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let twice = d * 2;
                if twice > 9 { twice - 9 } else { twice }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luhn_accepts_test_cards_and_refuses_one_digit_off() {
        let digits = |s: &str| s.chars().filter_map(|c| c.to_digit(10)).collect::<Vec<_>>();
        assert!(luhn(&digits("4111111111111111")));
        assert!(luhn(&digits("378282246310005")));
        assert!(!luhn(&digits("4111111111111112")));
    }
}
