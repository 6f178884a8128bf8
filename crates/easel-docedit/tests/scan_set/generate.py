#!/usr/bin/env python3
"""Writes the scanner's test set: HTML and Markdown documents (letters, invoices, contracts,
CVs, minutes, contact sheets) full of fake structured data, and `expected.json`, the exact bytes of every
email, phone number, URL, IBAN, card number, date, amount of money and plain number in the
text of each block.

No network, no third-party package: the names, streets and formats are lists below, and the
check digits (IBAN mod-97, Luhn) are computed here. A fixed seed makes the set reproducible:

    python3 generate.py            # rewrites docs/ and expected.json
    python3 generate.py --seed 7 --count 300 --out /tmp/set

The text of a block is what a reader sees: tags, entities and Markdown syntax removed,
whitespace collapsed. Table rows in Markdown read as their cells joined by " | ".
"""

import argparse
import html
import json
import os
import random
import re

FIRST = ["Jane", "John", "Amélie", "Lukas", "Sofia", "Marco", "Priya", "Liam", "Chloé", "Jan",
         "Lucía", "Arjun", "Olivia", "Noah", "Emma", "Matteo", "Hannah", "Thomas", "Zoë", "Raj",
         "Isabel", "Pieter", "Grace", "Ahmed", "Mia", "Oskar", "Léa", "Daniel", "Aisha", "Ben"]
LAST = ["Smith", "Müller", "Dubois", "García", "Rossi", "Sharma", "van Dijk", "Nguyen",
        "O'Brien", "Schmidt", "Martin", "Bianchi", "Fernández", "Patel", "Jansen", "Taylor",
        "Weber", "Moreau", "Romano", "Kumar", "de Vries", "Brown", "Wilson", "Fischer", "Lopez"]
COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Hooli", "Vandelay",
             "Soylent", "Cyberdyne", "Tyrell", "Gringotts", "Monarch", "Wonka", "Aperture"]
SUFFIX = ["Ltd", "GmbH", "SARL", "B.V.", "S.L.", "S.r.l.", "Inc.", "Pty Ltd", "LLP"]
STREETS = ["Baker Street", "Hauptstraße", "rue de Rivoli", "Keizersgracht", "Calle Mayor",
           "Via Roma", "MG Road", "George Street", "Fifth Avenue", "Unter den Linden",
           "Avenue des Champs-Élysées", "Prinsengracht", "Gran Vía", "Corso Italia"]
CITIES = [("London", "UK"), ("Berlin", "DE"), ("Paris", "FR"), ("Amsterdam", "NL"),
          ("Madrid", "ES"), ("Milan", "IT"), ("Bengaluru", "IN"), ("Sydney", "AU"),
          ("New York", "US"), ("Toronto", "CA"), ("Munich", "DE"), ("Lyon", "FR")]
TLDS = ["com", "de", "fr", "nl", "es", "it", "co.uk", "com.au", "in", "org", "io", "net"]
WORDS = ["invoice", "contract", "report", "docs", "team", "careers", "about", "support",
         "billing", "legal", "privacy", "terms", "news", "projects", "download"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]

R = random.Random()


def ascii_slug(s):
    table = str.maketrans("éèêëüöäàíóúçñ", "eeeeuoaaioucn")
    return re.sub(r"[^a-z]", "", s.lower().translate(table))


# ---------------------------------------------------------------- the structured pieces

def email(first=None, last=None):
    first = first or R.choice(FIRST)
    last = last or R.choice(LAST)
    f, l = ascii_slug(first), ascii_slug(last)
    domain = ascii_slug(R.choice(COMPANIES))
    local = R.choice([f"{f}.{l}", f"{f[0]}{l}", f"{f}", f"{f}-{l}", f"{f}.{l}+billing",
                      f"{l}{R.randint(1, 99)}", "info", "contact", "hr"])
    sub = R.choice(["", "", "mail.", "eu."])
    return f"{local}@{sub}{domain}.{R.choice(TLDS)}"


