"""The clock: APScheduler fires deadlines and reminders; pbem's tables hold the truth.

A close is submitted to the server's closes (pbem.service.close_pool: worker processes, or
the scheduler's own threads with ``close_workers`` 0) and followed up when it is done, so a
hundred deadlines in the same second are a hundred submissions, worked out side by side.

Each open phase has a job at its deadline and one at its players' next reminder, moments of
the calendar. Jobs are never dropped as missed (``misfire_grace_time=None``) and coalesce, so
a deadline that passed while the server was down fires once (../shared/notes/measured-floor.md:
APScheduler's defaults skip jobs). Every second a sweep closes any open phase whose deadline
has passed, whatever the jobs believe (a deadline made by another process, the CLI; a job
lost), and every ``scheduler_sync_seconds`` the jobs are brought in line with the tables and
immediate phases every awaited role has ordered are closed.

The sweep, the sync and a failed close's retries count elapsed time, not the calendar: their
jobs keep a monotonic moment (pbem.service.clock_steps.Elapsed) in a job store of their own,
and a watch that reads the clocks every second puts back any of them that a step of the clock
(NTP, a restored virtual machine) left later on the calendar than its elapsed time says. So a
step back stalls nothing; deadlines after it wait for the calendar, and a step forward passes
deadlines that APScheduler, which looks at the clock at least every second for the sweep,
then runs.

Start-up returns at once: the first sweep, the first sync (every deadline's job) and the
reminders that fell due while the server was down run in the scheduler's threads, so `pbem
serve` takes mail meanwhile; a deadline that falls due before its job is made is the sweep's.

A close that fails (the database locked beyond the busy timeout, the disk full) is tried again
after 1, 2, 4 ... seconds (at most a minute apart) until it succeeds. A phase closes once
whoever closes it (Phases.commit_close checks in its transaction).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from datetime import timedelta, timezone
from threading import TIMEOUT_MAX
from typing import Callable

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.base import JobLookupError
from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import STATE_STOPPED
from apscheduler.triggers.date import DateTrigger

from pbem.service.clock import from_iso, to_iso
from pbem.service.clock_steps import STEP_TOLERANCE_SECONDS, Elapsed, StepWatch, Ticks
from pbem.service.close_pool import ClosePool, InProcessCloses
from pbem.service.phases import EVERYONE_ORDERED

log = logging.getLogger("pbem.scheduler")
# One INFO line for every job added and run drowns pbem's own lines (10,000 at a start-up).
logging.getLogger("apscheduler").setLevel(logging.WARNING)

CLOSE_RETRY_FIRST_SECONDS = 1.0
CLOSE_RETRY_MAX_SECONDS = 60.0
SWEEP_LIMIT = 100  # overdue phases submitted by one sweep (the next sweep takes the next ones)
DUE_SWEEP_SECONDS = 1.0  # elapsed time between the end of a sweep for deadlines passed and the next
CALENDAR, ELAPSED = "default", "elapsed"  # the job stores: deadlines and reminders; the sweep, sync and retries


class _Scheduler(BackgroundScheduler):
    """APScheduler's background scheduler, its loop waiting on ``ticks`` between two looks at
    the jobs (the machine's monotonic clock; a test's clock, moved by hand). The loop is
    BlockingScheduler._main_loop's, the wait aside."""

    def __init__(self, ticks: Ticks, **options):
        self.ticks = ticks
        super().__init__(**options)

    def _main_loop(self) -> None:
        wait_seconds = TIMEOUT_MAX
        while self.state != STATE_STOPPED:
            self.ticks.wait(self._event, wait_seconds)
            self._event.clear()
            try:
                wait_seconds = self._process_jobs()
            except Exception:  # noqa: BLE001 - a dead loop would close no deadline again
                log.exception("the scheduler's look at its jobs failed; it looks again in a second")
                wait_seconds = 1.0


