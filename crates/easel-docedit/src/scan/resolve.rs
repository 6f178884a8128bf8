//! Choosing among overlapping candidates: the more specific kind wins.

use super::{Hit, Kind};

/// The rank of a kind: lower is more specific. A URL holding an email stays a URL; an IBAN
/// holding a card-like run of digits stays an IBAN; a date is not also a phone number.
pub(super) fn rank(kind: Kind) -> usize {
    Kind::STRUCTURED
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(Kind::STRUCTURED.len())
}

/// The candidates that survive, in text order, none overlapping: each in turn from the most
/// specific kind (and, within a kind, the earliest, then the longest) is kept unless it
/// overlaps one already kept.
pub(super) fn keep_most_specific(mut candidates: Vec<Hit>) -> Vec<Hit> {
    candidates.retain(|h| h.range.start < h.range.end);
    candidates.sort_by(|a, b| {
        (rank(a.kind), a.range.start, std::cmp::Reverse(a.range.end)).cmp(&(
            rank(b.kind),
            b.range.start,
            std::cmp::Reverse(b.range.end),
        ))
    });
    // Kept hits by start; they never overlap, so the neighbours of a new one decide.
    let mut kept: std::collections::BTreeMap<usize, Hit> = std::collections::BTreeMap::new();
    for hit in candidates {
        let clashes_before = kept
            .range(..hit.range.end)
            .next_back()
            .is_some_and(|(_, k)| k.range.end > hit.range.start);
        if !clashes_before {
            kept.insert(hit.range.start, hit);
        }
    }
    kept.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(range: std::ops::Range<usize>, kind: Kind) -> Hit {
        Hit { range, kind }
    }

    #[test]
    fn the_more_specific_kind_wins_and_the_rest_fill_the_gaps() {
        let kept = keep_most_specific(vec![
            hit(0..4, Kind::Number),
            hit(5..9, Kind::Number),
            hit(0..19, Kind::Card),
            hit(20..24, Kind::Number),
            hit(22..30, Kind::Phone),
        ]);
        assert_eq!(
            kept,
            vec![hit(0..19, Kind::Card), hit(22..30, Kind::Phone)],
            "numbers inside a card or a phone number are not kept"
        );
    }

    #[test]
    fn within_a_kind_the_earliest_longest_wins() {
        let kept = keep_most_specific(vec![
            hit(3..8, Kind::Phone),
            hit(0..6, Kind::Phone),
            hit(0..4, Kind::Phone),
        ]);
        assert_eq!(kept, vec![hit(0..6, Kind::Phone)]);
    }
}