def digits(n):
    return "".join(str(R.randint(0, 9)) for _ in range(n))


def nz(n):
    return str(R.randint(1, 9)) + digits(n - 1)


def phone():
    c = R.choice(["US", "UK", "DE", "FR", "NL", "ES", "IT", "IN", "AU", "INT"])
    if c == "US":
        a, e, s = f"{R.randint(2, 9)}{digits(2)}", f"{R.randint(2, 9)}{digits(2)}", digits(4)
        return R.choice([f"({a}) {e}-{s}", f"{a}-{e}-{s}", f"{a}.{e}.{s}", f"+1-{a}-{e}-{s}",
                         f"+1 {a} {e} {s}", f"1-800-{e}-{s}"])
    if c == "UK":
        return R.choice([f"020 {nz(4)} {digits(4)}", f"07{digits(3)} {digits(6)}",
                         f"+44 20 {nz(4)} {digits(4)}", f"0044 20 {nz(4)} {digits(4)}",
                         f"+44 7{digits(3)} {digits(6)}", f"0161 {nz(3)} {digits(4)}"])
    if c == "DE":
        return R.choice([f"030 {nz(7)}", f"089 {nz(8)}", f"0171 {nz(7)}", f"030/{nz(7)}",
                         f"+49 (0)30 {nz(7)}", f"+49 30 {nz(8)}", f"+49 171 {nz(7)}"])
    if c == "FR":
        pairs = " ".join(digits(2) for _ in range(4))
        return R.choice([f"06 {pairs}", f"01 {pairs}", f"+33 6 {pairs}",
                         "0" + str(R.randint(1, 9)) + "." + ".".join(digits(2) for _ in range(4))])
    if c == "NL":
        return R.choice([f"06-{nz(8)}", f"020 {nz(3)} {digits(4)}", f"+31 20 {nz(3)} {digits(4)}",
                         f"+31 6 {nz(8)}"])
    if c == "ES":
        return R.choice([f"6{digits(2)} {digits(3)} {digits(3)}", f"91 {digits(3)} {digits(2)} {digits(2)}",
                         f"+34 6{digits(2)} {digits(3)} {digits(3)}", f"9{digits(2)} {digits(3)} {digits(3)}"])
    if c == "IT":
        return R.choice([f"02 {nz(4)} {digits(4)}", f"3{digits(2)} {digits(3)} {digits(4)}",
                         f"+39 02 {nz(4)} {digits(4)}", f"+39 3{digits(2)} {digits(3)} {digits(4)}"])
    if c == "IN":
        return R.choice([f"{R.randint(6, 9)}{digits(4)} {digits(5)}", f"+91 {R.randint(6, 9)}{digits(4)} {digits(5)}",
                         f"011 {nz(4)} {digits(4)}", f"022-{nz(8)}"])
    if c == "AU":
        return R.choice([f"(02) {nz(4)} {digits(4)}", f"02 {nz(4)} {digits(4)}",
                         f"04{digits(2)} {digits(3)} {digits(3)}", f"+61 2 {nz(4)} {digits(4)}",
                         f"+61 4{digits(2)} {digits(3)} {digits(3)}"])
    return R.choice([f"+353 1 {nz(3)} {digits(4)}", f"+41 44 {nz(3)} {digits(2)} {digits(2)}",
                     f"+46 8 {nz(3)} {digits(3)} {digits(2)}", f"+32 2 {nz(3)} {digits(2)} {digits(2)}"])


def url():
    host = ascii_slug(R.choice(COMPANIES)) + "." + R.choice(TLDS)
    path = R.choice(["", "/" + R.choice(WORDS), f"/{R.choice(WORDS)}/{R.randint(1, 999)}",
                     f"/{R.choice(WORDS)}?id={R.randint(1, 99999)}&lang=en",
                     f"/{R.choice(WORDS)}/{R.choice(WORDS)}.html", "/wiki/Project_(2026)"])
    return R.choice([f"https://www.{host}{path}", f"https://{host}{path}", f"http://{host}{path}",
                     f"www.{host}{path}"])


