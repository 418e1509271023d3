"""Clock faults: deadlines are stored in UTC and shown in each player's zone; a
daylight-saving change neither moves nor doubles one. tests/core/test_timing.py
covers the computation; here the whole service runs on a clock that walks through
the night of a change, closing what is due every few minutes as the scheduler's
catch-up does, and restarting half-way."""

from datetime import datetime, timedelta, timezone

from pbem.service.service import Service
from pbem.service.timing import parse_deadline
from tests.core.helpers import IND, US
from tests.reliability.helpers import parse

UTC = timezone.utc


class Clock:
    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


def _texts(svc, kind, to_addr):
    rows = svc.store.all("SELECT raw FROM outbox WHERE kind = ? AND to_addr = ? ORDER BY id", (kind, to_addr))
    return [parse(r["raw"]).get_body(("plain",)).get_content() for r in rows]


def _walk(settings, clock, until, step=timedelta(minutes=5), restart_at=None):
    """Advance the clock to ``until``, closing due phases and sending reminders at every step;
    a new Service (a server restart) at ``restart_at``."""
    svc = Service(settings, clock=clock).init()
    while clock.now < until:
        clock.now += step
        if restart_at is not None and clock.now >= restart_at:
            svc.close()
            svc = Service(settings, clock=clock).init()
            restart_at = None
        svc.phases.close_due()
        svc.phases.send_reminders()
    return svc


def test_a_deadline_in_the_repeated_hour_closes_once(settings):
    """Paris goes back from 03:00 CEST to 02:00 CET on 25 October 2026: 02:30 happens
    twice (00:30 and 01:30 UTC). A daily 02:30 deadline is the first one, closes once,
    and the next is 02:30 CET on the 26th (01:30 UTC), not an hour later on the 25th."""
    clock = Clock(datetime(2026, 10, 24, 12, 0, tzinfo=UTC))
    svc = Service(settings, clock=clock).init()
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                          timing={"phase": parse_deadline("daily 02:30 Europe/Paris")},
                          timezones={"us": "America/New_York", "indians": "Europe/Paris"})
    first = svc.records.current_phase(gid)
    assert first["deadline"] == "2026-10-25T00:30:00+00:00", "stored in UTC"
    # Shown in each player's own zone, with the zone's abbreviation of that moment.
    [welcome_paris] = _texts(svc, "welcome", IND)
    [welcome_ny] = _texts(svc, "welcome", US)
    assert "02:30" in welcome_paris and "Oct 2026 02:30" in welcome_paris, welcome_paris
    assert "20:30" in welcome_ny, welcome_ny
    svc.close()

    svc = _walk(settings, clock, datetime(2026, 10, 25, 4, 0, tzinfo=UTC),
                restart_at=datetime(2026, 10, 25, 1, 0, tzinfo=UTC))
    phases = svc.store.all("SELECT * FROM phases WHERE game_id = ? ORDER BY seq", (gid,))
    resolved = [p for p in phases if p["status"] == "resolved"]
    assert len(resolved) == 1, "closed once, not again when 02:30 comes round a second time"
    assert resolved[0]["resolved_at"] == "2026-10-25T00:30:00+00:00"
    assert phases[-1]["status"] == "open"
    assert phases[-1]["deadline"] == "2026-10-26T01:30:00+00:00", "the next 02:30 in Paris, now in winter time"
    reports = _texts(svc, "report", IND)
    assert len(reports) == 1
    assert len(svc.store.all("SELECT * FROM outbox WHERE kind = 'report'")) == 2, "one report per player"
    # The next day: one more close, at 01:30 UTC.
    svc.close()
    svc = _walk(settings, clock, datetime(2026, 10, 26, 4, 0, tzinfo=UTC), step=timedelta(minutes=10))
    resolved = svc.store.all("SELECT resolved_at FROM phases WHERE game_id = ? AND status = 'resolved' ORDER BY seq", (gid,))
    assert [r["resolved_at"] for r in resolved] == ["2026-10-25T00:30:00+00:00", "2026-10-26T01:30:00+00:00"]
    svc.close()


def test_a_stored_deadline_does_not_move_across_the_change_or_a_restart(settings):
    """A 24 h deadline set the evening before the change stays the same instant; the
    reminder a player asked for one hour before is sent once, at 01:00 UTC, even though
    the local clock shows 02:00 twice that night."""
    clock = Clock(datetime(2026, 10, 24, 2, 0, tzinfo=UTC))
    svc = Service(settings, clock=clock).init()
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                          timing={"phase": {"kind": "duration", "seconds": 24 * 3600}},
                          timezones={"us": "Europe/Paris", "indians": "Europe/Paris"})
    with svc.store.write():
        svc.store.execute("UPDATE players SET reminder_hours = 1 WHERE game_id = ?", (gid,))
    deadline = svc.records.current_phase(gid)["deadline"]
    assert deadline == "2026-10-25T02:00:00+00:00"
    svc.close()
    svc = _walk(settings, clock, datetime(2026, 10, 25, 1, 50, tzinfo=UTC), step=timedelta(minutes=10),
                restart_at=datetime(2026, 10, 25, 0, 40, tzinfo=UTC))
    assert svc.records.current_phase(gid)["deadline"] == deadline, "unchanged by the change or the restart"
    reminders = svc.store.all("SELECT to_addr, created_at FROM outbox WHERE kind = 'reminder' ORDER BY id")
    assert sorted(r["to_addr"] for r in reminders) == sorted([US, IND]), "one reminder each"
    assert {r["created_at"] for r in reminders} == {"2026-10-25T01:00:00+00:00"}
    text = _texts(svc, "reminder", US)[0]
    assert "03:00" in text, "shown as 03:00 Paris winter time"
    svc.close()
    svc = _walk(settings, clock, datetime(2026, 10, 25, 3, 0, tzinfo=UTC), step=timedelta(minutes=10))
    resolved = svc.store.all("SELECT resolved_at FROM phases WHERE game_id = ? AND status = 'resolved'", (gid,))
    assert [r["resolved_at"] for r in resolved] == ["2026-10-25T02:00:00+00:00"]
    svc.close()
