"""Helpers for the Peaux-Rouges tests: build positions by hand, run a turn."""

from __future__ import annotations

import hashlib

import pytest

from pbem.dice import Dice
from pbem.engines.peaux_rouges import PeauxRougesEngine
from pbem.engines.peaux_rouges.pieces import LC, PIECES, PR
from pbem.engines.peaux_rouges.rules import initial_state

SCENARIO = "little_big_horn"


@pytest.fixture(scope="session")
def engine():
    return PeauxRougesEngine()


def seed(*parts) -> str:
    return hashlib.sha256(" ".join(str(p) for p in parts).encode()).hexdigest()


def dice(*parts) -> Dice:
    return Dice(seed("test", *parts))


def position(pieces: dict[str, str], side: str = LC, flag: str | None = None, turn: int = 1) -> dict:
    """A state with only the listed pieces on the board (every other piece eliminated)."""
    st = initial_state(SCENARIO)
    st["pieces"] = {c: pieces.get(c) for c in PIECES}
    st["side"] = side
    st["turn"] = turn
    st["flag"] = flag
    return st


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
