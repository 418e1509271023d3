"""The clock: the timer (pbem.service.timer) fires deadlines and reminders; pbem's tables hold the truth.

A close is submitted to the server's closes (pbem.service.close_pool: worker processes, or
the timer's own threads with ``close_workers`` 0) and followed up when it is done, so a
hundred deadlines in the same second are a hundred submissions, worked out side by side.

Each open phase has a job at its deadline (and at its players' reminders), on the service's
clock; a deadline that passed while the server was down fires at start-up. Every second of
elapsed time a sweep closes any open phase whose deadline has passed, whatever the jobs
believe (a deadline made by another process, the CLI, on the same database; a job lost), and
every ``scheduler_sync_seconds`` the jobs are brought in line with the tables and immediate
phases every awaited role has ordered are closed. Both are counted in elapsed time, not on the
calendar, so a clock stepped back (NTP, a restored virtual machine) stalls nothing, and a step
either way makes the jobs be read again at once.

A close that fails (the database locked beyond the busy timeout, the disk full) is tried again
after 1, 2, 4 ... seconds (at most a minute apart) until it succeeds. A phase closes once
whoever closes it (Phases.commit_close checks in its transaction).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future

from pbem.service.clock import from_iso, to_iso
from pbem.service.close_pool import ClosePool, InProcessCloses
from pbem.service.phases import EVERYONE_ORDERED
from pbem.service.timer import Ticks, Timer

log = logging.getLogger("pbem.scheduler")

CLOSE_RETRY_FIRST_SECONDS = 1.0
CLOSE_RETRY_MAX_SECONDS = 60.0
SWEEP_LIMIT = 100  # overdue phases submitted by one sweep (the next sweep takes the next ones)
DUE_SWEEP_SECONDS = 1.0  # elapsed time between two looks for deadlines passed


class Clockwork:
    def __init__(self, svc, *, sync_seconds: float | None = None, closes: ClosePool | InProcessCloses | None = None,
                 ticks: Ticks | None = None):
        self.svc = svc
        self.closes = closes or InProcessCloses(svc)
        self.sync_seconds = sync_seconds or svc.settings.scheduler_sync_seconds
        self.timer = Timer(svc.now, ticks=ticks, workers=2, on_step=self._clock_stepped)
        self._known: dict[int, tuple] = {}  # phase id -> (deadline, reminder, game id) as scheduled
        self._known_of_game: dict[str, set[int]] = {}  # game id -> its phase ids in _known (a close looks one game up)
        self._close_failures: dict[int, int] = {}  # phase id -> failed closes in a row
        self._closing: set[int] = set()  # phase ids whose close is submitted and not done
        self._lock = threading.Lock()
        # Jobs reschedule from the timer's own threads; shutdown waits for them first.
        self.stopping = False
        self._active = 0
        self._idle = threading.Condition()

    def start(self) -> None:
        self.timer.start()
        self.svc.listeners.append(self._on_change)  # first, so no change made meanwhile is missed
        # Catch up on what fell due while the server was down: overdue deadlines
        # fire through their jobs; reminders are sent here; a phase
        # every awaited role had ordered when the server stopped is resolved now.
        self._remind(None)
        for ready in self.svc.phases.ready_to_close():
            self._close_now_soon(ready["game_id"])
        self.sync_all()
        # The first sweep at once (what fell due while the server was down), then with every sync.
        self.timer.every("sync", self.sync_seconds, self._job, self._periodic)
        self.timer.every("due", DUE_SWEEP_SECONDS, self._job, self._close_due)

    def shutdown(self) -> None:
        self.stopping = True
        try:
            self.svc.listeners.remove(self._on_change)
        except ValueError:
            pass
        with self._idle:
            self._idle.wait_for(lambda: self._active == 0, timeout=60)
        self.timer.shutdown()

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

    def _clock_stepped(self, seconds: float) -> None:
        """The service's clock stepped: every deadline and reminder is read again, what it passed closes."""
        self._job(self._periodic)

    def _close_now_soon(self, game_id: str) -> None:
        if not self.stopping:
            self.timer.after(f"ready:{game_id}", 0, self._job, self._close_ready, game_id)

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
        its awaited roles have ordered (a close that failed, a job that was lost); lapse the games
        started by mail whose players did not come in time."""
        self._close_due()
        try:
            self.svc.open_games.lapse_due()  # games started by mail that found no players in time (issue 28)
        except Exception:
            log.exception("lapsing games waiting for players failed")
        try:
            ready = self.svc.phases.ready_to_close()
        except Exception:
            log.exception("sweeping ready phases failed")
            return
        for row in ready:
            self._close(row["game_id"], row["id"], EVERYONE_ORDERED, "server")

    def _close_due(self) -> None:
        """Close every open phase whose deadline has passed (by the service's clock, as it reads now)."""
        try:
            due = self.svc.records.due_phases(to_iso(self.svc.now()), SWEEP_LIMIT)
        except Exception:
            log.exception("sweeping overdue phases failed")
            return
        for row in due:
            if row["id"] not in self._close_failures:  # those wait for their retry
                self._close(row["game_id"], row["id"])

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
        """The phase's jobs at its deadline and next reminder (moments of the calendar: a clock step
        changes when they are due, not the jobs)."""
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
        if ph["id"] not in self._close_failures:  # a failed close waits for its retry
            self.timer.at(f"close:{ph['id']}", deadline, self._job, self._close, ph["game_id"], ph["id"])
        if reminder is not None and reminder < deadline:
            self.timer.at(f"remind:{ph['id']}", reminder, self._job, self._remind, ph["game_id"])

    def _unschedule(self, phase_row_id: int) -> None:
        key = self._known.pop(phase_row_id, None)
        if key is not None:
            others = self._known_of_game.get(key[2], set())
            others.discard(phase_row_id)
            if not others:
                self._known_of_game.pop(key[2], None)
        for job_id in (f"close:{phase_row_id}", f"remind:{phase_row_id}"):
            self.timer.cancel(job_id)

    def _close(self, game_id: str, phase_row_id: int, reason: str = "deadline", actor: str = "scheduler") -> None:
        """Submit the close, unless it is in flight already (its job and the sweep may both find it
        due); :meth:`_closed` follows it up once it is committed or has failed."""
        with self._lock:
            if self.stopping or phase_row_id in self._closing:
                return
            self._closing.add(phase_row_id)
        try:
            done = self.closes.submit(game_id, phase_row_id, reason=reason, actor=actor)
        except BaseException:
            with self._lock:
                self._closing.discard(phase_row_id)
            raise
        done.add_done_callback(lambda d: self._closed(game_id, phase_row_id, reason, actor, d))

    def _closed(self, game_id: str, phase_row_id: int, reason: str, actor: str, done: Future) -> None:
        with self._lock:
            self._closing.discard(phase_row_id)
        exc = done.exception()
        if exc is not None:
            failures = self._close_failures.get(phase_row_id, 0) + 1
            self._close_failures[phase_row_id] = failures
            delay = min(CLOSE_RETRY_FIRST_SECONDS * 2 ** (failures - 1), CLOSE_RETRY_MAX_SECONDS)
            log.error("closing %s failed (%d in a row); trying again in %.0f s", game_id, failures, delay, exc_info=exc)
            if not self.stopping:
                self.timer.after(f"close:{phase_row_id}", delay, self._job, self._close, game_id, phase_row_id, reason, actor)
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
