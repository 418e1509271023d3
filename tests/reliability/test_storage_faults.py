"""Disk full or database locked: the server answers with a temporary SMTP error (4xx)
so the sender's MTA retries, `pbem ingest` exits 75 (EX_TEMPFAIL), and nothing is
acknowledged that was not stored. Once the fault clears, the same message is taken."""

import os
import resource
import sqlite3
import subprocess
import sys
import threading
import time
from email.message import EmailMessage

import pytest

from pbem.server import Server
from pbem.service.outbox import maildir_bytes
from pbem.service.service import Service
from tests.core.helpers import address_of, new_game, orders_mail, template_for
from tests.reliability.helpers import US, outbox_rows, smtp_data_reply
from tests.support import wait_until

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def _counts(db_path) -> dict:
    conn = sqlite3.connect(str(db_path))
    try:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("inbound", "submissions", "outbox")}
    finally:
        conn.close()


def _acks(db_path) -> int:
    conn = sqlite3.connect(str(db_path))
    try:
        return conn.execute("SELECT COUNT(*) FROM outbox WHERE kind = 'ack'").fetchone()[0]
    finally:
        conn.close()


def _big_orders_mail(svc, gid, size: int) -> bytes:
    """Orders with a large attachment (a scanned order sheet, say)."""
    m = EmailMessage()
    m["From"] = US
    m["To"] = address_of(svc, gid, "us")
    m["Subject"] = "orders with a scan"
    m["Message-ID"] = f"<big{size}.{time.monotonic_ns()}@players.example>"
    m.set_content(f"ORDERS {gid} {svc.records.current_phase(gid)['label']}\n{template_for(svc, gid, 'us')}\nEND\n")
    m.add_attachment(os.urandom(size), maintype="application", subtype="octet-stream", filename="scan.bin")
    return m.as_bytes()


@pytest.fixture
def server(settings):
    srv = Server(settings.with_(db_busy_timeout_seconds=0.3), web=False).start()
    yield srv
    srv.stop()


