"""Read one inbound message: headers, the best plain text of the body, and whether
it was sent by a machine (bounce, auto-reply, mailing list).

:func:`parse_message` never raises. Whatever it could not read is described in
``Inbound.problems`` (human-readable English sentences) and the fields it could
not fill stay empty.

How it reads
------------
* MIME structure: :func:`email.message_from_bytes` with ``policy.compat32`` --
  string-only, so a hostile header cannot make the structure parse fail or crawl.
* Header values: decoded with ``policy.default``'s header classes (RFC 2047
  encoded words, address lists, dates), capped at :data:`MAX_HEADER_CHARS`
  characters; when that raises, the compat32 decoders
  (:func:`email.header.decode_header`, :func:`email.utils.getaddresses`) are used.
  Raw 8-bit bytes in headers are read as UTF-8, else windows-1252.
* Body: the text/plain part of a multipart/alternative, else its HTML converted
  to text; inline text parts of a multipart/mixed are joined in order;
  attachments (Content-Disposition: attachment, or a file name), message/rfc822
  parts and delivery-status reports are not part of it (small text/plain
  attachments are read apart, into ``text_attachments``). Decoded from 7bit/8bit/QP/base64,
  then from bytes to text: the declared charset, then UTF-8, then windows-1252
  (a single-byte label such as iso-8859-1 on bytes that are valid UTF-8 is taken
  as UTF-8). ``format=flowed`` is unwrapped (RFC 3676, with DelSp), line ends
  become ``\\n`` and NUL bytes are removed.
* Work is bounded: at most :data:`MAX_PARTS` MIME parts walked, :data:`MAX_DEPTH`
  levels of nesting, :data:`MAX_HEADERS` headers read, :data:`MAX_HTML_CHARS` of
  HTML converted, and the text cut at ``max_text`` characters (default
  :data:`MAX_TEXT_CHARS`).
"""

from __future__ import annotations

import codecs
import email
import email.header
import email.message
import email.parser
import email.policy
import email.utils
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from pbem.mail.addresses import normalise_address, parse_mailbox
from pbem.mail.html_text import html_to_text

__all__ = [
    "Inbound",
    "MAX_DEPTH",
    "MAX_HEADERS",
    "MAX_HEADER_CHARS",
    "MAX_HTML_CHARS",
    "MAX_PARTS",
    "MAX_RAW_BYTES",
    "MAX_TEXT_CHARS",
    "automatic_reason",
    "decode_bytes",
    "parse_message",
    "unflow",
]

MAX_TEXT_CHARS = 1_000_000
MAX_HTML_CHARS = 500_000
MAX_PARTS = 200
MAX_DEPTH = 20
MAX_HEADERS = 500
MAX_HEADER_CHARS = 8_000
MAX_RAW_BYTES = 40_000_000


@dataclass
class Inbound:
    """What :func:`parse_message` could read from one message."""

    raw: bytes
    message_id: str | None = None
    from_addr: str | None = None
    from_name: str | None = None
    reply_to: str | None = None
    recipients: list[str] = field(default_factory=list)
    subject: str = ""
    date: datetime | None = None
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    text: str = ""
    #: True when ``text`` was converted from an HTML part (no usable text/plain).
    text_from_html: bool = False
    #: None for mail a person wrote, else "bounce", "auto-submitted", "auto-reply" or "list".
    automatic: str | None = None
    #: (file name, text) of small text/plain attachments, in order: a player may attach
    #: the orders as a file; they are read only when the body holds no command.
    text_attachments: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- headers

_SURROGATES = re.compile(r"[\udc80-\udcff]")


def _repair_8bit(value: str) -> str:
    """compat32 keeps raw 8-bit header bytes as surrogate escapes: read them as UTF-8, else windows-1252."""
    if not _SURROGATES.search(value):
        return value
    data = value.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("windows-1252", "replace")


