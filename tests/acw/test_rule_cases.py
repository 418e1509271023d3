"""Rule cases as data: each ``cases/<section>_<rule>.json`` is a small table, its units, the
orders of one turn (or one geometric question), the dice it needs and what must follow.

Case keys: ``rule`` (the rule in our words, with its section), ``table`` (width, height, scale,
terrain, landmarks, entries), ``units``, ``officers``, ``brigades``, ``cards``,
``commanders``, ``wagons`` (the optional supply wagons), ``options``, ``state`` (fields set
after set-up: ``units`` -> fields, ``wagons`` -> fields, ``standing``), ``orders`` (role ->
order text), ``dice`` (label -> value or list),
Every scripted label must be rolled (or, for ``T1 cards``, shuffled): a label the engine
never asks for fails the case rather than leave that roll to chance. ``not_rolled`` lists the
labels the rule must not roll at all (guns in action roll no D20).
``expect``: ``units`` (unit -> fields of its state; a number field within 0.01), ``officers``, ``wagons``,
``events`` (each matches some event of that type whose args contain the given ones),
``no_events`` (types that must not occur), ``no_event_args``.
A geometric case has ``ask`` instead of orders: ``target`` (the unit ``firer`` fires at, or
null), ``cover`` (``firer`` on ``target``: in cover and the share), ``column`` (how the
hit table reads ``target`` fired on by ``firer``), ``sees`` (whether ``viewer`` sees ``target``).
"""

import json
from pathlib import Path

import pytest

from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.acw.fire import choose_target
from pbem.engines.acw.sight import can_see
from pbem.engines.acw.targeting import in_cover, target_kind

from tests.support import resolve_strictly

from .fixtures import ScriptedDice, context, small_scenario

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


def contains(actual, expected) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and contains(actual[k], v) for k, v in expected.items())
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        return abs(actual - expected) <= 0.01
    return actual == expected


def _setup(case: dict, name: str) -> tuple[ACWMiniaturesEngine, dict, ScriptedDice]:
    table = case.get("table", {})
    small_scenario(name, units=case["units"], terrain=table.get("terrain"), officers=case.get("officers"),
                   cards=case.get("cards"), brigades=case.get("brigades"), commanders=case.get("commanders"),
                   width=table.get("width", 48), height=table.get("height", 36), landmarks=table.get("landmarks"),
                   entries=table.get("entries"), scale=table.get("scale", "25mm"), wagons=case.get("wagons"))
    engine = ACWMiniaturesEngine()
    dice = ScriptedDice(case.get("dice"))
    state = engine.setup(name, case.get("options", {}), dice)
    for uid, fields in case.get("state", {}).get("units", {}).items():
        state["units"][uid].update(fields)
    for wid, fields in case.get("state", {}).get("wagons", {}).items():
        state["wagons"][wid].update(fields)
    for role, flags in case.get("state", {}).get("standing", {}).items():
        state["standing"][role].update(flags)
    return engine, state, dice


def _ask(case: dict, name: str, state: dict):
    ask = case["ask"]
    ctx = context(name, case.get("dice"), state)
    if ask["what"] == "target":
        cand = choose_target(ctx, ask["firer"])
        return {"target": cand.uid if cand else None, "distance": round(cand.distance, 2) if cand else None}
    firer = ctx.layout(ask.get("firer") or ask.get("viewer"))
    target = ctx.layout(ask["target"])
    if ask["what"] == "cover":
        covered, share = in_cover(ctx.table, ctx.scale, firer, target)
        return {"in_cover": covered, "share": round(share, 3)}
    if ask["what"] == "column":
        others = [(o, state["units"][o], ctx.layout(o)) for o in ctx.on_table() if o not in (ask["firer"], ask["target"])]
        kind, why = target_kind(ctx.scale, state["units"][ask["target"]], target, others, firer)
        return {"kind": kind, "why": why}
    if ask["what"] == "sees":
        others = ctx.footprints(exclude=(ask["viewer"], ask["target"]))
        return {"sees": can_see(ctx.table, ctx.scale, firer, target, others)}
    raise AssertionError(ask)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rule_case(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["rule"], "every case says the rule it checks"
    name = f"case_{path.stem}"
    engine, state, dice = _setup(case, name)
    expect = case["expect"]
    if "ask" in case:
        answer = _ask(case, name, state)
        assert contains(answer, expect), (answer, expect)
        return
    new_state, events = resolve_strictly(engine, state, case.get("orders", {}), dice)
    assert dice.never_rolled() == [], "scripted dice never rolled (a wrong label falls back to a random roll)"
    rolled = {r["for"] for r in dice.rolls}
    assert [label for label in case.get("not_rolled", []) if label in rolled] == [], "rolled though the rule rolls no die"
    for uid, fields in expect.get("units", {}).items():
        assert contains(new_state["units"][uid], fields), (uid, new_state["units"][uid])
    for oid, fields in expect.get("officers", {}).items():
        assert contains(new_state["officers"][oid], fields), (oid, new_state["officers"][oid])
    for wid, fields in expect.get("wagons", {}).items():
        assert contains(new_state["wagons"][wid], fields), (wid, new_state["wagons"][wid])
    for wanted in expect.get("events", []):
        assert any(e["type"] == wanted["type"] and contains(e["args"], wanted.get("args", {})) for e in events), \
            (wanted, [e for e in events if e["type"] == wanted["type"]])
    for kind in expect.get("no_events", []):
        assert not [e for e in events if e["type"] == kind], kind
    for unwanted in expect.get("no_event_args", []):
        assert not [e for e in events if e["type"] == unwanted["type"] and contains(e["args"], unwanted.get("args", {}))], \
            unwanted
