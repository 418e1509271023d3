"""Read a report on a mail we sent: a delivery status notification (RFC 3464), or one of the
many bounces written in prose (qmail, old Exim, Gmail's and Microsoft's own words), told
apart from what only looks like one: automatic replies (RFC 3834), read receipts, abuse
feedback reports (RFC 5965) and ordinary mail.

:func:`read_report` never raises. What it gives (:class:`Report`): the kind of mail, and for
a bounce each recipient's action, status code and the remote server's words, and whether the
failure is permanent (a hard bounce: 5.x.x, or the words of one) or temporary (4.x.x,
delayed, mailbox full: the sending relay retries). Pure: no network, no store, no clock.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass, field
from email.message import Message

from pbem.mail.addresses import normalise_address
from pbem.mail.inbound import decode_bytes

__all__ = ["BOUNCE", "FEEDBACK", "AUTO_REPLY", "OTHER", "Recipient", "Report", "read_report"]

BOUNCE, FEEDBACK, AUTO_REPLY, OTHER = "bounce", "feedback", "auto-reply", "other"

MAX_BYTES = 2_000_000  # a report and what it quotes; beyond, only the start is read
MAX_PARTS = 64

_STATUS = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
_SMTP_REPLY = re.compile(r"(?<![\d.#-])([45])([0-5])(\d)(?:[ -]|$)(?![\d.])", re.MULTILINE)
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")

#: where a prose bounce stops describing the failure and starts quoting the mail sent
_ORIGINAL_FOLLOWS = re.compile(
    r"^\s*(?:-{2,}.*(?:original message|copy of the message|below this line|returned message|undelivered message|"
    r"message headers follow|header of the original|original mail|unsent message|rfc822)|"
    r"-{3,}\s*(?:the\s+)?original message.*|original message follows.*|.*unsent message below.*|"
    r".*message that (?:we|i) (?:could not|cannot) deliver.*:\s*$|received: from .*|return-path: .*)$",
    re.IGNORECASE | re.MULTILINE)

_DAEMON = re.compile(r"^(?:mailer[-_]?daemon|post[-_]?master|mail[-_]?delivery[-_]?(?:system|subsystem)?|mdaemon|"
                     r"bounces?|nobody|root|mail|smtp|mta|mailadmin|no-?reply|noreply-dmarc-support)$", re.IGNORECASE)
_DAEMON_NAME = re.compile(r"mail delivery|mailer.daemon|postmaster|delivery subsystem|mail system|"
                          r"microsoft outlook|mail administrator", re.IGNORECASE)
_BOUNCE_SUBJECT = re.compile(
    r"undeliver|undelivered|not delivered|delivery (?:status )?notification|delivery (?:failure|failed|problem|report)|"
    r"mail delivery (?:failed|failure|problem)|returned mail|return(?:ed|ing) (?:message )?to sender|failure notice|"
    r"non[- ]?delivery|delivery status|could not (?:be )?deliver|mail system error|rejected|bounce|"
    r"warning: (?:could not|message)|delayed mail|delivery delayed|message delayed|nondeliverable|unzustellbar|"
    r"non remis|non distribu|unable to deliver|mail could not|delivery has failed|failed delivery|"
    r"permanent (?:error|failure)|message (?:not|could not be) delivered|notificaci[oó]n de estado|"
    r"error sending message|has been quarantined|mail failure|message you sent|"
    r"\bdsn\b|errors? (?:in|during) delivery",
    re.IGNORECASE)
_BOUNCE_WORDS = re.compile(
    r"could not be delivered|couldn'?t be delivered|was not delivered|did not reach|error delivering|wasn'?t delivered|undeliverable|"
    r"delivery (?:to the following|has failed|failed|status notification)|failed permanently|permanent (?:error|failure)|"
    r"(?:user|recipient|mailbox|address) (?:unknown|not found|does not exist|doesn'?t exist|unavailable|disabled|is full)|"
    r"no such (?:user|mailbox|recipient|address)|unable to deliver|not able to deliver|wasn'?t able to deliver|"
    r"delivery to .{1,200} failed|rejected (?:by|your message)|message (?:was )?rejected|returned to sender|"
    r"mail delivery (?:failed|software)|has not been delivered|could not deliver|delivery is delayed|"
    r"will (?:continue|keep) (?:trying|retrying)|retry (?:timeout|time not reached)|"
    r"smtp error|remote (?:host|server) said|host .{0,120} said:|said: 5\d\d|said: 4\d\d|"
    r"the following (?:address(?:es)?|recipients?) (?:failed|had permanent|had delivery)|"
    r"delivery has been delayed|not yet been delivered|mailbox (?:full|quota)|over quota|quota exceeded|"
    r"transcript of (?:the )?session follows",
    re.IGNORECASE)
_PERMANENT_WORDS = re.compile(
    r"permanent(?:ly)? (?:error|failure|fatal|failed)|failed permanently|this is a permanent error|"
    r"(?:user|recipient|mailbox|address|account) (?:unknown|not found|does not exist|doesn'?t exist|disabled|"
    r"has been disabled|is (?:disabled|inactive|not available|unavailable))|no such (?:user|mailbox|recipient|address|domain)|"
    r"unknown (?:user|recipient|address|mailbox)|user doesn'?t have|invalid (?:recipient|address|mailbox)|"
    r"host (?:or domain name )?not found|domain (?:does not exist|not found)|i've given up|gave up|giving up|"
    r"not (?:a )?valid (?:recipient|mailbox)|address rejected|recipient rejected|relay(?:ing)? denied|"
    r"message (?:was )?(?:rejected|refused|blocked)|rejected (?:by|your message|for policy)|access denied|"
    r"delivery (?:has )?failed|could not be delivered|couldn'?t be delivered|undeliverable|blocked|spam",
    re.IGNORECASE)
_TEMPORARY_WORDS = re.compile(
    r"delayed|delay|not yet been delivered|will (?:continue|keep) (?:trying|retrying)|will retry|still trying|"
    r"temporar(?:y|ily)|try again later|retry (?:time|timeout)|deferred|greylist|"
    r"mailbox (?:is )?full|mailbox quota|over quota|quota exceeded|insufficient (?:disk )?space|"
    r"exceeded (?:the|its|storage) ",
    re.IGNORECASE)
_AUTO_REPLY_SUBJECT = re.compile(
    r"^\s*(?:(?:re|aw|sv|fw|fwd)\s*:\s*)*(?:auto(?:matic)?[\s:-]*(?:reply|response|antwort)|autoreply|auto\s*:|"
    r"out of (?:the )?office|away(?: from| until| on)?\b|vacation|absence|abwesen|r[ée]ponse automatique|"
    r"on leave|i am (?:out|away)|respuesta autom)", re.IGNORECASE)


@dataclass
class Recipient:
    """One recipient's part of a report."""
    address: str | None  # the address we sent to (Original-Recipient when given, else Final-Recipient)
    action: str = ""  # failed | delayed | delivered | relayed | expanded ("" when not said)
    status: str | None = None  # e.g. "5.1.1"
    diagnostic: str = ""  # the remote server's words (Diagnostic-Code, or the prose around the address)
    final_recipient: str | None = None

    @property
    def permanent(self) -> bool:
        """A hard bounce: the mail failed for good and another try would fail too."""
        if self.action in ("delivered", "relayed", "expanded", "delayed"):
            return False
        if self.status:
            return self.status.startswith("5")
        if _TEMPORARY_WORDS.search(self.diagnostic):
            return False
        code = _SMTP_REPLY.search(self.diagnostic)
        if code:
            return code.group(1) == "5"
        return self.action == "failed" or bool(_PERMANENT_WORDS.search(self.diagnostic))

    @property
    def failed(self) -> bool:
        """Not delivered (for now or for good): a failure, a delay."""
        return self.action not in ("delivered", "relayed", "expanded")


