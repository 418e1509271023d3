"""Issue 26, item 9: a clock stepping back stalled new deadlines (the periodic sync ran on the
calendar: after a step back of three days its next run was three days ahead, and a game made
from the CLI with a 20 s deadline stayed open). NTP corrections and restored virtual machines
step clocks both ways.

The scheduler (APScheduler, as `pbem serve` runs it) runs here on a clock the test moves by
hand, as the machine's would move: the service's clock (the calendar, which steps, and which
APScheduler reads too) and a monotonic one (elapsed time, which never steps; every wait of the
scheduler and of the clock's watch is measured on it). Nothing waits on the wall clock: each
move is followed by waiting, on events, until every loop waits again for this clock and every
job started has ended. Then every deadline must have closed once, at most a few seconds after
its time (or after the step that passed it), and none before it.

tests/reliability/test_clock_steps_serve.py does the same to a real `pbem serve` under
libfaketime, the machine's own clocks.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import apscheduler.schedulers.base
import pytest
from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED, EVENT_JOB_SUBMITTED

from pbem.service.clock import from_iso
from pbem.service.clock_steps import Ticks
from pbem.service.scheduler import Clockwork
from pbem.service.service import Service
from tests.core.helpers import IND, US

UTC = timezone.utc
LATE = timedelta(seconds=3)  # "a few seconds": the sweep runs every second, the watch looks every second


class SteppingClock(Ticks):
    """The service's clock and a monotonic one, moved by the test: ``advance`` moves both (time
    passes), ``step`` moves the calendar alone (NTP, a restored virtual machine). It knows who
    waits on it and till when, and counts the scheduler's jobs started and not ended, so
    :meth:`settle` can wait until nothing moves before the next move."""

    def __init__(self, start: datetime):
        self.wall, self.mono = start, 1000.0
        self.cond = threading.Condition()
        self._waits: dict[threading.Thread, tuple[threading.Event, float | None]] = {}
        self._woke: dict[threading.Thread, float] = {}  # when each thread's last wait ended (it has looked since)
        self.running = 0  # jobs submitted and not ended

    def __call__(self) -> datetime:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    def wait(self, event: threading.Event, timeout: float | None) -> None:
        me = threading.current_thread()
        with self.cond:
            # Counted from when the thread's look began: a move during the look shortens the wait.
            until = None if timeout is None else self._woke.get(me, self.mono) + timeout
            self._waits[me] = (event, until)
            self.cond.notify_all()
        try:
            # The event is set by whoever wakes the thread; a move past ``until`` is seen within
            # the 10 ms of each look at it (settle counts a wait that is over as not waiting).
            while not event.wait(0.01):
                with self.cond:
                    if until is not None and self.mono >= until:
                        break
        finally:
            with self.cond:
                del self._waits[me]
                self._woke[me] = self.mono
                self.cond.notify_all()

    def advance(self, seconds: float) -> None:
        with self.cond:
            self.wall += timedelta(seconds=seconds)
            self.mono += seconds

    def step(self, delta: timedelta) -> None:
        with self.cond:
            self.wall += delta

    def count_jobs(self, event) -> None:
        """APScheduler's listener: a job submitted, a job's run ended."""
        with self.cond:
            self.running += 1 if event.code == EVENT_JOB_SUBMITTED else -1
            self.cond.notify_all()

    def settle(self, loops: int, timeout: float = 30.0) -> bool:
        """Wait until ``loops`` threads wait on this clock, none whose wait is over by the clock
        or by its event, and no job runs: everything due at the clock's reading has been done."""
        def still() -> bool:
            waiting = [(e, until) for e, until in self._waits.values()
                       if not e.is_set() and (until is None or until > self.mono)]
            return len(waiting) == loops and self.running == 0
        with self.cond:
            return self.cond.wait_for(still, timeout)


@pytest.fixture
def clock(monkeypatch):
    clock = SteppingClock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))

    class Calendar(datetime):
        """What APScheduler reads as the time: the test's calendar."""

        @classmethod
        def now(cls, tz=None):
            return clock.wall.astimezone(tz)

    monkeypatch.setattr(apscheduler.schedulers.base, "datetime", Calendar)
    return clock


