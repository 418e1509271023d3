"""pbem.mail.mime: round trips through the stdlib parser and our own parse_message."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timedelta, timezone

import pytest

from pbem.mail import calendar_event, compose, is_our_own, new_message_id, parse_message
from pbem.mail.mime import fold_ical_line, ical_escape

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
WHEN = datetime(2025, 3, 3, 10, 0, tzinfo=timezone.utc)
DEADLINE = datetime(2025, 3, 5, 18, 30, tzinfo=timezone(timedelta(hours=1)))


def crlf(text: str) -> str:
    """get_content() keeps the wire's CRLF line ends."""
    return text.replace("\r\n", "\n")


def full_mail(**over) -> bytes:
    kw = dict(
        from_addr=("pbem — Little Big Horn", "pbem@pbem.example"),
        to_addr="Jérôme <jerome@exemple.fr>",
        subject="Tour 3 : résultats de la Mêlée",
        message_id="report.g1.T3.sioux@pbem.example",
        reply_to="g1+abcdef@pbem.example",
        in_reply_to="<welcome.g1@pbem.example>",
        references=["welcome.g1@pbem.example", "<ack.g1.T2@pbem.example>"],
        headers={"Auto-Submitted": "auto-generated", "X-PBEM-Game": "g1"},
        text="Déplacer la Mêlée\nORDERS g1 T4\nEND\n",
        html='<p>Carte&nbsp;:</p><img src="cid:map-t3" alt="map"><p>Déplacer la Mêlée</p>',
        images={"map-t3": PNG},
        attachments=[("orders-T3.txt", "text/plain", "ORDERS g1 T3\nA hold\nEND\n".encode()),
                     ("replay.json", "application/json", b'{"turn": 3}')],
        calendar=calendar_event(uid="g1-T4-sioux@pbem.example", summary="Orders due: g1 T4", starts_utc=DEADLINE,
                                description="Deadline for g1, phase T4; bring cavalry, and\nammunition.", url="https://pbem.example/g/g1"),
        date=WHEN,
    )
    kw.update(over)
    return compose(**kw)


def test_structure_and_headers():
    raw = full_mail()
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["Message-ID"] == "<report.g1.T3.sioux@pbem.example>"
    assert msg["In-Reply-To"] == "<welcome.g1@pbem.example>"
    assert msg["References"] == "<welcome.g1@pbem.example> <ack.g1.T2@pbem.example>"
    assert msg["Subject"] == "Tour 3 : résultats de la Mêlée"
    assert msg["From"].addresses[0].display_name == "pbem — Little Big Horn"
    assert msg["To"].addresses[0].addr_spec == "jerome@exemple.fr"
    assert msg["Reply-To"] == "g1+abcdef@pbem.example"
    assert msg["Auto-Submitted"] == "auto-generated" and msg["X-PBEM-Game"] == "g1"
    assert msg["Date"].datetime == WHEN and msg["MIME-Version"] == "1.0"
    assert not msg.defects

    assert msg.get_content_type() == "multipart/mixed"
    top = list(msg.iter_parts())
    assert [p.get_content_type() for p in top] == ["multipart/alternative", "text/plain", "application/json", "text/calendar"]
    alt = list(top[0].iter_parts())
    assert [p.get_content_type() for p in alt] == ["text/plain", "multipart/related"]
    assert crlf(alt[0].get_content()) == "Déplacer la Mêlée\nORDERS g1 T4\nEND\n"
    assert alt[0].get_content_charset() == "utf-8"
    related = list(alt[1].iter_parts())
    assert [p.get_content_type() for p in related] == ["text/html", "image/png"]
    html = related[0].get_content()
    cid = related[1]["Content-ID"]
    assert cid == "<map-t3>" and f'cid:{cid.strip("<>")}' in html
    assert related[1].get_content() == PNG
    assert related[1].get_content_disposition() == "inline"
    assert top[1].get_filename() == "orders-T3.txt" and top[1].get_content_disposition() == "attachment"
    assert crlf(top[1].get_content()) == "ORDERS g1 T3\nA hold\nEND\n"
    assert top[2].get_content() == b'{"turn": 3}'
    cal = top[3]
    assert cal.get_param("method") == "PUBLISH"
    assert cal.get_filename() == "event.ics"
    # every line of the transfer-encoded mail fits SMTP's limit
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998


def test_html_goes_7bit_with_its_accents_as_character_references():
    """The HTML part's non-ASCII letters are written as references (&#233;), so the part
    needs no quoted-printable (which turned every attribute's = into =3D): the same page."""
    import html as html_module
    raw = full_mail()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    part = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    assert part["Content-Transfer-Encoding"] == "7bit"
    sent = part.get_content()
    assert sent.isascii() and "D&#233;placer la M&#234;l&#233;e" in sent
    original = '<p>Carte&nbsp;:</p><img src="cid:map-t3" alt="map"><p>Déplacer la Mêlée</p>'
    assert html_module.unescape(crlf(sent)).rstrip("\n") == html_module.unescape(original)


def test_deterministic_bytes():
    assert full_mail() == full_mail()
    assert full_mail() != full_mail(message_id="other@pbem.example")


