"""Build outbound mail as bytes, deterministically.

:func:`compose` makes::

    multipart/mixed                       (only when there are attachments or a calendar)
      multipart/alternative               (only when there is HTML)
        text/plain; charset=utf-8
        multipart/related                 (only when there are images)
          text/html; charset=utf-8
          image/png  (Content-ID, inline) ...
      attachment ...
      text/calendar; method=PUBLISH       (event.ics)

with CRLF line ends (``email.policy.SMTP``). The Date is passed in and the MIME
boundaries are derived from the Message-ID, so composing the same mail twice
gives the same bytes -- a resent mail carries the same Message-ID and content.

Every answer to an order mail and every report is composed here, so the common
cases are written directly: a header whose value is short printable ASCII is one
line as it is, text parts are encoded without building message objects, base64
parts with plain names and types are written whole, and multiparts are laid out
around those bytes. The results are byte for byte what ``email``'s header registry
and generator give (tests/mail/test_mime_fast_path.py checks it); anything
else goes through them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from email import quoprimime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime
from functools import lru_cache

__all__ = ["calendar_event", "compose", "fold_ical_line", "ical_escape", "is_our_own", "new_message_id"]

_RESERVED = {"from", "to", "subject", "date", "message-id", "reply-to", "in-reply-to", "references", "mime-version",
             "content-type", "content-transfer-encoding"}


def new_message_id(domain: str) -> str:
    """A fresh Message-ID ``<random@domain>`` (store it: resending must reuse it)."""
    return f"<{secrets.token_hex(16)}@{domain}>"


def _angle(msg_id: str) -> str:
    msg_id = msg_id.strip()
    if not msg_id.startswith("<"):
        msg_id = "<" + msg_id
    if not msg_id.endswith(">"):
        msg_id += ">"
    return msg_id


def _one_line(value: str) -> str:
    """Header text on one line: a subject quoted from a player's mail must not inject headers."""
    return " ".join(str(value).split())


def _addr(value: str | tuple[str, str]) -> str | Address:
    if isinstance(value, tuple):
        name, addr = value
        local, _, domain = addr.partition("@")
        return Address(display_name=name, username=local, domain=domain)
    return value


class _Boundaries:
    def __init__(self, seed: str, bodies: list[bytes]):
        self.seed = seed
        self.bodies = bodies
        self.n = 0

    def next(self) -> str:
        while True:
            self.n += 1
            b = "=_pbem_" + hashlib.sha256(f"{self.seed}\x00{self.n}".encode()).hexdigest()[:32]
            if not any(b.encode() in body for body in self.bodies):
                return b


def _parameter_header(name: str, value: str, param: str, plain: str) -> bytes:
    """``Name: value; param="plain"`` as the header registry writes it (parsing it took 0.1 ms
    a header, half of composing a report): on one line when it fits 78 octets, else folded
    before the parameter. ``plain`` holds only characters that need no quoting or encoding
    (a boundary of ours, a plain file name)."""
    line = f'{name}: {value}; {param}="{plain}"'
    if len(line) <= 78:
        return (line + "\r\n").encode("ascii")
    if len(param) + len(plain) + 4 < 78:
        return f'{name}: {value};\r\n {param}="{plain}"\r\n'.encode("ascii")
    return _folded(name, f'{value}; {param}="{plain}"')  # too long for a line: the registry splits it


def _multipart(subtype: str, parts: list[bytes], boundary: str) -> bytes:
    """A multipart entity around already-written parts, laid out as the generator lays it out."""
    mark = boundary.encode("ascii")
    out = [_parameter_header("Content-Type", f"multipart/{subtype}", "boundary", boundary), b"\r\n--", mark, b"\r\n", parts[0]]
    for part in parts[1:]:
        out += [b"\r\n--", mark, b"\r\n", part]
    out += [b"\r\n--", mark, b"--\r\n"]
    return b"".join(out)


#: printable ASCII: such a value is written as it is (when short, unstructured or a plain
#: Message-ID, and not an encoded word)
_AS_IS = re.compile(r"[ -~]*\Z")
_AS_IS_MSGID = re.compile(r"<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+>\Z")
_STRUCTURED = {"from", "to", "cc", "bcc", "reply-to", "sender", "resent-from", "resent-to", "resent-cc",
               "resent-bcc", "resent-sender", "date", "resent-date", "orig-date", "mime-version",
               "content-type", "content-disposition", "content-transfer-encoding"}


