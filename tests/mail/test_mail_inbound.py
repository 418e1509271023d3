"""pbem.mail.inbound: parse_message on the real corpus and on hand-made edge cases."""

from __future__ import annotations

import base64
import time
from datetime import datetime, timezone

import pytest
from tests.mail.mailcorpus import message_files, read_corpus, rel
from tests.support import needs_corpus

from pbem.mail.inbound import Inbound, decode_bytes, parse_message, unflow

MSGS = message_files()


def mail(headers: str, body: bytes | str = b"", *, ctype: str | None = "text/plain; charset=utf-8", cte: str | None = None) -> bytes:
    head = headers.strip("\n")
    if ctype:
        head += f"\nContent-Type: {ctype}"
    if cte:
        head += f"\nContent-Transfer-Encoding: {cte}"
    if isinstance(body, str):
        body = body.encode("utf-8")
    return head.replace("\n", "\r\n").encode("utf-8") + b"\r\n\r\n" + body


BASIC = "From: Bob <bob@example.org>\nTo: game@pbem.example\nSubject: hi\nMessage-ID: <m1@example.org>"


# --------------------------------------------------------------------------- the corpus


@needs_corpus
@pytest.mark.parametrize("path", MSGS, ids=rel)
def test_every_corpus_message_parses_with_text(path):
    raw = path.read_bytes()
    m = parse_message(raw)  # how fast: benchmarks/mail_parsing.py
    assert isinstance(m, Inbound)
    assert m.raw == raw
    assert m.text.strip(), f"no text from {rel(path)}: {m.problems}"
    assert "\x00" not in m.text and "\r" not in m.text
    assert m.from_addr is None or m.from_addr == m.from_addr.lower()


def test_corpus_headers_gmail():
    m = parse_message(read_corpus("mailgun-talon/standard_replies/gmail.eml"))
    assert m.from_addr == "xxx@gmail.com"
    assert m.from_name == "Megan One"
    assert m.subject == "Re: Test"
    assert m.message_id and "<" not in m.message_id and ">" not in m.message_id
    assert m.recipients == ["bob@example.com"]
    assert m.automatic is None
    assert m.text.startswith("Hello")


def test_corpus_base64_utf8_russian():
    m = parse_message(read_corpus("mailgun-talon/standard_replies/android.eml"))
    assert "написал:" in m.text
    assert m.text.startswith("Hello")


def test_corpus_quoted_printable_soft_break():
    m = parse_message(read_corpus("mailgun-talon/standard_replies/iphone.eml"))
    assert "bob <bob@example.com> wrote:" in m.text  # "wr=\note:" rejoined


def test_corpus_8bit_utf8():
    m = parse_message(read_corpus("mailgun-flanker/8bitmime.eml"))
    assert "Превел" in m.text


def test_corpus_cp1251_declared():
    m = parse_message(read_corpus("django-mailbox/message_with_single_byte_encoding.eml"))
    assert "Это сообщение имеет неправильную кодировка." in m.text
    assert m.problems == []


def test_corpus_latin1_label_on_utf8_bytes():
    # labelled iso-8859-1 but the bytes are UTF-8: read as UTF-8, no mojibake
    m = parse_message(read_corpus("django-mailbox/message_with_utf8_char.eml"))
    assert "✿" in m.text
    assert "â" not in m.text


def test_corpus_raw_8bit_header_byte():
    m = parse_message(read_corpus("mailgun-flanker/from-encoding.eml"))
    assert m.from_name == "Ingo Lütkebohle"
    assert m.from_addr == "ingo@blank.pages.de"


def test_corpus_flowed_delsp_qp_with_inline_image():
    m = parse_message(read_corpus("mikel-mail/mime_emails/raw_email12.eml"))
    assert m.text == "This is the first part."


def test_corpus_missing_final_boundary_reports_problem():
    m = parse_message(read_corpus("mailgun-flanker/missing-final-boundary.eml"))
    assert m.text == "Some body"
    assert any("boundary" in p for p in m.problems)


