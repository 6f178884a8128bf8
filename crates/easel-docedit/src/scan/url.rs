//! Web addresses: `https://…`, `http://…`, `ftp://…` and `www.…`.

use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, Kind, bounds};

static URL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"(?i:https?://|ftp://|www\.)[^\s<>"'`\x00-\x1f\x7f]+"#).ok());

/// Every URL of `text`, without the punctuation that ends the sentence around it.
pub(super) fn find(text: &str, out: &mut Vec<Hit>) {
    let Some(re) = URL.as_ref() else {
        return;
    };
    for m in re.find_iter(text) {
        // `abc.www.x` or `user@www.x` is not the start of a URL.
        if let Some(c) = bounds::before(text, m.start())
            && (c.is_alphanumeric() || matches!(c, '.' | '@' | '/' | '_' | '-'))
        {
            continue;
        }
        let end = m.start() + trimmed_len(m.as_str());
        // At least one character after the scheme or `www.`.
        let head = if m.as_str().to_ascii_lowercase().starts_with("www.") {
            4
        } else {
            m.as_str().find("//").map_or(0, |i| i + 2)
        };
        if end <= m.start() + head {
            continue;
        }
        out.push(Hit {
            range: m.start()..end,
            kind: Kind::Url,
        });
    }
}

/// The length of `url` without trailing punctuation: `.,;:!?` always, a closing bracket or
/// quote only when the URL does not open it (`https://en.wikipedia.org/wiki/Rust_(language)`).
fn trimmed_len(url: &str) -> usize {
    let mut end = url.len();
    loop {
        let Some(c) = url[..end].chars().next_back() else {
            return end;
        };
        let drop = match c {
            '.' | ',' | ';' | ':' | '!' | '?' | '*' | '\u{2026}' | '\u{201d}' | '\u{2019}' => true,
            ')' => url[..end].matches('(').count() < url[..end].matches(')').count(),
            ']' => url[..end].matches('[').count() < url[..end].matches(']').count(),
            '}' => url[..end].matches('{').count() < url[..end].matches('}').count(),
            _ => false,
        };
        if !drop {
            return end;
        }
        end -= c.len_utf8();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_brackets_stay_when_the_url_opens_them() {
        let url = "https://en.wikipedia.org/wiki/Rust_(language)).";
        assert_eq!(
            &url[..trimmed_len(url)],
            "https://en.wikipedia.org/wiki/Rust_(language)"
        );
    }
}
