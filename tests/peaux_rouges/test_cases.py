"""Rule cases written as data (tests/peaux_rouges/cases/*.json), run by one test.

Each case: the side to move, the pieces on the test board (O2 in A1 and CH3 in L10
stand by unless placed), optional flag and standing-order changes, the mail's order
text, the d6 rolls in the order drawn, and what must follow: event sentences (in
order, among the turn's events), squares of pieces (null: eliminated), outcome msgid.
"""

import json
from pathlib import Path

import pytest

from pbem.engines.base import event_text

from .conftest import position, run

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_rule_case(engine, path):
    case = json.loads(path.read_text(encoding="utf-8"))
    state = position(case["pieces"], side=case["side"], flag=case.get("flag"))
    for role, changes in case.get("standing", {}).items():
        state["standing"][role].update(changes)
    new, events = run(engine, state, case["orders"], rolls=list(case["rolls"]))
    lines = [event_text(e) for e in events]
    expect = case["expect"]
    at = 0
    for sentence in expect.get("events", []):
        assert sentence in lines[at:], f"{sentence!r} not found after line {at} in {lines}"
        at = lines.index(sentence, at) + 1
    for code, square in expect.get("pieces", {}).items():
        assert new["pieces"][code] == square, code
    if "outcome" in expect:
        assert (engine.outcome(new) or {}).get("summary") == expect["outcome"]