def test_corpus_forwarded_as_attachment_is_ignored():
    m = parse_message(read_corpus("mailgun-flanker/enclosed.eml"))
    assert m.text == "Hello"


def test_corpus_html_related_inline_images():
    m = parse_message(read_corpus("django-mailbox/message_with_image_jpg_mimetype.eml"))
    assert m.text.strip() == "Hello, World"


def test_corpus_attachments_ignored_flowed_8bit():
    m = parse_message(read_corpus("django-mailbox/message_with_utf8_attachment.eml"))
    assert "wiadomość" in m.text
    assert "JFIF" not in m.text


def test_corpus_same_boundary_reused():
    m = parse_message(read_corpus("cpython-test_email/msg_15.txt"))
    assert "Some removed test." in m.text


# --------------------------------------------------------------------------- structure


def test_multipart_alternative_prefers_plain():
    body = (
        "--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nplain ORDERS\r\n"
        "--B\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>html <b>version</b></p>\r\n--B--\r\n"
    )
    m = parse_message(mail(BASIC, body, ctype='multipart/alternative; boundary="B"'))
    assert m.text == "plain ORDERS"
    assert not m.text_from_html


def test_multipart_alternative_empty_plain_falls_back_to_html():
    body = (
        "--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n   \r\n"
        "--B\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div>from html</div>\r\n--B--\r\n"
    )
    m = parse_message(mail(BASIC, body, ctype='multipart/alternative; boundary="B"'))
    assert m.text == "from html"
    assert m.text_from_html


def test_html_only():
    html = (
        "<html><head><title>T</title><style>p {color: red}</style><script>alert('x')</script></head>"
        "<body><div>ORDERS custer 3</div><div>7C move&nbsp;to&nbsp;B4</div><p>END</p>"
        "<p>Line<br>break &amp; &eacute;t&eacute; &#233;</p>"
        "<blockquote>quoted <b>old</b><blockquote>deeper</blockquote></blockquote>"
        "<ul><li>one</li><li>two</li></ul><span style='display:none'>preheader</span>"
        "</body></html>"
    )
    m = parse_message(mail(BASIC, html, ctype="text/html; charset=utf-8"))
    assert m.text_from_html
    lines = m.text.split("\n")
    assert lines[:3] == ["ORDERS custer 3", "7C move to B4", "END"]
    assert "Line" in lines and "break & été é" in lines
    assert "> quoted old" in lines and ">> deeper" in lines
    assert "- one" in lines and "- two" in lines
    assert "alert" not in m.text and "color" not in m.text and "preheader" not in m.text and "T" not in lines


def test_quoted_printable():
    body = b"D=C3=A9placer la M=C3=AAl=C3=A9e vers B4, une tr=C3=\r\n=A8s longue ligne\r\n"
    m = parse_message(mail(BASIC, body, cte="quoted-printable"))
    assert m.text == "Déplacer la Mêlée vers B4, une très longue ligne"


def test_base64():
    body = base64.encodebytes("ORDERS g1 S1\nDéplacer\nEND\n".encode())
    m = parse_message(mail(BASIC, body, cte="base64"))
    assert m.text == "ORDERS g1 S1\nDéplacer\nEND"


def test_8bit():
    m = parse_message(mail(BASIC, "Mêlée générale\n".encode(), cte="8bit"))
    assert m.text == "Mêlée générale"


@pytest.mark.parametrize(
    ("declared", "encoding"),
    [
        ("iso-8859-1", "windows-1252"),  # cp1252 bytes (’ is 0x92) under a latin-1 label
        ("us-ascii", "windows-1252"),
        ("utf-8", "windows-1252"),
        ("utf-8", "iso-8859-1"),
        ("iso-8859-1", "utf-8"),
        ("windows-1252", "utf-8"),
        ("x-no-such-charset", "utf-8"),
        (None, "windows-1252"),
    ],
)
def test_mislabelled_charsets_are_repaired(declared, encoding):
    text = "Déplacer la Mêlée à l’aube" if encoding != "iso-8859-1" else "Déplacer la Mêlée à l'aube"
    ctype = f"text/plain; charset={declared}" if declared else "text/plain"
    m = parse_message(mail(BASIC, text.encode(encoding), ctype=ctype, cte="8bit"))
    assert m.text == text
    if declared == "x-no-such-charset":
        assert any("unknown character set" in p for p in m.problems)
    elif encoding == "utf-8" or declared == "iso-8859-1":
        assert m.problems == []  # a lossless repair: nothing to tell the sender
    else:
        assert any("read as windows-1252" in p for p in m.problems)  # a guess: say so