@dataclass
class Report:
    kind: str  # BOUNCE, FEEDBACK, AUTO_REPLY or OTHER
    recipients: list[Recipient] = field(default_factory=list)
    reporter: str | None = None  # Reporting-MTA, else the From of the report
    original_message_id: str | None = None
    structured: bool = False  # it had an RFC 3464 delivery-status part

    @property
    def permanent(self) -> bool:
        """A hard bounce: some recipient failed for good."""
        return self.kind == BOUNCE and any(r.permanent for r in self.recipients if r.failed)

    @property
    def first_failure(self) -> Recipient | None:
        failed = [r for r in self.recipients if r.failed]
        return next((r for r in failed if r.permanent), failed[0] if failed else None)


def read_report(raw: bytes) -> Report:
    """What ``raw`` reports. Never raises: unreadable mail is :data:`OTHER`."""
    try:
        msg = email.message_from_bytes(bytes(raw[:MAX_BYTES]), policy=email.policy.compat32)
        return _read(msg)
    except Exception:  # noqa: BLE001 - hostile input: never raise, and never take it for a bounce
        return Report(kind=OTHER)


def _parts(msg: Message) -> list[Message]:
    out: list[Message] = []
    stack = [msg]
    while stack and len(out) < MAX_PARTS:
        part = stack.pop(0)
        out.append(part)
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list):
            stack.extend(p for p in payload if p.get_content_type() != "message/rfc822" or part is msg)
    return out


