"""A phase's result from its start, its orders and its seed: pure, so that the close, a
dispute's re-adjudication and `pbem verify` replay it the same way."""

from __future__ import annotations

import hashlib

from pbem.dice import Dice
from pbem.service.store import dumps


def adjudicate(engine, state: dict, orders: dict, seed: str) -> tuple[dict, list[dict], list[dict]]:
    """The new state, the events and the rolls of one phase."""
    dice = Dice(seed)
    new_state, events = engine.resolve(state, orders, dice)
    return new_state, events, dice.rolls


def state_hash(state: dict) -> str:
    return hashlib.sha256(dumps(state).encode("utf-8")).hexdigest()