def test_undecodable_bytes_are_replaced_with_a_problem():
    # 0x81 is undefined in windows-1252 and the bytes are not UTF-8
    m = parse_message(mail(BASIC, b"D\xe9placer \x81 M\xeal\xe9e", ctype="text/plain; charset=iso-8859-1", cte="8bit"))
    assert m.text.startswith("Déplacer") and "Mêlée" in m.text
    assert "\ufffd" in m.text
    assert any("some characters were replaced" in p for p in m.problems)


def test_broken_multibyte_charset_reports_replacement():
    text, problem = decode_bytes("日本語".encode("shift_jis")[:-1] + b"\xff\xfe", "shift_jis")
    assert "日本" in text
    assert problem and "replaced" in problem


def test_format_flowed_delsp():
    body = "Déplacer la Mêlée vers la col= \r\nline B4 et attaquer \r\nle fort.\r\n> cit\xe9 \r\n> suite\r\n\r\n-- \r\nsig\r\n"
    m = parse_message(mail(BASIC, body.encode("utf-8"), ctype="text/plain; charset=utf-8; format=flowed; delsp=yes", cte="8bit"))
    assert m.text.split("\n")[0] == "Déplacer la Mêlée vers la col=line B4 et attaquerle fort."
    assert "> citésuite" in m.text
    assert "\n-- \n" in m.text + "\n"


def test_format_flowed_without_delsp_keeps_the_space():
    assert unflow("one \ntwo \nthree\n>a \n>b\n") == "one two three\n> a b\n"


def test_format_flowed_space_stuffing():
    assert unflow(" From the start\n  indented") == "From the start\n indented"


def test_attachment_ignored():
    body = (
        "--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nsee attached\r\n"
        "--B\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=old.txt\r\n\r\n"
        "ORDERS g1 S1\r\nEND\r\n"
        "--B\r\nContent-Type: application/pdf; name=x.pdf\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--B--\r\n"
    )
    m = parse_message(mail(BASIC, body, ctype='multipart/mixed; boundary="B"'))
    assert m.text == "see attached"


def test_mixed_inline_text_parts_are_joined_html_sibling_skipped():
    body = (
        "--B\r\nContent-Type: text/plain\r\n\r\nfirst\r\n"
        "--B\r\nContent-Type: image/png\r\nContent-Disposition: inline\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
        "--B\r\nContent-Type: text/html\r\n\r\n<p>html dup</p>\r\n"
        "--B\r\nContent-Type: text/plain\r\n\r\nsecond\r\n--B--\r\n"
    )
    m = parse_message(mail(BASIC, body, ctype='multipart/mixed; boundary="B"'))
    assert m.text == "first\nsecond"


def test_nul_bytes_and_crlf_removed():
    m = parse_message(mail(BASIC, b"OR\x00DERS g1 S1\r\nEND\r\n", cte="8bit"))
    assert m.text == "ORDERS g1 S1\nEND"


def test_text_is_capped():
    m = parse_message(mail(BASIC, b"x" * 5000), max_text=1000)
    assert len(m.text) == 1000
    assert any("cut" in p for p in m.problems)


def test_deep_nesting_is_bounded():
    depth = 60
    parts = b""
    inner = b"Content-Type: text/plain\r\n\r\ndeep text\r\n"
    for level in range(depth, 0, -1):
        inner = (
            f'Content-Type: multipart/mixed; boundary="b{level}"\r\n\r\n--b{level}\r\n'.encode() + inner + f"\r\n--b{level}--\r\n".encode()
        )
    parts = inner
    raw = b"From: a@b.c\r\nSubject: deep\r\nMIME-Version: 1.0\r\n" + parts
    m = parse_message(raw)
    assert m.text == ""
    assert any("nested deeper" in p for p in m.problems)