def letters(n):
    return "".join(R.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(n))


IBAN_BBAN = {
    "DE": lambda: digits(18), "GB": lambda: letters(4) + digits(14), "FR": lambda: digits(23),
    "NL": lambda: letters(4) + digits(10), "ES": lambda: digits(20),
    "IT": lambda: letters(1) + digits(22), "BE": lambda: digits(12), "CH": lambda: digits(17),
    "AT": lambda: digits(16), "PL": lambda: digits(24), "IE": lambda: letters(4) + digits(14),
}


def mod97(s):
    rest = 0
    for ch in s:
        rest = (rest * 10 + int(ch)) % 97
    return rest


def iban_check(country, bban):
    expanded = "".join(str(int(c, 36)) for c in bban + country + "00")
    return 98 - mod97(expanded)


def group4(s, sep=" "):
    return sep.join(s[i:i + 4] for i in range(0, len(s), 4))


def iban(valid=True):
    country = R.choice(list(IBAN_BBAN)) if valid else "DE"
    bban = IBAN_BBAN[country]()
    check = iban_check(country, bban)
    if not valid:
        check = (check + R.randint(1, 96)) % 97 or 1
        while check == iban_check(country, bban):
            check = R.randint(2, 98)
    s = f"{country}{check:02d}{bban}"
    return group4(s) if R.random() < 0.7 else s


def luhn_complete(body):
    total = 0
    for i, d in enumerate(reversed(body)):
        d = int(d)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def card(valid=True):
    brand = R.choice(["visa", "mc", "mc2", "amex", "discover", "jcb", "diners", "visa13"])
    if brand == "visa":
        n, shape = "4" + digits(14), "4444"
    elif brand == "mc":
        n, shape = str(R.randint(51, 55)) + digits(13), "4444"
    elif brand == "mc2":
        n, shape = str(R.randint(2221, 2720)) + digits(11), "4444"
    elif brand == "amex":
        n, shape = R.choice(["34", "37"]) + digits(12), "465"
    elif brand == "discover":
        n, shape = "6011" + digits(11), "4444"
    elif brand == "jcb":
        n, shape = str(R.randint(3528, 3589)) + digits(11), "4444"
    elif brand == "diners":
        n, shape = "36" + digits(11), "464"
    else:
        n, shape = "4" + digits(11), "one"
    n = luhn_complete(n)
    if not valid:
        last = int(n[-1])
        n = n[:-1] + str((last + R.randint(1, 9)) % 10)
    sep = R.choice([" ", " ", "-", ""])
    if shape == "one" or sep == "":
        return n
    sizes = [int(c) for c in shape]
    parts, i = [], 0
    for size in sizes:
        parts.append(n[i:i + size])
        i += size
    return sep.join(parts)


def date(valid=True):
    y, m = R.randint(1960, 2030), R.randint(1, 12)
    d = R.randint(1, 28)
    if not valid:
        return R.choice([f"{R.randint(13, 19)}/{R.randint(32, 39)}/{y}", f"{y}-{R.randint(13, 19)}-{d:02d}",
                         f"{R.randint(32, 39)}.{m:02d}.{y}"])
    name = MONTHS[m - 1]
    return R.choice([f"{y}-{m:02d}-{d:02d}", f"{d:02d}/{m:02d}/{y}", f"{m:02d}/{d:02d}/{y}",
                     f"{d:02d}.{m:02d}.{y}", f"{d} {name} {y}", f"{name} {d}, {y}", f"{name[:3]} {d} {y}",
                     f"{d} {name[:3]} {y}", f"{d}th {name} {y}" if d in (4, 5, 6, 7, 8, 9) else f"{d} {name} {y}"])


def thousands(n, sep):
    s = str(n)
    groups = []
    while len(s) > 3:
        groups.insert(0, s[-3:])
        s = s[:-3]
    groups.insert(0, s)
    return sep.join(groups)


