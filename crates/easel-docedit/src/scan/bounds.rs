//! What may stand next to a recognised piece: a phone number glued to more digits is not a
//! phone number, an IBAN followed by a letter is not an IBAN.

/// The character that ends just before byte `at` (which must be a char boundary).
pub(super) fn before(text: &str, at: usize) -> Option<char> {
    text.get(..at)?.chars().next_back()
}

/// The character that starts at byte `at`.
pub(super) fn after(text: &str, at: usize) -> Option<char> {
    text.get(at..)?.chars().next()
}

/// The character after the one at byte `at`.
pub(super) fn second_after(text: &str, at: usize) -> Option<char> {
    let mut chars = text.get(at..)?.chars();
    chars.next();
    chars.next()
}

/// Whether a run of digits may start at `at`: not glued to a word, a digit, or a number's
/// punctuation (`1.` `1,` `+` `-` `/`) before it.
pub(super) fn digits_may_start(text: &str, at: usize) -> bool {
    match before(text, at) {
        None => true,
        Some(c) if c.is_alphanumeric() || c == '_' => false,
        Some('+') => false,
        Some(c @ ('.' | ',' | '-' | '/')) => {
            // `v.1` or `a-1` is fine, `1.1` and `1-1` continue a number.
            !before(text, at - c.len_utf8()).is_some_and(|p| p.is_ascii_digit())
        }
        Some(_) => true,
    }
}

/// Whether a run of digits may end at `at`: no digit or word character follows, nor a
/// separator that continues the run (`-5`, `.5`, `/5`, `,5`).
pub(super) fn digits_may_end(text: &str, at: usize) -> bool {
    match after(text, at) {
        None => true,
        Some(c) if c.is_alphanumeric() || c == '_' => false,
        Some('.' | ',' | '-' | '/') => !second_after(text, at).is_some_and(|c| c.is_ascii_digit()),
        Some(_) => true,
    }
}

/// Whether a word (a currency code, a month) may start at `at`: no letter or digit before.
pub(super) fn word_may_start(text: &str, at: usize) -> bool {
    !before(text, at).is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Whether a word may end at `at`: no letter or digit after.
pub(super) fn word_may_end(text: &str, at: usize) -> bool {
    !after(text, at).is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The count of ASCII digits in `s`.
pub(super) fn digit_count(s: &str) -> usize {
    s.bytes().filter(u8::is_ascii_digit).count()
}
