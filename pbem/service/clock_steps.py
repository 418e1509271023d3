"""Elapsed time beside the calendar, for a scheduler (APScheduler) that keeps every job at a
moment of the calendar.

A deadline is a moment of the calendar: its job waits for the service's clock, which NTP
corrections and restored virtual machines step back and forth. The sync, the sweep and a
close's retry are elapsed time: after a step back of three days, a job kept "ten seconds from
now" on the calendar would wait three days (APScheduler's interval jobs did, issue 26 item 9).
So those jobs hold their moment on a monotonic clock (:class:`Elapsed`), and a
:class:`StepWatch` looks at both clocks every second: it logs a step, and has the jobs on
elapsed time put back where their monotonic moment falls on the calendar as it reads now.

Time comes from a :class:`Ticks` (the machine's, by default): tests give one they move by hand.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta
from typing import Callable

from apscheduler.triggers.base import BaseTrigger

log = logging.getLogger("pbem.scheduler")

#: how far the two clocks may drift apart between two looks before it counts as a step (NTP slews far less)
STEP_TOLERANCE_SECONDS = 1.0


class Ticks:
    """The machine's monotonic clock, and a wait measured on it."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wait(self, event: threading.Event, timeout: float | None) -> None:
        """Return once ``event`` is set or ``timeout`` seconds of this clock have passed (None: no limit)."""
        event.wait(timeout)


class Elapsed(BaseTrigger):
    """An APScheduler trigger that fires once, ``seconds`` of elapsed time after it was made. Its
    moment on the calendar is worked out from the calendar as it reads when asked, so
    ``reschedule_job(job_id, trigger=job.trigger)`` after a clock step keeps the job's place in
    elapsed time."""

    def __init__(self, ticks: Ticks, seconds: float):
        self.ticks = ticks
        self.due = ticks.monotonic() + seconds

    def moment(self, now: datetime) -> datetime:
        """Where the monotonic moment falls on a calendar reading ``now``."""
        return now + timedelta(seconds=max(self.due - self.ticks.monotonic(), 0.0))

    def get_next_fire_time(self, previous_fire_time: datetime | None, now: datetime) -> datetime | None:
        return None if previous_fire_time is not None else self.moment(now)

    def __str__(self) -> str:
        return f"elapsed[{self.due:.1f}]"


class StepWatch:
    """A thread that reads the service's clock and the monotonic one every ``check_seconds`` of
    elapsed time: it logs a step (the two clocks moving apart) and calls ``on_look`` each time."""

    def __init__(self, now: Callable[[], datetime], ticks: Ticks, on_look: Callable[[], None], *, check_seconds: float = 1.0):
        self.now, self.ticks, self.on_look, self.check_seconds = now, ticks, on_look, check_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pbem-clock-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        offset = None
        while not self._stop.is_set():
            now_offset = self.now().timestamp() - self.ticks.monotonic()
            if offset is not None and abs(now_offset - offset) > STEP_TOLERANCE_SECONDS:
                log.warning("the clock stepped %+.1f s: deadlines wait for the calendar, the sync, sweep and retries for elapsed time",
                            now_offset - offset)
            offset = now_offset
            try:
                self.on_look()
            except Exception:
                log.exception("looking at the jobs on elapsed time failed")
            self.ticks.wait(self._stop, self.check_seconds)
