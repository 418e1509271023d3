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

import heapq
import itertools
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


@dataclass(eq=False)
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
        self._jobs: dict[str, _Job] = {}  # id -> the job of that id (a replaced or cancelled one is not here)
        # (when, order, job): one heap per clock; an entry whose job is no longer in _jobs is dropped when met
        self._by_calendar: list[tuple[datetime, int, _Job]] = []
        self._by_elapsed: list[tuple[float, int, _Job]] = []
        self._order = itertools.count()
        self._running: set[str] = set()
        self._held: dict[str, _Job] = {}  # due while a job of its id still runs: started when that one ends
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
            self._held.pop(job_id, None)

    def _add(self, job: _Job) -> None:
        with self._cond:
            if self._stopping:
                return
            self._jobs[job.id] = job
            self._held.pop(job.id, None)
            earliest = self._earliest()
            self._push(job)
            if earliest is None or self._earliest() != earliest:
                self._cond.notify_all()  # sooner than the loop is waiting for

    def _push(self, job: _Job) -> None:
        if job.at is not None:
            heapq.heappush(self._by_calendar, (job.at, next(self._order), job))
        else:
            heapq.heappush(self._by_elapsed, (job.mono, next(self._order), job))

    def _live_top(self, heap: list) -> tuple | None:
        while heap and self._jobs.get(heap[0][2].id) is not heap[0][2]:
            heapq.heappop(heap)  # replaced or cancelled
        return heap[0] if heap else None

    def _earliest(self) -> tuple:
        calendar, elapsed = self._live_top(self._by_calendar), self._live_top(self._by_elapsed)
        return (calendar[0] if calendar else None, elapsed[0] if elapsed else None)

    # -- running ------------------------------------------------------------------------------------
    def start(self) -> "Timer":
        self._thread.start()
        return self

    def shutdown(self) -> None:
        """Stop: no job starts after this; the running ones finish first."""
        with self._cond:
            self._stopping = True
            self._jobs.clear()
            self._held.clear()
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
                idle = self._waiting and not self._running and not self._held and self._seen == (self.now(), self.ticks.monotonic())
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
                for job in self._pop_due(now, mono):
                    self._start(job)
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
                self._start(_Job("clock-step", self.on_step, (stepped,)))

    def _pop_due(self, now: datetime, mono: float) -> list[_Job]:
        due = []
        for heap, reached in ((self._by_calendar, now), (self._by_elapsed, mono)):
            while (top := self._live_top(heap)) is not None and top[0] <= reached:
                heapq.heappop(heap)
                due.append(top[2])
        return due

    def _timeout(self, now: datetime, mono: float) -> float:
        calendar, elapsed = self._earliest()
        waits = [self.check_seconds]
        if calendar is not None:
            waits.append((calendar - now).total_seconds())
        if elapsed is not None:
            waits.append(elapsed - mono)
        return max(min(waits), 0.0)

    def _start(self, job: _Job) -> None:
        """(With the lock held.) A job whose id is running already waits for that run to end."""
        if job.id in self._running:
            self._held[job.id] = job
            return
        if job.every is not None:
            job.mono = self.ticks.monotonic() + job.every
            self._push(job)
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
                held = self._held.pop(job.id, None)
                if held is not None and not self._stopping and (self._jobs.get(held.id) is held or held.id == "clock-step"):
                    self._start(held)
                self._cond.notify_all()
