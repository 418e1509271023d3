"""Rule cases as data: each ``cases/<section>_<rule>.json`` is a map fragment, its units, the
mails of one player turn, the dice it needs and what must follow; named after the rules
section it checks (and the table row class, for the designed tables).

Case keys: ``rule`` (the rule in our words), ``section``, ``map`` (columns, rows, hexes,
elevation, hexsides, roads), ``units``, optional ``commanders``, ``turns``, ``mails_per_turn``,
``victory``, ``options`` (game options: the other reading of an ambiguous rule), ``changes`` (state fields set after setup: ``units``/``commanders``/``brigades`` by id,
``standing``...), ``mails`` (order texts, each resolved as the phasing side's), ``dice``
(label -> value or list; every scripted label must be rolled), ``expect``: ``positions`` (id -> hex or null), ``units`` (id ->
fields of its state), ``brigades``, ``events`` (each matches some event of that type whose
args contain the given ones), ``no_events`` (event types that must not occur), ``phase``.
"""

import json
from pathlib import Path

import pytest

from pbem.engines.lfm import LastFullMeasureEngine
from tests.custer.test_rule_cases import contains

from .fragments import ScriptedDice, fragment, play

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rule_case(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["rule"] and case["section"], "every case says the rule it checks and its section"
    m = case.get("map", {})
    name = fragment(f"case_{path.stem}", columns=m.get("columns", 10), rows=m.get("rows", 10), hexes=m.get("hexes"),
                    elevation=m.get("elevation"), hexsides=m.get("hexsides"), roads=m.get("roads"),
                    units=case["units"], commanders=case.get("commanders"), turns=case.get("turns"),
                    mails=case.get("mails_per_turn", 2), victory=case.get("victory"))
    dice = ScriptedDice(case.get("dice", {}))
    state, events = play(name, case.get("mails", ["HOLD"]), changes=case.get("changes"), options=case.get("options"),
                         dice=dice)
    expect = case["expect"]
    for uid, hex_ in expect.get("positions", {}).items():
        where = state["units"][uid]["hex"] if uid in state["units"] else state["commanders"][uid]["hex"]
        assert where == hex_, (uid, where)
    for uid, fields in expect.get("units", {}).items():
        assert contains(state["units"][uid], fields), (uid, state["units"][uid])
    for b, fields in expect.get("brigades", {}).items():
        assert contains(state["brigades"][b], fields), (b, state["brigades"][b])
    for wanted in expect.get("events", []):
        assert any(e["type"] == wanted["type"] and contains(e["args"], wanted.get("args", {})) for e in events), \
            (wanted, [e for e in events if e["type"] == wanted["type"]])
    for kind in expect.get("no_events", []):
        assert not [e for e in events if e["type"] == kind], (kind, [e for e in events if e["type"] == kind])
    if "phase" in expect:
        assert LastFullMeasureEngine().phase(state).id == expect["phase"]
    assert dice.unrolled() == [], "scripted dice never rolled (a wrong label falls back to a random roll)"
