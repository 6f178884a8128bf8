//! The recognisers, kind by kind: what each finds, and the near misses it must not.

use super::*;

/// The pieces of `text` that `structured` finds, as (kind, text).
fn pieces(text: &str) -> Vec<(Kind, &str)> {
    structured(text)
        .into_iter()
        .map(|h| (h.kind, &text[h.range]))
        .collect()
}

/// The texts of the hits of `kind` in `text`.
fn of(kind: Kind, text: &str) -> Vec<&str> {
    pieces(text)
        .into_iter()
        .filter(|(k, _)| *k == kind)
        .map(|(_, t)| t)
        .collect()
}

#[test]
fn emails() {
    assert_eq!(
        of(
            Kind::Email,
            "Write to jane.doe+news@mail.example.co.uk. Or bob@x.io!"
        ),
        ["jane.doe+news@mail.example.co.uk", "bob@x.io"]
    );
    assert!(
        of(
            Kind::Email,
            "no address @ here, nor a@b, nor user@localhost"
        )
        .is_empty()
    );
}

#[test]
fn phones_in_international_forms() {
    for phone in [
        "+44 20 7946 0958",
        "+1-212-555-0100",
        "+49 (0)30 1234567",
        "0044 20 7946 0958",
        "+33 6 12 34 56 78",
        "+31 20 123 4567",
        "+34 612 345 678",
        "+39 02 1234 5678",
        "+91 98765 43210",
        "+61 2 9876 5432",
        "+353 1 234 5678",
    ] {
        let text = format!("Call {phone}, please.");
        assert_eq!(of(Kind::Phone, &text), [phone], "in {text:?}");
    }
}

#[test]
fn phones_in_national_forms() {
    for phone in [
        "(212) 555-0100",
        "212-555-0100",
        "212.555.0100",
        "1-800-555-0199",
        "020 7946 0958",
        "07700 900123",
        "030 1234567",
        "030/1234567",
        "0171 1234567",
        "06 12 34 56 78",
        "01.23.45.67.89",
        "06-12345678",
        "020 123 4567",
        "612 345 678",
        "91 123 45 67",
        "02 1234 5678",
        "333 123 4567",
        "98765 43210",
        "011 2345 6789",
        "(02) 9876 5432",
        "0412 345 678",
    ] {
        let text = format!("Tel. {phone} (office)");
        assert_eq!(of(Kind::Phone, &text), [phone], "in {text:?}");
    }
}

#[test]
fn phone_near_misses() {
    // Too few digits, a bare run, a decimal, a date.
    for text in [
        "call 555-0100",
        "order 0612345678",
        "ratio 0.25 or 0.5",
        "on 01.02.2026",
        "+1 555 0100",
        "+44 20 7946 0958 1234 5678",
    ] {
        let found = of(Kind::Phone, text);
        assert!(
            found.is_empty() || found == ["+44 20 7946 0958"],
            "{text:?} gave {found:?}"
        );
    }
}

#[test]
fn urls_without_trailing_punctuation() {
    assert_eq!(
        of(
            Kind::Url,
            "See https://example.com/a?b=1&c=2. Or (www.acme.de/impressum), http://x.org/wiki/A_(b)!"
        ),
        [
            "https://example.com/a?b=1&c=2",
            "www.acme.de/impressum",
            "http://x.org/wiki/A_(b)"
        ]
    );
    assert!(of(Kind::Url, "nothing at http:// or www. here").is_empty());
}

#[test]
fn an_email_inside_a_url_is_the_url() {
    assert_eq!(
        pieces("https://example.com/u/jane@example.org"),
        [(Kind::Url, "https://example.com/u/jane@example.org")]
    );
}

#[test]
fn ibans_with_their_check_digits() {
    for iban in [
        "DE89 3704 0044 0532 0130 00",
        "DE89370400440532013000",
        "GB29 NWBK 6016 1331 9268 19",
        "FR14 2004 1010 0505 0001 3M02 606",
        "NL91 ABNA 0417 1643 00",
        "BE68 5390 0754 7034",
        "NO93 8601 1117 947",
    ] {
        let text = format!("IBAN: {iban}.");
        assert_eq!(of(Kind::Iban, &text), [iban], "in {text:?}");
    }
    // A wrong check digit leaves only the numbers, no phone number inside.
    assert_eq!(
        pieces("DE88 3704 0044 0532 0130 00"),
        ["88", "3704", "0044", "0532", "0130", "00"].map(|n| (Kind::Number, n))
    );
    // One check digit off; the right digits but Germany's length wrong; spaces out of step.
    for text in [
        "DE88 3704 0044 0532 0130 00",
        "DE89 3704 0044 0532 0130 001",
        "DE89 37040044 0532 0130 00",
    ] {
        assert!(of(Kind::Iban, text).is_empty(), "{text:?} is not an IBAN");
    }
}

