"""Fuzzing the inbound path: parse_message -> new_text -> find_commands must never raise,
and every message must take bounded time.

Two sources of messages:

* deterministic mutations (seeded ``random.Random``) of the real corpus messages --
  plus its decoded bodies and HTML fragments wrapped into messages, and a few built-in
  seeds so the test still runs without the corpus: truncations, byte flips, line
  shuffles, broken MIME boundaries, bogus charsets and transfer encodings, NUL bytes
  (five families, at least :data:`TARGET_MUTATIONS` messages together);
* "monsters": 41 huge or hostile messages (huge headers, 50-, 500- and 3000-deep
  nested multiparts, 1 MB lines, giant base64 attachments, HTML bombs...);
* Hypothesis strategies: random bytes, random headers, random MIME trees, random
  reply texts made of the lines reply parsers care about.

Time is measured as CPU time of this process (``time.process_time``), so other
processes on the machine do not make it flaky; the bound is :data:`MAX_SECONDS`
per message. Families and monsters are separate tests so pytest-xdist can spread them.
On this 2-core machine the whole file takes about 20 s of CPU.
"""

from __future__ import annotations

import base64
import math
import random
import time
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import find_commands, new_text, parse_message
from pbem.mail.command_syntax import UNKNOWN, Command
from pbem.mail.commands import REGISTRY
from pbem.mail.inbound import Inbound
from pbem.mail.reply_text import _INVISIBLE, _SPACES
from tests.mail.mailcorpus import body_files, html_files, message_files

