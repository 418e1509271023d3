"""Issue 18, items 8 and 9: outgoing mail against a real SMTP relay on loopback.

8. A mail to a non-ASCII address (``jörg@…``) goes with SMTPUTF8 where the relay
   offers it, and is marked failed at once (never retried) where it does not; a failed
   transaction never leaves the connection mid-way, so the next mail of the same pass
   is delivered; each mail backs off on its own.
9. A queued mail is claimed (with a lease that expires) before it is sent: two
   workers on one database never send the same mail twice, and a second ``pbem serve``
   on a database another one serves refuses to start.
"""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone

import pytest

from pbem.server import Server
from pbem.service import outbox
from pbem.service.store import Store
from tests.support import SinkHandler, SmtpSink, free_port

JORG = "jörg@players.example"
NOW = datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc)


def _queue(store, to_addr: str, key: str) -> str:
    with store.write():
        return outbox.queue(store, outbox.Outgoing(kind="error", to_addr=to_addr, subject="about your mail", text="Hello.\n", key=key),
                            domain="pbem.test", now=NOW)


def _deliver(store, transport, now=NOW):
    return outbox.deliver_due(store, transport, now=now, backoff=30, backoff_max=3600)


def _row(store, mid):
    return store.one("SELECT * FROM outbox WHERE message_id = ?", (mid,))


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pbem.db")
    s.migrate()
    yield s
    s.close()


def test_a_non_ascii_address_the_relay_cannot_take_fails_alone_and_the_next_mail_goes(store):
    with SmtpSink(smtputf8=False) as relay:
        poisoned = _queue(store, JORG, "error/jorg")
        fine = _queue(store, "bull@players.example", "error/bull")
        transport = outbox.SmtpTransport(relay.url, sender="pbem@pbem.test")
        try:
            sent, failed = _deliver(store, transport)
        finally:
            transport.close()
        assert [r["message_id"] for r in relay.handler.received] == [fine], "the next mail of the same pass is delivered"
        assert (sent, failed) == (1, 1)
        bad = _row(store, poisoned)
        assert bad["status"] == "failed", "a relay without SMTPUTF8 will never take it: failed at once, not retried 30 times"
        assert "SMTPUTF8" in bad["last_error"]


def test_a_non_ascii_address_goes_with_smtputf8_where_the_relay_offers_it(store):
    with SmtpSink(smtputf8=True) as relay:
        mid = _queue(store, JORG, "error/jorg")
        transport = outbox.SmtpTransport(relay.url, sender="pbem@pbem.test")
        try:
            assert _deliver(store, transport) == (1, 0)
        finally:
            transport.close()
        [got] = relay.handler.received
        assert got["rcpt"] == [JORG] and got["message_id"] == mid
        assert _row(store, mid)["status"] == "sent"


class RefusingOne(SinkHandler):
    """Refuses one recipient at RCPT with a temporary error; takes every other."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("busy@"):
            return "451 4.2.0 mailbox busy"
        return await super().handle_RCPT(server, session, envelope, address, rcpt_options)


def test_the_door_takes_a_non_ascii_sender_only_with_smtputf8(settings):
    """RFC 6531: without SMTPUTF8 a non-ASCII address is refused at MAIL FROM, so no answer is
    queued for an address the sender's side never said it could take."""
    server = Server(settings, web=False).start()
    try:
        with smtplib.SMTP("127.0.0.1", settings.smtp_port, timeout=20) as client:
            client.ehlo()
            client.command_encoding = "utf-8"  # smtplib would not even send it otherwise
            code, _ = client.docmd(f"MAIL FROM:<{JORG}>")
            assert code == 553
            client.rset()
            client.command_encoding = "utf-8"  # rset() sets it back to ASCII
            code, _ = client.docmd(f"MAIL FROM:<{JORG}> SMTPUTF8")
            assert code == 250
            code, _ = client.docmd("RCPT TO:<jörg@pbem.test>")
            assert code == 553
    finally:
        server.stop()