def test_our_parser_reads_it_back_and_ignores_attachments():
    m = parse_message(full_mail())
    assert m.text == "Déplacer la Mêlée\nORDERS g1 T4\nEND"
    assert m.message_id == "report.g1.T3.sioux@pbem.example"
    assert m.from_addr == "pbem@pbem.example"
    assert m.automatic == "auto-submitted"
    assert m.references == ["welcome.g1@pbem.example", "ack.g1.T2@pbem.example"]
    assert m.problems == []
    assert is_our_own(m, "pbem.example") and is_our_own(m, "PBEM.Example.")
    assert not is_our_own(m, "other.example") and not is_our_own(m, "")


def test_simplest_mail_is_a_single_text_part():
    raw = compose(from_addr="a@pbem.example", to_addr="b@x.org", subject="s", message_id="<m@pbem.example>",
                  text="plain ascii", date=WHEN)
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.get_content_type() == "text/plain" and not msg.is_multipart()
    assert crlf(msg.get_content()) == "plain ascii\n"
    assert msg["Content-Transfer-Encoding"] == "7bit"
    assert "Reply-To" not in msg and "In-Reply-To" not in msg and "References" not in msg


def test_html_without_images_is_alternative_only():
    raw = compose(from_addr="a@pbem.example", to_addr="b@x.org", subject="s", message_id="m@pbem.example",
                  text="t", html="<p>h</p>", images={"unused": PNG}, date=WHEN)
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "multipart/related"]


def test_text_and_calendar_only():
    ics = calendar_event(uid="u@x", summary="s", starts_utc=WHEN, description="d")
    raw = compose(from_addr="a@pbem.example", to_addr="b@x.org", subject="s", message_id="m@pbem.example",
                  text="t", calendar=ics, date=WHEN)
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/calendar"]
    assert list(msg.iter_parts())[1].get_content().replace("\r\n", "\n") == ics.replace("\r\n", "\n")


def test_reserved_headers_cannot_be_overridden():
    with pytest.raises(ValueError):
        compose(from_addr="a@x", to_addr="b@x", subject="s", message_id="m@x", text="t", date=WHEN, headers={"Message-ID": "<z@x>"})


def test_naive_date_is_utc():
    a = compose(from_addr="a@x.org", to_addr="b@x.org", subject="s", message_id="m@x", text="t", date=WHEN.replace(tzinfo=None))
    b = compose(from_addr="a@x.org", to_addr="b@x.org", subject="s", message_id="m@x", text="t", date=WHEN)
    assert a == b


def test_new_message_id():
    a, b = new_message_id("pbem.example"), new_message_id("pbem.example")
    assert a != b and a.startswith("<") and a.endswith("@pbem.example>")


# --------------------------------------------------------------------------- iCalendar

def unfold(ics: str) -> list[str]:
    assert ics.endswith("\r\n")
    assert "\n" not in ics.replace("\r\n", "")
    return ics.replace("\r\n ", "").split("\r\n")[:-1]


def test_calendar_event_is_valid_rfc5545():
    ics = calendar_event(uid="g1-T4-sioux@pbem.example", summary="Ordres dus ; g1, T4 \\ fin",
                         starts_utc=DEADLINE, description="Ligne 1\nLigne 2, avec ; et \\ " + "é" * 60,
                         url="https://pbem.example/g/g1")
    for physical in ics.split("\r\n"):
        assert len(physical.encode("utf-8")) <= 75
    lines = unfold(ics)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines and "METHOD:PUBLISH" in lines and any(line.startswith("PRODID:") for line in lines)
    assert lines.index("BEGIN:VEVENT") < lines.index("END:VEVENT")
    props = dict(line.split(":", 1) for line in lines)
    assert props["DTSTART"] == "20250305T173000Z"  # 18:30 at UTC+1
    assert props["DTSTAMP"].endswith("Z")
    assert props["UID"] == "g1-T4-sioux@pbem.example"
    assert props["SUMMARY"] == "Ordres dus \\; g1\\, T4 \\\\ fin"
    assert props["DESCRIPTION"] == "Ligne 1\\nLigne 2\\, avec \\; et \\\\ " + "é" * 60
    assert props["URL"] == "https://pbem.example/g/g1"
    assert calendar_event(uid="u", summary="s", starts_utc=DEADLINE, description="d") == \
        calendar_event(uid="u", summary="s", starts_utc=DEADLINE, description="d")


def test_fold_never_splits_a_character():
    line = "DESCRIPTION:" + "日本語" * 40
    folded = fold_ical_line(line)
    parts = folded.split("\r\n ")
    assert "".join(parts) == line
    assert all(len(p.encode("utf-8")) <= (75 if i == 0 else 74) for i, p in enumerate(parts))


def test_ical_escape():
    assert ical_escape("a,b;c\\d\r\ne\nf") == "a\\,b\\;c\\\\d\\ne\\nf"


def test_header_injection_is_neutralised():
    raw = compose(from_addr="a@pbem.example", to_addr="b@x.org", subject="Re: hi\r\nBcc: victim@x.org",
                  message_id="m@pbem.example", text="t", date=WHEN, headers={"X-Note": "a\nb"})
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["Subject"] == "Re: hi Bcc: victim@x.org" and msg["Bcc"] is None and msg["X-Note"] == "a b"
