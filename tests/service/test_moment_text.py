"""pbem.moments remembers the text of a moment it has written (per local minute, offset, summer
time, zone and language): every text must be the one babel writes for that very moment."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from babel.dates import format_datetime

from pbem import moments
from pbem.moments import PATTERN, format_moment, zone

ZONES = ["UTC", "Europe/Paris", "Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata",
         "America/St_Johns", "Pacific/Chatham", "Europe/Dublin", "Nowhere/Unknown", None]
LANGS = ["en", "fr", "de", None]


def _babel(moment: datetime, tz: str | None, lang: str | None) -> str:
    return format_datetime(moment.astimezone(zone(tz)), PATTERN, locale=lang or "en")


def _random_moments(rng: random.Random) -> list[datetime]:
    """Random moments from 1850 (zones on local mean time, offsets with seconds) to 2100, each
    with neighbours a few seconds apart (one minute's entry serves them)."""
    out = []
    for _ in range(300):
        m = datetime(1850, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(250 * 365 * 86400))
        out += [m, m + timedelta(seconds=rng.randrange(1, 59)), m - timedelta(seconds=rng.randrange(1, 59))]
    return out


#: the hours around this year's summer-time changes in Europe and North America: in autumn the
#: same local minute is read twice, with two offsets
CHANGES = [change + timedelta(minutes=k, seconds=s)
           for change in (datetime(2026, 3, 29, 1, tzinfo=timezone.utc), datetime(2026, 10, 25, 1, tzinfo=timezone.utc),
                          datetime(2026, 3, 8, 7, tzinfo=timezone.utc), datetime(2026, 11, 1, 6, tzinfo=timezone.utc))
           for k in range(-90, 91, 5) for s in (0, 31)]


def test_each_moment_reads_as_babel_writes_it():
    moments._FORMATTED.clear()
    rng = random.Random(17)
    cases = _random_moments(rng)
    for _ in range(2):  # the second time from the memory
        for m in cases:
            tz, lang = rng.choice(ZONES), rng.choice(LANGS)
            assert format_moment(m, tz, lang) == _babel(m, tz, lang), (m, tz, lang)


def test_the_repeated_hour_reads_with_its_own_offset():
    moments._FORMATTED.clear()
    for _ in range(2):
        for tz in ("Europe/Paris", "Europe/Dublin", "America/New_York", "America/St_Johns"):
            for m in CHANGES:
                assert format_moment(m, tz, "en") == _babel(m, tz, "en"), (m, tz)


def test_the_memory_is_bounded():
    moments._FORMATTED.clear()
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for k in range(moments._FORMATTED_LIMIT + 10):
        format_moment(start + timedelta(minutes=k), "UTC", "en")
    assert len(moments._FORMATTED) <= moments._FORMATTED_LIMIT


def test_the_time_left_is_not_remembered():
    deadline = datetime(2026, 11, 26, 12, 29, tzinfo=timezone.utc)
    early = format_moment(deadline, "UTC", "en", now=deadline - timedelta(hours=3))
    late = format_moment(deadline, "UTC", "en", now=deadline - timedelta(minutes=5))
    assert early == "Thu 26 Nov 2026 12:29 UTC (in 3 h 00 min)"
    assert late == "Thu 26 Nov 2026 12:29 UTC (in 5 min)"
