"""Shared test helpers: free ports, an SMTP sink on loopback, mail utilities, the real-mail corpus."""

from __future__ import annotations

import email
import os
import socket
import threading
import time
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from pbem.dice import Dice
from pbem.service.verify import read_report_json

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
    """The outside world's SMTP relay: keeps every message it takes (raw bytes and parsed),
    and fails as relays do when told to. ``mode``: 'up', 'refuse' (4xx at RCPT),
    'refuse-data' (4xx after DATA), 'reject' (5xx at RCPT)."""

    def __init__(self):
        self.lock = threading.Condition()
        self.mode = "up"
        self.received: list[dict] = []  # {raw, msg, mail_from, rcpt, message_id, to, kind, at}
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


class SmtpSink:
    """A real SMTP server on loopback standing for the outside world's relay: it keeps what it
    receives (``received``: records; ``messages``: the parsed mails), can refuse mail
    (``set_mode``), be switched off (``stop``) or drop every connection (``drop_connections``).
    Use it as a context manager, or ``start()``/``stop()``."""

    def __init__(self, port: int | None = None, *, smtputf8: bool = False, handler: SinkHandler | None = None):
        self.port = port or free_port()
        self.handler = handler or SinkHandler()
        self.smtputf8 = smtputf8
        self.controller: Controller | None = None
        self._dropper: socket.socket | None = None
        self._dropper_thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> "SmtpSink":
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port, ready_timeout=10,
                                     enable_SMTPUTF8=self.smtputf8)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def __enter__(self) -> "SmtpSink":
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

    @property
    def messages(self) -> list[EmailMessage]:
        return [r["msg"] for r in self.received]

    def wait_for(self, predicate, count: int = 1, timeout: float = 20.0) -> list[dict]:
        """Wait (woken by each mail received) until ``count`` records satisfy ``predicate``; return them."""
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
                self.handler.lock.wait(left)


def to(addr: str, kind: str | None = None):
    """A predicate on received records: mail to ``addr`` (of ``kind``, when given)."""
    def pred(r):
        return addr.lower() in r["to"] and (kind is None or r["kind"] == kind)
    return pred


def of_kind(kind: str):
    """A predicate on received records: mail of ``kind`` (X-PBEM-Kind)."""
    return lambda r: r["kind"] == kind


def wait_listening(process, port: int, *, timeout: float, what: str, exited) -> None:
    """Wait until the child ``process`` (a Popen) listens on loopback ``port``; if it exits first,
    raise at once with ``exited()`` (its log), rather than wait out the timeout."""
    def listening() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited ({process.returncode}): {exited()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False
    wait_until(listening, timeout=timeout, what=f"{what} to listen on port {port}")


def wait_until(predicate, timeout: float = 20.0, what: str = "condition", interval: float = 0.05):
    """Poll ``predicate`` until it returns something true (returned), for state no event
    announces (a database row, a file); raise naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)


def attachment_json(msg: EmailMessage) -> dict | None:
    """The JSON a mail carries: a report's ``.json.gz`` or a welcome's ``state.json``."""
    for part in msg.iter_attachments():
        if part.get_content_type() in ("application/json", "application/gzip"):
            return read_report_json(part.get_payload(decode=True))
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


class ScriptedDice(Dice):
    """Real dice, except that a label found in ``script`` rolls the scripted value (a list
    gives successive values, the last one repeating); a shuffle whose label is scripted
    returns the scripted order first. Engines' rule tests subclass it for their own draws."""

    def __init__(self, script: dict | None = None, seed: str = "00" * 32):
        super().__init__(seed)
        self.script = {k: (list(v) if isinstance(v, list) else [v]) for k, v in (script or {}).items()}

    def _scripted(self, label: str):
        values = self.script.get(label)
        if values:
            return values.pop(0) if len(values) > 1 else values[0]
        return None

    def roll(self, sides: int, label: str) -> int:
        value = self._scripted(label)
        if value is None:
            return super().roll(sides, label)
        self.rolls.append({"for": label, "kind": f"d{sides}", "value": value})
        return value

    def shuffle(self, items: list, label: str) -> list:
        if label in self.script:
            order = list(self.script[label])
            return [x for x in order if x in items] + [x for x in items if x not in order]
        return super().shuffle(items, label)


def resolve_strictly(engine, state: dict, orders: dict | None, dice: Dice) -> tuple[dict, list[dict]]:
    """Parse each role's order text (a rule test's orders must have no error), resolve the
    turn with ``dice`` and check the engine finds the new state valid."""
    parsed = {}
    for role, text in (orders or {}).items():
        result = engine.parse_orders(state, role, text)
        assert result.ok, [(e.line, e.text, e.reason % e.args) for e in result.errors]
        parsed[role] = result.orders
    new_state, events = engine.resolve(state, parsed, dice)
    assert engine.validate_state(new_state) == []
    return new_state, events
