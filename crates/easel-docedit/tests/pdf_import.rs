//! `pdf_to_html` on PDFs made by `tests/pdf/make_pdfs.py` (reportlab), and on bad input.

#![cfg(feature = "pdf")]
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;

use easel_core::{Diagnose, ErrorKind};
use easel_docedit::{DocError, PdfHtml, pdf_to_html};
use regex::Regex;

mod common;
use common::hand_made_pdf;

const LETTER: &[u8] = include_bytes!("pdf/letter.pdf");
const TWO_COLUMNS: &[u8] = include_bytes!("pdf/two-columns.pdf");
const ENCRYPTED: &[u8] = include_bytes!("pdf/encrypted.pdf");
const UNICODE: &[u8] = include_bytes!("pdf/unicode.pdf");

fn import(bytes: &[u8]) -> PdfHtml {
    match pdf_to_html(bytes, "Letter") {
        Ok(doc) => doc,
        Err(e) => panic!("import failed: {e}"),
    }
}

/// Each element with an id: (page, tag, id, inner HTML), in document order.
fn elements(html: &str) -> Vec<(u32, String, String, String)> {
    let section = Regex::new(r#"(?s)<section data-page="(\d+)">(.*?)</section>"#).unwrap();
    let element =
        Regex::new(r#"<(p|h[1-6]) data-canon-id="([^"]*)">([^<]*)</(?:p|h[1-6])>"#).unwrap();
    let mut out = Vec::new();
    for s in section.captures_iter(html) {
        let page: u32 = s[1].parse().unwrap();
        for e in element.captures_iter(&s[2]) {
            out.push((page, e[1].to_string(), e[2].to_string(), e[3].to_string()));
        }
    }
    out
}

fn pdf_error(bytes: &[u8]) -> String {
    match pdf_to_html(bytes, "x") {
        Err(e @ DocError::Pdf { .. }) => {
            assert_eq!(e.kind(), ErrorKind::Invalid);
            assert!(!e.hint().is_empty());
            e.to_string()
        }
        Err(e) => panic!("expected DocError::Pdf, got {e:?}"),
        Ok(doc) => panic!("expected an error, got {} pages", doc.pages),
    }
}

#[test]
fn the_letter_keeps_its_pages_headings_and_paragraphs_in_order() {
    let doc = import(LETTER);
    assert_eq!(doc.pages, 3);
    let got: Vec<(u32, String, String)> = elements(&doc.html)
        .into_iter()
        .map(|(page, tag, _, text)| (page, tag, text))
        .collect();
    let want = [
        (1, "h1", "Letter of Engagement"),
        (1, "p", "Dear Ms. Moreau,"),
        (
            1,
            "p",
            "Thank you for choosing our firm. This letter sets out the terms of our engagement \
             and the scope of the work we will carry out for you in the matter of the Harbour \
             Street lease. Please read it with care: it is an important document.",
        ),
        (1, "h2", "Scope of work"),
        (
            1,
            "p",
            "We will review the lease, advise on the break clause and negotiate the rent review \
             with the landlord&#39;s agents.",
        ),
        (
            1,
            "p",
            "Fees below &lt;500 EUR&gt; &amp; expenses are billed monthly.",
        ),
        (2, "h2", "Payment details"),
        (
            2,
            "p",
            "Please pay by bank transfer to IBAN DE89 3704 0044 0532 0130 00 and send the \
             remittance advice to accounts@example.com.",
        ),
        (
            2,
            "p",
            "For questions call +49 30 1234 5678 between 9:00 and 17:00.",
        ),
        (2, "p", "Yours sincerely,"),
        (2, "p", "Anna Keller"),
    ];
    let want: Vec<(u32, String, String)> = want
        .iter()
        .map(|(p, t, x)| (*p, t.to_string(), x.to_string()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(doc.paragraphs, want.len());
}

#[test]
fn every_page_has_its_section_and_an_empty_one_is_reported() {
    let doc = import(LETTER);
    for n in 1..=3 {
        assert_eq!(
            doc.html
                .matches(&format!("<section data-page=\"{n}\">"))
                .count(),
            1,
            "page {n}"
        );
    }
    assert_eq!(doc.html.matches("<section").count(), 3);
    assert!(doc.html.contains("<section data-page=\"3\"></section>"));
    assert_eq!(
        doc.warnings,
        ["page 3 holds no text: is it a scanned image?"]
    );
}

#[test]
fn ids_are_unique_and_well_formed() {
    let doc = import(LETTER);
    let well_formed = Regex::new(r"^c[0-9a-f]{8}$").unwrap();
    let ids: Vec<String> = elements(&doc.html).into_iter().map(|e| e.2).collect();
    assert_eq!(ids.len(), doc.paragraphs);
    assert!(ids.iter().all(|id| well_formed.is_match(id)), "{ids:?}");
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len());
    // Every element of the document carries an id: nothing else holds text.
    assert_eq!(doc.html.matches("data-canon-id=").count(), ids.len());
}

#[test]
fn the_document_is_a_complete_html5_page_with_an_escaped_title() {
    let doc = match pdf_to_html(LETTER, "Q3 <draft> & \"final\"") {
        Ok(doc) => doc,
        Err(e) => panic!("{e}"),
    };
    assert!(
        doc.html
            .starts_with("<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">")
    );
    assert!(
        doc.html
            .contains("<title>Q3 &lt;draft&gt; &amp; &quot;final&quot;</title>")
    );
    assert!(doc.html.contains("<style>"));
    assert!(doc.html.trim_end().ends_with("</body>\n</html>"));
    assert!(!doc.html.contains("<draft>"));
}

#[test]
fn two_columns_are_read_column_by_column() {
    let doc = import(TWO_COLUMNS);
    let texts: Vec<String> = elements(&doc.html).into_iter().map(|e| e.3).collect();
    assert_eq!(
        texts,
        [
            "Quarterly Report",
            "Sales rose in every region this quarter, led by the north.",
            "Costs stayed flat.",
            "Next quarter we open two new stores in the south.",
            "Hiring continues.",
        ]
    );
    assert!(doc.warnings.is_empty());
}

#[test]
fn an_embedded_truetype_font_with_justified_text_reads_as_unicode() {
    let doc = import(UNICODE);
    let got: Vec<(String, String)> = elements(&doc.html)
        .into_iter()
        .map(|e| (e.1, e.3))
        .collect();
    let want = [
        ("h1", "Überweisung an die Bäckerei"),
        (
            "p",
            "Die Rechnung über 1.250,00 € für die Lieferung vom 3. März ist fällig. Bitte \
             überweisen Sie den Betrag innerhalb von vierzehn Tagen auf das unten genannte Konto; \
             bei Rückfragen erreichen Sie Frau Öztürk unter oezturk@example.de.",
        ),
        ("p", "Mit freundlichen Grüßen, Ihr Team «Café Zoë»."),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(t, x)| (t.to_string(), x.to_string()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn empty_bytes_are_refused() {
    assert!(pdf_error(b"").contains("empty"));
}

#[test]
fn random_bytes_are_refused() {
    // A fixed seed: the same "random" bytes on every run.
    let mut rng = fastrand::Rng::with_seed(7);
    let bytes: Vec<u8> = (0..4096).map(|_| rng.u8(..)).collect();
    assert!(pdf_error(&bytes).contains("%PDF-"));
}

#[test]
fn a_truncated_pdf_is_refused() {
    for len in [8, 200, LETTER.len() / 2, LETTER.len() - 40] {
        let message = pdf_error(&LETTER[..len]);
        assert!(
            message.contains("the PDF cannot be imported"),
            "{len}: {message}"
        );
    }
}

#[test]
fn a_header_with_garbage_after_it_is_refused() {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'x', 500));
    pdf_error(&bytes);
}

#[test]
fn an_encrypted_pdf_is_refused_with_what_to_do() {
    let message = pdf_error(ENCRYPTED);
    assert!(message.contains("encrypted"), "{message}");
    assert!(message.contains("qpdf --decrypt"), "{message}");
}

#[test]
fn a_small_import_matches_its_snapshot() {
    let doc = import(TWO_COLUMNS);
    let ids = Regex::new(r#"data-canon-id="c[0-9a-f]{8}""#).unwrap();
    let html = ids.replace_all(&doc.html, r#"data-canon-id="cXXXXXXXX""#);
    insta::assert_snapshot!(html);
}

#[test]
fn a_hand_made_pdf_imports() {
    let doc = import(&hand_made_pdf(&[("Hello & goodbye", true)]));
    let texts: Vec<String> = elements(&doc.html).into_iter().map(|e| e.3).collect();
    assert_eq!(texts, ["Hello &amp; goodbye"]);
}

#[test]
fn a_page_the_reader_panics_on_becomes_a_warning() {
    let doc = import(&hand_made_pdf(&[("Broken", false), ("Fine", true)]));
    assert_eq!(doc.pages, 2);
    let got: Vec<(u32, String)> = elements(&doc.html)
        .into_iter()
        .map(|e| (e.0, e.3))
        .collect();
    assert_eq!(got, [(2, "Fine".to_string())]);
    assert_eq!(doc.warnings.len(), 1, "{:?}", doc.warnings);
    assert!(
        doc.warnings[0].starts_with("page 1 could not be read"),
        "{:?}",
        doc.warnings
    );
}

#[test]
fn a_pdf_whose_every_page_panics_the_reader_is_refused() {
    let message = pdf_error(&hand_made_pdf(&[("Broken", false)]));
    assert!(
        message.contains("its only page could not be read"),
        "{message}"
    );
    let message = pdf_error(&hand_made_pdf(&[("Broken", false), ("Also", false)]));
    assert!(
        message.contains("none of its 2 pages could be read"),
        "{message}"
    );
}