# --------------------------------------------------------------------------- headers


def test_headers():
    raw = mail(
        "From: =?utf-8?q?J=C3=A9r=C3=B4me_Dupont?= <Jerome.Dupont@Example.FR>\n"
        "Reply-To: Other <Other@Example.org>\n"
        "To: Game One <Game1+AbC@PBEM.example>, second@x.org\n"
        "Cc: second@x.org, Third <third@x.org>\n"
        "Delivered-To: delivered@x.org\n"
        "X-Original-To: orig@x.org\n"
        "Subject: =?iso-8859-1?q?Ordres_pour_la_M=EAl=E9e?=\n"
        "Date: Tue, 03 Apr 2012 16:23:59 +0400\n"
        "Message-ID: <ABC.123@mail.example.fr>\n"
        "In-Reply-To: <orig-1@pbem.example>\n"
        "References: <root@pbem.example>\n <orig-1@pbem.example>",
        "body",
    )
    m = parse_message(raw, envelope_from="jerome.dupont@example.fr", envelope_to=["Env@PBEM.example", "game1+abc@pbem.example"])
    assert m.from_addr == "jerome.dupont@example.fr"
    assert m.from_name == "Jérôme Dupont"
    assert m.reply_to == "other@example.org"
    assert m.recipients == [
        "env@pbem.example", "game1+abc@pbem.example", "second@x.org", "third@x.org", "delivered@x.org", "orig@x.org",
    ]
    assert m.subject == "Ordres pour la Mêlée"
    assert m.date == datetime(2012, 4, 3, 12, 23, 59, tzinfo=timezone.utc)
    assert m.message_id == "ABC.123@mail.example.fr"
    assert m.in_reply_to == "orig-1@pbem.example"
    assert m.references == ["root@pbem.example", "orig-1@pbem.example"]
    assert m.automatic is None
    assert m.problems == []


def test_broken_headers_do_not_raise():
    raw = (
        b"From: \"unterminated <bob@x.org\r\nTo: ,,,@@@, <>\r\nDate: not a date at all\r\n"
        b"Subject: =?utf-8?q?broken=ZZ?= =?no-such-charset?b?AAAA?=\r\nMessage-ID: no brackets here\r\n"
        b"Content-Type: text/plain; charset*=bogus''%ZZ\r\n\r\nhello\r\n"
    )
    m = parse_message(raw)
    assert m.text == "hello"
    assert m.date is None
    assert isinstance(m.subject, str)


def test_non_bytes_input_does_not_raise():
    m = parse_message("Subject: s\n\nbody")  # type: ignore[arg-type]
    assert m.text == "body"
    assert m.problems


def test_empty_input():
    m = parse_message(b"")
    assert m.text == "" and m.from_addr is None and m.subject == ""


# --------------------------------------------------------------------------- automatic mail


