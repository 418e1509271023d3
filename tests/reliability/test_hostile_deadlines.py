"""Issue 18, item 10: a close that fails at its deadline (the database locked beyond the
busy timeout, the disk full) is retried with backoff until it succeeds, exactly once;
overdue phases are swept at start-up and periodically."""

from __future__ import annotations

import logging
import sqlite3
import threading
from datetime import timedelta

import pytest

from pbem.service.clock import to_iso
from pbem.service.service import Service
from pbem.service.scheduler import Clockwork
from tests.core.helpers import new_game


class _Failures(logging.Handler):
    """Sets an event when the scheduler logs a failed close."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = threading.Event()

    def emit(self, record):
        if "clos" in record.getMessage():
            self.seen.set()


@pytest.fixture
def failures():
    handler = _Failures()
    logger = logging.getLogger("pbem.scheduler")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


def _overdue(svc, gid):
    ph = svc.records.current_phase(gid)
    with svc.store.write():
        svc.store.execute("UPDATE phases SET deadline = ? WHERE id = ?", (to_iso(svc.now() - timedelta(minutes=1)), ph["id"]))
    return ph


def test_a_close_that_fails_on_a_locked_database_is_retried_and_happens_once(settings, failures):
    # A sync far away: only the retry can close the phase within this test.
    svc = Service(settings.with_(db_busy_timeout_seconds=0.3, scheduler_sync_seconds=3600)).init()
    gid = new_game(svc)
    ph = _overdue(svc, gid)
    reports = threading.Event()
    svc.listeners.append(lambda what, game_id: reports.set() if what == "outbox" and game_id == gid else None)
    blocker = sqlite3.connect(str(settings.db_path), isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    clock = Clockwork(svc, sync_seconds=3600)
    try:
        clock.start()
        assert failures.seen.wait(30), "the close at the deadline met the lock"
        assert svc.store.one("SELECT status FROM phases WHERE id = ?", (ph["id"],))["status"] == "open"
        blocker.execute("ROLLBACK")
        assert reports.wait(30), "the close was retried once the database was free"
    finally:
        if blocker.in_transaction:
            blocker.execute("ROLLBACK")
        blocker.close()
        clock.shutdown()
    resolved = svc.store.all("SELECT * FROM phases WHERE game_id = ? AND status = 'resolved'", (gid,))
    assert [p["id"] for p in resolved] == [ph["id"]], "closed exactly once"
    reports_queued = svc.store.all("SELECT to_addr FROM outbox WHERE game_id = ? AND kind = 'report'", (gid,))
    assert len(reports_queued) == 2, "one report per player"
    svc.close()


def test_an_overdue_phase_whose_job_was_lost_is_swept(settings):
    """A phase overdue with no job for it (its close job ran and failed, say, and was not re-added) is closed by the sweep."""
    svc = Service(settings.with_(scheduler_sync_seconds=3600)).init()
    gid = new_game(svc)
    clock = Clockwork(svc, sync_seconds=3600)
    closed = threading.Event()
    svc.listeners.append(lambda what, game_id: closed.set() if what == "outbox" and game_id == gid else None)
    try:
        clock.start()
        # Another process moves the deadline into the past and tells nobody; the clock's
        # bookkeeping still believes the old deadline, so no job will ever fire for it.
        _overdue(svc, gid)
        clock.sweep()
        assert closed.wait(30)
    finally:
        clock.shutdown()
    assert svc.records.current_phase(gid)["seq"] == 2
    svc.close()
