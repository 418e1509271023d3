"""Decoded phase states, kept by phase row while the row's text is unchanged."""

from __future__ import annotations

import json

from pbem.service.phase_states import DecodedStates


def _row(row_id: int, state) -> dict:
    return {"id": row_id, "state": json.dumps(state)}


def test_the_same_text_gives_the_same_decoded_state():
    states = DecodedStates()
    first = states.of(_row(1, {"units": [1, 2]}))
    assert states.of(_row(1, {"units": [1, 2]})) is first
    assert first == {"units": [1, 2]}


def test_a_changed_text_is_decoded_afresh():
    """A moderator's correction or standing orders rewrite the row: the old decoding is not used."""
    states = DecodedStates()
    old = states.of(_row(1, {"turn": 1}))
    new = states.of(_row(1, {"turn": 2}))
    assert new == {"turn": 2} and new is not old


def test_only_the_most_recently_used_are_kept():
    states = DecodedStates(size=2)
    a = states.of(_row(1, {"a": 1}))
    states.of(_row(2, {"b": 1}))
    assert states.of(_row(1, {"a": 1})) is a  # row 1 used again: row 2 is now the oldest
    states.of(_row(3, {"c": 1}))
    assert states.of(_row(1, {"a": 1})) is a
    assert len(states._states) == 2 and 2 not in states._states
