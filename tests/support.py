"""Shared test helpers: free ports, an SMTP sink on loopback, mail utilities, the real-mail corpus."""

from __future__ import annotations

import email
import json
import os
import socket
import threading
import time
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parents[1]

#: The real-mail corpus, read in place and never copied into the project: ../shared/fixtures/emails
#: beside the repository, or the folder PBEM_MAIL_CORPUS names.
MAIL_CORPUS = Path(os.environ.get("PBEM_MAIL_CORPUS") or ROOT.parent / "shared" / "fixtures" / "emails").resolve()
#: The reason every corpus test skips with when it is absent (the test summary counts them by it).
CORPUS_ABSENT = "the real-mail corpus is absent"
#: Marks a test that reads the corpus: skipped, and counted in the summary, when it is absent.
needs_corpus = pytest.mark.skipif(not MAIL_CORPUS.is_dir(), reason=f"{CORPUS_ABSENT} ({MAIL_CORPUS})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SinkHandler:
    def __init__(self):
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.lock = threading.Condition()
        self.refuse = False

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse:
            return "421 4.3.2 sink switched off"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return "451 4.3.2 sink switched off"
        msg = email.message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
        with self.lock:
            self.messages.append(msg)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self.lock.notify_all()
        return "250 OK"


class SmtpSink:
    """A real SMTP server on loopback that keeps what it receives."""

    def __init__(self):
        self.port = free_port()
        self.handler = SinkHandler()
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    @property
    def messages(self) -> list[EmailMessage]:
        with self.handler.lock:
            return list(self.handler.messages)

    def wait_for(self, predicate, timeout: float = 15.0, count: int = 1) -> list[EmailMessage]:
        """Wait until ``count`` received messages satisfy ``predicate``; return them."""
        deadline = time.monotonic() + timeout
        with self.handler.lock:
            while True:
                found = [m for m in self.handler.messages if predicate(m)]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    kinds = [(m["To"], m["X-PBEM-Kind"], m["Subject"]) for m in self.handler.messages]
                    raise AssertionError(f"timed out waiting for {count} message(s); have {len(found)}; all: {kinds}")
                self.handler.lock.wait(left)


def to(addr: str, kind: str | None = None):
    def pred(m):
        return addr.lower() in (m["To"] or "").lower() and (kind is None or m["X-PBEM-Kind"] == kind)
    return pred


def attachment_json(msg: EmailMessage) -> dict | None:
    for part in msg.iter_attachments():
        if part.get_content_type() == "application/json":
            body = part.get_content()
            return json.loads(body if isinstance(body, str) else body.decode("utf-8"))
    return None


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()


def mail(from_addr: str, to_addr: str, body: str, subject: str = "orders", **headers) -> bytes:
    m = EmailMessage()
    m["From"] = from_addr
    m["To"] = to_addr
    m["Subject"] = subject
    m["Message-ID"] = email.utils.make_msgid(domain="players.example")
    for k, v in headers.items():
        m[k.replace("_", "-")] = v
    m.set_content(body)
    return m.as_bytes()