def money():
    whole, cents = R.randint(1, 250000), R.randint(0, 99)
    en = thousands(whole, ",") + f".{cents:02d}"
    eu = thousands(whole, ".") + f",{cents:02d}"
    small = R.randint(1, 999)
    return R.choice([f"${en}", f"€{small}", f"€ {eu}", f"{eu} EUR", f"USD {small}", f"£{small}",
                     f"¥{R.randint(100, 99999)}", f"{R.randint(2, 90)}.{R.randint(1, 9)} million dollars",
                     f"£{en}", f"CHF {thousands(whole, ',')}", f"{thousands(whole, ' ')},{cents:02d} €",
                     f"{small} euros", f"US${en}", f"INR {thousands(whole, ',')}"])


def number():
    return R.choice([str(R.randint(1, 999)), thousands(R.randint(1000, 9999999), ","),
                     f"{R.randint(0, 99)}.{R.randint(1, 99)}", f"{R.randint(1, 99)}%",
                     f"{R.randint(1, 99)}.{R.randint(0, 9)}%", f"-{R.randint(1, 500)}",
                     f"{R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 9)}", str(R.randint(1, 12))])


def postcode(country):
    return {"UK": None, "DE": digits(5), "FR": "75" + digits(3), "NL": None, "ES": "28" + digits(3),
            "IT": "20" + digits(3), "IN": "560" + digits(3), "AU": "2" + digits(3),
            "US": digits(5), "CA": None}.get(country)


# ---------------------------------------------------------------- blocks and templates

class Block:
    """A block: its tag and its pieces, each a plain string or (kind, text)."""

    def __init__(self, tag, *pieces):
        self.tag = tag
        self.pieces = list(pieces)


def P(*pieces):
    return Block("p", *pieces)


def H(*pieces):
    return Block("h1", *pieces)


def H2(*pieces):
    return Block("h2", *pieces)


def LI(*pieces):
    return Block("li", *pieces)


def ROW(*cells):
    return Block("tr", *cells)


def person():
    return f"{R.choice(FIRST)} {R.choice(LAST)}"


def company():
    return f"{R.choice(COMPANIES)} {R.choice(SUFFIX)}"


def address():
    city, country = R.choice(CITIES)
    pc = postcode(country)
    pieces = [("number", str(R.randint(1, 240))), f" {R.choice(STREETS)}, "]
    if pc:
        pieces += [("number", pc), " "]
    return pieces + [city]


def E():
    return ("email", email())


def PH():
    return ("phone", phone())


def U():
    return ("url", url())


def IB():
    return ("iban", iban())


def CA():
    return ("card", card())


def D():
    return ("date", date())


def M():
    return ("money", money())


def N():
    return ("number", number())


def near_miss():
    """Text that looks structured but is not: its numbers are plain numbers."""
    kind = R.choice(["iban", "card", "date"])
    text = {"iban": lambda: iban(False), "card": lambda: card(False), "date": lambda: date(False)}[kind]()
    return [("numbers", text)]