def _game(svc: Service, seconds: int) -> tuple[str, datetime]:
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                           timing={"phase": {"kind": "duration", "seconds": seconds}})
    return gid, from_iso(svc.records.current_phase(gid)["deadline"])


def _first_phase(svc: Service, gid: str) -> dict:
    return svc.store.one("SELECT * FROM phases WHERE game_id = ? AND seq = 1 AND status != 'superseded'", (gid,))


def test_every_deadline_closes_once_within_seconds_of_its_time_across_clock_steps(settings, clock):
    settings = settings.with_(scheduler_sync_seconds=10.0)
    svc = Service(settings, clock=clock).init()
    cli = Service(settings, clock=clock).init()  # another process on the same database: the server hears nothing of it
    works = Clockwork(svc, ticks=clock)
    works.scheduler.add_listener(clock.count_jobs, EVENT_JOB_SUBMITTED | EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    works.start()
    deadlines: dict[str, datetime] = {}
    due_from: dict[str, datetime] = {}  # a deadline a step forward passed counts from the step
    closed_at: dict[str, datetime] = {}  # game -> the clock when its first phase was seen resolved

    def settle() -> None:
        assert clock.settle(loops=2), "the scheduler and the watch looked at the clock and the jobs they started ended"
        for gid, deadline in deadlines.items():
            phase = _first_phase(svc, gid)
            if phase["status"] == "resolved":
                closed_at.setdefault(gid, clock.wall)
            else:
                due = due_from.get(gid, deadline)
                assert clock.wall < due + LATE, f"{gid} still open {clock.wall - due} after it fell due"

    def run(seconds: int) -> None:
        for _ in range(seconds):
            clock.advance(1)
            settle()

    def step(delta: timedelta) -> None:
        clock.step(delta)
        for gid, deadline in deadlines.items():
            if gid not in closed_at and deadline <= clock.wall:
                due_from.setdefault(gid, clock.wall)
        settle()

    try:
        settle()
        a, deadlines[a] = _game(svc, 60)  # made in the server: its job is at its deadline
        run(5)
        step(timedelta(days=-3))  # the clock steps back three days
        c, deadlines[c] = _game(cli, 20)  # made from the CLI after the step, due 20 s later on the stepped clock
        run(30)
        assert c in closed_at, "the CLI's game closed after the clock stepped back"
        assert a not in closed_at, "a deadline three days ahead on the stepped clock waits"
        d, deadlines[d] = _game(cli, 3 * 86400 + 30)  # due after the clock steps forward again
        step(timedelta(days=3))  # back where it was: a's deadline is 55 s ahead, d's 30 s
        run(70)
        e, deadlines[e] = _game(svc, 10)
        step(timedelta(hours=2))  # far forward: e's deadline is passed at once
        run(3)
    finally:
        works.shutdown()
        cli.close()
    assert set(closed_at) == set(deadlines), f"closed: {sorted(closed_at)} of {sorted(deadlines)}"
    for gid, deadline in deadlines.items():
        phase = _first_phase(svc, gid)
        resolved = from_iso(phase["resolved_at"])
        assert deadline <= resolved, f"{gid} closed before its deadline"
        assert resolved - due_from.get(gid, deadline) < LATE, f"{gid} closed {resolved - deadline} after its deadline"
        resolved_rows = svc.store.all("SELECT id FROM phases WHERE game_id = ? AND seq = 1 AND status = 'resolved'", (gid,))
        assert len(resolved_rows) == 1, f"{gid} closed once"
        reports = svc.store.all("SELECT to_addr FROM outbox WHERE game_id = ? AND kind = 'report' AND subject LIKE ?",
                                (gid, f"%Report {phase['label']}%"))
        assert sorted(r["to_addr"] for r in reports) == sorted([US, IND]), f"{gid}: one report per player"
    assert e in due_from, "the step forward passed e's deadline"
    svc.close()