def _folded(name: str, value) -> bytes:  # noqa: ANN001 - str or Address
    """One header through the header registry: parsed, encoded and folded as the generator writes it."""
    name, header = SMTP.header_store_parse(name, value)
    return SMTP.fold_binary(name, header)


@lru_cache(maxsize=4096)
def _folded_address(name: str, value: str | tuple[str, str]) -> bytes:
    """Address headers repeat (our From, a player's To and Reply-To): each is parsed once."""
    return _folded(name, _addr(value))


def _header_line(name: str, value: str) -> bytes:
    """``Name: value`` + CRLF, as the header registry would write it, except that a text
    header (Subject, X-PBEM-*) is never folded right after its colon."""
    lname = name.lower()
    if (value and len(name) + 2 + len(value) <= 78 and "=?" not in value and _AS_IS.match(value) and value == value.strip()
            and "  " not in value and lname not in _STRUCTURED
            and (lname != "message-id" or _AS_IS_MSGID.match(value))):
        return f"{name}: {value}\r\n".encode("ascii")
    folded = _folded(name, value)
    return folded if lname in _STRUCTURED or lname in _IDENTIFIERS else first_word_on_name_line(name, folded)


_IDENTIFIERS = {"message-id", "in-reply-to", "references"}

#: the longest plain Message-ID folded here; a longer one the registry writes as encoded words
_REFERENCE_MAX = 70


def _references_line(refs: list[str]) -> bytes:
    """The References header, folded as the header registry folds a list of plain Message-IDs
    (every acknowledgement has one; the registry took 30 us of each): on the name's line if
    it all fits, else all on the next line if it fits there, else as many on each line as fit."""
    if not all(len(r) <= _REFERENCE_MAX and _AS_IS_MSGID.match(r) and "=?" not in r for r in refs):
        return _header_line("References", " ".join(refs))
    value = " ".join(refs)
    if len("References: ") + len(value) <= 78:
        return f"References: {value}\r\n".encode("ascii")
    if 1 + len(value) <= 78:
        return f"References:\r\n {value}\r\n".encode("ascii")
    lines, line = [], "References:"
    for ref in refs:
        if len(line) + 1 + len(ref) > 78:
            lines.append(line)
            line = ""
        line += " " + ref
    lines.append(line)
    return ("\r\n".join(lines) + "\r\n").encode("ascii")


def first_word_on_name_line(name: str, folded: bytes) -> bytes:
    """A folded header whose first word is kept on the header name's line.

    The registry folds right after the colon when the first word is longer than what is left
    of a 78-octet line; some readers then show the subject with a leading space. RFC 5322
    (2.1.1, 2.2.3) lets a line run to 998 octets, so the long word stays beside the name and
    the folds come after it; the header unfolds to the same value."""
    bare = name.encode("ascii") + b":\r\n "
    if not folded.startswith(bare):
        return folded
    lines = folded[len(bare):].split(b"\r\n")  # the last is empty: the header ends with CRLF
    word, _, tail = lines[0].partition(b" ")
    if len(name) + 2 + len(word) > 998:
        return folded
    out = [name.encode("ascii") + b": " + word]
    if tail and len(lines) > 2 and 1 + len(tail) + len(lines[1]) <= 78:
        lines[1] = b" " + tail + lines[1]  # the next line starts with its fold's space
    elif tail:
        out.append(b" " + tail)
    return b"\r\n".join(out + lines[1:])


def _date_line(date: datetime) -> bytes:
    """The Date header: format_datetime's text is what the registry parses and writes back."""
    # Aware datetimes of one instant are equal whatever their zone: the offset is in the key too.
    return _date_line_to_the_second(date.replace(microsecond=0), date.utcoffset())


@lru_cache(maxsize=64)
def _date_line_to_the_second(date: datetime, _offset) -> bytes:
    # mails composed in the same second share it (format_datetime costs 10 µs in Python)
    return f"Date: {format_datetime(date)}\r\n".encode("ascii")


#: a line quoted-printable leaves as it is: printable ASCII without "=", not ending in a space
_QP_AS_IS = re.compile(r"[ -<>-~]*[!-<>-~]\Z|\Z")


