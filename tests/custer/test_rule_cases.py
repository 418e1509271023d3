"""Rule cases as data: each ``cases/<rule>.json`` is a board fragment, its units, the orders
of one turn, the dice it needs and what must follow. One case per rule, named after it.

Case keys: ``rule`` (the rule quoted), ``board`` (columns, rows, hexes, hexsides, exits),
``units``, optional ``markers``, ``draws`` and ``options`` (the game's rule options),
``orders`` (role -> order text), ``dice``
(label -> value), ``expect``: ``positions`` (unit -> hex or null), ``units`` (unit -> fields
of its state), ``vp``, ``events`` (each matches some event of that type whose args contain
the given ones), ``no_events`` (event types that must not occur), ``no_event_args`` (each
matches no event of that type).
"""

import json
from pathlib import Path

import pytest

from .fragments import fragment, play_turn

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


def contains(actual, expected) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and contains(actual[k], v) for k, v in expected.items())
    return actual == expected


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rule_case(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["rule"], "every case quotes the rule it checks"
    board = case.get("board", {})
    name = fragment(f"case_{path.stem}", columns=board.get("columns", 10), rows=board.get("rows", 10),
                    hexes=board.get("hexes"), hexsides=board.get("hexsides"), exits=board.get("exits"),
                    units=case["units"], markers=case.get("markers"), draws=case.get("draws"))
    state, events = play_turn(name, case.get("orders", {}), case.get("dice", {}), options=case.get("options"))
    expect = case["expect"]
    for uid, hex_ in expect.get("positions", {}).items():
        assert state["units"][uid]["hex"] == hex_, (uid, state["units"][uid])
    for uid, fields in expect.get("units", {}).items():
        assert contains(state["units"][uid], fields), (uid, state["units"][uid])
    if "vp" in expect:
        assert state["vp"] == expect["vp"]
    for wanted in expect.get("events", []):
        assert any(e["type"] == wanted["type"] and contains(e["args"], wanted.get("args", {})) for e in events), \
            (wanted, [e for e in events if e["type"] == wanted["type"]])
    for kind in expect.get("no_events", []):
        assert not [e for e in events if e["type"] == kind], kind
    for unwanted in expect.get("no_event_args", []):
        assert not [e for e in events if e["type"] == unwanted["type"] and contains(e["args"], unwanted.get("args", {}))], \
            unwanted
