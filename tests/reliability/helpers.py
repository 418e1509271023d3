"""Helpers for the fault tests: a relay sink that keeps raw bytes and can fail
in three ways, SMTP client helpers, and outbox/inbound queries."""

from __future__ import annotations

import email
import re
import smtplib
import socket
import threading
import time
from email import policy

from aiosmtpd.controller import Controller

from tests.support import free_port

US, IND = "custer@players.example", "bull@players.example"


class RelayHandler:
    """The outside world's SMTP relay. ``mode``: 'up', 'refuse' (4xx at RCPT),
    'refuse-data' (4xx after DATA), 'reject' (5xx at RCPT)."""

    def __init__(self):
        self.lock = threading.Condition()
        self.mode = "up"
        self.received: list[dict] = []  # {raw, msg, mail_from, rcpt, message_id, to}
        self.attempts = 0
        self.on_message = None  # callback(record), called outside the lock

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        with self.lock:
            self.attempts += 1
            mode = self.mode
        if mode == "refuse":
            return "450 4.2.0 mailbox busy, try again later"
        if mode == "reject":
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            mode = self.mode
        if mode == "refuse-data":
            return "451 4.3.0 local problem, try again later"
        raw = envelope.original_content or envelope.content
        msg = email.message_from_bytes(raw, policy=policy.default)
        rec = {"raw": raw, "msg": msg, "mail_from": envelope.mail_from, "rcpt": list(envelope.rcpt_tos),
               "message_id": (msg["Message-ID"] or "").strip(), "to": (msg["To"] or "").strip().lower(),
               "kind": msg["X-PBEM-Kind"], "at": time.monotonic()}
        with self.lock:
            self.received.append(rec)
            self.lock.notify_all()
        if self.on_message is not None:
            self.on_message(rec)
        return "250 OK"


class Relay:
    """A loopback SMTP relay that can be switched off (connection refused),
    made to drop connections (accepts and hangs up at once) or to refuse mail."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.handler = RelayHandler()
        self.controller: Controller | None = None
        self._dropper: socket.socket | None = None
        self._dropper_thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> "Relay":
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port, ready_timeout=10)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        self.stop_dropping()

    def drop_connections(self) -> None:
        """Stop the SMTP server and listen with a socket that closes every connection at once."""
        self.stop()
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(16)
        s.settimeout(0.1)
        self._dropper = s
        stop = threading.Event()
        self._drop_stop = stop

        def run():
            while not stop.is_set():
                try:
                    conn, _ = s.accept()
                except (socket.timeout, OSError):
                    continue
                conn.close()
        self._dropper_thread = threading.Thread(target=run, daemon=True)
        self._dropper_thread.start()

    def stop_dropping(self) -> None:
        if self._dropper is not None:
            self._drop_stop.set()
            self._dropper_thread.join(timeout=5)
            self._dropper.close()
            self._dropper = None

    def set_mode(self, mode: str) -> None:
        with self.handler.lock:
            self.handler.mode = mode

    @property
    def received(self) -> list[dict]:
        with self.handler.lock:
            return list(self.handler.received)

    def wait_for(self, predicate, count: int = 1, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self.handler.lock:
            while True:
                found = [r for r in self.handler.received if predicate(r)]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {count} message(s), have {len(found)}: "
                                         f"{[(r['to'], r['kind']) for r in self.handler.received]}")
                self.handler.lock.wait(min(left, 0.5))


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


def wait_until(predicate, timeout: float = 20.0, interval: float = 0.05, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)


def outbox_rows(store, **where) -> list[dict]:
    rows = store.all("SELECT * FROM outbox ORDER BY id")
    return [r for r in rows if all(r.get(k) == v for k, v in where.items())]


def parse(raw: bytes):
    return email.message_from_bytes(raw, policy=policy.default)


def all_text(raw: bytes) -> str:
    """Every header and every MIME part but pictures, decoded, as one string
    (base64 and quoted-printable undone; JSON attachments included)."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    out = []
    for part in msg.walk():
        for k, v in part.items():
            out.append(f"{k}: {v}")
        if part.is_multipart() or part.get_content_maintype() == "image":
            continue
        payload = part.get_payload(decode=True) or b""
        charset = part.get_content_charset() or "utf-8"
        try:
            out.append(payload.decode(charset, "replace"))
        except LookupError:
            out.append(payload.decode("utf-8", "replace"))
    return "\n".join(out)
