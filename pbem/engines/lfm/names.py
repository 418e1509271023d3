"""Short names: what a counter on the picture carries and the positions list repeats, so a
reader can match the grey counter on 0908 with "14 VA" in the text ("14th Virginia").

Made from the order of battle's names, never stored: ``short_names(sc)`` gives every unit of a
scenario a short name unique within it (a clash keeps the full names of the units that clash).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .scenario import Scenario

STATES = {
    "Alabama": "AL", "Connecticut": "CT", "Georgia": "GA", "Illinois": "IL", "Indiana": "IN",
    "Louisiana": "LA", "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA", "Michigan": "MI",
    "Mississippi": "MS", "New Jersey": "NJ", "New York": "NY", "North Carolina": "NC", "Ohio": "OH",
    "Pennsylvania": "PA", "South Carolina": "SC", "Tennessee": "TN", "Vermont": "VT",
    "Virginia": "VA", "West Virginia": "WV", "Wisconsin": "WI", "Brooklyn": "Bkn",
}
WORDS = {"Battalion": "Bn", "Cavalry": "Cav", "Legion": "Leg", "Battery": "", "Jeff": "J."}
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_STATE = re.compile(r"\b(" + "|".join(sorted(STATES, key=len, reverse=True)) + r")\b")
_POSSESSIVE = re.compile(r"^(.+?)'s\b(.*)$")
_TRAILING_NUMBER = re.compile(r"\s(\d+)$")


def short_name(name: str) -> str:
    """``14th Virginia`` -> ``14 VA``; ``Jackson's Battery`` -> ``Jackson Bty`` (never just a
    name a commander also bears); ``Pegram's Battalion 2`` -> ``Pegram 2``; ``Cobb's Legion``
    -> ``Cobb Leg``; ``12th Illinois-3rd Indiana`` -> ``12 IL-3 IN``."""
    possessive = _POSSESSIVE.match(name)
    if possessive:  # named for its commander: a legion, a battalion's number, else a battery
        who, rest = possessive.group(1).split()[-1], possessive.group(2)
        number = _TRAILING_NUMBER.search(rest)
        kind = "Leg" if "Legion" in rest else "Bn" if "Battalion" in rest else "Bty"
        return f"{who} {number.group(1) if number else kind}"
    text = _STATE.sub(lambda m: STATES[m.group(1)], _ORDINAL.sub(r"\1", name))
    words = [WORDS.get(w, w) for w in text.split()]
    return " ".join(w for w in words if w)


@lru_cache(maxsize=16)
def _short_names(names: tuple[tuple[str, str], ...]) -> dict[str, str]:
    made = {uid: short_name(name) for uid, name in names}
    counts: dict[str, int] = {}
    for s in made.values():
        counts[s] = counts.get(s, 0) + 1
    full = dict(names)
    return {uid: (s if counts[s] == 1 else full[uid]) for uid, s in made.items()}


def short_names(sc: Scenario) -> dict[str, str]:
    """Unit id -> its short name, unique within the scenario."""
    return _short_names(tuple((uid, u.name) for uid, u in sc.units.items()))