def distractors():
    """Numbers in the places prose puts them: times, ranges, codes, sections, signs."""
    n = lambda v: ("number", v)
    a, b = R.randint(1, 12), R.randint(10, 59)
    items = [
        ["the call starts at ", n(str(a)), ":", n(str(b))],
        ["see pages ", n(str(a)), "-", n(str(a + R.randint(1, 9)))],
        ["results for Q", n(str(R.randint(1, 4))), " ", n(str(R.randint(2019, 2027)))],
        ["on the ", n(str(R.randint(2, 9))), "rd floor"],
        ["certified to ISO ", n(str(R.choice([9001, 27001, 14001])))],
        ["a ratio of ", n(f"{R.randint(1, 9)},{R.randint(1, 9)}")],
        ["room ", n(str(R.randint(1, 99))), "B"],
        ["raised ", ("money", f"${R.randint(2, 900)}k"), " in seed funding"],
        ["a fund of ", ("money", f"€{R.randint(1, 9)}.{R.randint(1, 9)}bn")],
        ["half (", n("1"), "/", n("2"), ") of the budget"],
        ["extension ", n(str(R.randint(100, 999)))],
        ["a change of ", n(f"-{R.randint(1, 9)}.{R.randint(1, 9)}"), " points"],
        ["growth of ", n(f"+{R.randint(1, 30)}%")],
        ["the years ", n(str(R.randint(1990, 2010))), "–", n(str(R.randint(2011, 2026)))],
        ["section ", n(f"{R.randint(1, 9)}.{R.randint(1, 9)}.{R.randint(1, 9)}")],
        ["case ", n(str(R.randint(2019, 2026))), "-", n("00" + digits(4))],
        ["order ", n("0" + digits(9)), " shipped"],
        ["about ", n(thousands(R.randint(1000, 99999), ",")), " people"],
        ["the ", n(str(R.randint(2, 40))), "th anniversary"],
    ]
    chosen = R.sample(items, 3)
    pieces = ["Notes: "]
    for i, item in enumerate(chosen):
        pieces += ([", " if i < 2 else " and "] if i else []) + item
    return pieces + ["."]


def letter():
    sender, to = person(), person()
    return [
        H(company()),
        P(*address()),
        P("Phone: ", PH(), " · Email: ", E(), " · Web: ", U()),
        P(D()),
        P("Dear ", to, ","),
        P("Thank you for your payment of ", M(), " received on ", D(), ". Your customer number is ", N(),
          " and your file has ", N(), " pages."),
        P("Please transfer the remaining ", M(), " to our account ", IB(), " before ", D(), "."),
        P("For questions call ", PH(), " or write to ", E(), "; our terms are at ", U(), "."),
        P("The card ", CA(), " was charged ", M(), "; a refund goes to ", CA(), "."),
        P("Kind regards, ", sender),
    ]


def invoice():
    rows = [ROW("Item", "Quantity", "Price")]
    for _ in range(R.randint(2, 5)):
        rows.append(ROW(R.choice(WORDS).capitalize(), ("number", str(R.randint(1, 40))), M()))
    return [
        H("Invoice from ", company()),
        P("Invoice date: ", D(), " · Due: ", D()),
        P("Billed to ", person(), ", ", *address()),
        *rows,
        P("Total due: ", M(), " (VAT ", ("number", f"{R.randint(5, 25)}%"), " included)."),
        P("Pay by bank transfer to ", IB(), " or by card; the card on file ends ",
          ("number", digits(4)), "."),
        P("Card used last time: ", CA(), ", charged ", M(), " on ", D(), "."),
        P("Questions: ", E(), ", ", PH(), ", ", U()),
    ]


def contract():
    return [
        H("Service agreement"),
        P("This agreement is made on ", D(), " between ", company(), " and ", person(), "."),
        H2("Payment"),
        LI("The client pays ", M(), " per month, due on day ", ("number", str(R.randint(1, 28))),
           " of each month."),
        LI("Late payments bear interest at ", N(), " per year."),
        LI("Payments go to ", IB(), " (account holder ", person(), ")."),
        H2("Term"),
        LI("The term starts on ", D(), " and ends on ", D(), "."),
        LI("Notice: ", N(), " days, in writing to ", E(), "."),
        P("The deposit of ", M(), " was paid with the card ", CA(), " on ", D(), "."),
        P("Signed by the parties; contact ", PH(), "."),
        P("Reference figures: ", *near_miss(), " (not valid, kept for the record)."),
    ]


def cv():
    name = person()
    first, last = name.split(" ", 1)
    return [
        H(name),
        P(*address()),
        P("Mobile: ", PH(), " · ", ("email", email(first, last)), " · ", U()),
        P("Born ", D(), "."),
        H2("Experience"),
        LI(company(), ", from ", D(), " to ", D(), ": led a team of ", N(), " people."),
        LI(company(), ", since ", D(), ": cut costs by ", ("number", f"{R.randint(5, 60)}%"),
           ", saving ", M(), "."),
        H2("Skills"),
        LI("Version control, release ", ("number", f"{R.randint(1, 9)}.{R.randint(0, 9)}.{R.randint(0, 9)}"),
           " of the toolchain."),
        P("References on request: ", E(), ", ", PH(), "."),
    ]


