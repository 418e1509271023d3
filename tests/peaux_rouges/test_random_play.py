"""A thousand seeded games between random (but legal) bots: no exception, no stuck turn."""

import hashlib
import json
from collections import Counter

import pytest

from pbem.dice import Dice
from pbem.engines.peaux_rouges import messages as M
from pbem.engines.peaux_rouges.bot import bot_orders
from pbem.engines.peaux_rouges.pieces import LC, PR

from .conftest import dice

GAMES = 1000
# Every fifth game plays with all the other readings of the rules (see options.py).
OTHER_READINGS = {"leader_shots": "consecutive", "flag_carriers": "long_knives", "parapet_bonus": "long_knives",
                  "stacking": "one"}


def seed(*parts) -> str:
    return hashlib.sha256(" ".join(str(p) for p in parts).encode()).hexdigest()


def test_a_thousand_random_games_finish_cleanly(engine):
    outcomes = Counter()
    languages = Counter()
    syntax = Counter()  # the bots use every kind of order
    for g in range(GAMES):
        options = OTHER_READINGS if g % 5 == 4 else {}
        state = engine.setup("little_big_horn", options, Dice(seed("random play", g)))
        phases = []
        while engine.outcome(state) is None:
            ph = engine.phase(state)
            assert ph.id not in phases, f"game {g}: phase {ph.id} came back"  # no stuck turn
            phases.append(ph.id)
            assert len(ph.awaited) == 1 and ph.mode == "sequential" and ph.immediate
            role = ph.awaited[0]
            text = engine.bot_orders(state, role, Dice(seed("random play", g, ph.id, "bot")))
            languages["fr" if ("DÉPLACER" in text or "TIRER" in text or "CONSIGNES" in text) else
                      "en" if ("MOVE" in text or "FIRE" in text or "STANDING" in text) else "-"] += 1
            parsed = engine.parse_orders(state, role, text)
            assert parsed.ok, (g, ph.id, text, parsed.errors)
            state, events = engine.resolve(state, {role: parsed.orders}, Dice(seed("random play", g, ph.id)))
            assert events and events[0]["type"] == "turn"
            syntax["rider stopped short"] += any(e["msg"] == M.MOVE_STOPPED for e in events)
            syntax["retreat named"] += any(a.get("retreat") for a in parsed.orders["attacks"])
            syntax["fire filter"] += any(op[0] in ("fire_within", "fire_riders") for op in parsed.orders["standing"])
            syntax["standing retreat"] += any(op[0] == "retreat_toward" for op in parsed.orders["standing"])
        out = engine.outcome(state)
        assert len(phases) <= 2 * state["turn_limit"]
        assert engine.phase(state).awaited == ()
        outcomes[out["summary"]] += 1
    # every way of ending the battle happens, and both order languages were written
    assert set(outcomes) == {M.WIN_LC_CHIEFS, M.WIN_LC_FLAG, M.WIN_PR_LEADERS, M.WIN_PR_FLAG, M.DRAW}, outcomes
    assert languages["fr"] > 1000 and languages["en"] > 1000, languages
    assert min(syntax.values()) > 50 and len(syntax) == 4, syntax


@pytest.mark.parametrize("options", [{}, OTHER_READINGS], ids=["default", "other_readings"])
def test_bot_orders_in_either_language_parse_and_round_trip(engine, options):
    state = engine.setup("little_big_horn", options, None)
    for g in range(30):
        for lang in ("en", "fr"):
            text = bot_orders(state, state["side"], dice("bot", g, lang), lang=lang)
            parsed = engine.parse_orders(state, state["side"], text)
            assert parsed.ok, parsed.errors
            again = engine.parse_orders(state, state["side"], parsed.canonical)
            assert again.orders == parsed.orders and again.canonical == parsed.canonical
            if parsed.orders["moves"]:
                assert (parsed.canonical.startswith("DÉPLACER") if lang == "fr" else parsed.canonical.startswith("MOVE"))
        state, _ = engine.resolve(state, {state["side"]: parsed.orders}, dice("turn", g))
        if engine.outcome(state):
            break


def test_bot_sends_nothing_when_not_its_turn(engine):
    state = engine.setup("little_big_horn", {}, None)
    assert engine.bot_orders(state, PR, dice("x")) == ""
    assert json.dumps(engine.bot_orders(state, LC, dice("x")))
