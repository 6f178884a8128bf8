//! Finding the bytes that matter inside JSON strings, eight at a time.
//!
//! The writer copies a string verbatim unless it holds a quote, a backslash or a control
//! character, and the parser reads a string of a node or edge up to the next such byte.
//! Testing eight bytes per step with word arithmetic ("SWAR") keeps that cheap without
//! `unsafe` or SIMD intrinsics.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// A high bit set for each zero byte of `word`. Only the lowest set bit is reliable (a borrow
/// can mark a byte above a real match), which is all a search for the first one needs.
#[inline]
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

/// A high bit for bytes of `word` that are `"`, `\\` or below 0x20; as [`zero_bytes`], only
/// the lowest set bit is reliable.
#[inline]
fn special_bytes(word: u64) -> u64 {
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    below_space
        | zero_bytes(word ^ (ONES * u64::from(b'"')))
        | zero_bytes(word ^ (ONES * u64::from(b'\\')))
}

/// How many of `word`'s bytes, from the first in memory, are ASCII digits (8 when all are).
/// Per byte: the high nibble must be 3 and the low one at most 9; neither test carries into
/// the next byte.
#[inline]
fn digit_run(word: u64) -> usize {
    let high = (word & (ONES * 0xf0)) ^ (ONES * 0x30);
    let low = (word & (ONES * 0x0f)) + ONES * 0x06;
    // `high >> 1` is at most 0x78 a byte, so adding 0x78 sets the top bit exactly when it is
    // not zero; `low` reaches 0x10 exactly when the nibble is above 9.
    let not_digit = (((high >> 1) + ONES * 0x78) | (low << 3)) & HIGHS;
    (not_digit.trailing_zeros() / 8) as usize
}

/// Length of the number at the start of `bytes` when it is a plain integer of at most seven
/// digits (a minus sign allowed) and what follows cannot continue it; `None` when unsure,
/// and then the full reader decides.
#[inline]
pub(crate) fn short_integer_len(bytes: &[u8]) -> Option<usize> {
    let sign = usize::from(bytes.first() == Some(&b'-'));
    let head: [u8; 8] = bytes.get(sign..sign + 8)?.try_into().ok()?;
    let word = u64::from_le_bytes(head);
    let run = digit_run(word);
    // No digit, maybe more than seven, or a leading zero with digits after it.
    if run == 0 || run == 8 || (head[0] == b'0' && run > 1) {
        return None;
    }
    if matches!(head.get(run), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    Some(sign + run)
}

/// True for `"`, `\\` and control characters.
#[inline]
pub(crate) fn is_special(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Index of the first special byte in `bytes`, if any.
#[inline(always)]
pub(crate) fn find_special(bytes: &[u8]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let found = special_bytes(u64::from_le_bytes(word));
        if found != 0 {
            // Little-endian: the lowest set bit is the first byte in memory.
            return Some(offset + (found.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| is_special(b))
        .map(|p| p + offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn short_integers_are_measured_as_the_full_reader_does(
            text in "[-0-9.eE+x, ]{0,12}",
        ) {
            let bytes = text.as_bytes();
            if let Some(len) = short_integer_len(bytes) {
                prop_assert_eq!(Some(len), crate::json::parse::number_len(bytes), "{:?}", text);
            }
        }

        #[test]
        fn digit_runs_are_counted_byte_by_byte(bytes in any::<[u8; 8]>()) {
            let run = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            prop_assert_eq!(digit_run(u64::from_le_bytes(bytes)), run);
        }

        #[test]
        fn agrees_with_a_byte_by_byte_search(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(find_special(&bytes), bytes.iter().position(|&b| is_special(b)));
        }
    }

    #[test]
    fn common_integers_take_the_short_way() {
        for (text, len) in [
            ("0,", 1),
            ("-250}", 4),
            ("1234567,\"", 7),
            ("120}\n\t\t", 3),
        ] {
            let padded = format!("{text}        ");
            assert_eq!(short_integer_len(padded.as_bytes()), Some(len), "{text}");
        }
        for text in ["12345678,", "01,", "1.5,", "2e3,", "-,", "-x", "--1,"] {
            let padded = format!("{text}        ");
            assert_eq!(short_integer_len(padded.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn finds_each_kind_at_every_position() {
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 20];
                bytes[at] = special;
                assert_eq!(find_special(&bytes), Some(at));
            }
        }
        assert_eq!(
            find_special("héllo wörld, no specials here".as_bytes()),
            None
        );
    }
}