def minutes():
    return [
        H("Minutes of the meeting of ", D()),
        P("Present: ", person(), ", ", person(), ", ", person(), " (", N(), " members in total)."),
        LI("Budget: ", M(), " approved; ", M(), " moved to next year."),
        LI("The new supplier (", E(), ", ", PH(), ") starts on ", D(), "."),
        LI("Expenses card ", CA(), " was replaced; the old one, ", *near_miss(), ", is void."),
        LI("Slides: ", U(), "."),
        LI("Turnout was ", N(), ", up from ", N(), "."),
        P("Next meeting: ", D(), ". Refunds to ", IB(), "."),
    ]


def contacts():
    """A contact sheet: the pieces in brackets, ranges and lists that real sheets have."""
    rows = [H("Contacts of ", company())]
    for _ in range(R.randint(3, 5)):
        name = person()
        first, last = name.split(" ", 1)
        lo = R.randint(1, 50) * 1000
        rows.append(LI(name, " <", ("email", email(first, last)), ">, ", PH(), " ext. ",
                       ("number", str(R.randint(10, 999))), " (see ", U(), ")."))
        rows.append(LI("Budget ", ("money", f"${thousands(lo, ',')}"), "-",
                       ("money", f"${thousands(lo * 2, ',')}"), "; day rate ",
                       ("money", f"EUR {R.randint(2, 9)}.{R.randint(1, 9)}m"), " total; since the ",
                       ("number", str(R.randint(1, 28))), "st of ", R.choice(MONTHS), "."))
    rows.append(P("Updated ", D(), " by ", E(), "."))
    return rows


def with_notes(template):
    def made():
        blocks = template()
        return blocks[:-1] + [P(*distractors())] + blocks[-1:]
    made.__name__ = template.__name__
    return made


TEMPLATES = [with_notes(t) for t in (letter, invoice, contract, cv, minutes, contacts)]


# ---------------------------------------------------------------- rendering

NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")


def flatten(block, md):
    """The block's text and its spans (kind, start, end) in UTF-8 bytes."""
    text, spans = "", []
    cells = block.pieces if block.tag == "tr" else [block.pieces]
    for c, cell in enumerate(cells):
        if c:
            text += " | " if md else " "
        for piece in cell if isinstance(cell, list) else [cell]:
            if isinstance(piece, tuple):
                kind, value = piece
                start = len(text.encode())
                if kind == "numbers":
                    for m in NUMBER_RE.finditer(value):
                        s = start + len(value[:m.start()].encode())
                        spans.append(("number", s, s + len(m.group().encode())))
                else:
                    spans.append((kind, start, start + len(value.encode())))
                text += value
            else:
                assert not re.search(r"[0-9@]|www|http", piece), piece
                text += piece
    return text, spans