def _header(msg: Message, name: str) -> str:
    value = msg.get(name, "")
    try:
        return " ".join(str(email.header.make_header(email.header.decode_header(str(value)))).split())
    except Exception:  # noqa: BLE001
        return " ".join(str(value).split())


def _read(msg: Message) -> Report:
    ctype = msg.get_content_type()
    report_type = (msg.get_param("report-type") or "").lower() if ctype == "multipart/report" else ""
    parts = _parts(msg)
    types = {p.get_content_type() for p in parts}
    if report_type == "feedback-report" or "message/feedback-report" in types:
        return Report(kind=FEEDBACK)
    if report_type == "disposition-notification" or "message/disposition-notification" in types:
        return Report(kind=AUTO_REPLY)  # a read receipt
    reporter = _from_address(msg)
    for part in parts:
        if part.get_content_type() in ("message/delivery-status", "message/global-delivery-status") or (
                report_type == "delivery-status" and part.get_content_type() == "text/plain" and _looks_like_dsn_fields(part)):
            report = _structured(part, reporter)
            if report.recipients:
                report.original_message_id = _original_message_id(parts, msg)
                _fill_from_prose(report, _notification_text(msg, parts))
                return report
    text = _notification_text(msg, parts)
    if msg.get_content_maintype() == "multipart" and not msg.is_multipart():
        # a multipart whose boundary never comes (mangled on the way): its body read as text
        text = _part_text_raw(msg)
        report = _structured_text(text, reporter)
        if report.recipients:
            report.original_message_id = _original_message_id(parts, msg)
            _fill_from_prose(report, text)
            return report
        cut = _ORIGINAL_FOLLOWS.search(text, 40)
        text = text[:cut.start()] if cut else text
    if _is_ses_notification(msg):
        return _ses_notification(_part_text(msg), reporter)
    if _is_complaint(msg, parts):
        return Report(kind=FEEDBACK)
    if not _is_prose_bounce(msg, text, report_type):
        return Report(kind=AUTO_REPLY if _is_auto_reply(msg) else OTHER)
    report = Report(kind=BOUNCE, reporter=reporter, original_message_id=_original_message_id(parts, msg))
    report.recipients = _prose_recipients(msg, text)
    return report


# -- RFC 3464 --------------------------------------------------------------------------------------

def _dsn_payload(part: Message) -> str:
    payload = part.get_payload()
    if isinstance(payload, list):  # the email package parses message/delivery-status into header blocks
        return "\n\n".join("\n".join(f"{k}: {v}" for k, v in block.items()) for block in payload)
    data = part.get_payload(decode=True) or b""
    return decode_bytes(data, part.get_content_charset())[0]