class _Headers:
    """Raw header values of one message, capped in number and length."""

    def __init__(self, msg: email.message.Message, problems: list[str]):
        self.items: list[tuple[str, str]] = []
        try:
            raw_items = list(msg.raw_items())
        except Exception:
            raw_items = []
        if len(raw_items) > MAX_HEADERS:
            problems.append(f"the message has {len(raw_items)} header lines; only the first {MAX_HEADERS} were read")
            raw_items = raw_items[:MAX_HEADERS]
        long_seen = False
        for name, value in raw_items:
            if not isinstance(name, str):
                continue
            if not isinstance(value, str):
                try:
                    value = str(value)
                except Exception:
                    continue
            if len(value) > MAX_HEADER_CHARS:
                value = value[:MAX_HEADER_CHARS]
                long_seen = True
            self.items.append((name.strip().lower(), _repair_8bit(value)))
        if long_seen:
            problems.append(f"a header was longer than {MAX_HEADER_CHARS} characters and was cut")

    def get_all(self, name: str) -> list[str]:
        name = name.lower()
        return [v for n, v in self.items if n == name]

    def get(self, name: str) -> str | None:
        values = self.get_all(name)
        return values[0] if values else None

    def names(self) -> set[str]:
        return {n for n, _ in self.items}


_FOLD = re.compile(r"\r?\n[ \t]*")


def _unfold(value: str) -> str:
    return _FOLD.sub(" ", value).strip()


def _decode_unstructured(name: str, value: str) -> str:
    """An unstructured header (Subject) with RFC 2047 words decoded."""
    unfolded = _unfold(value)
    if unfolded.isascii() and "=?" not in unfolded:
        return unfolded  # no encoded word: the header registry gives it back as it is (and took 0.02 ms)
    try:
        return str(email.policy.default.header_factory(name, unfolded)).strip()
    except Exception:
        pass
    try:
        parts = []
        for chunk, charset in email.header.decode_header(_unfold(value)):
            if isinstance(chunk, bytes):
                chunk, _ = decode_bytes(chunk, charset)
            parts.append(chunk)
        return "".join(parts).strip()
    except Exception:
        return _unfold(value)


#: the common, plain forms: ``bob@x.org`` and ``Bob Smith <bob@x.org>`` (ASCII words, one space
#: between them); the header registry reads them the same way but takes 50 times longer
_PLAIN_ADDRESS = re.compile(
    r"(?:(?P<name>[A-Za-z0-9]+(?: [A-Za-z0-9]+)*) <(?P<bracketed>[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)>"
    r"|(?P<bare>[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*))\Z"
)


def _address_pairs(name: str, value: str) -> list[tuple[str, str]]:
    """[(display name, addr-spec as written)] of one address header's value."""
    value = _unfold(value)
    plain = _PLAIN_ADDRESS.match(value)
    if plain:
        return [(plain["name"] or "", plain["bracketed"] or plain["bare"])]
    return _registry_address_pairs(name, value)


def _registry_address_pairs(name: str, value: str) -> list[tuple[str, str]]:
    try:
        header = email.policy.default.header_factory(name, value)
        if hasattr(header, "addresses"):
            return [(a.display_name or "", a.addr_spec or "") for a in header.addresses]
    except Exception:
        pass
    try:
        return [(_decode_unstructured("subject", n) if n else "", a) for n, a in email.utils.getaddresses([value])]
    except Exception:
        return []


def _author(values: list[str], problems: list[str]) -> tuple[str, str] | None:
    """(display name, addr-spec) of the one mailbox in the one From (or Sender) line, else None.

    Several lines, several mailboxes, a group or anything RFC 5322 cannot place make
    the sender unknown: whoever wrote such a header is treated as a stranger.
    """
    if not values:
        return None
    if len(values) > 1:
        problems.append(f"the message has {len(values)} sender lines; the sender is unknown")
        return None
    value = _unfold(values[0])
    plain = _PLAIN_ADDRESS.match(value)
    if plain:
        addr = normalise_address(plain["bracketed"] or plain["bare"])
        mailbox = (plain["name"] or "", addr) if addr else None
    else:
        mailbox = parse_mailbox(value)
    if mailbox is None:
        problems.append("the sender's address could not be read as one mailbox; the sender is unknown")
    return mailbox


