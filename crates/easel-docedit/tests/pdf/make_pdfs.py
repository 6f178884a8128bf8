#!/usr/bin/env python3
"""Makes the small PDFs that tests/pdf_import.rs reads, and larger ones for the benchmark.

    pip install reportlab==5.1.0 fpdf2==2.8.9   # and fonts-dejavu-core for unicode.pdf
    python3 crates/easel-docedit/tests/pdf/make_pdfs.py            # the committed test PDFs
    python3 crates/easel-docedit/tests/pdf/make_pdfs.py --bench DIR  # bench-10.pdf, bench-100.pdf

The test PDFs are committed, so tests never need Python; this script documents how they were
made. Lines are placed by hand (drawString), so the expected paragraphs in the tests are exact.
"""

import os
import sys

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

HERE = os.path.dirname(os.path.abspath(__file__))
LEFT = 72
TOP = A4[1] - 72
BODY = ("Helvetica", 11)
LEADING = 14
GAP = 10


def new_canvas(path, **kw):
    # invariant: no timestamps or random ids, so a re-run gives the same bytes.
    c = canvas.Canvas(path, pagesize=A4, invariant=1, pageCompression=1, **kw)
    c.setTitle("Test document")
    return c


class Writer:
    """Draws headings and paragraphs top-down in one column."""

    def __init__(self, c, x=LEFT, y=TOP):
        self.c, self.x, self.y = c, x, y

    def heading(self, text, size):
        self.c.setFont("Helvetica-Bold", size)
        self.c.drawString(self.x, self.y - size, text)
        self.y -= size + GAP + 4

    def para(self, *lines):
        self.c.setFont(*BODY)
        for line in lines:
            self.y -= LEADING
            self.c.drawString(self.x, self.y, line)
        self.y -= GAP


def letter(path):
    c = new_canvas(path)
    w = Writer(c)
    w.heading("Letter of Engagement", 20)
    w.para("Dear Ms. Moreau,")
    w.para(
        "Thank you for choosing our firm. This letter sets out the terms of our",
        "engagement and the scope of the work we will carry out for you in the",
        "matter of the Harbour Street lease. Please read it with care: it is an impor-",
        "tant document.",
    )
    w.heading("Scope of work", 14)
    w.para(
        "We will review the lease, advise on the break clause and negotiate the",
        "rent review with the landlord's agents.",
    )
    w.para("Fees below <500 EUR> & expenses are billed monthly.")
    c.showPage()

    w = Writer(c)
    w.heading("Payment details", 14)
    w.para(
        "Please pay by bank transfer to IBAN DE89 3704 0044 0532 0130 00 and send",
        "the remittance advice to accounts@example.com.",
    )
    w.para("For questions call +49 30 1234 5678 between 9:00 and 17:00.")
    w.para("Yours sincerely,")
    w.para("Anna Keller")
    c.showPage()

    # Page 3 is left empty on purpose: it stands for a scanned page.
    c.showPage()
    c.save()


def two_columns(path):
    c = new_canvas(path)
    w = Writer(c)
    w.heading("Quarterly Report", 18)
    top = w.y
    left = Writer(c, LEFT, top)
    left.para("Sales rose in every region this", "quarter, led by the north.")
    left.para("Costs stayed flat.")
    right = Writer(c, LEFT + 240, top)
    right.para("Next quarter we open two new", "stores in the south.")
    right.para("Hiring continues.")
    c.showPage()
    c.save()


def encrypted(path):
    c = new_canvas(path, encrypt="secret")
    Writer(c).para("This text is locked behind a password.")
    c.showPage()
    c.save()


def unicode_fpdf2(path):
    """Another producer: fpdf2 embeds a TrueType subset (a CID font with a ToUnicode map), sets
    justified text with word spacing and wraps lines itself."""
    import datetime

    from fpdf import FPDF

    fonts = "/usr/share/fonts/truetype/dejavu/"
    pdf = FPDF(format="A4")
    pdf.set_creation_date(datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc))
    pdf.add_font("DejaVu", "", fonts + "DejaVuSans.ttf")
    pdf.add_font("DejaVu", "B", fonts + "DejaVuSans-Bold.ttf")
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 18)
    pdf.cell(0, 12, "Überweisung an die Bäckerei", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("DejaVu", "", 11)
    pdf.multi_cell(
        0,
        6,
        "Die Rechnung über 1.250,00 € für die Lieferung vom 3. März ist fällig. Bitte überweisen "
        "Sie den Betrag innerhalb von vierzehn Tagen auf das unten genannte Konto; bei Rückfragen "
        "erreichen Sie Frau Öztürk unter oezturk@example.de.",
        align="J",
    )
    pdf.ln(6)
    pdf.multi_cell(0, 6, "Mit freundlichen Grüßen, Ihr Team «Café Zoë».", align="L")
    pdf.output(path)


LOREM = (
    "The parties agree that the tenant shall keep the premises in good repair and shall not",
    "make any structural alteration without the prior written consent of the landlord, which",
    "shall not be unreasonably withheld or delayed. Rent is payable quarterly in advance.",
)


def bench(path, pages):
    c = new_canvas(path)
    for n in range(1, pages + 1):
        w = Writer(c)
        w.heading(f"Section {n}", 14)
        for _ in range(12):
            w.para(*LOREM)
            if w.y < 120:
                break
        c.showPage()
    c.save()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--bench":
        os.makedirs(sys.argv[2], exist_ok=True)
        for pages in (10, 100):
            bench(os.path.join(sys.argv[2], f"bench-{pages}.pdf"), pages)
        return
    letter(os.path.join(HERE, "letter.pdf"))
    two_columns(os.path.join(HERE, "two-columns.pdf"))
    encrypted(os.path.join(HERE, "encrypted.pdf"))
    unicode_fpdf2(os.path.join(HERE, "unicode.pdf"))


if __name__ == "__main__":
    main()
