//! Email addresses.

use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, Kind, bounds};

// A local part of word characters and `.%+-`, a domain of labels, a top-level domain of
// letters. A trailing dot (end of sentence) is not part of the domain.
static EMAIL: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"[\w%+-]+(?:\.[\w%+-]+)*@[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*\.\p{L}{2,24}").ok()
});

/// Every email address of `text`.
pub(super) fn find(text: &str, out: &mut Vec<Hit>) {
    let Some(re) = EMAIL.as_ref() else {
        return;
    };
    if !text.contains('@') {
        return;
    }
    for m in re.find_iter(text) {
        // `a@b.com2` or `x@y.museum_` is not this address; `.a@b.com` starts at `a`.
        if !bounds::word_may_end(text, m.end()) {
            continue;
        }
        out.push(Hit {
            range: m.range(),
            kind: Kind::Email,
        });
    }
}