def test_a_mail_refused_for_now_backs_off_alone_and_the_others_go_on_the_same_connection(store):
    with SmtpSink(smtputf8=False, handler=RefusingOne()) as relay:
        busy = _queue(store, "busy@players.example", "error/busy")
        others = [_queue(store, f"p{i}@players.example", f"error/p{i}") for i in range(3)]
        transport = outbox.SmtpTransport(relay.url, sender="pbem@pbem.test")
        try:
            assert _deliver(store, transport) == (3, 1)
            assert sorted(r["message_id"] for r in relay.handler.received) == sorted(others)
            row = _row(store, busy)
            assert row["status"] == "queued" and row["next_attempt_at"] > NOW.isoformat(), "it waits for its own retry"
            # Its retry comes later; meanwhile mail queued after it is not held back.
            late = _queue(store, "late@players.example", "error/late")
            assert _deliver(store, transport, NOW + timedelta(seconds=1)) == (1, 0)
            assert relay.handler.received[-1]["message_id"] == late
        finally:
            transport.close()


class HeldTransport(outbox.Transport):
    """Records what it is given; its first send waits until the test lets it go on."""

    def __init__(self, log: list, lock: threading.Lock, hold: bool):
        self.log, self.lock = log, lock
        self.holding = threading.Event()
        self.release = threading.Event()
        self.hold = hold

    def send(self, to_addr: str, raw: bytes) -> None:
        if self.hold:
            self.hold = False
            self.holding.set()
            self.release.wait()
        with self.lock:
            self.log.append(raw)


def test_two_workers_on_one_database_never_send_a_mail_twice(tmp_path, store):
    mids = [_queue(store, f"p{i}@players.example", f"report/{i}") for i in range(72)]
    sent_log: list[bytes] = []
    lock = threading.Lock()
    first = HeldTransport(sent_log, lock, hold=True)
    second = HeldTransport(sent_log, lock, hold=False)
    store_a = Store(tmp_path / "pbem.db")
    result = {}
    worker_a = threading.Thread(target=lambda: result.setdefault("a", _deliver(store_a, first)))
    worker_a.start()
    try:
        assert first.holding.wait(30), "the first worker started sending"
        result["b"] = _deliver(store, second)  # a second server, or `pbem deliver`, while the first is mid-pass
    finally:
        first.release.set()
        worker_a.join(30)
        store_a.close()
    assert len(sent_log) == 72, f"{len(sent_log) - 72} mails were sent twice"
    assert result["a"][0] + result["b"][0] == 72
    assert all(_row(store, m)["status"] == "sent" for m in mids)


def test_a_claim_left_by_a_worker_that_died_expires_and_the_mail_goes(store):
    mid = _queue(store, "bull@players.example", "report/dead")
    log: list[bytes] = []
    claimed = outbox.claim_due(store, now=NOW, limit=10, owner="elsewhere.example/4242/1")
    assert [r["id"] for r in claimed] == [_row(store, mid)["id"]]
    # That worker (on another host) went silent before sending: within its lease nobody else takes the mail ...
    assert _deliver(store, HeldTransport(log, threading.Lock(), hold=False), NOW + timedelta(seconds=10)) == (0, 0)
    # ... and once the lease has run out it is sent.
    later = NOW + timedelta(seconds=outbox.LEASE_SECONDS + 1)
    assert _deliver(store, HeldTransport(log, threading.Lock(), hold=False), later) == (1, 0)
    assert len(log) == 1 and _row(store, mid)["status"] == "sent"


def test_a_second_server_on_the_same_database_refuses_to_start(settings):
    first = Server(settings, web=False).start()
    try:
        second = Server(settings.with_(smtp_port=free_port(), http_port=free_port()), web=False)
        with pytest.raises(RuntimeError, match="already serves"):
            second.start()
        second.svc.close()
    finally:
        first.stop()
    # Once the first has stopped, a server starts on the database again.
    again = Server(settings.with_(smtp_port=free_port()), web=False).start()
    again.stop()



def test_pbem_serve_beside_a_running_server_says_why_it_stops(settings):
    """The command a host types: a clear refusal and a non-zero exit, not a second server."""
    first = Server(settings, web=False).start()
    try:
        env = {**os.environ, "PBEM_DB": str(settings.db_path), "PBEM_MAIL_DOMAIN": "pbem.test",
               "PBEM_MAILDIR": str(settings.maildir)}
        proc = subprocess.run([sys.executable, "-m", "pbem.cli", "serve", "--smtp-port", str(free_port()),
                               "--http-port", str(free_port())], capture_output=True, env=env, timeout=120)
    finally:
        first.stop()
    assert proc.returncode != 0
    assert b"already serves" in proc.stderr and b"Traceback" not in proc.stderr, proc.stderr.decode()
