"""Helpers for the fault tests: SMTP client helpers, outbox queries, reading raw mail.
(The relay they send to is tests.support.SmtpSink; waiting is tests.support.wait_until.)"""

from __future__ import annotations

import email
import gzip
import re
import smtplib
from email import policy

from tests.core.helpers import IND, US, outbox_rows  # noqa: F401 - shared with the core tests, re-exported


def crlf(raw: bytes) -> bytes:
    """Line ends as an MTA sends them on the wire (smtplib sends bytes as they are)."""
    return re.sub(rb"\r?\n|\r", b"\r\n", raw)


def smtp_send(host: str, port: int, raw: bytes, mail_from: str, rcpt: list[str] | str, timeout: float = 20.0) -> dict:
    """Send one message; returns what smtplib returns (refused recipients), raises on refusal."""
    if isinstance(rcpt, str):
        rcpt = [rcpt]
    with smtplib.SMTP(host, port, timeout=timeout) as smtp:
        return smtp.sendmail(mail_from, rcpt, crlf(raw))


def smtp_data_reply(host: str, port: int, raw: bytes, mail_from: str, rcpt: str, *, declare_size: bool = False,
                    timeout: float = 20.0) -> tuple[int, str]:
    """Walk the SMTP dialogue by hand and return the final reply (code, text) without raising,
    so a test can look at a 4xx/5xx as the sender's MTA would."""
    with smtplib.SMTP(host, port, timeout=timeout) as smtp:
        smtp.ehlo()
        opts = [f"SIZE={len(raw)}"] if declare_size and smtp.has_extn("size") else []
        code, resp = smtp.mail(mail_from, opts)
        if code != 250:
            return code, resp.decode("utf-8", "replace")
        code, resp = smtp.rcpt(rcpt)
        if code not in (250, 251):
            return code, resp.decode("utf-8", "replace")
        try:
            code, resp = smtp.data(crlf(raw))
        except smtplib.SMTPDataError as exc:
            return exc.smtp_code, exc.smtp_error.decode("utf-8", "replace")
        return code, resp.decode("utf-8", "replace")


def parse(raw: bytes):
    return email.message_from_bytes(raw, policy=policy.default)


def all_text(raw: bytes) -> str:
    """Every header and every MIME part but pictures, decoded, as one string
    (base64 and quoted-printable undone; JSON attachments included, gzipped ones unpacked)."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    out = []
    for part in msg.walk():
        for k, v in part.items():
            out.append(f"{k}: {v}")
        if part.is_multipart() or part.get_content_maintype() == "image":
            continue
        payload = part.get_payload(decode=True) or b""
        if part.get_content_type() == "application/gzip":  # a report's JSON is attached gzipped
            payload = gzip.decompress(payload)
        charset = part.get_content_charset() or "utf-8"
        try:
            out.append(payload.decode(charset, "replace"))
        except LookupError:
            out.append(payload.decode("utf-8", "replace"))
    return "\n".join(out)
