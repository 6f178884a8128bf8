//! Amounts of money: a currency sign or code before or after an amount (`$1,200.50`,
//! `€ 1.200,00`, `1.200,00 EUR`, `USD 40`, `1 200,00 €`), or an amount with a scale and a
//! currency word (`12.5 million dollars`).

use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, Kind, bounds};

const SIGN: &str = r"(?:US\$|A\$|C\$|NZ\$|HK\$|S\$|R\$|[$€£¥₹₩₽₺₪₫฿₱₦₴₿])";
const CODE: &str = r"(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|RMB|INR|SEK|NOK|DKK|PLN|CZK|HUF|RUB|BRL|MXN|ZAR|SGD|HKD|KRW|TRY|ILS|AED|SAR|Rs\.?)";
const WORD: &str =
    r"(?i:dollars?|euros?|pounds?(?: sterling)?|yen|yuan|rupees?|francs?|pesos?|cents?|pence)";
// Thousands with commas (also India's lakh grouping `1,00,000`), dots or thin/plain spaces,
// or none; then decimals.
const AMOUNT: &str = r"(?:\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d{1,3}(?:[ \u{a0}\u{202f}]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)";
const SCALE: &str = r"(?:[ \u{a0}]?(?i:k|m|bn|mn|million|billion|thousand|trillion)(?-u:\b))?";

static MONEY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let sp = r"[ \u{a0}\u{202f}]?";
    let before = format!(r"[-−]?(?:{SIGN}|{CODE}){sp}[-−]?{AMOUNT}{SCALE}");
    let after = format!(r"[-−]?{AMOUNT}{SCALE}{sp}(?:{SIGN}|{CODE}(?-u:\b)|{WORD}(?-u:\b))");
    Regex::new(&format!("{before}|{after}")).ok()
});

/// Every amount of money of `text`.
pub(super) fn find(text: &str, out: &mut Vec<Hit>) {
    let Some(re) = MONEY.as_ref() else {
        return;
    };
    let mut from = 0;
    while let Some(m) = re.find_at(text, from) {
        let s = m.as_str();
        let starts_with_digit = s.starts_with(|c: char| c.is_ascii_digit());
        let ok_start = if starts_with_digit {
            bounds::digits_may_start(text, m.start())
        } else {
            bounds::word_may_start(text, m.start())
        };
        let ends_with_digit = s.ends_with(|c: char| c.is_ascii_digit());
        let ok_end = if ends_with_digit {
            bounds::digits_may_end(text, m.end())
        } else {
            bounds::word_may_end(text, m.end())
        };
        if ok_start && ok_end {
            out.push(Hit {
                range: m.range(),
                kind: Kind::Money,
            });
            from = m.end();
        } else {
            from = m.start() + s.chars().next().map_or(1, char::len_utf8);
        }
    }
}
