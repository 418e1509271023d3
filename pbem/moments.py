"""How a moment is written for a reader: one readable form everywhere (mails, pages, the
console), in the reader's time zone and language: "Thu 26 Nov 2026 12:29 UTC",
"jeu. 26 nov. 2026 13:29 CET". Stored times stay ISO 8601 UTC (pbem.service.clock)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime

from pbem.i18n import N_, gettext_for

#: the one pattern (CLDR): weekday, day, month, year, 24-hour time, the zone's short name
PATTERN = "EEE d MMM y HH:mm zzz"


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def format_moment(moment: datetime | None, tz: str | None, lang: str | None, now: datetime | None = None) -> str:
    """A moment as the reader reads it: local time and zone, and with ``now`` the time left.
    None is a deadline that does not run (a paused game)."""
    if moment is None:
        return gettext_for(lang)(N_("no deadline (paused)"))
    text = _local_text(moment.astimezone(zone(tz)), lang or "en")
    if now is not None:
        text += " (" + format_remaining((moment - now).total_seconds(), lang) + ")"
    return text


#: (local time to the minute, UTC offset, summer time or not, zone, language) -> the text: what
#: PATTERN reads of a moment. Every acknowledgement writes its phase's deadline and the minute it
#: was received, which babel took 0.1 ms each to format.
_FORMATTED: dict[tuple, str] = {}
_FORMATTED_LIMIT = 4096


def _local_text(local: datetime, lang: str) -> str:
    key = (local.replace(tzinfo=None, second=0, microsecond=0), local.utcoffset(), bool(local.dst()), local.tzinfo, lang)
    text = _FORMATTED.get(key)
    if text is None:
        text = format_datetime(local, PATTERN, locale=lang)
        if len(_FORMATTED) >= _FORMATTED_LIMIT:
            _FORMATTED.clear()
        _FORMATTED[key] = text
    return text


def format_remaining(seconds: float, lang: str | None) -> str:
    _ = gettext_for(lang)
    if seconds <= 0:
        return _("passed")
    hours, rest = divmod(int(seconds), 3600)
    minutes = rest // 60
    if hours >= 48:
        return _("in %(days)d days %(hours)d h") % {"days": hours // 24, "hours": hours % 24}
    if hours:
        return _("in %(hours)d h %(minutes)02d min") % {"hours": hours, "minutes": minutes}
    return _("in %(minutes)d min") % {"minutes": max(minutes, 1)}