def _decode_addresses(name: str, values: list[str]) -> list[tuple[str, str]]:
    """[(display name, addr-spec)] of address headers; addr-spec lower-cased and validated ('' when unreadable)."""
    return [(display, normalise_address(addr) or "") for value in values for display, addr in _address_pairs(name, value)]


_MSGID_RE = re.compile(r"<([^<>\s]{1,998})>")


def _msg_ids(value: str | None) -> list[str]:
    if not value:
        return []
    ids = _MSGID_RE.findall(value)
    if not ids:
        ids = [t.strip("<>") for t in value.split() if "@" in t]
    return [i for i in ids if i]


def _first_msg_id(value: str | None) -> str | None:
    ids = _msg_ids(value)
    if ids:
        return ids[0]
    if value and value.strip().strip("<>").strip():
        token = value.strip().strip("<>").strip()
        return token if len(token) <= 998 and " " not in token else None
    return None


def _parse_date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        dt = email.policy.default.header_factory("date", _unfold(value)).datetime
        if isinstance(dt, datetime):
            return dt
    except Exception:
        pass
    try:
        return email.utils.parsedate_to_datetime(_unfold(value))
    except Exception:
        return None


# --------------------------------------------------------------------------- automatic mail

_AUTO_SUBJECT_RE = re.compile(
    r"^\s*(?:(?:re|aw|sv|fw|fwd)\s*:\s*)*"
    r"(?:out\s+of\s+(?:the\s+)?office|automatic\s+reply|auto(?:matic)?[\s-]?reply|autoreply|auto[\s-]?response|"
    r"vacation\s+reply|away\s+from\s+(?:the\s+)?office|"
    r"r[ée]ponse\s+automatique|absence\s+du\s+bureau|message\s+d['’]absence|"
    r"abwesenheitsnotiz|automatische\s+antwort|abwesend|"
    r"respuesta\s+autom[áa]tica|risposta\s+automatica|automatisch\s+antwoord|afwezig|"
    r"automatisk\s+svar|fr[åa]nvaro|автоответ|автоматический\s+ответ)"
    r"(?=\s*(?::|$|\(|-|–|\s+auto))",
    re.IGNORECASE,
)


def automatic_reason(
    headers: Sequence[tuple[str, str]],
    *,
    subject: str = "",
    envelope_from: str | None = None,
    from_addr: str | None = None,
    content_type: str = "",
    report_type: str = "",
) -> str | None:
    """Why a message looks machine-sent: "bounce", "auto-submitted", "auto-reply", "list", or None.

    ``headers`` are (lower-case name, value) pairs; ``envelope_from`` None means
    unknown, ``""``/``"<>"`` is the null sender of a bounce.
    """
    h: dict[str, str] = {}
    for name, value in headers:
        h.setdefault(name.lower(), value)

    def val(name: str) -> str:
        return _unfold(h.get(name, "")).lower()

    # bounce: null envelope sender, MAILER-DAEMON, delivery-status report
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return "bounce"
    if "return-path" in h and val("return-path").replace(" ", "") in ("<>", ""):
        return "bounce"
    locals_ = [a.split("@", 1)[0] for a in (from_addr,) if a]
    if envelope_from:
        locals_.append(envelope_from.strip().strip("<>").split("@", 1)[0].strip().lower())
    if any(lp in ("mailer-daemon", "mailer_daemon") for lp in locals_):
        return "bounce"
    if content_type == "multipart/report" and report_type in ("delivery-status", ""):
        return "bounce"
    if "x-failed-recipients" in h:
        return "bounce"
    # Auto-Submitted (RFC 3834)
    auto = val("auto-submitted")
    if auto and auto.split(";")[0].strip() not in ("no", ""):
        return "auto-submitted"
    # auto-replies
    if content_type == "multipart/report":  # disposition-notification (read receipt) and the like
        return "auto-reply"
    if any(n.startswith(("x-autoreply", "x-autorespond", "x-mail-autoreply", "x-autogenerated")) for n in h):
        return "auto-reply"
    precedence = val("precedence")
    if precedence in ("auto_reply", "auto-reply"):
        return "auto-reply"
    if subject and _AUTO_SUBJECT_RE.match(subject):
        return "auto-reply"
    # mailing lists
    if precedence in ("bulk", "junk", "list"):
        return "list"
    if "list-id" in h or "list-unsubscribe" in h:
        return "list"
    return None


