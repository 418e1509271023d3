"""The game's numbers, read from data/acw/tables/*.json (each choice is argued in
data/acw/README.md). Tables are read once; callers get the shared copy and must not
change it."""

from __future__ import annotations

from functools import lru_cache

from pbem.resources import load_json

SCALES = ("25mm", "15mm")


@lru_cache(maxsize=None)
def table(name: str) -> dict:
    return load_json("acw", "tables", f"{name}.json")


def scale(scale_name: str) -> dict:
    """Stand sizes and scale-dependent distances for ``25mm`` or ``15mm``."""
    return table("scales")[scale_name]


def stand_size(scale_name: str, arm: str) -> tuple[float, float]:
    width, depth = scale(scale_name)["stand"][arm]
    return float(width), float(depth)


def base_move(scale_name: str, arm: str, formation: str) -> float:
    return float(table("movement")["base"][scale_name][arm].get(formation, 0))


def variable_move(scale_name: str, column: str, d20: int) -> float:
    """The inches the D20 adds to (or takes from) the base move, in the ``open``,
    ``rough`` or ``road`` column of the variable move table."""
    moves = table("movement")["variable_move"]
    for i, (low, high) in enumerate(moves["rows"]):
        if low <= d20 <= high:
            return float(moves[scale_name][column][i])
    raise ValueError(f"d20 roll {d20} is not on the table")


def ranges(scale_name: str, weapon: str) -> dict:
    return table("fire")["ranges"][scale_name][weapon]


def initial_morale(quality: str, d6: int) -> int:
    return table("morale")["initial"][quality][d6 - 1]


def hits_to_remove_stand(arm: str) -> int:
    fire = table("fire")
    return fire["figures"][arm] * fire["hits_per_figure"][arm]
