"""Short names and places as players read them: what a unit's label on the pictures carries and
the positions list repeats ("6 WI" for the 6th Wisconsin, as on a Last Full Measure counter),
and the landmark a unit stands by.

Made from the order of battle and the table, never stored."""

from __future__ import annotations

import math
from functools import lru_cache

from pbem.engines.lfm.names import short_name  # one abbreviation of a regiment's name for every Civil War game

from .scenario import Scenario

NEAR = 12.0  # inches: a landmark farther than this names no unit's place (two grid squares)


@lru_cache(maxsize=16)
def _short_names(names: tuple[tuple[str, str], ...], officers: frozenset[str]) -> dict[str, str]:
    made = {uid: short_name(name) for uid, name in names}
    made = {uid: s + " Bty" if "Battery" in full_name and "Bty" not in s else s  # "Purcell Bty", not "Purcell"
            for (uid, full_name), s in zip(names, made.values())}
    counts: dict[str, int] = {}
    for s in made.values():
        counts[s] = counts.get(s, 0) + 1
    full = dict(names)
    # a clash, or a short name that is an officer's alone, keeps the full name
    return {uid: (s if counts[s] == 1 and s not in officers else full[uid]) for uid, s in made.items()}


def short_names(sc: Scenario) -> dict[str, str]:
    """Unit id -> its short name, unique within the scenario."""
    return _short_names(tuple((uid, u["name"]) for uid, u in sc.units.items()),
                        frozenset(o["name"] for o in sc.officers.values()))


def nearest_landmark(sc: Scenario, x: float, y: float) -> dict | None:
    """The nearest landmark within ``NEAR`` inches: its name, the distance and the bearing from it
    (N, NE...), or None."""
    best = None
    for name, (lx, ly) in sc.table.landmarks.items():
        d = math.hypot(x - lx, y - ly)
        if d <= NEAR and (best is None or d < best[1]):
            best = (name, d, lx, ly)
    if best is None:
        return None
    name, d, lx, ly = best
    if d < 1.0:
        return {"name": name, "inches": 0, "from": ""}
    bearing = math.degrees(math.atan2(x - lx, ly - y)) % 360  # clockwise from the top edge
    return {"name": name, "inches": int(round(d)), "from": compass(bearing)}


COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def compass(bearing: float) -> str:
    return COMPASS[int((bearing % 360 + 22.5) // 45) % 8]
