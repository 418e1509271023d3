"""Line of sight (rule 27): the shortest, straightest hex lines between two hexes, each
checked for obstructions; clear, partially obstructed or blocked.

Heights: a hex's contour level, +1 for town, woods, orchard (the terrain chart's
``los_height``), +1 for a hex holding friendly units when artillery fires (not for ZOI).
"""

from __future__ import annotations

from functools import lru_cache

from pbem.engines.hexgrid import distance, hex_line

from .tables import terrain

CLEAR, PARTIAL, BLOCKED = "clear", "partial", "blocked"


@lru_cache(maxsize=200000)
def hex_lines(a: str, b: str) -> tuple[tuple[str, ...], ...]:
    """The hexes strictly between ``a`` and ``b`` on the straightest lines: one line, or two
    where the line runs along hexsides (then the two are the paths either side)."""
    return tuple(dict.fromkeys(hex_line(a, b, nudge)[1:-1] for nudge in (1e-6, -1e-6)))


def height(board, h: str, friendly: frozenset = frozenset()) -> int:
    level = board.elevation[h] + terrain()["hexes"][board.terrain[h]]["los_height"]
    return level + (1 if h in friendly else 0)


def _obstructed(board, line: tuple[str, ...], a: str, b: str, friendly: frozenset) -> bool:
    ea, eb = board.elevation[a], board.elevation[b]
    for h in line:
        if h not in board.terrain:
            continue
        level = height(board, h, friendly)
        if level > ea and level > eb:
            return True
        if level == ea and eb < ea:
            return True
        if level == eb and ea < eb:
            return True
    return False


def line_of_sight(board, a: str, b: str, friendly: frozenset = frozenset()) -> str:
    """Clear, partial or blocked from ``a`` to ``b``; ``friendly``: hexes whose units raise
    the line by a level (the firing side's, for artillery fire)."""
    if distance(a, b) <= 1:
        return CLEAR
    lines = hex_lines(a, b)
    blocked = [_obstructed(board, line, a, b, friendly) for line in lines]
    if all(blocked):
        return BLOCKED
    result = PARTIAL if any(blocked) else CLEAR
    if result == CLEAR and board.terrain[b] in ("woods", "town"):
        result = PARTIAL  # rule 27.7
    return result
