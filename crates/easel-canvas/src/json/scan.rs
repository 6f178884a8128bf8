//! Finding the bytes that matter inside JSON strings, eight at a time.
//!
//! The writer copies a string verbatim unless it holds a quote, a backslash or a control
//! character. Testing eight bytes per step with word arithmetic ("SWAR") keeps that check
//! cheap on long text nodes without `unsafe` or SIMD intrinsics. (The parser scans with a
//! lookup table instead: its strings are mostly short keys, where this set-up does not pay.)

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// True when any byte of `word` is zero.
#[inline]
fn has_zero_byte(word: u64) -> bool {
    word.wrapping_sub(ONES) & !word & HIGHS != 0
}

/// True when any byte of `word` is `"`, `\\` or below 0x20.
#[inline]
fn has_special(word: u64) -> bool {
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS != 0;
    below_space
        || has_zero_byte(word ^ (ONES * u64::from(b'"')))
        || has_zero_byte(word ^ (ONES * u64::from(b'\\')))
}

/// True for `"`, `\\` and control characters.
#[inline]
pub(crate) fn is_special(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Index of the first special byte in `bytes`, if any.
#[inline]
pub(crate) fn find_special(bytes: &[u8]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if has_special(u64::from_le_bytes(word)) {
            break;
        }
        offset += 8;
    }
    bytes[offset..]
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
        fn agrees_with_a_byte_by_byte_search(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(find_special(&bytes), bytes.iter().position(|&b| is_special(b)));
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