MAX_SECONDS = 2.0
#: the deterministic families together produce at least this many messages (hypothesis adds 1,100 more)
TARGET_MUTATIONS = 10_000
HYPOTHESIS = settings(
    max_examples=300,
    deadline=None,  # hypothesis's deadline is wall-clock; check() bounds each example's CPU time instead
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
COMMAND_NAMES = REGISTRY.names() | {UNKNOWN}  # UNKNOWN: a word in capitals near a keyword ("ORDE")

# --------------------------------------------------------------------------- seeds

BUILTIN_SEEDS = [
    b"From: Bob <bob@x.org>\r\nTo: g1+tok@pbem.example\r\nSubject: Re: Turn 3\r\nMessage-ID: <a@x.org>\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n\r\nORDERS g1 T3\r\nA hold\r\nEND\r\n\r\nOn Mon, 3 Mar 2025, pbem wrote:\r\n> old\r\n",
    b"From: bob@x.org\r\nSubject: alt\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"BB\"\r\n\r\n"
    b"--BB\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
    b"D=E9placer la M=EAl=E9e\r\n--BB\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    + base64.encodebytes("<div>Déplacer</div><blockquote>old</blockquote>".encode()) + b"--BB--\r\n",
    b"From: bob@x.org\r\nSubject: flowed\r\nContent-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n"
    b"Content-Transfer-Encoding: 8bit\r\n\r\nORDERS g1 T3 \r\nA ho\r\nld\r\nEND\r\n-- \r\nsig\r\n",
    b"From: bob@x.org\r\nSubject: mixed\r\nContent-Type: multipart/mixed; boundary=m1\r\n\r\n--m1\r\n"
    b"Content-Type: multipart/related; boundary=r1\r\n\r\n--r1\r\nContent-Type: text/html\r\n\r\n<p>hi<img src=cid:x></p>\r\n"
    b"--r1\r\nContent-Type: image/png\r\nContent-ID: <x>\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--r1--\r\n"
    b"--m1\r\nContent-Type: application/pdf; name=a.pdf\r\nContent-Disposition: attachment; filename=a.pdf\r\n"
    b"Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--m1\r\nContent-Type: message/rfc822\r\n\r\nSubject: inner\r\n\r\ninner\r\n--m1--\r\n",
    b"From: MAILER-DAEMON@x.org\r\nSubject: Undelivered\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=r\r\n\r\n"
    b"--r\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\n--r--\r\n",
    "From: =?utf-8?b?SsOpcsO0bWU=?= <j@x.fr>\r\nSubject: =?iso-8859-1?q?M=EAl=E9e?=\r\nContent-Type: text/plain; charset=windows-1252\r\n"
    "Content-Transfer-Encoding: 8bit\r\n\r\nORDRES g1 T3\r\nDéplacer la Mêlée ’\r\nFIN\r\n".encode("cp1252"),
]


def _wrap(body: bytes, ctype: str) -> bytes:
    return (b"From: Bob <bob@x.org>\r\nTo: g1+tok@pbem.example\r\nSubject: Re: wrapped\r\n"
            + f"Content-Type: {ctype}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n".encode() + body)


def seeds() -> list[bytes]:
    out = list(BUILTIN_SEEDS)
    out += [p.read_bytes() for p in message_files()]
    out += [_wrap(p.read_bytes(), "text/plain; charset=utf-8") for p in body_files()]
    out += [_wrap(p.read_bytes(), "text/html; charset=utf-8") for p in html_files()]
    return out


SEEDS = seeds()


def per_seed(families: int) -> int:
    """Mutations per seed and family so the families reach TARGET_MUTATIONS with or without the corpus."""
    return max(8, math.ceil(TARGET_MUTATIONS / (families * len(SEEDS))))


# --------------------------------------------------------------------------- mutation families

NOISE = [b"\x00", b"\n", b"\r\n", b":", b"-", b"--", b"=", b"=?", b"?=", b"<", b">", b'"', b";", b"\xff", b"\xc3",
         b"\xe9", b" ", b"\t", b"boundary=", b"--BB", b"Content-Type: multipart/mixed; boundary=x\r\n", b"begin 644 x\n"]


def fam_truncate(k: int) -> Iterator[bytes]:
    rng = random.Random(1)
    for raw in SEEDS:
        for j in range(k):
            cut = (len(raw) * j) // k if j % 2 else rng.randrange(len(raw) + 1)
            yield raw[:cut]


def fam_flip(k: int) -> Iterator[bytes]:
    rng = random.Random(2)
    for raw in SEEDS:
        for _ in range(k):
            b = bytearray(raw)
            for _ in range(rng.randint(1, 20)):
                if not b:
                    break
                pos = rng.randrange(len(b))
                choice = rng.random()
                if choice < 0.4:
                    b[pos] = rng.randrange(256)
                elif choice < 0.8:
                    b[pos:pos] = rng.choice(NOISE)
                else:
                    del b[pos:pos + rng.randint(1, 40)]
            yield bytes(b)


def fam_lines(k: int) -> Iterator[bytes]:
    rng = random.Random(3)
    for raw in SEEDS:
        lines = raw.split(b"\n")
        for _ in range(k):
            ls = list(lines)
            for _ in range(rng.randint(1, 6)):
                if len(ls) < 2:
                    break
                op = rng.random()
                i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
                if op < 0.3:
                    del ls[i]
                elif op < 0.6:
                    ls.insert(j, ls[i])
                elif op < 0.8:
                    ls[i], ls[j] = ls[j], ls[i]
                else:
                    ls[i] = b"> " + ls[i]
            yield b"\n".join(ls)


CHARSETS = [b"x-bogus", b"utf-16", b"utf-32", b"utf-7", b"idna", b"punycode", b"base64", b"rot13", b"unicode_escape",
            b'""', b"", b"utf-8'; DROP", b"ISO-2022-JP", b"gb2312", b"big5", b"shift_jis", b"x-mac-roman",
            b"ks_c_5601-1987", b"unknown-8bit", b"cp1252" * 50, b"us-ascii", b"iso-8859-8-i", b"\xff\xfe", b"koi8-r"]
CTES = [b"base64", b"quoted-printable", b"x-uuencode", b"uuencode", b"7bit", b"8bit", b"binary", b"gzip", b"bogus",
        b"BASE64 ", b"quoted-printable; x", b"", b"Quoted-Printable", b"x-uue"]


def _set_param(raw: bytes, rng: random.Random, name: bytes, values: list[bytes]) -> bytes:
    low = raw.lower()
    pos = low.find(name + b"=")
    if pos < 0:
        return raw.replace(b"Content-Type: text/plain", b"Content-Type: text/plain; " + name + b"=" + rng.choice(values), 1)
    end = pos + len(name) + 1
    stop = end
    while stop < len(raw) and raw[stop:stop + 1] not in (b";", b"\r", b"\n"):
        stop += 1
    return raw[:end] + rng.choice(values) + raw[stop:]


def fam_charset_cte(k: int) -> Iterator[bytes]:
    rng = random.Random(4)
    for raw in SEEDS:
        for j in range(k):
            mutated = _set_param(raw, rng, b"charset", CHARSETS)
            if j % 2:
                cte = rng.choice(CTES)
                low = mutated.lower()
                pos = low.find(b"content-transfer-encoding:")
                if pos >= 0:
                    stop = mutated.find(b"\n", pos)
                    mutated = mutated[:pos] + b"Content-Transfer-Encoding: " + cte + (mutated[stop:] if stop >= 0 else b"")
                else:
                    mutated = b"Content-Transfer-Encoding: " + cte + b"\r\n" + mutated
            if j % 3 == 0:
                mutated = mutated.replace(b"\r\n\r\n", b"\r\n\r\n" + bytes(rng.randrange(256) for _ in range(200)), 1)
            yield mutated


def fam_boundaries_nul(k: int) -> Iterator[bytes]:
    rng = random.Random(5)
    for raw in SEEDS:
        for j in range(k):
            b = raw
            op = j % 6
            if op == 0:  # drop closing boundaries
                b = b.replace(b"--\r\n", b"\r\n").replace(b"--\n", b"\n")
            elif op == 1:  # mangle the boundary parameter
                b = _set_param(b, rng, b"boundary", [b"", b'"', b"x", b'"' + b"-" * 80 + b'"', b"BB", b"m1"])
            elif op == 2:  # make every multipart a multipart with the same boundary
                b = b.replace(b"text/plain", b'multipart/mixed; boundary="BB"', rng.randint(1, 3))
            elif op == 3:  # NUL bytes everywhere
                b = b.replace(b"\n", b"\x00\n").replace(b"e", b"e\x00", rng.randint(1, 50))
            elif op == 4:  # NUL in the middle of headers
                cut = rng.randrange(len(b) + 1)
                b = b[:cut] + b"\x00" * rng.randint(1, 1000) + b[cut:]
            else:  # multipart header on a non-multipart body
                b = b"Content-Type: multipart/alternative; boundary=\"zz\"\r\n" + b
            yield b


def _nested(depth: int) -> bytes:
    head = b"From: deep@x.org\r\nSubject: nested\r\n"
    opening = b"".join(f'Content-Type: multipart/mixed; boundary="n{i}"\r\n\r\n--n{i}\r\n'.encode() for i in range(depth))
    closing = b"".join(f"\r\n--n{i}--\r\n".encode() for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nORDERS g1 T3\r\nEND" + closing


_BASE = b"From: m@x.org\r\nTo: g1+tok@pbem.example\r\n"
_HTML = _BASE + b"Content-Type: text/html; charset=utf-8\r\n\r\n"
_ATTACH = (b"QUFB" * 19 + b"\r\n") * 100_000  # ~7.8 MB of base64

#: huge and hostile messages, built on demand (each up to a few MB)
MONSTERS: dict[str, Callable[[], bytes]] = {
    "subject_200k": lambda: _BASE + b"Subject: " + b"x" * 200_000 + b"\r\n\r\nbody",
    "subject_20k_encoded_words": lambda: _BASE + b"Subject: " + b"=?utf-8?q?=C3=A9?= " * 20_000 + b"\r\n\r\nbody",
    "20k_received_headers": lambda: _BASE + b"Received: from x by y\r\n" * 20_000 + b"\r\nbody",
    "to_20k_addresses": lambda: b"From: m@x.org\r\nTo: " + b"a@b.c, " * 20_000 + b"\r\n\r\nbody",
    "to_quotes_cc_parens": lambda: b"From: m@x.org\r\nTo: " + b'"a\\"' * 10_000 + b"\r\nCc: " + b"(" * 10_000 + b"\r\n\r\nbody",
    "from_folded_50k_lines": lambda: b"From: a@b.c" + b"\r\n x" * 50_000 + b"\r\n\r\nbody",
    "content_type_50k_semicolons": lambda: _BASE + b'Content-Type: multipart/mixed; boundary="b"; a="' + b";" * 50_000
    + b'"\r\n\r\n--b\r\n\r\nhi\r\n--b--',
    "disposition_50k_semicolons": lambda: _BASE + b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
    b'Content-Disposition: attachment; filename="' + b";" * 50_000 + b'"\r\n\r\nhi\r\n--b--',
    "nested_50": lambda: _nested(50),
    "nested_500": lambda: _nested(500),
    "nested_3000": lambda: _nested(3000),
    "line_1mb": lambda: _BASE + b"Subject: long line\r\n\r\n" + b"x" * 1_000_000,
    "orders_line_1mb": lambda: _BASE + b"Subject: long line\r\n\r\nORDERS g1 T3 " + b"A " * 500_000 + b"\r\nEND",
    "500k_lines": lambda: _BASE + b"Subject: many lines\r\n\r\n" + b"x\r\n" * 500_000,
    "100k_orders_lines": lambda: _BASE + b"Subject: many orders\r\n\r\n" + b"ORDERS g1 T3\r\n" * 100_000,
    "50k_attributions": lambda: _BASE + b"Subject: a\r\n\r\n" + b"On Mon 1 Jan 2024 at 10:00, x <a@b.c>\r\n" * 50_000,
    "300k_quoted_lines": lambda: _BASE + b"Subject: quotes\r\n\r\n" + b"> x\r\n" * 300_000,
    "giant_base64_attachment": lambda: _BASE + b'Content-Type: multipart/mixed; boundary="g"\r\n\r\n--g\r\n'
    b"Content-Type: text/plain\r\n\r\nhi\r\n--g\r\nContent-Type: application/octet-stream\r\n"
    b"Content-Transfer-Encoding: base64\r\n\r\n" + _ATTACH + b"--g--\r\n",
    "giant_base64_text": lambda: _BASE + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n" + _ATTACH,
    "bad_base64_2mb": lambda: _BASE + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b"!!!!" * 500_000,
    "qp_soft_breaks": lambda: _BASE + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
    + b"=3D=\r\n" * 200_000,
    "flowed_300k": lambda: _BASE + b"Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\n" + b"x \r\n" * 300_000,
    "uuencode_junk": lambda: _BASE + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\n"
    b"begin 644 x\r\n" + b"M" * 61 + b"\r\n" * 50_000,
    "html_div_200k": lambda: _HTML + b"<div>" * 200_000,
    "html_br_250k": lambda: _HTML + b"<br>" * 250_000,
    "html_lt_a_200k": lambda: _HTML + b"<a" * 200_000,
    "html_lt_slash_200k": lambda: _HTML + b"</" * 200_000,
    "html_lt_question_200k": lambda: _HTML + b"<?" * 200_000,
    "html_lt_bang_200k": lambda: _HTML + b"<!" * 200_000,
    "html_blockquote_100k": lambda: _HTML + b"<blockquote>x" * 100_000,
    "html_150k_attributes": lambda: _HTML + b"<a " + b'b="c" ' * 150_000 + b">",
    "html_entities": lambda: _HTML + b"&amp;&#x41;&#65;&" * 60_000,
    "html_table_200k_cells": lambda: _HTML + b"<table>" + (b"<tr>" + b"<td>x</td>" * 1000 + b"</tr>") * 200 + b"</table>",
    "html_unclosed_attribute": lambda: _HTML + b'<a b="' + b"x" * 1_000_000,
    "html_unclosed_comment": lambda: _HTML + b"<!--" + b"x" * 1_000_000,
    "html_unclosed_script": lambda: _HTML + b"<script>" + b"</scrip" * 100_000,
    "html_100k_hidden_spans": lambda: _HTML + b'<span style="display:none">' * 100_000 + b"visible?",
    "html_pre_300k_lines": lambda: _HTML + b"<pre>" + b"x\n" * 300_000 + b"</pre>",
    "html_500k_lt": lambda: _HTML + b"<" * 500_000,
    "html_li_200k": lambda: _HTML + b"<li>" * 200_000,
    "html_nbsp_200k": lambda: _HTML + b"<p>" + b"&nbsp;" * 200_000,
}


FAMILIES: dict[str, Callable[[int], Iterator[bytes]]] = {
    "truncate": fam_truncate,
    "flip": fam_flip,
    "lines": fam_lines,
    "charset_cte": fam_charset_cte,
    "boundaries_nul": fam_boundaries_nul,
}


# --------------------------------------------------------------------------- the checks


def check(raw: bytes) -> float:
    """Run the whole inbound path on ``raw``; check the invariants; return the CPU seconds it took."""
    t0 = time.process_time()
    m = parse_message(raw)
    text = new_text(m.text)
    cmds = find_commands(text, m.subject)
    elapsed = time.process_time() - t0
    assert isinstance(m, Inbound)
    assert isinstance(m.text, str) and "\x00" not in m.text and "\r" not in m.text
    assert len(m.text) <= 1_000_000
    assert isinstance(m.subject, str)
    assert m.from_addr is None or m.from_addr == m.from_addr.lower()
    assert len(set(m.recipients)) == len(m.recipients)
    assert m.automatic in (None, "bounce", "auto-submitted", "auto-reply", "list")
    assert all(isinstance(p, str) and p for p in m.problems)
    assert isinstance(text, str)
    for c in cmds:
        assert isinstance(c, Command) and c.name in COMMAND_NAMES
        assert all(isinstance(a, str) for a in c.args)
        assert (c.body is None) == (c.name not in REGISTRY.blocks())
    return elapsed


def run_all(messages: Iterator[bytes]) -> tuple[int, float]:
    n, worst = 0, 0.0
    for raw in messages:
        worst = max(worst, check(raw))
        n += 1
    return n, worst


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_mutated_corpus_never_raises(family):
    k = per_seed(len(FAMILIES))
    n, worst = run_all(FAMILIES[family](k))
    assert n >= k * len(SEEDS)
    assert worst < MAX_SECONDS, f"slowest {family} message took {worst:.2f}s of CPU"


@pytest.mark.parametrize("name", sorted(MONSTERS))
def test_monsters_never_raise_and_stay_bounded(name):
    elapsed = check(MONSTERS[name]())
    assert elapsed < MAX_SECONDS, f"{name} took {elapsed:.2f}s of CPU"


def test_volume():
    total = sum(sum(1 for _ in fam(per_seed(len(FAMILIES)))) for fam in FAMILIES.values())
    assert total >= TARGET_MUTATIONS


# --------------------------------------------------------------------------- hypothesis

HEADER_NAMES = ["From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To", "References", "Reply-To",
                "Content-Type", "Content-Transfer-Encoding", "Content-Disposition", "MIME-Version", "Auto-Submitted",
                "Precedence", "List-Id", "X-Autoreply", "Delivered-To", "X-Original-To", "Return-Path", "Sender"]
INTERESTING = st.sampled_from([
    "", "=?utf-8?q?=C3=A9?=", "=?bogus?b?!!!?=", "<a@b>", "a@b.c", '"x" <y@z>', "multipart/mixed; boundary=x",
    "text/plain; charset=utf-8; format=flowed; delsp=yes", "text/html", "base64", "quoted-printable", "auto-replied",
    "bulk", "Mon, 3 Mar 2025 10:00:00 +0000", "(((", "<<<", "\\", ";;;;", "attachment; filename=x.txt",
])
header_value = st.one_of(INTERESTING, st.text(max_size=80))
headers = st.lists(st.tuples(st.sampled_from(HEADER_NAMES), header_value), max_size=12)


def _encode(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


@HYPOTHESIS
@given(st.binary(max_size=3000))
def test_random_bytes(raw):
    assert check(raw) < MAX_SECONDS


@HYPOTHESIS
@given(headers, st.binary(max_size=1500), st.sampled_from([b"\r\n", b"\n", b"\r"]))
def test_random_headers(hs, body, eol):
    raw = eol.join(_encode(f"{n}: {v}") for n, v in hs) + eol + eol + body
    assert check(raw) < MAX_SECONDS


CTYPES = ["text/plain", "text/html", "text/plain; format=flowed", "text/plain; format=flowed; delsp=yes",
          "application/octet-stream", "message/rfc822", "message/delivery-status", "image/png", "text/calendar"]
CHARSET_NAMES = ["utf-8", "iso-8859-1", "windows-1252", "us-ascii", "x-bogus", "utf-16", "koi8-r", "shift_jis", ""]
CTE_NAMES = ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "bogus", ""]


@st.composite
def leaf(draw) -> bytes:
    ctype = draw(st.sampled_from(CTYPES))
    charset = draw(st.sampled_from(CHARSET_NAMES))
    cte = draw(st.sampled_from(CTE_NAMES))
    disp = draw(st.sampled_from(["", "inline", "attachment; filename=a.txt"]))
    text = draw(st.text(max_size=300))
    body = _encode(text)
    if cte == "base64" and draw(st.booleans()):
        body = base64.encodebytes(body)
    head = f"Content-Type: {ctype}" + (f"; charset={charset}" if charset else "")
    head += f"\r\nContent-Transfer-Encoding: {cte}" if cte else ""
    head += f"\r\nContent-Disposition: {disp}" if disp else ""
    return head.encode() + b"\r\n\r\n" + body


def _multipart(children_and_kind) -> bytes:
    children, kind, boundary = children_and_kind
    out = f'Content-Type: multipart/{kind}; boundary="{boundary}"\r\n\r\npreamble\r\n'.encode()
    for c in children:
        out += f"--{boundary}\r\n".encode() + c + b"\r\n"
    return out + f"--{boundary}--\r\nepilogue".encode()


mime_tree = st.recursive(
    leaf(),
    lambda kids: st.tuples(
        st.lists(kids, min_size=0, max_size=4),
        st.sampled_from(["mixed", "alternative", "related", "report", "signed", "encrypted", "digest", "x-weird"]),
        st.sampled_from(["b1", "b2", "=_x", "b1", "a'b", "b" * 70]),
    ).map(_multipart),
    max_leaves=12,
)


@settings(HYPOTHESIS, max_examples=200)  # each example is costly to generate
@given(headers, mime_tree)
def test_random_mime_trees(hs, tree):
    raw = b"\r\n".join(_encode(f"{n}: {v}") for n, v in hs if n.lower() != "content-type")
    raw = (raw + b"\r\n" if raw else b"") + b"MIME-Version: 1.0\r\n" + tree
    assert check(raw) < MAX_SECONDS


REPLY_LINES = st.sampled_from([
    "ORDERS g1 T3", "ORDRES g1 T3", "END", "FIN", "PRESS TO sioux, custer", "PRESS ALL", "HELP", "STATUS", "JOIN g1 abc",
    "SET TZ Europe/Paris", "SET REMINDERS 12h", "CONFIRM x1", "A moves to B4", "", "> quoted", ">> deeper", "> ORDERS g1 T2",
    "On Mon, 3 Mar 2025 at 10:00, pbem <g1@pbem.example> wrote:", "On Mon, 3 Mar 2025 at 10:00, pbem", "<g1@pbem.example>",
    "wrote:", "Le 3 mars 2025 à 10:00, pbem a écrit :", "-----Original Message-----", "From: pbem <g1@pbem.example>",
    "Sent: Monday, March 3, 2025", "To: bob", "Subject: Turn 3", "-- ", "--", "Sent from my iPhone", "________",
    "Begin forwarded message:", "\ufeff", "\u00a0", "Déplacer la Mêlée", "w=", "rote:", "*From:* x", "=====",
    *REGISTRY.keywords(),  # every keyword of every declared command, alone on its line
])


@HYPOTHESIS
@given(st.lists(st.one_of(REPLY_LINES, st.text(max_size=60)), max_size=60), st.text(max_size=40))
def test_random_reply_texts(lines, subject):
    joined = "\n".join(lines)
    t0 = time.process_time()
    text = new_text(joined)
    cmds = find_commands(text, subject)
    assert time.process_time() - t0 < MAX_SECONDS
    kept = text.split("\n")
    assert not any(line.lstrip(" \t").startswith(">") for line in kept)
    # new_text only ever removes lines: what it keeps appears in the input, in order
    normalised = _SPACES.sub(" ", joined.translate(_INVISIBLE).replace("\r\n", "\n").replace("\r", "\n").replace("\x00", ""))
    source = iter(line.rstrip() for line in normalised.split("\n"))
    for line in kept:
        if line:
            assert any(line == s for s in source)
    for c in cmds:
        assert c.name in COMMAND_NAMES
