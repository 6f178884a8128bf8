//! PDFs written by hand for the tests.

/// A PDF written by hand: one page per entry, each showing its text in Helvetica, with a
/// MediaBox only where asked (`pdf-extract` panics on a page without one).
pub fn hand_made_pdf(pages: &[(&str, bool)]) -> Vec<u8> {
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        String::new(), // the page tree, once the pages' numbers are known
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut kids = Vec::new();
    for (text, media_box) in pages {
        let content = format!("BT /F1 12 Tf 72 700 Td ({text}) Tj ET");
        objects.push(format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ));
        let contents = objects.len();
        let media = if *media_box {
            "/MediaBox [0 0 595 842] "
        } else {
            ""
        };
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R {media}/Resources << /Font << /F1 3 0 R >> >> \
             /Contents {contents} 0 R >>"
        ));
        kids.push(format!("{} 0 R", objects.len()));
    }
    objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        kids.join(" "),
        kids.len()
    );
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for offset in offsets {
        out.extend(format!("{offset:010} 00000 n \n").bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}
