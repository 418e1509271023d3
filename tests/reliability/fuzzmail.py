"""Malformed mail for the inbound fuzz tests: seeded mutations of the real messages
in ../shared/fixtures/emails, and a hypothesis strategy for broken MIME trees."""

from __future__ import annotations

import base64
import random
import re
from pathlib import Path

from hypothesis import strategies as st

from tests.support import MAIL_CORPUS

SKIP = {"_UPSTREAM_LICENSE", "MANIFEST.md"}


def corpus() -> list[bytes]:
    if not MAIL_CORPUS.is_dir():
        return []
    return [p.read_bytes() for p in sorted(MAIL_CORPUS.rglob("*")) if p.is_file() and p.name not in SKIP]


BOGUS_CHARSETS = ["utf-7", "x-unknown", "utf-16", "utf-32", "punycode", "idna", "cp037", "", "utf-8''", "\xff\xfe",
                  "unknown-8bit", "iso-2022-jp", "gb2312", "koi8-r", "x-mac-roman", "ks_c_5601-1987", "windows-1258",
                  "us-ascii", "bogus" * 40, "utf8mb4", "hz-gb-2312", "rot13", "base64", "zlib"]
BOGUS_CTE = ["base64", "quoted-printable", "x-uuencode", "8bit", "binary", "7bit", "gzip", "", "base64; x=1", "QUOTED-PRINTABLE"]
CTYPES = ["text/plain", "text/html", "multipart/mixed", "multipart/alternative", "multipart/related", "message/rfc822",
          "multipart/report; report-type=delivery-status", "application/octet-stream", "text/enriched", "multipart/digest",
          "text/calendar", "image/png", "multipart/signed", "application/pkcs7-mime", "text/x-garbage", "multipart/", "/", ""]