def _quoted_printable(lines: list[bytes], max_line_length: int) -> str:
    """What ``quoprimime.body_encode`` gives for these lines (each ending in a newline), line by
    line: a line it would leave alone is kept as it is, the others are encoded alone (it encodes
    each line apart). Most lines of a report are plain, and the whole text through it was most
    of the time a report's composing took."""
    out = []
    for line in (raw.decode("latin-1") for raw in lines or [b""]):  # no lines: the text is one newline
        out.append(line if len(line) <= max_line_length and _QP_AS_IS.match(line) else quoprimime.body_encode(line, max_line_length))
    out.append("")
    return "\n".join(out)


def _text_body(text: str) -> tuple[str, bytes]:
    """A text part's transfer encoding and body, as :func:`_text_part` + the generator write them."""
    lines = text.encode("utf-8").splitlines()
    if text.isascii() and all(len(line) <= 900 for line in lines):
        return "7bit", b"\r\n".join(lines) + b"\r\n"
    encoded = _quoted_printable(lines, SMTP.max_line_length)
    body = "\r\n".join(re.split(r"\r\n|\r|\n", encoded)).encode("ascii")
    return "quoted-printable", body if body.endswith(b"\r\n") else body + b"\r\n"


def _text_bytes(text: str, subtype: str) -> bytes:
    """A text part (headers and body) as :func:`_text_part` + the generator write it."""
    cte, body = _text_body(text)
    return (f'Content-Type: text/{subtype}; charset="utf-8"\r\nContent-Transfer-Encoding: {cte}\r\n\r\n').encode("ascii") + body


def _calendar_bytes(calendar: str) -> bytes:
    """The event.ics part, as :func:`_text_part` with its method and file name + the generator
    write it (the email package built it in about 0.8 ms a report)."""
    cte, body = _text_body(calendar)
    return (f'Content-Transfer-Encoding: {cte}\r\nContent-Disposition: attachment; filename="event.ics"\r\n'
            'Content-Type: text/calendar; charset="utf-8"; method="PUBLISH"\r\n\r\n').encode("ascii") + body


def _text_part(text: str, subtype: str, **kw) -> EmailMessage:  # noqa: ANN003
    """utf-8 text, 7bit when it is short-lined ASCII, else quoted-printable (safe on any relay)."""
    p = EmailMessage(policy=SMTP)
    plain_ascii = text.isascii() and all(len(line) <= 900 for line in text.splitlines())
    p.set_content(text, subtype=subtype, charset="utf-8", cte="7bit" if plain_ascii else "quoted-printable", **kw)
    del p["MIME-Version"]
    return p


def _bytes_part(data: bytes, mimetype: str, cte: str = "base64", **kw) -> EmailMessage:  # noqa: ANN003
    maintype, _, subtype = (mimetype or "application/octet-stream").partition("/")
    p = EmailMessage(policy=SMTP)
    if maintype == "text":
        # raw_data_manager refuses bytes for text/*: send it as 8-bit-safe base64 with its charset
        p.set_content(data, maintype="application", subtype="octet-stream", cte="base64", **kw)
        p.replace_header("Content-Type", f"{maintype}/{subtype or 'plain'}")
        if "charset" not in mimetype:
            p.set_param("charset", "utf-8")
        if kw.get("filename"):
            p.set_param("name", kw["filename"])
    else:
        p.set_content(data, maintype=maintype, subtype=subtype or "octet-stream", cte=cte, **kw)
    del p["MIME-Version"]
    return p


#: a filename written as it is in Content-Disposition (others are encoded by the email package)
_PLAIN_FILENAME = re.compile(r"[A-Za-z0-9._-]{1,100}\Z")
_PLAIN_MIMETYPE = re.compile(r"[a-z0-9.+-]+/[a-z0-9.+-]+\Z")
_PLAIN_CID = re.compile(r"<[A-Za-z0-9._-]{1,60}>\Z")


def _base64_part(data: bytes, mimetype: str, *, disposition: str, filename: str, cid: str | None = None) -> bytes:
    """A base64 part, written directly (the generator wrote its 76-character lines one
    call at a time: most of a report's composing time) when its type and name are plain."""
    maintype = mimetype.partition("/")[0]
    if maintype == "text" or not _PLAIN_MIMETYPE.match(mimetype or "") or not _PLAIN_FILENAME.match(filename):
        return _bytes_part(data, mimetype, disposition=disposition, filename=filename, cid=cid).as_bytes(policy=SMTP)
    head = [f"Content-Type: {mimetype}\r\nContent-Transfer-Encoding: base64\r\n".encode("ascii"),
            _parameter_header("Content-Disposition", disposition, "filename", filename)]
    if cid:
        head.append(f"Content-ID: {cid}\r\n".encode("ascii") if _PLAIN_CID.match(cid) else _folded("Content-ID", cid))
    encoded = base64.b64encode(data)
    lines = b"".join(encoded[i:i + 76] + b"\r\n" for i in range(0, len(encoded), 76))  # 57 bytes a line, as email writes
    return b"".join(head) + b"\r\n" + lines


