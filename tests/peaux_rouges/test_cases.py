"""Rule cases written as data (tests/peaux_rouges/cases/*.json), run by one test.

Each case: the side to move, the pieces on the test board (O2 in A1 and CH3 in L10
stand by unless placed), optional flag, rule options and standing-order changes (as
settings, or as STANDING lines a side wrote in an earlier mail), the mail's order
text, the d6 rolls in the order drawn, and what must follow: event sentences (in
order, among the turn's events), sentences that must not appear, squares of pieces
(null: eliminated), outcome msgid; or, for a mail that must be refused, the reasons.
"""

import json
from pathlib import Path

import pytest

from pbem.engines.base import event_text
from pbem.engines.peaux_rouges.rules import apply_standing

from .conftest import position, run

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_rule_case(engine, path):
    case = json.loads(path.read_text(encoding="utf-8"))
    state = position(case["pieces"], side=case["side"], flag=case.get("flag"), options=case.get("options"))
    for role, changes in case.get("standing", {}).items():
        state["standing"][role].update(changes)
    for role, text in case.get("standing_orders", {}).items():
        parsed = engine.parse_orders(state, role, text)
        assert not parsed.errors, parsed.errors
        state["standing"][role] = apply_standing(state["standing"][role], parsed.orders["standing"], role)
    expect = case["expect"]
    if "refused" in expect:
        parsed = engine.parse_orders(state, case["side"], case["orders"])
        assert [event_text({"msg": e.reason, "args": e.args}) for e in parsed.errors] == expect["refused"]
        return
    new, events = run(engine, state, case["orders"], rolls=list(case["rolls"]))
    lines = [event_text(e) for e in events]
    at = 0
    for sentence in expect.get("events", []):
        assert sentence in lines[at:], f"{sentence!r} not found after line {at} in {lines}"
        at = lines.index(sentence, at) + 1
    for sentence in expect.get("absent", []):
        assert sentence not in lines, f"{sentence!r} should not be in {lines}"
    for code, square in expect.get("pieces", {}).items():
        assert new["pieces"][code] == square, code
    if "outcome" in expect:
        assert (engine.outcome(new) or {}).get("summary") == expect["outcome"]
