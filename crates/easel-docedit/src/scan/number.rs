//! Every other number: integers, decimals, thousands separators (`1,234.5`, `1.234,5`), a sign
//! (`-`, `−`, `+`) before it, a percent sign after it. A version like `1.2.3` is one number.

use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, Kind, bounds};

static NUMBER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\d+(?:[.,']\d+)*(?:[ \u{a0}]?%)?").ok());

/// Every number of `text`; digits inside words (`H2O`, `B12`) count too, since "all numbers"
/// means every digit a reader sees.
pub(super) fn find(text: &str, out: &mut Vec<Hit>) {
    let Some(re) = NUMBER.as_ref() else {
        return;
    };
    for m in re.find_iter(text) {
        let mut start = m.start();
        // A sign belongs to the number when nothing is glued to it from before: `-5`, `+7%`,
        // `(−3.2)`, but not the dash of `10-12` or `A-4`.
        if let Some(c @ ('-' | '−' | '+')) = bounds::before(text, start) {
            let sign_at = start - c.len_utf8();
            if !bounds::before(text, sign_at).is_some_and(|p| p.is_alphanumeric()) {
                start = sign_at;
            }
        }
        out.push(Hit {
            range: start..m.end(),
            kind: Kind::Number,
        });
    }
}