#: attachments sent quoted-printable: text that base64 would make a third larger (a report's JSON)
QUOTED_PRINTABLE_TYPES = frozenset({"application/json"})


def _attachment_part(data: bytes, mimetype: str, filename: str) -> bytes:
    """An attachment: JSON as quoted-printable (mostly ASCII, so about its own size; lines are
    soft-broken at 76 characters), anything else as base64."""
    if mimetype not in QUOTED_PRINTABLE_TYPES:
        return _base64_part(data, mimetype, disposition="attachment", filename=filename)
    if not _PLAIN_FILENAME.match(filename):
        return _bytes_part(data, mimetype, cte="quoted-printable", disposition="attachment", filename=filename).as_bytes(policy=SMTP)
    head = [f"Content-Type: {mimetype}\r\nContent-Transfer-Encoding: quoted-printable\r\n".encode("ascii"),
            _parameter_header("Content-Disposition", "attachment", "filename", filename)]
    body = binascii.b2a_qp(data, quotetabs=True, istext=False, header=False).replace(b"\n", b"\r\n")
    return b"".join(head) + b"\r\n" + body


def compose(
    *,
    from_addr: str | tuple[str, str],
    to_addr: str | tuple[str, str],
    subject: str,
    message_id: str,
    date: datetime,
    text: str,
    reply_to: str | tuple[str, str] | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    headers: Mapping[str, str] | None = None,
    html: str | None = None,
    images: Mapping[str, bytes] | None = None,
    attachments: Sequence[tuple[str, str, bytes]] = (),
    calendar: str | None = None,
) -> bytes:
    """One mail as CRLF bytes, ready for SMTP. Same arguments -> same bytes.

    ``from_addr``/``to_addr``/``reply_to`` are ``"Name <a@b>"`` strings or ``(name, addr)``;
    ``message_id``/``in_reply_to``/``references`` are taken with or without ``<>``;
    ``images`` maps a Content-ID (without ``<>``) to PNG bytes, shown inline by the HTML
    (``<img src="cid:ID">``) -- they are dropped when there is no HTML;
    ``attachments`` are ``(filename, mimetype, data)``; ``calendar`` an iCalendar text
    (see :func:`calendar_event`); ``headers`` extra headers (e.g. ``Auto-Submitted``,
    ``List-Unsubscribe``) -- they cannot replace the ones set from the arguments.
    Line breaks in the subject and extra headers become spaces (no header injection).
    A naive ``date`` is taken as UTC.
    """
    if date.tzinfo is None:
        date = date.replace(tzinfo=timezone.utc)
    images = dict(images or {})
    headers = dict(headers or {})
    msg_id = _angle(message_id)

    for name in headers:
        if name.lower() in _RESERVED:
            raise ValueError(f"header {name!r} is set from compose()'s own arguments")
    head = [_folded_address("From", from_addr), _folded_address("To", to_addr),
            _header_line("Subject", _one_line(subject)), _date_line(date),
            _header_line("Message-ID", msg_id)]
    if reply_to:
        head.append(_folded_address("Reply-To", reply_to))
    if in_reply_to:
        head.append(_header_line("In-Reply-To", _angle(in_reply_to)))
    refs = [_angle(r) for r in references if r and r.strip()]
    if refs:
        head.append(_references_line(refs))
    head += [_header_line(name, _one_line(value)) for name, value in headers.items()]
    head.append(b"MIME-Version: 1.0\r\n")

    if html is None and not attachments and calendar is None:
        return b"".join(head) + _text_bytes(text, "plain")
    return b"".join(head) + _multipart_body(text, html, images, attachments, calendar, msg_id)


