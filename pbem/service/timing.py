"""Deadlines: a duration or a clock time, computed in the game's zone, stored in UTC."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d)?\s*$", re.I)
_UNIT = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, None: 3600}
_CLOCK = re.compile(r"^\s*(?:daily\s+)?(\d{1,2}):(\d{2})(?:\s+(\S+))?\s*$", re.I)

# A game's timing: one deadline spec per deadline kind its engine declares
# (``Engine.deadline_kinds``: "phase", "turn", ...) plus these settings.
DEFAULT_TIMING = {
    "early_close_seconds": None,   # close once every awaited role has ordered, after this delay
    "no_orders": "hold",           # hold (default/standing orders) | wait (for a moderator)
}


class TimingError(ValueError):
    pass


#: a key of the timing a game's creator gives (``pbem game new --deadline``): the deadline of the
#: game's normal phases, which is the kind its first phase names ("phase" for Custer's turns,
#: "turn" for Last Full Measure, rummy and Peaux-Rouges, whose every phase is one side's), unless
#: that kind is given a deadline of its own
NORMAL = "normal"


def with_normal_deadline(timing: dict, given: dict | None, first_kind: str) -> dict:
    """A new game's complete ``timing`` with the ``NORMAL`` deadline ``given`` applied to
    ``first_kind``, the kind its first phase names, where nothing else was given for it."""
    normal = (given or {}).get(NORMAL)
    if normal is None or (given or {}).get(first_kind) is not None or first_kind not in timing:
        return timing
    return {**timing, first_kind: normal}


def game_timing(kinds, given: dict | None) -> dict:
    """A new game's timing: the settings, then one spec per declared deadline kind
    (``kinds``: the engine's ``DeadlineKind``s), each from ``given`` or its default
    length. A spec given for a kind the engine does not declare is an error."""
    names = [k.name for k in kinds]
    given = {key: value for key, value in (given or {}).items() if key != NORMAL}  # applied once the first phase is known
    unknown = sorted({key for key, value in given.items() if value is not None} - set(names) - set(DEFAULT_TIMING))
    if unknown:
        raise TimingError(f"no deadline kind {', '.join(map(repr, unknown))} in this game (its kinds: {', '.join(names)})")
    timing = {**DEFAULT_TIMING, **{k.name: {"kind": "duration", "seconds": k.hours * 3600} for k in kinds}}
    timing.update({key: value for key, value in given.items() if value is not None or key in DEFAULT_TIMING})
    return timing


def deadline_spec(timing: dict, kind: str) -> dict:
    """The spec of the deadline kind a phase names; an error when the game has none
    (the engine named a kind it does not declare)."""
    spec = timing.get(kind)
    if not isinstance(spec, dict):
        raise TimingError(f"a phase names the deadline kind {kind!r}, which this game does not time "
                          f"(its kinds: {', '.join(k for k, v in timing.items() if isinstance(v, dict))})")
    return spec


def parse_deadline(text: str) -> dict:
    """'48h', '90m', '2d', '30s', or a clock time 'daily 18:00 Europe/Paris'."""
    match = _DURATION.match(text)
    if match:
        seconds = float(match.group(1)) * _UNIT[(match.group(2) or "").lower() or None]
        if seconds <= 0:
            raise TimingError(f"a deadline must be in the future: {text!r}")
        return {"kind": "duration", "seconds": seconds}
    match = _CLOCK.match(text)
    if match:
        hour, minute, tz = int(match.group(1)), int(match.group(2)), match.group(3) or "UTC"
        if hour > 23 or minute > 59:
            raise TimingError(f"no such time of day: {text!r}")
        try:
            ZoneInfo(tz)
        except Exception:
            raise TimingError(f"unknown time zone {tz!r} (use names like Europe/Paris)") from None
        return {"kind": "clock", "hour": hour, "minute": minute, "tz": tz, "min_seconds": 12 * 3600}
    raise TimingError(f"cannot read the deadline {text!r}: write 48h, 90m, 2d or 'daily 18:00 Europe/Paris'")


def parse_duration(text: str) -> float:
    spec = parse_deadline(text)
    if spec["kind"] != "duration":
        raise TimingError(f"expected a duration such as 24h, not {text!r}")
    return spec["seconds"]


def deadline_after(spec: dict, opened: datetime) -> datetime:
    if spec["kind"] == "duration":
        return opened + timedelta(seconds=spec["seconds"])
    tz = ZoneInfo(spec["tz"])
    day = opened.astimezone(tz).date()
    wall = time(spec["hour"], spec["minute"])
    # Step by calendar day in the local zone: 18:00 stays 18:00 across a
    # daylight-saving change, and the stored UTC moment is exact.
    while True:
        candidate = datetime.combine(day, wall, tzinfo=tz).astimezone(timezone.utc)
        if (candidate - opened).total_seconds() >= spec.get("min_seconds", 0):
            return candidate
        day += timedelta(days=1)


def describe(spec: dict) -> str:
    if spec["kind"] == "duration":
        hours = spec["seconds"] / 3600
        return f"{hours:g} h" if hours >= 1 else f"{spec['seconds'] / 60:g} min"
    return f"daily {spec['hour']:02d}:{spec['minute']:02d} {spec['tz']}"