def test_database_locked_answers_451_and_stores_nothing_then_takes_the_retry(server):
    svc = server.svc
    gid = new_game(svc)
    raw = orders_mail(svc, gid, "us")
    rcpt = address_of(svc, gid, "us")
    before = _counts(svc.settings.db_path)
    blocker = sqlite3.connect(str(svc.settings.db_path), isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        # The lock is held until the answer comes: the sender is told to retry while the
        # database is still locked, not kept waiting for it (a server that waited would
        # never answer, and the client's timeout would fail the test).
        code, text = smtp_data_reply("127.0.0.1", svc.settings.smtp_port, raw, US, rcpt)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert 400 <= code < 500, (code, text)
    assert _counts(svc.settings.db_path) == before, "nothing stored, nothing acknowledged"
    # The sender's MTA retries the same bytes: now it is stored and acknowledged once.
    code, _ = smtp_data_reply("127.0.0.1", svc.settings.smtp_port, raw, US, rcpt)
    assert code == 250
    after = _counts(svc.settings.db_path)
    assert after["submissions"] == before["submissions"] + 1 and after["inbound"] == before["inbound"] + 1
    assert _acks(svc.settings.db_path) == 1


def test_disk_full_answers_451_and_stores_nothing_then_takes_the_retry(server):
    """SQLITE_FULL, made with max_page_count on the connection the SMTP handler writes with."""
    svc = server.svc
    gid = new_game(svc)
    raw = _big_orders_mail(svc, gid, 200_000)
    rcpt = address_of(svc, gid, "us")
    executor = server.smtp.handler.executor  # the one thread the inbound path writes from

    def limit(pages):
        def run():
            if pages is None:
                pages_now = svc.store.one("PRAGMA page_count")["page_count"]
                svc.store.execute(f"PRAGMA max_page_count = {pages_now}")
            else:
                svc.store.execute(f"PRAGMA max_page_count = {pages}")
        executor.submit(run).result()

    before = _counts(svc.settings.db_path)
    limit(None)  # full: not one more page
    code, text = smtp_data_reply("127.0.0.1", svc.settings.smtp_port, raw, US, rcpt)
    assert 400 <= code < 500, (code, text)
    assert _counts(svc.settings.db_path) == before
    # Still full: the server keeps answering, each time with a 4xx.
    code, _ = smtp_data_reply("127.0.0.1", svc.settings.smtp_port, raw, US, rcpt)
    assert 400 <= code < 500
    limit(1 << 30)  # space freed
    code, _ = smtp_data_reply("127.0.0.1", svc.settings.smtp_port, raw, US, rcpt)
    assert code == 250
    after = _counts(svc.settings.db_path)
    assert after["submissions"] == before["submissions"] + 1
    assert _acks(svc.settings.db_path) == 1


def _ingest(db_path, raw: bytes, *, fsize: int | None = None, busy: float = 0.3, domain="pbem.test"):
    env = dict(os.environ, PBEM_DB=str(db_path), PBEM_MAIL_DOMAIN=domain, PBEM_DB_BUSY_TIMEOUT=str(busy))

    def preexec():
        if fsize is not None:  # a file may not grow past this: writes fail with EFBIG, as on a full disk
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([sys.executable, "-m", "pbem.cli", "ingest"], input=raw, capture_output=True,
                          env=env, cwd=str(ROOT), timeout=60, preexec_fn=preexec)


def test_ingest_exits_75_when_the_database_is_locked_and_stores_nothing(settings):
    svc = Service(settings).init()
    gid = new_game(svc)
    raw = orders_mail(svc, gid, "us")
    svc.close()
    before = _counts(settings.db_path)
    blocker = sqlite3.connect(str(settings.db_path), isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        proc = _ingest(settings.db_path, raw)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert proc.returncode == 75, proc.stderr
    assert b"try again" in proc.stderr
    assert _counts(settings.db_path) == before
    proc = _ingest(settings.db_path, raw)
    assert proc.returncode == 0, proc.stderr
    assert _counts(settings.db_path)["submissions"] == before["submissions"] + 1


def test_ingest_exits_75_when_the_disk_is_full_and_stores_nothing(settings):
    """A real write failure: the process may not grow any file past 256 KB (RLIMIT_FSIZE),
    so writing a 400 KB message into the write-ahead log fails as on a full disk."""
    svc = Service(settings).init()
    gid = new_game(svc)
    raw = _big_orders_mail(svc, gid, 400_000)
    svc.close()  # checkpoints and removes the WAL: the ingest starts a fresh one
    before = _counts(settings.db_path)
    proc = _ingest(settings.db_path, raw, fsize=256 * 1024)
    assert proc.returncode == 75, (proc.returncode, proc.stderr[-2000:])
    assert _counts(settings.db_path) == before
    proc = _ingest(settings.db_path, raw)
    assert proc.returncode == 0, proc.stderr
    after = _counts(settings.db_path)
    assert after["submissions"] == before["submissions"] + 1
    assert _acks(settings.db_path) == 1


@pytest.fixture
def server_delivering_in_a_thread(settings):
    """A server handed its transport, so it delivers from a thread of this process, where a
    test can plant a fault (the usual server delivers from a process of its own)."""
    from pbem.service.outbox import MaildirTransport
    srv = Server(settings.with_(db_busy_timeout_seconds=0.3), web=False, transport=MaildirTransport(settings.maildir)).start()
    yield srv
    srv.stop()


def test_outbox_survives_a_locked_database(server_delivering_in_a_thread, monkeypatch):
    """The outbox worker meets the lock too: each mail is delivered at least once,
    copies are the same bytes under the same Message-ID, and it is marked sent afterwards.
    The lock meets the batch that holds an order's acknowledgement, queued as a draft: made
    again for the second sending, it is the same bytes."""
    import mailbox
    from pbem.service import outbox
    from tests.reliability.helpers import parse
    svc = server_delivering_in_a_thread.svc
    blocker = sqlite3.connect(str(svc.settings.db_path), isolation_level=None, check_same_thread=False)
    met_the_lock = threading.Event()
    marking = {}
    mark_sent = outbox._mark_sent

    def locked_when_marking(store, transport, ids, now, composed):
        """The first time the worker, having sent mail it made from a draft, marks it sent, the database is locked."""
        if met_the_lock.is_set() or not (ids and composed):
            return mark_sent(store, transport, ids, now, composed)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            return mark_sent(store, transport, ids, now, composed)
        except BaseException as exc:
            marking["error"] = exc
            raise
        finally:
            met_the_lock.set()
    monkeypatch.setattr(outbox, "_mark_sent", locked_when_marking)
    try:
        gid = new_game(svc)  # queues the welcomes and wakes the worker
        assert svc.mailroom.receive(orders_mail(svc, gid, "us"))["status"] == "processed"  # and a draft
        assert met_the_lock.wait(60), "the worker never marked mail sent"
    finally:
        if blocker.in_transaction:
            blocker.execute("ROLLBACK")
        blocker.close()
    assert isinstance(marking.get("error"), sqlite3.OperationalError), marking
    svc.notify("outbox")
    wait_until(lambda: all(r["status"] == "sent" for r in outbox_rows(svc.store, game_id=gid)), timeout=60,
               what="every mail marked sent once the lock is gone")
    rows = outbox_rows(svc.store, game_id=gid)
    assert rows and all(r["status"] == "sent" for r in rows)
    box = mailbox.Maildir(str(svc.settings.maildir), create=False)
    copies = {}
    for key in box.keys():
        raw = box.get_bytes(key)
        copies.setdefault(parse(raw)["Message-ID"], []).append(raw)
    for r in rows:
        assert r["message_id"] in copies, "delivered at least once"
        assert len(set(copies[r["message_id"]])) == 1, "a mail sent twice is the same bytes"
    ack, = (r for r in rows if r["kind"] == "ack")
    assert len(copies[ack["message_id"]]) == 2 and maildir_bytes(ack["raw"]) == copies[ack["message_id"]][0], "made twice, alike"