# --------------------------------------------------------------------------- body decoding

_WESTERN = {"ascii", "latin_1", "iso8859_15", "cp1252", "iso8859_1", "us_ascii"}
_CHARSET_ALIASES = {
    "unknown-8bit": None,
    "x-unknown": None,
    "unknown": None,
    "x-user-defined": None,
    "default": None,
    "ansi_x3.4-1968": "ascii",
    "us-ascii": "ascii",
    "utf8": "utf-8",
    "utf-8": "utf-8",
    "cp-850": "cp850",
    "windows-874": "cp874",
    "ks_c_5601-1987": "cp949",
    "gb2312": "gb18030",  # superset; GB2312 labels routinely carry GBK/GB18030 text
    "gbk": "gb18030",
    "x-mac-roman": "mac_roman",
    "macintosh": "mac_roman",
    "iso-8859-8-i": "iso8859_8",
}


#: Python text codecs that are no character set a mail may declare (punycode decoding is quadratic)
_NOT_CHARSETS = {"idna", "punycode", "unicode_escape", "raw_unicode_escape", "undefined", "mbcs", "oem", "charmap",
                 "unicode_internal", "palmos"}


def _codec(charset: str | None) -> tuple[str | None, bool]:
    """(Python codec name or None, whether the label was unknown)."""
    if not charset:
        return None, False
    label = charset.strip().strip("\"'").lower()
    if not label:
        return None, False
    if label in _CHARSET_ALIASES:
        return _CHARSET_ALIASES[label], False
    try:
        info = codecs.lookup(label)
    except (LookupError, ValueError, TypeError):
        return None, True
    if not getattr(info, "_is_text_encoding", True) or info.name.replace("-", "_") in _NOT_CHARSETS:
        return None, True  # e.g. "base64", "rot13", "idna", "unicode_escape": not a mail character set
    name = info.name.replace("-", "_")
    if name in ("utf_8", "utf8"):
        return "utf-8", False
    return name, False


def _single_byte(codec_name: str) -> bool:
    n = codec_name
    return (
        n in _WESTERN
        or n.startswith(("iso8859", "cp12", "cp8", "cp4", "koi8", "mac_", "latin", "cp1006", "cp7", "hp_roman", "tis_620"))
    )


def _strict(data: bytes, codec_name: str) -> str | None:
    try:
        return data.decode(codec_name)
    except UnicodeDecodeError as exc:
        # a UTF-8 text cut inside its last character (a truncated message, or our own size cap)
        if codec_name == "utf-8" and exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
            try:
                return data[: exc.start].decode("utf-8")
            except UnicodeDecodeError:
                return None
        return None
    except Exception:  # LookupError, ValueError, TypeError from odd codecs
        return None


