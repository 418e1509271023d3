"""Rule cases kept as data (tests/rummy/cases/*.json), run by one test: a position (with
the game's house rules, ``options``), the orders of the player to move (one mail, or a
list of mails played one after the other), and what must follow: the errors, or the
tables, hand, points, discard pile, the sentences each role reads and who plays next."""

import json
from pathlib import Path

import pytest

from pbem.engines.rummy import cards as C

from .helpers import ENGINE, build, errors, play, table, texts

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_rule_case(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["rule"] and case["quote"]
    st = build(case.get("scenario", "two"), hands=case.get("hands"), tables=case.get("tables"),
               discard=case.get("discard"), deck_top=case.get("deck_top"), player=case.get("player", "p1"),
               stage=case.get("stage", "play"), options=case.get("options"), totals=case.get("totals"))
    expect = case["expect"]
    mails = case["orders"] if isinstance(case["orders"], list) else [case["orders"]]
    if "errors" in expect:
        for mail in mails[:-1]:
            st, _, _ = play(st, mail)
        assert errors(st, mails[-1]) == expect["errors"]
        return
    player = st["player"]
    events = []
    new = st
    for mail in mails:
        new, evs, _ = play(new, mail)
        events += evs
    for p, groups in expect.get("tables", {}).items():
        assert table(new, p) == [(k, v) for k, v in groups], p
    if "hand" in expect:
        assert sorted(C.KIND_OF[c] for c in new["hands"][player]) == sorted(expect["hand"])
    if "table_points" in expect:
        view = ENGINE.view(new, None)
        assert {p: view["table_points"][p] for p in expect["table_points"]} == expect["table_points"]
    if "discard_top" in expect:
        n = len(expect["discard_top"])
        assert [C.KIND_OF[c] for c in new["discard"][-n:]] == expect["discard_top"]
    for role, sentences in expect.get("reads", {}).items():
        seen = texts(events, None if role == "observer" else role)
        for sentence in sentences:
            assert sentence in seen, (role, sentence, seen)
    for role, words in expect.get("never_reads", {}).items():
        seen = " ".join(texts(events, None if role == "observer" else role))
        for word in words:
            assert word not in seen, (role, word)
    if "next" in expect:
        assert ENGINE.phase(new).awaited == (expect["next"],)
    if "winner" in expect:
        assert (ENGINE.outcome(new) or {}).get("winner") == expect["winner"]
        assert new["target"] == expect["target"]
    if "house_rules" in expect:
        assert ENGINE.view(new, None)["house_rules"] == expect["house_rules"]
