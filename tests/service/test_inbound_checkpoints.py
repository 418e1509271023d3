"""The server's inbound thread never checkpoints the WAL inside a commit (the sender would
wait for its 250 while the database file is written and synced); the outbox worker's
connection does, and when idle it checkpoints what the inbound thread left, so the WAL
stays bounded."""

from __future__ import annotations

import threading

from pbem.server import InboundHandler
from pbem.service.delivery import OutboxWorker
from pbem.service import outbox
from pbem.service.store import Store

#: more than SQLite's automatic checkpoint threshold (1000 pages), a page-sized row each commit
ROWS = 1200


def _fill(store: Store, rows: int = ROWS) -> None:
    store.execute("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, blob BLOB)")
    for k in range(rows):
        with store.write():
            store.execute("INSERT INTO filler (blob) VALUES (?)", (bytes(4000),))


def test_a_connection_that_leaves_checkpoints_keeps_every_page_in_the_wal(tmp_path):
    store = Store(tmp_path / "a.db")
    store.leave_checkpoints_to_others()
    _fill(store)
    wal_pages, copied = store.checkpoint()
    assert wal_pages > ROWS  # none of its commits copied the WAL back and started it over
    assert copied == wal_pages  # the explicit checkpoint copies all of it (no reader holds any back)
    store.close()


def test_a_default_connection_checkpoints_inside_its_commits(tmp_path):
    store = Store(tmp_path / "a.db")
    _fill(store)
    wal_pages, _copied = store.checkpoint()
    assert wal_pages < 1100  # SQLite's own checkpoint at 1000 pages started the WAL over
    store.close()


def test_the_inbound_thread_leaves_checkpoints_to_the_others(svc):
    handler = InboundHandler(svc)
    try:
        inbound = handler.executor.submit(lambda: svc.store.one("PRAGMA wal_autocheckpoint")).result()
    finally:
        handler.executor.shutdown()
    assert list(inbound.values()) == [0]
    assert list(svc.store.one("PRAGMA wal_autocheckpoint").values()) == [1000]  # this thread's still does


def test_the_idle_outbox_worker_checkpoints_what_the_inbound_thread_left(svc, tmp_path, monkeypatch):
    inbound = Store(svc.settings.db_path)
    inbound.leave_checkpoints_to_others()
    _fill(inbound)
    worker = OutboxWorker(svc, outbox.MaildirTransport(tmp_path / "md"), poll=60)
    checkpointed = threading.Event()
    real = Store.checkpoint

    def checkpoint(store):
        done = real(store)
        if threading.current_thread() is worker:
            checkpointed.set()
        return done

    monkeypatch.setattr(Store, "checkpoint", checkpoint)
    worker.start()
    try:
        assert checkpointed.wait(30)
    finally:
        worker.stop(30)
    # Every page was copied, so the next commit starts the WAL over: it holds that commit's pages only.
    with inbound.write():
        inbound.execute("INSERT INTO filler (blob) VALUES (?)", (b"x",))
    wal_pages, _copied = inbound.checkpoint()
    assert wal_pages < 10
    inbound.close()