def render_html(blocks, title, rng):
    out = ["<!DOCTYPE html>", "<html>", "<head>", f"<title>{html.escape(title)}</title>", "</head>", "<body>"]
    in_list = in_table = False
    for i, block in enumerate(blocks):
        cid = "c%08x" % rng.getrandbits(32)
        if block.tag == "li" and not in_list:
            out.append("<ul>")
            in_list = True
        if block.tag != "li" and in_list:
            out.append("</ul>")
            in_list = False
        if block.tag == "tr" and not in_table:
            out.append("<table>")
            in_table = True
        if block.tag != "tr" and in_table:
            out.append("</table>")
            in_table = False
        if block.tag == "tr":
            cells = []
            for j, cell in enumerate(block.pieces):
                inner = inline_html(cell if isinstance(cell, list) else [cell])
                cells.append(f'<td data-canon-id="{cid}{j}">{inner}</td>')
            out.append("<tr>" + "".join(cells) + "</tr>")
        else:
            out.append(f'<{block.tag} data-canon-id="{cid}">{inline_html(block.pieces)}</{block.tag}>')
    if in_list:
        out.append("</ul>")
    if in_table:
        out.append("</table>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def inline_html(pieces):
    parts = []
    for piece in pieces:
        if isinstance(piece, tuple):
            kind, value = piece
            v = html.escape(value, quote=False)
            if kind == "url" and R.random() < 0.5:
                href = value if value.startswith("http") else "https://" + value
                parts.append(f'<a href="{html.escape(href)}">{v}</a>')
            elif kind in ("money", "date") and R.random() < 0.3:
                parts.append(f"<strong>{v}</strong>")
            else:
                parts.append(v)
        else:
            parts.append(html.escape(piece, quote=False))
    return "".join(parts)


def inline_md(pieces):
    parts = []
    for piece in pieces:
        if isinstance(piece, tuple):
            kind, value = piece
            if kind == "url" and value.startswith("http") and R.random() < 0.5:
                parts.append(f"<{value}>")
            elif kind in ("money", "date") and R.random() < 0.3:
                parts.append(f"**{value}**")
            else:
                parts.append(value)
        else:
            parts.append(piece)
    return "".join(parts)


def render_md(blocks):
    out, prev = [], None
    for block in blocks:
        if block.tag == "tr":
            if prev != "tr":
                if out and out[-1] != "":
                    out.append("")
                cells = [inline_md(c if isinstance(c, list) else [c]) for c in block.pieces]
                out.append("| " + " | ".join(cells) + " |")
                out.append("|" + "---|" * len(cells))
            else:
                cells = [inline_md(c if isinstance(c, list) else [c]) for c in block.pieces]
                out.append("| " + " | ".join(cells) + " |")
        elif block.tag == "li":
            if prev not in ("li", None) and out[-1] != "":
                out.append("")
            out.append("- " + inline_md(block.pieces))
        else:
            if out and out[-1] != "":
                out.append("")
            prefix = {"h1": "# ", "h2": "## "}.get(block.tag, "")
            out.append(prefix + inline_md(block.pieces))
            out.append("")
        prev = block.tag
    return "\n".join(out).rstrip("\n") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    R.seed(args.seed)
    ids = random.Random(args.seed + 1)
    docs_dir = os.path.join(args.out, "docs")
    os.makedirs(docs_dir, exist_ok=True)
    for old in os.listdir(docs_dir):
        os.remove(os.path.join(docs_dir, old))
    expected = []
    for n in range(args.count):
        template = TEMPLATES[n % len(TEMPLATES)]
        blocks = template()
        md = n % 2 == 1
        name = f"{n:03d}-{template.__name__}.{'md' if md else 'html'}"
        if md:
            body = render_md(blocks)
        else:
            body = render_html(blocks, template.__name__, ids)
        with open(os.path.join(docs_dir, name), "w", encoding="utf-8") as f:
            f.write(body)
        entries = []
        for block in blocks:
            text, spans = flatten(block, md)
            if block.tag == "tr" and not md:
                # In HTML each cell is its own element.
                for cell in block.pieces:
                    t, s = flatten(Block("p", *(cell if isinstance(cell, list) else [cell])), md)
                    entries.append({"text": t, "spans": [{"kind": k, "start": a, "end": b} for k, a, b in s]})
                continue
            entries.append({"text": text, "spans": [{"kind": k, "start": a, "end": b} for k, a, b in spans]})
        expected.append({"file": name, "blocks": entries})
    with open(os.path.join(args.out, "expected.json"), "w", encoding="utf-8") as f:
        # One line per document: small, and a regenerated set diffs by document.
        f.write('{"seed": %d, "documents": [\n' % args.seed)
        f.write(",\n".join(json.dumps(d, ensure_ascii=False) for d in expected))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