def decode_bytes(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """Bytes to text: the declared charset, then UTF-8, then windows-1252.

    Returns (text, problem or None). A problem is reported only when characters
    were replaced or the declared charset was unknown.
    """
    if not data:
        return "", None
    try:
        return data.decode("ascii"), None
    except UnicodeDecodeError:
        pass
    codec_name, unknown = _codec(charset)
    problem = None
    if unknown:
        problem = f"the message declared an unknown character set {charset.strip()[:40]!r}; it was read as UTF-8 or windows-1252"
    if codec_name and not _single_byte(codec_name) and codec_name not in ("utf-8", "ascii"):
        text = _strict(data, codec_name)
        if text is not None:
            return text, problem
        text = _strict(data, "utf-8")
        if text is not None:
            return text, problem
        try:
            text = data.decode(codec_name, "replace")
            return text, f"the body could not be decoded as {charset.strip()[:40]}; some characters were replaced"
        except Exception:
            pass
    # utf-8 first: valid multi-byte UTF-8 is almost never a single-byte charset's text
    text = _strict(data, "utf-8")
    if text is not None:
        return text, problem
    if codec_name and codec_name not in ("utf-8", "ascii") and _single_byte(codec_name) and codec_name not in _WESTERN:
        text = _strict(data, codec_name)
        if text is not None:
            return text, problem
    text = _strict(data, "windows-1252")
    if text is not None:
        if problem is None and codec_name in (None, "utf-8", "ascii"):
            # a guess: say so, in case the accents come out wrong (e.g. Cyrillic cp1251 sent unlabelled)
            label = charset.strip()[:40] if charset and charset.strip() else "US-ASCII (no charset given)"
            problem = f"the body is not valid {label} as its header says; it was read as windows-1252, so some letters may be wrong"
        return text, problem
    return (
        data.decode("windows-1252", "replace"),
        "the body could not be decoded as windows-1252; some characters were replaced",
    )


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines (ending in a space), per quote depth.

    Quoted lines come back as ``"> " * depth``-style prefixes (``">" * depth + " "``).
    """
    out: list[str] = []
    para: list[str] = []
    para_depth = -1

    def flush() -> None:
        nonlocal para, para_depth
        if para_depth >= 0:
            body = "".join(para)
            out.append((">" * para_depth + " " + body) if para_depth and body else (">" * para_depth + body))
        para, para_depth = [], -1

    for line in text.split("\n"):
        depth = 0
        while depth < len(line) and line[depth] == ">":
            depth += 1
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing (and the space after ">")
        if para_depth >= 0 and depth != para_depth:
            flush()
        is_sig = content == "-- "
        flowed = content.endswith(" ") and not is_sig
        if flowed and delsp:
            content = content[:-1]
        if para_depth < 0:
            para_depth = depth
        para.append(content)
        if not flowed:
            flush()
    flush()
    return "\n".join(out)


def _clean_text(text: str) -> str:
    text = text.replace("\x00", "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


# --------------------------------------------------------------------------- MIME walk

#: how many text attachments are read, and how large each may be
MAX_TEXT_ATTACHMENTS = 3
MAX_TEXT_ATTACHMENT_BYTES = 64_000


class _Walker:
    def __init__(self, problems: list[str], max_text: int):
        self.problems = problems
        self.parts = 0
        self.max_text = max_text
        self.budget = max(0, max_text) * 4 + 1024  # bytes of text parts we are willing to decode
        self.capped_parts = False
        self.capped_depth = False
        self.text_attachments: list[tuple[str, str]] = []

    def problem(self, text: str) -> None:
        if text and text not in self.problems:
            self.problems.append(text)

    @staticmethod
    def ctype(part: email.message.Message) -> tuple[str, dict[str, str]]:
        """(content type, lower-cased params); text/plain when missing or unreadable."""
        try:
            ctype = part.get_content_type()
        except Exception:
            ctype = "text/plain"
        params: dict[str, str] = {}
        try:
            for item in part.get_params(failobj=[], header="content-type")[1:]:
                k, v = item
                if isinstance(v, tuple):  # RFC 2231
                    v = email.utils.collapse_rfc2231_value(v)
                params[str(k).lower()] = str(v)
        except Exception:
            pass
        return ctype, params

    @staticmethod
    def is_attachment(part: email.message.Message) -> bool:
        try:
            disp = (part.get("content-disposition") or "").split(";")[0].strip().lower()
        except Exception:
            disp = ""
        if disp == "attachment":
            return True
        if disp == "inline":
            return False
        try:
            return bool(part.get_param("name", header="content-type") or part.get_param("filename", header="content-disposition"))
        except Exception:
            return False

    def leaf_text(self, part: email.message.Message, ctype: str, params: dict[str, str]) -> str:
        try:
            payload = part.get_payload(decode=True)
        except Exception:
            self.problem("a body part could not be decoded")
            payload = None
        if payload is None:
            raw = part.get_payload()
            if isinstance(raw, str):
                payload = raw.encode("utf-8", "surrogateescape")
            else:
                return ""
        if not isinstance(payload, bytes):
            return ""
        try:
            cte = str(part.get("content-transfer-encoding", "") or "").strip().lower()
        except Exception:
            cte = ""
        if cte and cte not in ("7bit", "8bit", "binary", "quoted-printable", "base64", "x-uuencode", "uuencode", "uue", "x-uue"):
            self.problem(f"unknown Content-Transfer-Encoding {cte[:40]!r}; the part was read as it stands")
        if len(payload) > self.budget:
            payload = payload[: self.budget]
            self.problem(f"the body was longer than {self.max_text} characters and was cut")
        self.budget -= len(payload)
        text, problem = decode_bytes(payload, params.get("charset"))
        if problem:
            self.problem(problem)
        text = _clean_text(text)
        if ctype == "text/html":
            if len(text) > MAX_HTML_CHARS:
                text = text[:MAX_HTML_CHARS]
                self.problem(f"the HTML body was longer than {MAX_HTML_CHARS} characters and was cut")
            return html_to_text(text)
        if params.get("format", "").strip().lower() == "flowed":
            text = unflow(text, delsp=params.get("delsp", "").strip().lower() == "yes")
        return text

    def keep_text_attachment(self, part: email.message.Message) -> None:
        """Read a small text/plain attachment (orders sent as a file); say why one was not read."""
        if part.is_multipart():
            return
        ctype, params = self.ctype(part)
        try:
            name = str(part.get_filename() or "")[:200]
        except Exception:
            name = ""
        if ctype != "text/plain" and not (ctype == "application/octet-stream" and name.lower().endswith(".txt")):
            return
        if len(self.text_attachments) >= MAX_TEXT_ATTACHMENTS:
            self.problem(f"only the first {MAX_TEXT_ATTACHMENTS} attached text files were read")
            return
        try:
            size = len(part.get_payload(decode=True) or b"")
        except Exception:
            self.problem(f"the attached file {name or '(unnamed)'} could not be decoded")
            return
        if size > MAX_TEXT_ATTACHMENT_BYTES:
            self.problem(f"the attached file {name or '(unnamed)'} is larger than {MAX_TEXT_ATTACHMENT_BYTES} bytes and was not read")
            return
        self.text_attachments.append((name or "(unnamed)", _clean_text(self.leaf_text(part, "text/plain", params))))

    def best(self, part: email.message.Message, depth: int) -> tuple[str, str]:
        """(text, kind) where kind is "plain", "html" or "" (nothing readable)."""
        self.parts += 1
        if self.parts > MAX_PARTS:
            if not self.capped_parts:
                self.capped_parts = True
                self.problem(f"the message has more than {MAX_PARTS} MIME parts; the rest were skipped")
            return "", ""
        if depth > MAX_DEPTH:
            if not self.capped_depth:
                self.capped_depth = True
                self.problem(f"MIME parts nested deeper than {MAX_DEPTH} levels were skipped")
            return "", ""
        ctype, params = self.ctype(part)
        maintype = ctype.split("/", 1)[0]
        if part.is_multipart():
            try:
                children = part.get_payload()
            except Exception:
                children = []
            if not isinstance(children, list):
                children = []
            children = [c for c in children if isinstance(c, email.message.Message)]
            if ctype == "message/rfc822" or maintype == "message":
                return "", ""  # a forwarded/enclosed message is not this message's text
            if ctype == "multipart/alternative":
                plain = html = ""
                for child in children:
                    if self.is_attachment(child):
                        continue
                    text, kind = self.best(child, depth + 1)
                    if kind == "plain" and text.strip() and not plain:
                        plain = text
                    elif kind == "html" and text.strip() and not html:
                        html = text
                if plain:
                    return plain, "plain"
                if html:
                    return html, "html"
                return "", ""
            if ctype in ("multipart/signed", "multipart/related"):
                # the signed content / the root part (the first one) carries the text
                for child in children:
                    if self.is_attachment(child):
                        continue
                    text, kind = self.best(child, depth + 1)
                    if kind:
                        return text, kind
                return "", ""
            if ctype == "multipart/encrypted":
                self.problem("the message is encrypted; it could not be read")
                return "", ""
            # multipart/mixed, multipart/report and anything unknown: inline text parts in order
            results: list[tuple[str, str]] = []
            for i, child in enumerate(children):
                if self.is_attachment(child) and not (i == 0 and ctype == "multipart/report"):
                    if ctype != "multipart/report":
                        self.keep_text_attachment(child)
                    continue
                cctype, _ = self.ctype(child)
                if cctype in ("message/delivery-status", "message/disposition-notification", "text/rfc822-headers"):
                    continue
                text, kind = self.best(child, depth + 1)
                if kind:
                    results.append((text, kind))
            plains = [t for t, k in results if k == "plain"]
            chosen = plains if plains else [t for t, k in results if k == "html"]
            if not chosen:
                return "", ""
            kind = "plain" if plains else "html"
            return "\n".join(t.strip("\n") for t in chosen), kind
        if ctype == "text/plain" or ctype == "text":
            return self.leaf_text(part, "text/plain", params), "plain"
        if ctype == "text/html":
            return self.leaf_text(part, "text/html", params), "html"
        return "", ""


# --------------------------------------------------------------------------- entry point

#: a Content-Type/-Disposition header (with its continuation lines) longer than this is cut before parsing
MAX_CONTENT_HEADER_BYTES = 4_000


def _tame_content_headers(raw: bytes) -> bytes:
    """Cut absurdly long Content-Type/Content-Disposition headers (anywhere in the message).

    The stdlib splits their parameters with a quadratic loop (``email.message._parseparam``),
    and the parser itself reads the boundary parameter, so 50 KB of ``;`` inside quotes
    would take seconds. No real header comes near :data:`MAX_CONTENT_HEADER_BYTES`.
    Linear: plain ``bytes.find`` over a lower-cased copy.
    """
    if len(raw) < MAX_CONTENT_HEADER_BYTES:
        return raw
    low = raw.lower()
    cuts: list[tuple[int, int]] = []
    for name in (b"content-type", b"content-disposition"):
        pos = low.find(name)
        while pos >= 0:
            if pos == 0 or low[pos - 1] == 0x0A:  # at the start of a line
                end = low.find(b"\n", pos)
                while end >= 0 and low[end + 1:end + 2] in (b" ", b"\t"):
                    end = low.find(b"\n", end + 1)
                end = len(low) if end < 0 else end
                if end - pos > MAX_CONTENT_HEADER_BYTES:
                    cuts.append((pos, end))
                pos = low.find(name, max(end, pos + 1))
            else:
                pos = low.find(name, pos + 1)
    if not cuts:
        return raw
    out: list[bytes] = []
    last = 0
    for start, end in sorted(cuts):
        if start < last:
            continue
        head = raw[start:start + MAX_CONTENT_HEADER_BYTES].replace(b"\r", b"").replace(b"\n", b" ")
        out += [raw[last:start], head, b"\r" if raw[end - 1:end] == b"\r" else b""]
        last = end
    out.append(raw[last:])
    return b"".join(out)


def parse_message(
    raw: bytes,
    *,
    envelope_from: str | None = None,
    envelope_to: Sequence[str] = (),
    max_text: int = MAX_TEXT_CHARS,
) -> Inbound:
    """Read ``raw`` (one RFC 5322 message). Never raises; see the module docstring.

    ``envelope_from`` is the SMTP MAIL FROM (``""`` or ``"<>"`` for a bounce; None
    when unknown); ``envelope_to`` the RCPT TO addresses.
    """
    problems: list[str] = []
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        try:
            raw = str(raw).encode("utf-8", "surrogateescape")
        except Exception:
            raw = b""
        problems.append("the message was not given as bytes")
    raw = bytes(raw)
    if isinstance(envelope_to, str):
        envelope_to = [envelope_to]
    inbound = Inbound(raw=raw, problems=problems)
    try:
        _parse_into(inbound, raw, envelope_from, envelope_to, max_text)
    except RecursionError:
        inbound.problems.append("the message is nested too deeply to read")
    except Exception as exc:  # never raise: report what broke
        inbound.problems.append(f"the message could not be read completely ({type(exc).__name__})")
    try:
        inbound.recipients = _recipients_fallback(inbound.recipients, envelope_to)
    except Exception:
        pass
    return inbound


def _recipients_fallback(current: list[str], envelope_to: Sequence[str]) -> list[str]:
    if current:
        return current
    out: list[str] = []
    for a in envelope_to or ():
        n = normalise_address(a) if isinstance(a, str) else None
        if n and n not in out:
            out.append(n)
    return out


def _parse_into(
    inbound: Inbound,
    raw: bytes,
    envelope_from: str | None,
    envelope_to: Sequence[str],
    max_text: int,
) -> None:
    problems = inbound.problems
    if len(raw) > MAX_RAW_BYTES:
        problems.append(f"the message was larger than {MAX_RAW_BYTES} bytes; only the start was read")
        raw = raw[:MAX_RAW_BYTES]
    raw = _tame_content_headers(raw)
    headers_only = False
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    except Exception as exc:  # RecursionError on thousands of nested multiparts, or a parser bug
        msg = email.parser.BytesParser(policy=email.policy.compat32).parsebytes(raw, headersonly=True)
        headers_only = True
        why = "it is nested too deeply" if isinstance(exc, RecursionError) else f"{type(exc).__name__}"
        problems.append(f"the body of the message could not be read ({why}); only its headers were")
    headers = _Headers(msg, problems)

    # --- headers
    inbound.message_id = _first_msg_id(headers.get("message-id"))
    from_lines = headers.get_all("from")
    # No From at all (some scripts): the Sender says who sent it. A From that is there but
    # cannot be read never falls back to another header, which is as easy to forge.
    author = _author(from_lines or headers.get_all("sender"), problems)
    if author:
        inbound.from_name, inbound.from_addr = author[0].strip() or None, author[1]
    reply_to = _decode_addresses("reply-to", headers.get_all("reply-to")[:1])
    inbound.reply_to = next((a for _, a in reply_to if a), None)
    recipients: list[str] = []
    for a in envelope_to or ():
        n = normalise_address(a) if isinstance(a, str) else None
        if n and n not in recipients:
            recipients.append(n)
    for hname in ("to", "cc", "delivered-to", "x-original-to"):
        for _, a in _decode_addresses(hname, headers.get_all(hname)):
            if a and a not in recipients:
                recipients.append(a)
    inbound.recipients = recipients
    subject = headers.get("subject")
    inbound.subject = _decode_unstructured("subject", subject) if subject else ""
    inbound.date = _parse_date(headers.get("date"))
    inbound.in_reply_to = _first_msg_id(headers.get("in-reply-to"))
    refs: list[str] = []
    for value in headers.get_all("references"):
        refs.extend(_msg_ids(value))
    inbound.references = refs[:200]

    # --- body
    walker = _Walker(problems, max_text)
    try:
        text, kind = ("", "") if headers_only else walker.best(msg, 0)
    except RecursionError:
        text, kind = "", ""
        walker.problem("the message is nested too deeply to read")
    if msg.defects:
        names = {type(d).__name__ for d in msg.defects}
        if names & {"CloseBoundaryNotFoundDefect", "StartBoundaryNotFoundDefect", "MultipartInvariantViolationDefect"}:
            walker.problem("the MIME structure is broken (a boundary is missing); the text may be incomplete")
    text = _clean_text(text).strip("\n")
    if len(text) > max_text:
        text = text[: max(0, max_text)]
        walker.problem(f"the body was longer than {max_text} characters and was cut")
    inbound.text = text
    inbound.text_from_html = kind == "html"
    inbound.text_attachments = walker.text_attachments

    # --- automatic?
    try:
        ctype, params = _Walker.ctype(msg)
    except Exception:
        ctype, params = "text/plain", {}
    inbound.automatic = automatic_reason(
        headers.items,
        subject=inbound.subject,
        envelope_from=envelope_from,
        from_addr=inbound.from_addr,
        content_type=ctype,
        report_type=params.get("report-type", "").strip().lower(),
    )
