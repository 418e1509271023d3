"""The clock: APScheduler fires deadlines and reminders; pbem's tables hold the truth.

A close is submitted to the server's closes (pbem.service.close_pool: worker processes, or
the scheduler's own thread with ``close_workers`` 0) and followed up when it is done, so a
hundred deadlines in the same second are a hundred submissions, worked out side by side.

Jobs never miss (misfire_grace_time=None) and coalesce, so a deadline that
passed while the server was down fires once at start-up. A periodic sync picks
up deadlines changed by another process (the CLI) on the same database.

A close that fails (the database locked beyond the busy timeout, the disk full)
is tried again after 1, 2, 4 ... seconds (at most a minute apart) until it
succeeds; and at start-up and with every periodic sync a sweep closes any open
phase whose deadline has passed, whatever the clock's bookkeeping believes. A
phase closes once whoever closes it (Phases.commit_close checks in its transaction).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from datetime import datetime, timedelta, timezone

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from pbem.service.clock import from_iso, to_iso
from pbem.service.close_pool import ClosePool, InProcessCloses
from pbem.service.phases import EVERYONE_ORDERED

log = logging.getLogger("pbem.scheduler")

CLOSE_RETRY_FIRST_SECONDS = 1.0
CLOSE_RETRY_MAX_SECONDS = 60.0
SWEEP_LIMIT = 100  # overdue phases submitted by one sweep (the next sweep takes the next ones)


class Clockwork:
    def __init__(self, svc, *, sync_seconds: float | None = None, closes: ClosePool | InProcessCloses | None = None):
        self.svc = svc
        self.closes = closes or InProcessCloses(svc)
        self.sync_seconds = sync_seconds or svc.settings.scheduler_sync_seconds
        self.scheduler = BackgroundScheduler(
            timezone=timezone.utc,
            executors={"default": ThreadPoolExecutor(2)},
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        )
        self._known: dict[int, tuple] = {}  # phase id -> (deadline, reminder, game id) as scheduled
        self._known_of_game: dict[str, set[int]] = {}  # game id -> its phase ids in _known (a close looks one game up)
        self._close_failures: dict[int, int] = {}  # phase id -> failed closes in a row
        self._lock = threading.Lock()
        # Jobs reschedule from the scheduler's own threads; shutdown must wait for
        # them before it takes APScheduler's locks, or a job adding a job deadlocks it.
        self.stopping = False
        self._active = 0
        self._idle = threading.Condition()

    def start(self) -> None:
        self.scheduler.start()
        self.svc.listeners.append(self._on_change)  # first, so no change made meanwhile is missed
        # Catch up on what fell due while the server was down: overdue deadlines
        # fire through their jobs (never missed); reminders are sent here; a phase
        # every awaited role had ordered when the server stopped is resolved now.
        self._remind(None)
        for ready in self.svc.phases.ready_to_close():
            self._close_now_soon(ready["game_id"])
        self.sync_all()
        # The first sweep at once (what fell due while the server was down), then with every sync.
        self.scheduler.add_job(self._job, "interval", args=[self._periodic], seconds=self.sync_seconds, id="sync",
                               next_run_time=datetime.now(timezone.utc))

    def shutdown(self) -> None:
        self.stopping = True
        try:
            self.svc.listeners.remove(self._on_change)
        except ValueError:
            pass
        with self._idle:
            self._idle.wait_for(lambda: self._active == 0, timeout=60)
        self.scheduler.shutdown(wait=True)

    def _job(self, fn, *args) -> None:
        with self._idle:
            if self.stopping:
                return
            self._active += 1
        try:
            fn(*args)
        finally:
            with self._idle:
                self._active -= 1
                self._idle.notify_all()

    def _on_change(self, what: str, game_id: str | None) -> None:
        if what == "phase" and game_id:
            self.sync_game(game_id)
        elif what == "close_now" and game_id:
            self._close_now_soon(game_id)

    def _close_now_soon(self, game_id: str) -> None:
        if not self.stopping:
            self.scheduler.add_job(self._job, "date", args=[self._close_ready, game_id], id=f"ready:{game_id}", replace_existing=True)

    def _close_ready(self, game_id: str) -> None:
        """Resolve the game's open phase if it is still one every awaited role has ordered."""
        try:
            ready = self.svc.phases.ready_to_close(game_id)
        except Exception:
            log.exception("closing %s at once failed", game_id)
            ready = []
        for row in ready:
            self._close(game_id, row["id"], EVERYONE_ORDERED, "server")
        if not ready:
            self.sync_game(game_id)

    def _periodic(self) -> None:
        self.sync_all()
        self.sweep()

    def sweep(self) -> None:
        """Close every open phase whose deadline has passed, and every immediate one all
        its awaited roles have ordered (a close that failed, a job that was lost)."""
        try:
            due = self.svc.records.due_phases(to_iso(self.svc.now()), SWEEP_LIMIT)
            ready = self.svc.phases.ready_to_close()
        except Exception:
            log.exception("sweeping overdue phases failed")
            return
        for row in due:
            self._close(row["game_id"], row["id"])
        for row in ready:
            self._close(row["game_id"], row["id"], EVERYONE_ORDERED, "server")

    def sync_all(self) -> None:
        rows = self.svc.records.timed_open_phases()
        live = set()
        for ph in rows:
            live.add(ph["id"])
            self._schedule(ph)
        with self._lock:
            for gone in set(self._known) - live:
                self._unschedule(gone)

    def sync_game(self, game_id: str) -> None:
        rows = self.svc.records.open_phases_with_game_status(game_id)
        live = set()
        for ph in rows:
            if ph["deadline"] and ph["game_status"] == "active":
                live.add(ph["id"])
                self._schedule(ph)
        with self._lock:
            for gone in self._known_of_game.get(game_id, set()) - live:
                self._unschedule(gone)

    def _schedule(self, ph: dict) -> None:
        if self.stopping:
            return
        deadline = from_iso(ph["deadline"])
        reminder = self.svc.phases.next_reminder_time(ph, after=self.svc.now())
        key = (ph["deadline"], reminder, ph["game_id"])
        with self._lock:
            if self._known.get(ph["id"]) == key:
                return
            self._known[ph["id"]] = key
            self._known_of_game.setdefault(ph["game_id"], set()).add(ph["id"])
        self.scheduler.add_job(self._job, "date", run_date=deadline, args=[self._close, ph["game_id"], ph["id"]],
                               id=f"close:{ph['id']}", replace_existing=True)
        if reminder is not None and reminder < deadline:
            self.scheduler.add_job(self._job, "date", run_date=reminder, args=[self._remind, ph["game_id"]],
                                   id=f"remind:{ph['id']}", replace_existing=True)

    def _unschedule(self, phase_row_id: int) -> None:
        key = self._known.pop(phase_row_id, None)
        if key is not None:
            others = self._known_of_game.get(key[2], set())
            others.discard(phase_row_id)
            if not others:
                self._known_of_game.pop(key[2], None)
        for job_id in (f"close:{phase_row_id}", f"remind:{phase_row_id}"):
            try:
                self.scheduler.remove_job(job_id)
            except Exception:
                pass

    def _close(self, game_id: str, phase_row_id: int, reason: str = "deadline", actor: str = "scheduler") -> None:
        """Submit the close; :meth:`_closed` follows it up once it is committed or has failed."""
        if self.stopping:
            return
        done = self.closes.submit(game_id, phase_row_id, reason=reason, actor=actor)
        done.add_done_callback(lambda d: self._closed(game_id, phase_row_id, reason, actor, d))

    def _closed(self, game_id: str, phase_row_id: int, reason: str, actor: str, done: Future) -> None:
        exc = done.exception()
        if exc is not None:
            failures = self._close_failures.get(phase_row_id, 0) + 1
            self._close_failures[phase_row_id] = failures
            delay = min(CLOSE_RETRY_FIRST_SECONDS * 2 ** (failures - 1), CLOSE_RETRY_MAX_SECONDS)
            log.error("closing %s failed (%d in a row); trying again in %.0f s", game_id, failures, delay, exc_info=exc)
            if not self.stopping:
                self.scheduler.add_job(self._job, "date", run_date=datetime.now(timezone.utc) + timedelta(seconds=delay),
                                       args=[self._close, game_id, phase_row_id, reason, actor], id=f"close:{phase_row_id}",
                                       replace_existing=True)
            return
        self._close_failures.pop(phase_row_id, None)
        # A deadline moved later by another process is picked up here.
        self.sync_game(game_id)

    def _remind(self, game_id: str) -> None:
        try:
            self.svc.phases.send_reminders(game_id)
        except Exception:
            log.exception("reminders for %s failed", game_id)
        finally:
            if game_id:
                self.sync_game(game_id)  # the next player's lead time, if any
