"""Issue 26, item 9: a clock stepping back stalled new deadlines (the periodic sync ran on the
calendar: after a step back of three days its next run was three days ahead, and a game made
from the CLI with a 20 s deadline stayed open). NTP corrections and restored virtual machines
step clocks both ways.

The scheduler runs here on a clock the test moves by hand, as the machine's would move: the
service's clock (the calendar, which steps) and a monotonic one (elapsed time, which never
does). Nothing waits on the wall clock: each move is followed by waiting, on events, until the
timer has looked at the new time and every job it started has ended. Then every deadline must
have closed once, at most a few seconds after its time, and none before it.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

from pbem.service.clock import from_iso
from pbem.service.scheduler import Clockwork
from pbem.service.service import Service
from pbem.service.timer import Ticks
from tests.core.helpers import IND, US

UTC = timezone.utc
LATE = timedelta(seconds=3)  # "a few seconds": the timer reads the clock again every second


class SteppingClock(Ticks):
    """The service's clock and a monotonic one, moved by the test: ``advance`` moves both (time
    passes), ``step`` moves the calendar alone (NTP, a restored virtual machine)."""

    def __init__(self, start: datetime):
        self.wall, self.mono = start, 1000.0
        self._lock = threading.Lock()
        self._waiting: set[threading.Condition] = set()

    def __call__(self) -> datetime:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    def wait(self, condition: threading.Condition, timeout: float) -> None:
        with self._lock:
            self._waiting.add(condition)
        condition.wait(1.0)  # woken by a move; the real second only guards against a lost wake-up

    def _moved(self) -> None:
        with self._lock:
            waiting = list(self._waiting)
        for condition in waiting:
            with condition:
                condition.notify_all()

    def advance(self, seconds: float) -> None:
        self.wall += timedelta(seconds=seconds)
        self.mono += seconds
        self._moved()

    def step(self, delta: timedelta) -> None:
        self.wall += delta
        self._moved()


def _game(svc: Service, seconds: int) -> tuple[str, datetime]:
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                           timing={"phase": {"kind": "duration", "seconds": seconds}})
    return gid, from_iso(svc.records.current_phase(gid)["deadline"])


def _first_phase(svc: Service, gid: str) -> dict:
    return svc.store.one("SELECT * FROM phases WHERE game_id = ? AND seq = 1 AND status != 'superseded'", (gid,))


def test_every_deadline_closes_once_within_seconds_of_its_time_across_clock_steps(settings):
    clock = SteppingClock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    settings = settings.with_(scheduler_sync_seconds=10.0)
    svc = Service(settings, clock=clock).init()
    cli = Service(settings, clock=clock).init()  # another process on the same database: the server hears nothing of it
    works = Clockwork(svc, ticks=clock)
    works.start()
    deadlines: dict[str, datetime] = {}
    closed_at: dict[str, datetime] = {}  # game -> the clock when its first phase was seen resolved

    def settle() -> None:
        assert works.timer.wait_idle(30), "the timer looked at the clock and finished what it started"
        for gid, deadline in deadlines.items():
            phase = _first_phase(svc, gid)
            if phase["status"] == "resolved":
                closed_at.setdefault(gid, clock.wall)
            else:
                assert clock.wall < deadline + LATE, f"{gid} still open {clock.wall - deadline} after its deadline"

    def run(seconds: int) -> None:
        for _ in range(seconds):
            clock.advance(1)
            settle()

    try:
        settle()
        a, deadlines[a] = _game(svc, 60)  # made in the server: its job is at its deadline
        run(5)
        clock.step(timedelta(days=-3))  # the clock steps back three days
        settle()
        c, deadlines[c] = _game(cli, 20)  # made from the CLI after the step, due 20 s later on the stepped clock
        run(30)
        assert c in closed_at, "the CLI's game closed after the clock stepped back"
        assert a not in closed_at, "a deadline three days ahead on the stepped clock waits"
        d, deadlines[d] = _game(cli, 3 * 86400 + 30)  # due after the clock steps forward again
        clock.step(timedelta(days=3))  # back where it was: a's deadline is 55 s ahead, d's 30 s
        settle()
        run(70)
        e, deadlines[e] = _game(svc, 10)
        clock.step(timedelta(hours=2))  # far forward: e's deadline is passed at once
        settle()
        run(3)
    finally:
        works.shutdown()
        cli.close()
    assert set(closed_at) == set(deadlines), f"closed: {sorted(closed_at)} of {sorted(deadlines)}"
    for gid, deadline in deadlines.items():
        phase = _first_phase(svc, gid)
        resolved = from_iso(phase["resolved_at"])
        assert deadline <= resolved, f"{gid} closed before its deadline"
        assert resolved - deadline < LATE or gid == e, f"{gid} closed {resolved - deadline} after its deadline"
        resolved_rows = svc.store.all("SELECT id FROM phases WHERE game_id = ? AND seq = 1 AND status = 'resolved'", (gid,))
        assert len(resolved_rows) == 1, f"{gid} closed once"
        reports = svc.store.all("SELECT to_addr FROM outbox WHERE game_id = ? AND kind = 'report' AND subject LIKE ?",
                                (gid, f"%Report {phase['label']}%"))
        assert sorted(r["to_addr"] for r in reports) == sorted([US, IND]), f"{gid}: one report per player"
    assert from_iso(_first_phase(svc, e)["resolved_at"]) - clock.wall < timedelta(seconds=5), "e closed as soon as the step passed it"
    svc.close()