class Mutator:
    """Seeded mutations; ``targets`` are recipient addresses to aim at (token addresses,
    the general address), ``senders`` From addresses (registered players, strangers)."""

    def __init__(self, seed: int, targets: list[str], senders: list[str], orders: list[str]):
        self.r = random.Random(seed)
        self.targets, self.senders, self.orders = targets, senders, orders
        self.n = 0
        self.ops = [
            (10, self.truncate), (10, self.flip), (8, self.nuls), (10, self.boundary), (10, self.charset),
            # The heavy ones (each costs the parser tens to hundreds of milliseconds) are rarer:
            # a few hundred of each kind in a run of ten thousand.
            (8, self.cte), (0.6, self.huge_header), (0.8, self.long_line), (0.6, self.deep_nesting), (0.6, self.html_bomb),
            (0.15, self.giant_attachment), (6, self.line_ends), (4, self.no_separator), (5, self.duplicate_headers),
            (6, self.encoded_words), (8, self.orders_text), (5, self.splice), (6, self.eight_bit_headers),
            (0.6, self.many_parts), (3, self.bad_base64),
        ]
        self.weights = [w for w, _ in self.ops]

    # -- framing ----------------------------------------------------------------------------------
    def message(self, originals: list[bytes]) -> bytes:
        self.n += 1
        self.originals = originals
        raw = self.r.choice(originals)
        if self.r.random() < 0.95:  # a fresh Message-ID, so the duplicate check does not short-circuit
            raw = self.readdress(raw)
        for _ in range(self.r.choice([1, 1, 1, 2, 2, 3])):
            op = self.r.choices(self.ops, weights=self.weights)[0][1]
            raw = op(raw)
        return raw

    def readdress(self, raw: bytes) -> bytes:
        head, sep, body = raw.partition(b"\n\n") if b"\r\n\r\n" not in raw else raw.partition(b"\r\n\r\n")
        lines = [l for l in re.split(rb"\r?\n", head) if not re.match(rb"(?i)(message-id|to|from|cc):", l)]
        new = [b"Message-ID: <fz%d.%x@fuzz.example>" % (self.n, self.r.getrandbits(40)),
               b"To: " + self.r.choice(self.targets).encode(), b"From: " + self.r.choice(self.senders).encode()]
        if not sep:  # a body-only file: it becomes the body
            return b"\r\n".join(new) + b"\r\n\r\n" + raw
        return b"\r\n".join(new + lines) + b"\r\n\r\n" + body

    # -- operators --------------------------------------------------------------------------------
    def truncate(self, raw):
        return raw[: self.r.randrange(0, max(len(raw), 1))]

    def flip(self, raw):
        b = bytearray(raw)
        for _ in range(self.r.randint(1, 50)):
            if b:
                b[self.r.randrange(len(b))] = self.r.randrange(256)
        return bytes(b)

    def nuls(self, raw):
        b = bytearray(raw)
        for _ in range(self.r.randint(1, 20)):
            b.insert(self.r.randrange(len(b) + 1), 0)
        return bytes(b)

    def boundary(self, raw):
        m = re.search(rb'boundary="?([^";\r\n]+)"?', raw, re.I)
        choice = self.r.randrange(5)
        if m is None or choice == 0:  # declare a multipart whose boundary never appears
            return re.sub(rb"(?i)content-type:[^\r\n]*", b'Content-Type: multipart/mixed; boundary="nowhere"', raw, count=1)
        b = m.group(1)
        if choice == 1:
            return raw.replace(b"--" + b + b"--", b"")  # no closing boundary
        if choice == 2:
            return raw.replace(b"boundary=", b"boundary=x", 1)  # header disagrees with the body
        if choice == 3:
            return raw.replace(b"--" + b, b"--" + b[: len(b) // 2], self.r.randint(1, 3))
        return raw.replace(m.group(0), b'boundary=""', 1)

    def charset(self, raw):
        cs = self.r.choice(BOGUS_CHARSETS).encode("latin-1")
        if re.search(rb"(?i)charset=", raw):
            return re.sub(rb'(?i)charset="?[^";\r\n]*"?', b'charset="' + cs + b'"', raw, count=self.r.randint(1, 3))
        return re.sub(rb"(?i)(content-type:[^\r\n]*)", rb"\1; charset=" + cs, raw, count=1) if b"ontent-" in raw \
            else b"Content-Type: text/plain; charset=" + cs + b"\r\n" + raw

    def cte(self, raw):
        value = self.r.choice(BOGUS_CTE).encode()
        if re.search(rb"(?i)content-transfer-encoding:", raw):
            return re.sub(rb"(?i)content-transfer-encoding:[^\r\n]*", b"Content-Transfer-Encoding: " + value, raw, count=self.r.randint(1, 3))
        return b"Content-Transfer-Encoding: " + value + b"\r\n" + raw

    def huge_header(self, raw):
        kind = self.r.randrange(3)
        if kind == 0:
            return b"X-Huge: " + b"a" * self.r.randint(50_000, 400_000) + b"\r\n" + raw
        if kind == 1:
            return b"".join(b"Received: from relay%d.example by mx.example; Mon, 1 Jan 2026 00:00:00 +0000\r\n" % i
                            for i in range(self.r.randint(500, 3000))) + raw
        folded = b"Subject: " + b"\r\n ".join(b"word%d" % i for i in range(self.r.randint(2000, 20000))) + b"\r\n"
        return folded + raw

    def long_line(self, raw):
        pos = self.r.randrange(len(raw) + 1)
        return raw[:pos] + b"z" * self.r.randint(10_000, 300_000) + raw[pos:]

    def deep_nesting(self, raw):
        depth = self.r.randint(20, 400)
        head = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
        tail = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
        top, _, _ = raw.partition(b"\r\n\r\n")
        top = re.sub(rb"(?i)\r\ncontent-type:[^\r\n]*", b"", top)
        return top + b"\r\nMIME-Version: 1.0\r\n" + head + b"Content-Type: text/plain\r\n\r\nORDERS x T1\r\nHOLD\r\nEND\r\n" + tail

    def html_bomb(self, raw):
        top, _, _ = raw.partition(b"\r\n\r\n")
        top = re.sub(rb"(?i)\r\ncontent-(type|transfer-encoding):[^\r\n]*", b"", top)
        n = self.r.randint(1_000, 30_000)
        tag = self.r.choice([b"div", b"blockquote", b"table><tr><td", b"b", b"span style='x'"])
        close = tag.split(b" ")[0].split(b">")[0]
        body = b"<html><body>" + (b"<" + tag + b">") * n + b"ORDERS x T1<br>HOLD<br>END" + (b"</" + close + b">") * (n // 2)
        if self.r.random() < 0.5:
            body += b"<!--" + b"-" * 10000 + b"<script>" + b"&#" * 5000 + b"&amp;" * 5000
        return top + b"\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body

    def giant_attachment(self, raw):
        size = self.r.choice([600_000, 1_400_000, 2_500_000])
        data = base64.encodebytes(self.r.randbytes(size * 3 // 4))
        top, _, body = raw.partition(b"\r\n\r\n")
        top = re.sub(rb"(?i)\r\ncontent-(type|transfer-encoding):[^\r\n]*", b"", top)
        return (top + b'\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="GA"\r\n\r\n--GA\r\n'
                b"Content-Type: text/plain\r\n\r\n" + body[:2000] + b"\r\n--GA\r\nContent-Type: application/octet-stream\r\n"
                b"Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=big.bin\r\n\r\n" + data + b"\r\n--GA--\r\n")

    def line_ends(self, raw):
        choice = self.r.randrange(3)
        if choice == 0:
            return raw.replace(b"\r\n", b"\r").replace(b"\n", b"\r")
        if choice == 1:
            return raw.replace(b"\r\n", b"\n")
        return b"".join(line + self.r.choice([b"\r\n", b"\n", b"\r", b"\n\r"]) for line in re.split(rb"\r\n|\n|\r", raw))

    def no_separator(self, raw):
        return raw.replace(b"\r\n\r\n", b"\r\n", 1).replace(b"\n\n", b"\n", 1)

    def duplicate_headers(self, raw):
        extra = []
        for _ in range(self.r.randint(2, 80)):
            name = self.r.choice([b"From", b"To", b"Cc", b"Message-ID", b"Content-Type", b"Subject", b"Date", b"Reply-To"])
            value = self.r.choice([self.r.choice(self.senders).encode(), self.r.choice(self.targets).encode(), b"<>", b"",
                                   b"multipart/mixed; boundary=zz", b"=?utf-8?q?x?=", b"<%x@dup>" % self.r.getrandbits(30)])
            extra.append(name + b": " + value + b"\r\n")
        return b"".join(extra) + raw

    def encoded_words(self, raw):
        words = [b"=?utf-8?b?!!!?=", b"=?bogus?q?x?=", b"=?utf-8?q?=ZZ=?=", b"=?iso-8859-1?b?" + base64.b64encode(b"\xff" * 30) + b"?=",
                 b"=?utf-7?b?K0FHRS0=?=", b"=??q??=", b"=?utf-8?x?abc?=", b"=?utf-8?b?" + base64.b64encode(bytes(range(256))) + b"?=",
                 b"=?" * 500]
        name = self.r.choice([b"Subject", b"From", b"To", b"Content-Type", b"Content-Disposition"])
        value = b" ".join(self.r.choice(words) for _ in range(self.r.randint(1, 8)))
        if name == b"From":
            value += b" <" + self.r.choice(self.senders).encode() + b">"
        return name + b": " + value + b"\r\n" + raw

    def orders_text(self, raw):
        block = self.r.choice(self.orders).encode("utf-8")
        junk = self.r.choice([b"", b"\x00\x01\x02", "ORDRES \u00e9t\u00e9 T1\nFIN\n".encode("utf-8"), b"ORDERS\nEND\n" * 50,
                              b"PRESS ALL\n" + b"x" * 5000 + b"\nEND\n", b"SET TZ Mars/Olympus\n", b"JOIN lb1 00000000\n",
                              b"CONFIRM zzzz\n", b"RESIGN\n" if self.r.random() < 0.01 else b"STATUS\n", b"HELP\n"])
        top, sep, body = raw.partition(b"\r\n\r\n")
        if not sep:
            return raw + b"\r\n" + block + junk
        pos = self.r.randrange(len(body) + 1)
        return top + sep + body[:pos] + b"\r\n" + block + b"\r\n" + junk + body[pos:]

    def splice(self, raw):
        other = self.r.choice(self.originals)
        return raw[: self.r.randrange(len(raw) + 1)] + other[self.r.randrange(len(other) + 1):]

    def eight_bit_headers(self, raw):
        junk = self.r.randbytes(self.r.randint(5, 300)).replace(b"\r", b"").replace(b"\n", b"")
        name = self.r.choice([b"Subject", b"From", b"To", b"X-Junk", b"Content-Type", b"Message-ID"])
        return name + b": " + junk + b"\r\n" + raw

    def many_parts(self, raw):
        n = self.r.randint(200, 1500)
        parts = b"".join(b"--MP\r\nContent-Type: text/plain; charset=%s\r\n\r\npart %d\r\n" %
                         (self.r.choice(BOGUS_CHARSETS[:8]).encode("latin-1") or b"x", i) for i in range(n))
        top, _, _ = raw.partition(b"\r\n\r\n")
        top = re.sub(rb"(?i)\r\ncontent-(type|transfer-encoding):[^\r\n]*", b"", top)
        return top + b'\r\nContent-Type: multipart/alternative; boundary="MP"\r\n\r\n' + parts + b"--MP--\r\n"

    def bad_base64(self, raw):
        top, _, body = raw.partition(b"\r\n\r\n")
        top = re.sub(rb"(?i)\r\ncontent-transfer-encoding:[^\r\n]*", b"", top)
        garbage = self.r.choice([b"!!!!", b"QUJD=" * 100, b"=" * 1000, body[:5000], base64.b64encode(b"\xff\xfe" + body[:200])[:-3]])
        return top + b"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + garbage


# -- hypothesis: MIME trees built by hand, so they can be broken ----------------------------------------------
header_text = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["=?utf-8?b?w6k=?=", "=?bogus?q?x?=", "\x00", "a\r\nInjected: yes", "<>", "\udcff"]),
)


def _enc(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


@st.composite
def leaf(draw):
    ctype = draw(st.sampled_from(["text/plain", "text/html", "application/octet-stream", "text/x-unknown", "message/rfc822", "image/png"]))
    charset = draw(st.sampled_from(BOGUS_CHARSETS + ["utf-8", "iso-8859-1", "windows-1252", None]))
    cte = draw(st.sampled_from(BOGUS_CTE + [None]))
    body = draw(st.one_of(st.text(max_size=400), st.binary(max_size=400).map(lambda b: b.decode("latin-1")),
                          st.sampled_from(["ORDERS lb1 T1\nHOLD\nEND\n", "<html><body><b>ORDERS</b>", "=\n=ZZ=3D", "\x00" * 50])))
    head = f"Content-Type: {ctype}" + (f"; charset={charset}" if charset is not None else "")
    if cte is not None:
        head += f"\r\nContent-Transfer-Encoding: {cte}"
    if draw(st.booleans()):
        head += f"\r\nContent-Disposition: {draw(st.sampled_from(['attachment', 'inline', 'attachment; filename=', 'x']))}"
    return _enc(head) + b"\r\n\r\n" + _enc(body)


def multipart(children):
    @st.composite
    def build(draw):
        parts = draw(st.lists(children, min_size=0, max_size=4))
        boundary = draw(st.sampled_from(["b1", "", "a b", "--", "x" * 80, "\u00e9"]))
        sub = draw(st.sampled_from(["mixed", "alternative", "related", "digest", "report", "signed"]))
        close = draw(st.booleans())
        head = _enc(f'Content-Type: multipart/{sub}; boundary="{boundary}"')
        body = b"".join(_enc(f"--{boundary}\r\n") + p + b"\r\n" for p in parts)
        if close:
            body += _enc(f"--{boundary}--\r\n")
        if draw(st.booleans()):
            body = _enc(draw(st.text(max_size=50))) + b"\r\n" + body  # a preamble
        return head + b"\r\n\r\n" + body
    return build()


mime_tree = st.recursive(leaf(), multipart, max_leaves=12)


@st.composite
def message(draw, targets: list[str], senders: list[str]):
    headers = [
        ("From", draw(st.one_of(st.sampled_from(senders), header_text))),
        ("To", draw(st.one_of(st.sampled_from(targets), header_text))),
        ("Subject", draw(header_text)),
        ("Message-ID", f"<hy{draw(st.integers(0, 2**48))}@fuzz.example>"),
    ]
    for _ in range(draw(st.integers(0, 4))):
        headers.append((draw(st.sampled_from(["Cc", "Reply-To", "Date", "MIME-Version", "Auto-Submitted", "X-Junk",
                                              "Precedence", "In-Reply-To", "References", "Content-Type"])), draw(header_text)))
    head = b"".join(_enc(f"{k}: {v}".replace("\n", " ")) + b"\r\n" for k, v in headers)
    return head + draw(mime_tree)