class Clockwork:
    def __init__(self, svc, *, sync_seconds: float | None = None, closes: ClosePool | InProcessCloses | None = None,
                 ticks: Ticks | None = None):
        self.svc = svc
        self.closes = closes or InProcessCloses(svc)
        self.sync_seconds = sync_seconds or svc.settings.scheduler_sync_seconds
        self.ticks = ticks or Ticks()
        self.scheduler = _Scheduler(
            self.ticks, timezone=timezone.utc,
            jobstores={CALENDAR: MemoryJobStore(), ELAPSED: MemoryJobStore()},
            executors={"default": ThreadPoolExecutor(2)},
            # Two threads run jobs, and a job may be added again (the sweep by its own run, a
            # retry, a reminder) before its last run has returned: with three runs of a job
            # allowed, one refused for the limit always has a run of it yet to start.
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 3},
        )
        self.watch = StepWatch(svc.now, self.ticks, self._keep_elapsed_jobs_on_time)
        self._known: dict[int, tuple] = {}  # phase id -> (deadline, reminder, game id) as scheduled
        self._known_of_game: dict[str, set[int]] = {}  # game id -> its phase ids in _known (a close looks one game up)
        self._close_failures: dict[int, int] = {}  # phase id -> failed closes in a row
        self._closing: set[int] = set()  # phase ids whose close is submitted and not done
        self._lock = threading.Lock()
        # Jobs add jobs from the scheduler's own threads; shutdown must wait for them before it
        # takes APScheduler's locks, or a job adding a job deadlocks it.
        self.stopping = False
        self._active = 0
        self._idle = threading.Condition()

    def start(self, then: Callable[[], None] | None = None) -> None:
        """Start, and return at once; ``then`` is called (in a scheduler thread) once the first
        sync has made every deadline's job."""
        self.scheduler.start()
        self.svc.listeners.append(self._on_change)  # first, so no change made meanwhile is missed
        # All at once in the scheduler's threads: the sweep (what fell due while the server was
        # down, and whatever falls due before its job is made), the sync (every deadline's job;
        # phases every awaited role had ordered when the server stopped), the reminders missed.
        self._every("sweep", DUE_SWEEP_SECONDS, self._close_due)
        self._after("sync", 0, self._first_sync, then)
        self._after("missed-reminders", 0, self._remind, None)
        self.watch.start()

    def _first_sync(self, then: Callable[[], None] | None) -> None:
        try:
            self._periodic()
        finally:
            self._every("sync", self.sync_seconds, self._periodic, first=self.sync_seconds)
        if then is not None:
            then()

    def shutdown(self) -> None:
        self.stopping = True
        try:
            self.svc.listeners.remove(self._on_change)
        except ValueError:
            pass
        self.watch.stop()
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

    # -- jobs on elapsed time ---------------------------------------------------------------
    def _after(self, job_id: str, seconds: float, fn, *args) -> None:
        """``fn(*args)`` once ``seconds`` of elapsed time have passed (replacing a job of that id)."""
        if not self.stopping:
            self.scheduler.add_job(self._job, Elapsed(self.ticks, seconds), args=[fn, *args], id=job_id,
                                   jobstore=ELAPSED, replace_existing=True)

    def _every(self, job_id: str, seconds: float, fn, first: float = 0.0) -> None:
        """``fn()`` after ``first`` seconds of elapsed time, then ``seconds`` after each run ends
        (runs never overlap nor pile up)."""
        def run() -> None:
            try:
                fn()
            finally:
                self._after(job_id, seconds, run)
        self._after(job_id, first, run)

    def _keep_elapsed_jobs_on_time(self) -> None:
        """(The watch, every second.) A job on elapsed time kept later on the calendar than its
        elapsed time says (the clock stepped back under it) is put back where it falls now."""
        now = self.svc.now()
        for job in self.scheduler.get_jobs(jobstore=ELAPSED):
            if job.next_run_time - job.trigger.moment(now) > timedelta(seconds=STEP_TOLERANCE_SECONDS):
                try:
                    self.scheduler.reschedule_job(job.id, ELAPSED, trigger=job.trigger)
                except JobLookupError:
                    pass  # it ran meanwhile

    def _on_change(self, what: str, game_id: str | None) -> None:
        if what == "phase" and game_id:
            self.sync_game(game_id)
        elif what == "close_now" and game_id:
            self._close_now_soon(game_id)

    def _close_now_soon(self, game_id: str) -> None:
        self._after(f"ready:{game_id}", 0, self._close_ready, game_id)

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
        leads = self.svc.records.reminder_leads()
        live = set()
        for ph in rows:
            live.add(ph["id"])
            self._schedule(ph, leads.get(ph["game_id"], []))
        with self._lock:
            for gone in set(self._known) - live:
                self._unschedule(gone)

    def sync_game(self, game_id: str) -> None:
        rows = self.svc.records.open_phases_with_game_status(game_id)
        leads = self.svc.records.reminder_leads(game_id).get(game_id, [])
        live = set()
        for ph in rows:
            if ph["deadline"] and ph["game_status"] == "active":
                live.add(ph["id"])
                self._schedule(ph, leads)
        with self._lock:
            for gone in self._known_of_game.get(game_id, set()) - live:
                self._unschedule(gone)

    def _schedule(self, ph: dict, leads: list[int]) -> None:
        """The phase's jobs at its deadline and next reminder (``leads``: its players' lead hours),
        moments of the calendar: a clock step changes when they are due, not the jobs."""
        if self.stopping:
            return
        deadline = from_iso(ph["deadline"])
        reminder = self.svc.phases.next_reminder_time(ph, leads, after=self.svc.now())
        key = (ph["deadline"], reminder, ph["game_id"])
        with self._lock:
            if self._known.get(ph["id"]) == key:
                return
            self._known[ph["id"]] = key
            self._known_of_game.setdefault(ph["game_id"], set()).add(ph["id"])
        if ph["id"] not in self._close_failures:  # a failed close waits for its retry
            self._at(f"close:{ph['id']}", deadline, self._close, ph["game_id"], ph["id"])
        if reminder is not None and reminder < deadline:
            self._at(f"remind:{ph['id']}", reminder, self._remind, ph["game_id"])

    def _at(self, job_id: str, moment, fn, *args) -> None:
        """``fn(*args)`` once the calendar reaches ``moment`` (replacing a job of that id)."""
        self.scheduler.add_job(self._job, DateTrigger(moment, timezone.utc), args=[fn, *args], id=job_id,
                               jobstore=CALENDAR, replace_existing=True)

    def _drop(self, job_id: str) -> None:
        try:
            self.scheduler.remove_job(job_id, CALENDAR)
        except JobLookupError:
            pass  # it ran, or was never made

    def _unschedule(self, phase_row_id: int) -> None:
        key = self._known.pop(phase_row_id, None)
        if key is not None:
            others = self._known_of_game.get(key[2], set())
            others.discard(phase_row_id)
            if not others:
                self._known_of_game.pop(key[2], None)
        self._drop(f"close:{phase_row_id}")
        self._drop(f"remind:{phase_row_id}")

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
            self._drop(f"close:{phase_row_id}")  # the deadline's job, when the sweep met the failure first
            self._after(f"retry:{phase_row_id}", delay, self._close, game_id, phase_row_id, reason, actor)
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
