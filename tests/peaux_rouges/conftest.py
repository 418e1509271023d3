"""Helpers for the Peaux-Rouges tests: build positions by hand, run a turn."""

from __future__ import annotations

import hashlib

import pytest

from pbem.dice import Dice
from pbem.engines.peaux_rouges import PeauxRougesEngine
from pbem.engines.peaux_rouges.pieces import LC, PIECES, PR
from pbem.engines.peaux_rouges import board as _board
from pbem.engines.peaux_rouges.options import rule_options
from pbem.engines.peaux_rouges.rules import default_standing

SCENARIO = "little_big_horn"
TEST = "rules_test"

# A small board for the rule tests, so they do not depend on the scenario's design:
#      A B C D E F G H I J K L
#  1   . ^ . . . . . . . . . .   blue arrow B1
#  2   . . . . . . . . . . . .
#  3   ~ ~ = ~ ~ ~ ~ ~ ~ ~ ~ ~   river, ford C3
#  4   . . . . . . . . . . . .
#  5   . . . . w . . . . . . .   woods E5
#  6   . . . . . . . . r . . .   rocks I6
#  7   . . . . . . p p . . . .   parapets G7 H7
#  8 .. 10 open ground
TEST_BOARD = {
    "name": TEST, "columns": 12, "rows": 10,
    "terrain": [
        "............",
        "............",
        "~~=~~~~~~~~~",
        "............",
        "....w.......",
        "........r...",
        "......pp....",
        "............",
        "............",
        "............",
    ],
    "arrows": ["B1"], "village": [], "flag": "A10", "start": {}, "turn_limit": 5,
}
_board._BOARDS[TEST] = _board.Board(TEST_BOARD)


@pytest.fixture(scope="session")
def engine():
    return PeauxRougesEngine()


def seed(*parts) -> str:
    return hashlib.sha256(" ".join(str(p) for p in parts).encode()).hexdigest()


def dice(*parts) -> Dice:
    return Dice(seed("test", *parts))


def position(pieces: dict[str, str], side: str = LC, flag: str | None = None, turn: int = 1,
             turn_limit: int = 5, scenario: str = TEST, bystanders: bool = True,
             options: dict | None = None) -> dict:
    """A state on the test board with only the listed pieces (every other piece eliminated).

    Unless ``bystanders`` is false, officer O2 waits in A1 and chief CH3 in L10 when the
    test does not place them, so that no kill ends the game by accident (the victory
    conditions need every chief, or Custer and every officer, gone)."""
    pieces = dict(pieces)
    if bystanders:
        taken = set(pieces.values())
        if "O2" not in pieces and "A1" not in taken:
            pieces["O2"] = "A1"
        if "CH3" not in pieces and "L10" not in taken:
            pieces["CH3"] = "L10"
    return {
        "scenario": scenario, "turn": turn, "side": side, "turn_limit": turn_limit,
        "pieces": {c: pieces.get(c) for c in PIECES}, "flag": flag,
        "options": rule_options(options),
        "standing": {LC: default_standing(LC), PR: default_standing(PR)},
        "last": None, "outcome": None,
    }


class FixedDice(Dice):
    """Dice whose d6 rolls are given per label suffix (attacker/target), for the sheet's arithmetic."""

    def __init__(self, rolls: dict[str, int] | list[int]):
        super().__init__("00" * 32)
        self.fixed = rolls
        self.seen: list[str] = []

    def roll(self, sides: int, label: str) -> int:
        self.seen.append(label)
        if isinstance(self.fixed, list):
            value = self.fixed.pop(0)
        else:
            value = next(v for k, v in self.fixed.items() if label.endswith(k))
        self.rolls.append({"for": label, "kind": f"d{sides}", "value": value})
        return value


def run(engine, state: dict, text: str, rolls=None):
    """Parse ``text`` for the side to move (no errors allowed) and resolve it."""
    role = state["side"]
    parsed = engine.parse_orders(state, role, text)
    assert not parsed.errors, parsed.errors
    d = FixedDice(rolls) if rolls is not None else dice(text)
    new, events = engine.resolve(state, {role: parsed.orders}, d)
    return new, events


def texts(events) -> list[str]:
    from pbem.engines.base import event_text

    return [event_text(e) for e in events]


__all__ = ["LC", "PR", "position", "run", "texts", "FixedDice", "dice", "seed"]