#[test]
fn cards_pass_luhn() {
    for card in [
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "4111111111111111",
        "5555 5555 5555 4444",
        "3782 822463 10005",
        "3056 930902 5904",
        "6011 1111 1111 1117",
        "4222222222222",
    ] {
        let text = format!("Card {card} exp 12/28");
        assert_eq!(of(Kind::Card, &text), [card], "in {text:?}");
    }
    // A Luhn failure is numbers, not a card, and holds no phone number (`0833 5671 3134`).
    assert_eq!(
        pieces("4875 0833 5671 3134"),
        ["4875", "0833", "5671", "3134"].map(|n| (Kind::Number, n))
    );
    assert_eq!(
        pieces("4111 1111 1111 1112"),
        [
            (Kind::Number, "4111"),
            (Kind::Number, "1111"),
            (Kind::Number, "1111"),
            (Kind::Number, "1112")
        ]
    );
}

#[test]
fn dates_that_exist() {
    for date in [
        "2026-11-27",
        "27/11/2026",
        "11/27/2026",
        "27.11.2026",
        "27-11-2026",
        "27/11/26",
        "27 November 2026",
        "27th November 2026",
        "November 27, 2026",
        "Nov 27 2026",
        "Nov. 27th, 2026",
        "27 Nov 2026",
        "29 February 2024",
    ] {
        let text = format!("Signed on {date}, in Paris.");
        assert_eq!(of(Kind::Date, &text), [date], "in {text:?}");
    }
}

#[test]
fn date_near_misses_are_numbers() {
    assert_eq!(
        pieces("13/32/2026"),
        [
            (Kind::Number, "13"),
            (Kind::Number, "32"),
            (Kind::Number, "2026")
        ]
    );
    assert_eq!(pieces("version 1.2.3"), [(Kind::Number, "1.2.3")]);
    assert_eq!(pieces("release 1.2.34"), [(Kind::Number, "1.2.34")]);
    assert!(of(Kind::Date, "29 February 2026, 31 April 2026, 2026-02-30").is_empty());
}

#[test]
fn money() {
    for amount in [
        "$1,200.50",
        "€300",
        "€ 1.200,00",
        "1.200,00 EUR",
        "USD 40",
        "£5",
        "¥1000",
        "12.5 million dollars",
        "1 200,00 €",
        "CHF 1,500",
        "-$25.00",
        "300 euros",
    ] {
        let text = format!("Total: {amount}; thanks");
        assert_eq!(of(Kind::Money, &text), [amount], "in {text:?}");
    }
}

#[test]
fn numbers() {
    assert_eq!(
        of(
            Kind::Number,
            "Rooms 12 and -3, 1,234,567.89 or 1.234,5; up 12.5% (−4 %); pages 10-12."
        ),
        [
            "12",
            "-3",
            "1,234,567.89",
            "1.234,5",
            "12.5%",
            "−4 %",
            "10",
            "12"
        ]
    );
}

#[test]
fn kinds_take_their_place_in_a_sentence() {
    let text = "On 27.11.2026 Jane (jane@acme.com, +44 20 7946 0958) paid €1.200,00 \
                from DE89 3704 0044 0532 0130 00 with 4111 1111 1111 1111 for 3 items, see \
                https://acme.com/i/42.";
    assert_eq!(
        pieces(text),
        [
            (Kind::Date, "27.11.2026"),
            (Kind::Email, "jane@acme.com"),
            (Kind::Phone, "+44 20 7946 0958"),
            (Kind::Money, "€1.200,00"),
            (Kind::Iban, "DE89 3704 0044 0532 0130 00"),
            (Kind::Card, "4111 1111 1111 1111"),
            (Kind::Number, "3"),
            (Kind::Url, "https://acme.com/i/42"),
        ]
    );
}

#[test]
fn dates_in_other_languages_and_with_a_time() {
    for date in [
        "1 janvier 2026",
        "1er janvier 2026",
        "3. März 2026",
        "1 de enero de 2026",
        "12 dicembre 2026",
        "5 mei 2026",
    ] {
        let text = format!("Le {date}.");
        assert_eq!(of(Kind::Date, &text), [date], "in {text:?}");
    }
    assert_eq!(of(Kind::Date, "at 2026-11-27T10:00:00Z"), ["2026-11-27"]);
}

#[test]
fn round_numbers_are_not_phone_numbers() {
    assert_eq!(
        pieces("from 700 000 000 to (555) 123-4567"),
        [
            (Kind::Number, "700"),
            (Kind::Number, "000"),
            (Kind::Number, "000"),
            (Kind::Phone, "(555) 123-4567")
        ]
    );
}

#[test]
fn lakh_amounts() {
    assert_eq!(
        of(Kind::Money, "paid ₹1,00,000.50 in cash"),
        ["₹1,00,000.50"]
    );
}

#[test]
fn phone_shapes_that_are_numbers() {
    assert_eq!(
        of(Kind::Phone, "tracking 9400 1000 0000 0000 0000 00"),
        Vec::<&str>::new()
    );
    // French pairs are five; a sixth is not part of the number.
    assert_eq!(of(Kind::Phone, "ref 06 12 34 56 78 90"), ["06 12 34 56 78"]);
    assert_eq!(
        of(Kind::Phone, "or (+44) 20 7946 0958 today"),
        ["(+44) 20 7946 0958"]
    );
    assert!(of(Kind::Date, "in may 12 2026 cases").is_empty());
}
