"""Deadlines: stored in UTC, computed in the game's zone, never moved or doubled by daylight saving."""

from datetime import datetime, timezone

import pytest

from pbem.moments import format_moment
from pbem.service.timing import TimingError, deadline_after, parse_deadline


def test_durations():
    assert parse_deadline("48h") == {"kind": "duration", "seconds": 172800}
    assert parse_deadline("90m")["seconds"] == 5400
    assert parse_deadline("2d")["seconds"] == 172800


@pytest.mark.parametrize("text", ["soon", "25:00", "18:00 Mars/Olympus", "-3h", "0h"])
def test_unreadable_deadlines_are_explained(text):
    with pytest.raises(TimingError):
        parse_deadline(text)


def test_clock_deadline_keeps_its_wall_time_across_the_autumn_change():
    """Paris leaves summer time on 25 October 2026 at 03:00: a daily 18:00 deadline
    is 16:00 UTC on the 24th and 17:00 UTC on the 25th, once each."""
    spec = parse_deadline("daily 18:00 Europe/Paris")
    spec["min_seconds"] = 3600
    before = deadline_after(spec, datetime(2026, 10, 24, 12, 0, tzinfo=timezone.utc))
    after = deadline_after(spec, before)
    assert before == datetime(2026, 10, 24, 16, 0, tzinfo=timezone.utc)
    assert after == datetime(2026, 10, 25, 17, 0, tzinfo=timezone.utc)
    assert (after - before).total_seconds() == 25 * 3600


def test_clock_deadline_across_the_spring_change():
    spec = parse_deadline("daily 02:30 Europe/Paris")  # 02:30 does not exist on 29 March 2026
    spec["min_seconds"] = 3600
    moment = deadline_after(spec, datetime(2026, 3, 28, 12, 0, tzinfo=timezone.utc))
    nxt = deadline_after(spec, moment)
    assert moment < nxt and (nxt - moment).total_seconds() >= 22 * 3600


def test_duration_deadline_is_exact_across_the_change():
    spec = parse_deadline("24h")
    opened = datetime(2026, 10, 24, 23, 0, tzinfo=timezone.utc)
    assert (deadline_after(spec, opened) - opened).total_seconds() == 86400


def test_deadline_shown_in_each_players_zone():
    moment = datetime(2026, 7, 1, 16, 0, tzinfo=timezone.utc)
    assert "18:00" in format_moment(moment, "Europe/Paris", "en")
    assert "10:00" in format_moment(moment, "America/Denver", "en")
    assert "16:00" in format_moment(moment, "UTC", "en")
