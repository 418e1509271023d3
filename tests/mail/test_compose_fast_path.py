"""compose() writes short ASCII headers and text-only mails directly, for speed. These
tests hold it to the bytes the `email` package's header registry and generator give
for the same mail, which is what compose() built before the fast path existed."""

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.compose import _date_line, _folded, _header_line, _one_line, _text_bytes, _text_part, compose

HEADER_NAMES = ["Subject", "Message-ID", "In-Reply-To", "References", "X-PBEM-Kind", "X-PBEM-Status",
                "Auto-Submitted", "List-Unsubscribe", "Date", "To"]
# mostly printable ASCII, with the characters that make the registry encode or fold
header_text = st.text(alphabet="abcXYZ019 <>@.=?_-:;,()\"'\\[]é\t\x01—", max_size=120)
body_text = st.lists(st.sampled_from(list("ab Z09.=") + ["\n", "\r", "\r\n", "é", "€", "\t", "\x00", "x" * 300]),
                     max_size=60).map("".join)


def reference_compose(*, from_addr, to_addr, subject, message_id, date, text, reply_to=None, in_reply_to=None,
                      references=(), headers=None) -> bytes:
    """A text-only mail the way compose() built it through EmailMessage alone."""
    plain = _text_part(text, "plain")
    msg = EmailMessage(policy=SMTP)
    msg["From"], msg["To"], msg["Subject"] = from_addr, to_addr, _one_line(subject)
    msg["Date"], msg["Message-ID"] = format_datetime(date), message_id
    if reply_to:
        msg["Reply-To"] = reply_to
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = " ".join(references)
    for name, value in (headers or {}).items():
        msg[name] = _one_line(value)
    msg["MIME-Version"] = "1.0"
    return msg.as_bytes(policy=SMTP).rstrip(b"\r\n") + b"\r\n" + plain.as_bytes(policy=SMTP)


@settings(max_examples=600, deadline=None)
@given(name=st.sampled_from(HEADER_NAMES), value=header_text)
def test_a_header_line_is_what_the_header_registry_writes(name, value):
    value = _one_line(value)
    try:
        expected = _folded(name, value)
    except Exception as exc:  # noqa: BLE001 - the registry fails on some odd values ("<", a non-ASCII Message-ID)
        with pytest.raises(type(exc)):
            _header_line(name, value)
        return
    assert _header_line(name, value) == expected


@settings(max_examples=300, deadline=None)
@given(moment=st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2200, 1, 1)),
       offset_minutes=st.integers(min_value=-14 * 60, max_value=14 * 60))
def test_a_date_header_reads_back_as_written(moment, offset_minutes):
    moment = moment.replace(microsecond=0, tzinfo=timezone(timedelta(minutes=offset_minutes)))
    assert _date_line(moment) == _folded("Date", format_datetime(moment))


@settings(max_examples=600, deadline=None)
@given(text=body_text)
def test_a_text_part_is_what_the_generator_writes(text):
    assert _text_bytes(text, "plain") == _text_part(text, "plain").as_bytes(policy=SMTP)


@settings(max_examples=300, deadline=None)
@given(subject=header_text, text=body_text, name=st.text(alphabet="abcé ,.", max_size=20),
       status=st.sampled_from(["accepted", "rejected", "partial — en partie"]))
def test_a_whole_text_only_mail_is_what_email_message_gives(subject, text, name, status):
    date = datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)
    kwargs = dict(from_addr="pbem <pbem@pbem.example>", subject=subject, message_id="<ack.lb1.T1.us.1.0e1f@pbem.example>",
                  date=date, text=text, reply_to="lb1+abcdef@pbem.example", in_reply_to="<x.1@players.example>",
                  references=["<thread.lb1.1.26ebbe9b2e@pbem.example>", "<x.1@players.example>"],
                  headers={"X-PBEM-Kind": "ack", "X-PBEM-Status": status, "Auto-Submitted": "auto-replied"})
    ours = compose(to_addr=(name, "player@players.example"), **kwargs)
    theirs = reference_compose(to_addr=str(_to_address(name)), **kwargs)
    assert ours == theirs


def _to_address(name):
    from email.headerregistry import Address
    return Address(display_name=name, username="player", domain="players.example")
