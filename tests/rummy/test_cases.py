"""Rule cases kept as data (tests/rummy/cases/*.json), run by one test: a position, the
orders of the player to move, and what must follow (the errors, or the tables, hand,
points and discard pile after)."""

import json
from pathlib import Path

import pytest

from pbem.engines.rummy import cards as C

from .helpers import ENGINE, build, errors, play, table

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_rule_case(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["rule"] and case["quote"]
    st = build(case.get("scenario", "two"), hands=case.get("hands"), tables=case.get("tables"),
               discard=case.get("discard"), player=case.get("player", "p1"), stage=case.get("stage", "play"))
    expect = case["expect"]
    if "errors" in expect:
        assert errors(st, case["orders"]) == expect["errors"]
        return
    new, _, _ = play(st, case["orders"])
    for p, groups in expect.get("tables", {}).items():
        assert table(new, p) == [(k, v) for k, v in groups], p
    if "hand" in expect:
        assert sorted(C.KIND_OF[c] for c in new["hands"][st["player"]]) == sorted(expect["hand"])
    if "table_points" in expect:
        view = ENGINE.view(new, None)
        assert {p: view["table_points"][p] for p in expect["table_points"]} == expect["table_points"]
    if "discard_top" in expect:
        n = len(expect["discard_top"])
        assert [C.KIND_OF[c] for c in new["discard"][-n:]] == expect["discard_top"]