def ascii_html(html: str) -> str:
    """``html`` with every non-ASCII character written as a character reference (``&#233;``):
    the same page, which then goes 7bit instead of quoted-printable (where every ``=`` of an
    attribute became ``=3D`` and long lines were cut with ``=``). Our HTML keeps its
    non-ASCII text out of <style> and <script>, where references are not read."""
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _multipart_body(text: str, html: str | None, images: dict, attachments, calendar: str | None, msg_id: str) -> bytes:  # noqa: ANN001
    plain = _text_bytes(text, "plain")
    leaf_bytes: list[bytes] = [plain]  # the text parts: a boundary must appear in none of them
    body = plain
    html_part = None
    image_parts: list[bytes] = []
    if html is not None:
        html_part = _text_bytes(ascii_html(html), "html")
        leaf_bytes.append(html_part)
        for cid, data in sorted(images.items()):
            cid = cid.strip().strip("<>")
            image_parts.append(_base64_part(data, "image/png", disposition="inline", filename=f"{cid}.png", cid=f"<{cid}>"))
    attach_parts = [_attachment_part(data, mimetype, filename) for filename, mimetype, data in attachments]
    leaf_bytes += [part for part, (_n, mimetype, _d) in zip(attach_parts, attachments) if mimetype in QUOTED_PRINTABLE_TYPES]
    cal_part = None
    if calendar is not None:
        cal_part = _calendar_bytes(calendar)
        leaf_bytes.append(cal_part)

    bounds = _Boundaries(msg_id, leaf_bytes)
    if html_part is not None:
        html_side = html_part
        if image_parts:
            html_side = _multipart("related", [html_part, *image_parts], bounds.next())
        body = _multipart("alternative", [plain, html_side], bounds.next())
    if attach_parts or cal_part is not None:
        tail = [*attach_parts] + ([cal_part] if cal_part is not None else [])
        body = _multipart("mixed", [body, *tail], bounds.next())
    return body


# --------------------------------------------------------------------------- iCalendar


def ical_escape(text: str) -> str:
    """RFC 5545 TEXT escaping: backslash, semicolon, comma, newlines."""
    return (
        text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
        .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")
    )


def fold_ical_line(line: str) -> str:
    """Fold one content line at 75 octets (UTF-8, never inside a character); CRLF + space continues."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line
    out: list[str] = []
    chunk = ""
    size = 0
    limit = 75
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > limit:
            out.append(chunk)
            chunk, size, limit = "", 0, 74  # continuation lines start with a space
        chunk += ch
        size += n
    out.append(chunk)
    return "\r\n ".join(out)


def _utc(dt: datetime) -> str:
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def calendar_event(
    *,
    uid: str,
    summary: str,
    starts_utc: datetime,
    description: str,
    url: str | None = None,
    ends_utc: datetime | None = None,
    dtstamp_utc: datetime | None = None,
) -> str:
    """An RFC 5545 VCALENDAR (METHOD:PUBLISH) with one VEVENT, CRLF line ends, folded at 75 octets.

    Times are written in UTC ``Z`` form (a naive datetime is taken as UTC).
    DTSTAMP defaults to ``starts_utc`` so the same event gives the same text;
    DTEND defaults to DTSTART (a deadline is a moment).
    """
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//pbem//pbem play-by-email server//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:{ical_escape(uid)}",
        f"DTSTAMP:{_utc(dtstamp_utc or starts_utc)}",
        f"DTSTART:{_utc(starts_utc)}",
        f"DTEND:{_utc(ends_utc or starts_utc)}",
        f"SUMMARY:{ical_escape(summary)}",
        f"DESCRIPTION:{ical_escape(description)}",
    ]
    if url:
        lines.append(f"URL:{url}")
    lines += ["TRANSP:TRANSPARENT", "END:VEVENT", "END:VCALENDAR"]
    return "".join(fold_ical_line(line) + "\r\n" for line in lines)


# --------------------------------------------------------------------------- loops


def is_our_own(inbound, domain: str) -> bool:  # noqa: ANN001 - pbem.mail.inbound.Inbound
    """True when ``inbound`` came from us: its From address or its Message-ID is in ``domain``
    (or a subdomain). Use it to drop our own mail bounced or looped back.
    """
    try:
        domain = domain.strip().lower().rstrip(".")
        if not domain:
            return False
        for value in (inbound.from_addr, inbound.message_id):
            if value and "@" in value:
                host = value.rsplit("@", 1)[1].strip().strip(">").lower().rstrip(".")
                if host == domain or host.endswith("." + domain):
                    return True
        return False
    except Exception:
        return False
