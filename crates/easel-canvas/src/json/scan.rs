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