def _looks_like_dsn_fields(part: Message) -> bool:
    text = _dsn_payload(part)
    return bool(re.search(r"^(?:final-recipient|original-recipient)\s*:", text, re.IGNORECASE | re.MULTILINE)) and bool(
        re.search(r"^(?:action|status)\s*:", text, re.IGNORECASE | re.MULTILINE))


def _fields(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    name = None
    for line in block.splitlines():
        if line[:1] in (" ", "\t") and name:
            out[name] += " " + line.strip()
            continue
        key, colon, value = line.partition(":")
        if colon and re.fullmatch(r"[A-Za-z0-9-]{1,60}", key.strip()):
            name = key.strip().lower()
            out.setdefault(name, value.strip())
        else:
            name = None
    return out


def _typed_address(value: str) -> str | None:
    """``rfc822; bob@example.org`` -> ``bob@example.org``."""
    value = value.partition(";")[2] if ";" in value else value
    value = value.strip().strip("<>").strip()
    return normalise_address(value) or (value.lower() if "@" in value else None)


def _structured(part: Message, reporter: str | None) -> Report:
    return _structured_text(_dsn_payload(part), reporter)


def _structured_text(text: str, reporter: str | None) -> Report:
    text = text.replace("\r\n", "\n")
    blocks = [b for b in re.split(r"\n\s*\n", text) if b.strip()]
    report = Report(kind=BOUNCE, reporter=reporter, structured=True)
    for block in blocks:
        fields = _fields(block)
        if "reporting-mta" in fields:
            report.reporter = fields["reporting-mta"].partition(";")[2].strip() or fields["reporting-mta"]
        if not ({"final-recipient", "original-recipient"} & fields.keys()) or not ({"action", "status"} & fields.keys()):
            continue
        final = _typed_address(fields.get("final-recipient", ""))
        original = _typed_address(fields.get("original-recipient", "")) or _typed_address(fields.get("x-actual-recipient", ""))
        status = _STATUS.search(fields.get("status", ""))
        diagnostic = fields.get("diagnostic-code", "")
        diagnostic = diagnostic.partition(";")[2].strip() if ";" in diagnostic[:20] else diagnostic
        if not status:  # some put the code only in the diagnostic
            status = _STATUS.search(diagnostic)
        report.recipients.append(Recipient(
            address=original or final, final_recipient=final, action=fields.get("action", "").split()[0].lower() if fields.get("action") else "",
            status=".".join(status.groups()) if status else None, diagnostic=diagnostic[:1000]))
    return report


def _fill_from_prose(report: Report, text: str) -> None:
    """A delivery-status part without a diagnostic or a code: the notification's words fill them."""
    for r in report.recipients:
        if not r.diagnostic:
            r.diagnostic = _words_about(text, r.address)
        if r.status is None and r.action == "failed":
            status = _STATUS.search(r.diagnostic)
            if status:
                r.status = ".".join(status.groups())


# -- prose bounces -----------------------------------------------------------------------------------

def _from_address(msg: Message) -> str | None:
    pairs = email.utils.getaddresses([str(msg.get("from", ""))])
    return normalise_address(pairs[0][1]) if pairs and pairs[0][1] else None


def _part_text_raw(part: Message) -> str:
    payload = part.get_payload()
    if isinstance(payload, str):
        return payload.encode("latin-1", "replace").decode("utf-8", "replace").replace("\r\n", "\n")[:200_000]
    return ""


def _is_ses_notification(msg: Message) -> bool:
    return "amazonses.com" in str(msg.get("return-path", "")) + str(msg.get("message-id", "")) and \
        not msg.is_multipart() and "notificationType" in _part_text(msg)


def _ses_notification(text: str, reporter: str | None) -> Report:
    """Amazon SES's notifications, mailed as JSON (often wrapped, so read by pattern): a bounce,
    a complaint, or a delivery."""
    text = text.replace("\n", "")
    kind = re.search(r'"notificationType"\s*:\s*"(\w+)"', text)
    if kind and kind.group(1) == "Complaint":
        return Report(kind=FEEDBACK)
    if not kind or kind.group(1) != "Bounce":
        return Report(kind=OTHER)  # a Delivery: the mail arrived
    permanent = bool(re.search(r'"bounceType"\s*:\s*"Permanent"', text))
    report = Report(kind=BOUNCE, reporter=reporter, structured=True)
    for m in re.finditer(r'\{"emailAddress"\s*:\s*"([^"]+)"([^}]*)\}', text):
        status = _STATUS.search(m.group(2))
        diagnostic = re.search(r'"diagnosticCode"\s*:\s*"([^"]*)"', m.group(2))
        report.recipients.append(Recipient(address=normalise_address(m.group(1)), action="failed",
                                           status=".".join(status.groups()) if status else ("5.0.0" if permanent else "4.0.0"),
                                           diagnostic=diagnostic.group(1)[:1000] if diagnostic else ""))
    return report


def _is_complaint(msg: Message, parts: list[Message]) -> bool:
    """An abuse complaint without an RFC 5965 part (Hotmail's older form): the mail complained of, attached."""
    subject = _header(msg, "subject")
    return bool(re.search(r"\b(?:complaint|abuse report|spam report)\b", subject, re.IGNORECASE)) and any(
        p.get_content_type() == "message/rfc822" for p in parts[1:])


def _part_text(part: Message) -> str:
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return ""
    text = decode_bytes(data, part.get_content_charset())[0]
    if part.get_content_type() == "text/html":
        text = re.sub(r"<(?:br|p|div|tr|li)[^>]*>", "\n", text, flags=re.IGNORECASE)
        text = re.sub(r"<[^>]+>", " ", text)
        text = re.sub(r"&(?:nbsp|#160);", " ", text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return text.replace("\r\n", "\n")


def _notification_text(msg: Message, parts: list[Message]) -> str:
    """The report's own words: its first text parts, cut where the quoted original begins."""
    texts = []
    for part in parts:
        if part.get_content_maintype() == "multipart" and not part.is_multipart() and part is not msg:
            texts.append(_part_text_raw(part))  # its boundary never comes: read as text
        elif part.get_content_maintype() == "text" and part.get_content_type() in ("text/plain", "text/html") and \
                (part.get_content_disposition() != "attachment"):
            if part.get_content_type() == "text/html" and texts:
                continue  # the plain text said it already
            texts.append(_part_text(part))
        if len(texts) >= 2:
            break
    text = "\n".join(texts)[:200_000]
    cut = _ORIGINAL_FOLLOWS.search(text, 40)
    return text[:cut.start()] if cut else text


def _is_null_sender(msg: Message) -> bool:
    return any(str(v).strip().replace(" ", "") in ("<>", "") for v in msg.get_all("return-path", []))


def _from_daemon(msg: Message) -> bool:
    pairs = email.utils.getaddresses([str(msg.get("from", ""))])
    if not pairs:
        return False
    name, address = pairs[0]
    return bool(_DAEMON.match(address.partition("@")[0])) or bool(_DAEMON_NAME.search(name or ""))


def _is_auto_reply(msg: Message) -> bool:
    auto = str(msg.get("auto-submitted", "")).strip().lower()
    if auto and not auto.startswith("no"):
        return True
    if any(k.lower().startswith(("x-autoreply", "x-autorespond", "x-mail-autoreply", "x-autogenerated")) for k in msg.keys()):
        return True
    if str(msg.get("precedence", "")).strip().lower() in ("auto_reply", "auto-reply"):
        return True
    return bool(_AUTO_REPLY_SUBJECT.match(_header(msg, "subject")))


def _is_prose_bounce(msg: Message, text: str, report_type: str) -> bool:
    """A bounce without a machine-readable part: said by who sent it and by its words. An
    automatic reply (a vacation message, even from a null sender) is never one."""
    subject = _header(msg, "subject")
    if _AUTO_REPLY_SUBJECT.match(subject) and not _BOUNCE_SUBJECT.search(subject):
        return False
    if msg.get("x-failed-recipients"):
        return True
    words = bool(_BOUNCE_WORDS.search(text)) or bool(_STATUS.search(text) and _SMTP_REPLY.search(text))
    sender = _is_null_sender(msg) or _from_daemon(msg)
    if report_type == "delivery-status":
        return True
    if sender and (words or _BOUNCE_SUBJECT.search(subject)):
        return True
    return bool(_BOUNCE_SUBJECT.search(subject)) and words


def _words_about(text: str, address: str | None) -> str:
    """The lines of the notification that speak of ``address`` (or of the failure), trimmed."""
    lines = [ln.strip() for ln in text.splitlines()]
    start = None
    if address:
        start = next((i for i, ln in enumerate(lines) if address in ln.lower()), None)
    if start is None:
        start = next((i for i, ln in enumerate(lines) if _STATUS.search(ln) or _SMTP_REPLY.search(ln)), None)
    if start is None:
        start = next((i for i, ln in enumerate(lines) if _BOUNCE_WORDS.search(ln)), 0)
    chunk = " ".join(ln for ln in lines[start:start + 6] if ln)
    return chunk[:1000]


def _prose_recipients(msg: Message, text: str) -> list[Recipient]:
    own = {a for a in (_from_address(msg),) if a}
    for name in ("to", "cc", "delivered-to"):
        own.update(normalise_address(a) or "" for _, a in email.utils.getaddresses([str(v) for v in msg.get_all(name, [])]))
    failed = [normalise_address(a) for a in re.split(r"[,\s]+", str(msg.get("x-failed-recipients", ""))) if "@" in a]
    if not failed:
        found = (normalise_address(m.group(0).strip(".")) for m in _ADDRESS.finditer(text))
        failed = [a for a in found if a and a not in own]
    seen: list[str] = []
    for a in failed:
        if a and a not in seen:
            seen.append(a)
    words = text if len(text) < 4000 else text[:4000]
    action = "delayed" if _is_delay_notice(msg, words) else "failed"
    if not seen:
        return [_recipient_from_prose(None, words, action)]
    return [_recipient_from_prose(a, words, action) for a in seen[:20]]


def _is_delay_notice(msg: Message, text: str) -> bool:
    subject = _header(msg, "subject")
    return bool(re.search(r"delay|warning|still (?:being )?(?:tried|trying)|not yet been delivered", subject, re.IGNORECASE)) or bool(
        re.search(r"will (?:continue|keep) (?:trying|retrying)|no action is required|still trying|has not yet been delivered|"
                  r"will retry|delivery is delayed", text, re.IGNORECASE))


def _recipient_from_prose(address: str | None, text: str, action: str) -> Recipient:
    about = _words_about(text, address)
    status = _STATUS.search(about) or _STATUS.search(text)
    if status is None:
        reply = _SMTP_REPLY.search(about)
        code = f"{reply.group(1)}.0.0" if reply else None
    else:
        code = ".".join(status.groups())
    if code is None:
        permanent = not _TEMPORARY_WORDS.search(about) and bool(_PERMANENT_WORDS.search(text) or _PERMANENT_WORDS.search(about))
        if action == "failed" and _TEMPORARY_WORDS.search(about):
            code = "4.0.0"
        elif action == "failed" and permanent:
            code = "5.0.0"
    return Recipient(address=address, action=action, status=code, diagnostic=about)


def _original_message_id(parts: list[Message], msg: Message) -> str | None:
    """The Message-ID of the mail that came back, from the quoted copy or its headers."""
    for part in parts:
        if part.get_content_type() in ("message/rfc822", "text/rfc822-headers", "message/rfc822-headers"):
            payload = part.get_payload()
            inner = payload[0] if isinstance(payload, list) and payload else None
            if isinstance(inner, Message) and inner.get("message-id"):
                return str(inner["message-id"]).strip()
            text = _part_text(part) if not isinstance(payload, list) else ""
            m = re.search(r"^message-id:\s*(<[^>\s]+>)", text, re.IGNORECASE | re.MULTILINE)
            if m:
                return m.group(1)
    body = msg.get_payload(decode=True)
    if isinstance(body, bytes):
        m = re.search(rb"^message-id:\s*(<[^>\s]+>)", body, re.IGNORECASE | re.MULTILINE)
        if m:
            return m.group(1).decode("ascii", "replace")
    return None
