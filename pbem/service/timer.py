"""A small job timer that survives clock steps: jobs at moments of the service's clock (a
deadline, a reminder) and jobs after or every so many seconds of elapsed time (the sync, a
retry), run on a few threads.

A deadline is a moment of the calendar, so its job waits for the service's clock (``now``),
which NTP corrections and restored virtual machines step back and forth; an interval is
elapsed time, so it is measured on a monotonic clock that never steps. The timer wakes at
least every ``check_seconds`` to read the service's clock again: a step forward fires what it
passed at once, a step back delays what it must, and no interval waits for the calendar to
come back (APScheduler, before, ran the sync on the calendar: a step back of three days held
it three days). A step is seen as the distance between the two clocks changing, and told to
``on_step``.

Time comes from a :class:`Ticks` (the machine's, by default): tests give one that they move
by hand, and wait on :meth:`Timer.wait_idle` rather than on the wall clock.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

log = logging.getLogger("pbem.timer")

#: how far the two clocks may drift apart between two looks before it counts as a step (NTP slews far less)
STEP_TOLERANCE_SECONDS = 1.0


class Ticks:
    """The machine's monotonic clock and a wait on it."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wait(self, condition: threading.Condition, timeout: float) -> None:
        """Wait on ``condition`` (held) until notified or ``timeout`` seconds of this clock pass."""
        condition.wait(timeout)


@dataclass
class _Job:
    id: str
    fn: Callable[..., None]
    args: tuple
    at: datetime | None = None  # a moment of the service's clock
    mono: float | None = None  # a moment of the monotonic clock
    every: float | None = None  # seconds between runs


class Timer:
    def __init__(self, now: Callable[[], datetime], *, ticks: Ticks | None = None, workers: int = 2,
                 check_seconds: float = 1.0, on_step: Callable[[float], None] | None = None):
        self.now, self.ticks = now, ticks or Ticks()
        self.check_seconds, self.on_step = check_seconds, on_step
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="pbem-timer")
        self._cond = threading.Condition()
        self._jobs: dict[str, _Job] = {}
        self._running: set[str] = set()
        self._stopping = False
        self._waiting = False  # the loop is waiting (not between two looks)
        self._seen: tuple | None = None  # (now, monotonic) of the loop's last look
        self._offset: float | None = None  # now - monotonic at the last look
        self._thread = threading.Thread(target=self._loop, name="pbem-timer", daemon=True)

    # -- jobs ---------------------------------------------------------------------------------------
    def at(self, job_id: str, when: datetime, fn: Callable[..., None], *args) -> None:
        """Run ``fn(*args)`` once the service's clock reaches ``when`` (replacing a job of that id)."""
        self._add(_Job(job_id, fn, args, at=when))

    def after(self, job_id: str, seconds: float, fn: Callable[..., None], *args) -> None:
        """Run ``fn(*args)`` once ``seconds`` of elapsed time have passed."""
        self._add(_Job(job_id, fn, args, mono=self.ticks.monotonic() + seconds))

    def every(self, job_id: str, seconds: float, fn: Callable[..., None], *args) -> None:
        """Run ``fn(*args)`` now, then every ``seconds`` of elapsed time."""
        self._add(_Job(job_id, fn, args, mono=self.ticks.monotonic(), every=seconds))

    def cancel(self, job_id: str) -> None:
        with self._cond:
            self._jobs.pop(job_id, None)

    def _add(self, job: _Job) -> None:
        with self._cond:
            if self._stopping:
                return
            self._jobs[job.id] = job
            self._cond.notify_all()

    # -- running ------------------------------------------------------------------------------------
    def start(self) -> "Timer":
        self._thread.start()
        return self

    def shutdown(self) -> None:
        """Stop: no job starts after this; the running ones finish first."""
        with self._cond:
            self._stopping = True
            self._jobs.clear()
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join()
        self._pool.shutdown(wait=True)

    def wait_idle(self, timeout: float) -> bool:
        """Wait (on events, at most ``timeout`` real seconds) until the timer has looked at the
        clocks as they read now, started what was due and every job it started has ended. For
        clocks that stand still between a test's moves (the machine's never do)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                idle = self._waiting and not self._running and self._seen == (self.now(), self.ticks.monotonic())
                left = deadline - time.monotonic()
                if idle or left <= 0:
                    return idle
                self._cond.notify_all()  # a look at the clocks as they read now
                self._cond.wait(min(left, 0.05))

    def _loop(self) -> None:
        with self._cond:
            while not self._stopping:
                now, mono = self.now(), self.ticks.monotonic()
                self._seen = (now, mono)
                self._notice_step(now.timestamp() - mono)
                for job in sorted(self._due(now, mono), key=lambda j: j.id):
                    self._start(job, mono)
                self._waiting = True
                self._cond.notify_all()  # wait_idle: a look is done
                self.ticks.wait(self._cond, self._timeout(now, mono))
                self._waiting = False

    def _notice_step(self, offset: float) -> None:
        stepped = None if self._offset is None else offset - self._offset
        self._offset = offset
        if stepped is not None and abs(stepped) > STEP_TOLERANCE_SECONDS:
            log.warning("the clock stepped %+.1f s: the deadlines are read again", stepped)
            if self.on_step is not None:
                self._start(_Job("clock-step", self.on_step, (stepped,)), None)

    def _due(self, now: datetime, mono: float) -> list[_Job]:
        return [j for j in self._jobs.values() if j.id not in self._running
                and ((j.at is not None and j.at <= now) or (j.mono is not None and j.mono <= mono))]

    def _timeout(self, now: datetime, mono: float) -> float:
        waits = [self.check_seconds]
        for j in self._jobs.values():
            if j.id in self._running:
                continue  # its end wakes the loop
            if j.at is not None:
                waits.append((j.at - now).total_seconds())
            if j.mono is not None:
                waits.append(j.mono - mono)
        return max(min(waits), 0.0)

    def _start(self, job: _Job, mono: float | None) -> None:
        """(With the lock held.) A job of the same id already running waits for it to end."""
        if job.every is not None:
            job.mono = mono + job.every
        elif self._jobs.get(job.id) is job:
            del self._jobs[job.id]
        self._running.add(job.id)
        self._pool.submit(self._run, job)

    def _run(self, job: _Job) -> None:
        try:
            job.fn(*job.args)
        except Exception:
            log.exception("timer job %s failed", job.id)
        finally:
            with self._cond:
                self._running.discard(job.id)
                self._cond.notify_all()