@pytest.mark.parametrize(
    ("headers", "envelope_from", "reason"),
    [
        ("From: bob@x.org", "", "bounce"),
        ("From: bob@x.org", "<>", "bounce"),
        ("From: Mail Delivery System <MAILER-DAEMON@mx.x.org>", None, "bounce"),
        ("From: postmaster@x.org", "MAILER-DAEMON@x.org", "bounce"),
        ("From: postmaster@x.org", "MAILER-DAEMON", "bounce"),
        ("From: bob@x.org\nReturn-Path: <>", None, "bounce"),
        ("From: bob@x.org\nX-Failed-Recipients: a@b.c", None, "bounce"),
        ("From: bob@x.org\nAuto-Submitted: auto-replied", None, "auto-submitted"),
        ("From: bob@x.org\nAuto-Submitted: auto-generated; owner-email=x@y", None, "auto-submitted"),
        ("From: bob@x.org\nX-Autoreply: yes", None, "auto-reply"),
        ("From: bob@x.org\nX-Autorespond: Vacation", None, "auto-reply"),
        ("From: bob@x.org\nPrecedence: auto_reply", None, "auto-reply"),
        ("From: bob@x.org\nSubject: Out of Office: Re: your orders", None, "auto-reply"),
        ("From: bob@x.org\nSubject: Automatic reply: Turn 3", None, "auto-reply"),
        ("From: bob@x.org\nSubject: =?utf-8?q?R=C3=A9ponse_automatique_:_Tour_3?=", None, "auto-reply"),
        ("From: bob@x.org\nSubject: Abwesenheitsnotiz: Zug 3", None, "auto-reply"),
        ("From: bob@x.org\nSubject: Out of Office AutoReply: Turn 3", None, "auto-reply"),
        ("From: bob@x.org\nPrecedence: bulk", None, "list"),
        ("From: bob@x.org\nPrecedence: junk", None, "list"),
        ("From: bob@x.org\nPrecedence: list", None, "list"),
        ("From: bob@x.org\nList-Id: <games.lists.x.org>", None, "list"),
        ("From: bob@x.org\nList-Unsubscribe: <mailto:unsub@x.org>", None, "list"),
        ("From: bob@x.org\nAuto-Submitted: no", None, None),
        ("From: bob@x.org\nSubject: Re: out of office hours, orders below", "bob@x.org", None),
        ("From: bob@x.org\nSubject: orders", "bob@x.org", None),
    ],
)
def test_automatic_detection(headers, envelope_from, reason):
    m = parse_message(mail(headers, "text"), envelope_from=envelope_from)
    assert m.automatic == reason


def test_delivery_status_report_is_a_bounce():
    body = (
        "--R\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
        "--R\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.x.org\r\n\r\n"
        "Final-Recipient: rfc822; gone@x.org\r\nAction: failed\r\nStatus: 5.1.1\r\n"
        "--R\r\nContent-Type: message/rfc822\r\n\r\nFrom: game@pbem.example\r\nSubject: Turn 3\r\n\r\nORDERS\r\n--R--\r\n"
    )
    m = parse_message(mail("From: bob@x.org", body, ctype='multipart/report; report-type=delivery-status; boundary="R"'))
    assert m.automatic == "bounce"
    assert m.text == "Your message could not be delivered."


def test_read_receipt_is_an_auto_reply():
    body = "--R\r\nContent-Type: text/plain\r\n\r\nDisplayed.\r\n--R\r\nContent-Type: message/disposition-notification\r\n\r\nFinal-Recipient: rfc822; a@b\r\n--R--\r\n"
    m = parse_message(mail("From: bob@x.org", body, ctype='multipart/report; report-type=disposition-notification; boundary="R"'))
    assert m.automatic == "auto-reply"


def test_utf8_cut_inside_a_character_stays_utf8():
    raw = mail(BASIC, "Mêlée ".encode() * 400_000, cte="8bit")
    m = parse_message(raw, max_text=1000)
    assert m.text.startswith("Mêlée Mêlée") and len(m.text) == 1000
    assert "Ã" not in m.text


def test_truncated_message_ending_inside_a_character():
    m = parse_message(mail(BASIC, "Déplacer la Mêlée à".encode()[:-1], cte="8bit"))
    assert m.text == "Déplacer la Mêlée "


def test_hostile_content_type_parameters_are_cut_quickly():
    raw = (b'From: a@b.c\r\nContent-Type: multipart/mixed; boundary="b"; x="' + b";" * 60_000 + b'"\r\n\r\n'
           b"--b\r\nContent-Type: text/plain\r\n\r\nORDERS g1 T3\r\n--b--\r\n")
    t0 = time.process_time()
    m = parse_message(raw)
    assert time.process_time() - t0 < 0.5
    assert m.text == "ORDERS g1 T3"


def test_unlabelled_cyrillic_is_a_reported_guess():
    # django-mailbox: declared us-ascii, the bytes are cp1251 -- we cannot know; we guess windows-1252 and say so
    m = parse_message(read_corpus("django-mailbox/message_with_invalid_content_for_declared_encoding.eml"))
    assert m.text
    assert any("read as windows-1252" in p for p in m.problems)
