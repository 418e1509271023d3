"""The Custer report and help templates render, in both formats, on realistic contexts."""

from __future__ import annotations

import html
import re

import pytest

from pbem.dice import Dice
from pbem.engines.base import event, event_text
from pbem.engines.custer import CusterEngine


@pytest.fixture(scope="module")
def env():
    """The server's own English environment (autoescape, i18n, strict undefined)."""
    from pbem.service.render import environment
    return environment("en")


def play(scenario: str, turns: int, seed: str = "5a"):
    engine = CusterEngine()
    state = engine.setup(scenario, {}, Dice(seed * 32))
    events, phase_id = [], engine.phase(state).id
    for t in range(turns):
        phase_id = engine.phase(state).id
        orders = {}
        for role in engine.phase(state).awaited:
            text = engine.bot_orders(state, role, Dice(f"{t:02x}" * 32))
            orders[role] = engine.parse_orders(state, role, text).orders
        state, events = engine.resolve(state, orders, Dice(f"{t + 1:02x}" * 32))
        if engine.outcome(state):
            break
    return engine, state, events, phase_id


def context(engine, state, events, phase_id, role="us", cid="map-1"):
    return {
        "game": {"id": "lbh1", "title": "Little Big Horn club game", "engine": "custer", "scenario": state["scenario"]},
        "role": role, "lang": "en", "phase_id": phase_id,
        "view": engine.view(state, role),
        "events": [dict(ev, text=event_text(ev)) for ev in events],
        "orders": {}, "outcome": engine.outcome(state), "picture_cid": cid,
    }


COMBAT = event(
    "combat", "Combat at %(hex)s: attack %(attack_total)s CF against defence %(defence_total)s CF.",
    hex="1517", attackers=[
        {"unit": "hunkpapa_w1", "name": "Hunkpapa 1", "hex": "1417", "cf": 4},
        {"unit": "gall", "name": "Gall", "hex": "1417", "cf": 3},
        {"unit": "oglala_w1", "name": "Oglala 1", "hex": "1416", "cf": 4},
    ],
    defenders=[
        {"unit": "co_a", "name": "Co. A", "cf": 5, "dismounted": 1, "hexside": 1, "total": 7},
        {"unit": "reno", "name": "Reno", "cf": 1, "total": 1},
    ],
    attack_total=11, defence_total=8, terrain="clear", hexside_bonus=1, hexside_kinds=["ridge"],
    raw=3, capped=3, cap_note="", attacker_roll=9, defender_roll=2, margin=10, winner="attacker",
    winner_text="the attacker", losses=2, attacker_side="indians", defender_side="us", combat="T2 A1 combat 1517")
DRAW = event("draw", "Draw %(n)s: %(marker_name)s.", n=1, marker_name="Hunkpapa", marker="m_hunkpapa",
             side="indians", count=1, limit=3, label="T2 cup draw 1", activation=1)


def text_of(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_text))


@pytest.mark.parametrize("scenario", ["little_bighorn", "rosebud"])
def test_reports_render_on_a_played_turn_and_agree(env, scenario):
    engine, state, events, phase_id = play(scenario, 3)
    ctx = context(engine, state, events, phase_id)
    txt = env.get_template("custer/report.txt.j2").render(**ctx)
    page = env.get_template("custer/report.html.j2").render(**ctx)
    assert '<img src="cid:map-1"' in page
    plain = text_of(page)
    for ev in ctx["events"]:
        assert ev["text"] in txt
        assert ev["text"] in plain
    for u in ctx["view"]["units"]:
        if u["status"] == "on_board":
            assert u["hex"] in txt and u["name"] in txt
    assert str(ctx["view"]["vp"]["us"]) in txt and str(ctx["view"]["vp"]["indians"]) in plain
    assert "VICTORY POINTS" in txt and "Victory points" in page


def test_combat_arithmetic_is_spelled_out_in_both_parts(env):
    engine, state, _, _ = play("little_bighorn", 0)
    ctx = context(engine, state, [DRAW, COMBAT], "T2")
    txt = env.get_template("custer/report.txt.j2").render(**ctx)
    page = text_of(env.get_template("custer/report.html.j2").render(**ctx))
    for out in (txt, page):
        assert "Hunkpapa 1 4" in out and "Gall 3 (leader)" in out and "= 11 CF" in out
        assert "Co. A 5 +1 dismounted +1 ridge = 7" in out and "= 8 CF" in out
        assert "11 - 8 = +3" in out
        assert "rolls 9" in out and "rolls 2" in out and "+3 + 9 - 2 = +10" in out
        assert "wins by 10" in out and "2 loss(es)" in out
        assert "Activation 1" in out


def test_the_cap_is_shown(env):
    engine, state, _, _ = play("little_bighorn", 0)
    capped = dict(COMBAT, args=dict(COMBAT["args"], attack_total=24, defence_total=10, raw=14, capped=10,
                                    margin=7, attacker_roll=5, defender_roll=8))
    txt = env.get_template("custer/report.txt.j2").render(**context(engine, state, [DRAW, capped], "T2"))
    assert "24 - 10 = +14, capped to +10" in txt
    assert "+10 + 5 - 8 = +7" in txt


def test_html_escapes_names(env):
    engine, state, _, _ = play("little_bighorn", 0)
    ctx = context(engine, state, [DRAW], "T1")
    ctx["view"]["units"][0]["name"] = "<script>x</script>"
    page = env.get_template("custer/report.html.j2").render(**ctx)
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_a_finished_game_reports_the_outcome(env):
    engine, state, events, phase_id = play("rosebud", 40)
    assert engine.outcome(state)
    ctx = context(engine, state, events, phase_id, role="indians", cid=None)
    txt = env.get_template("custer/report.txt.j2").render(**ctx)
    page = env.get_template("custer/report.html.j2").render(**ctx)
    assert "THE BATTLE IS OVER" in txt and "The battle is over." in page
    assert "<img" not in page


def test_help_renders_and_its_example_turn_parses(env):
    out = env.get_template("custer/help.txt.j2").render(game={"id": "g", "title": "t", "engine": "custer"}, lang="en")
    for word in ("ON <marker>:", "MOVE TO", "MOVE VIA", "DISMOUNT", "EXIT", "ATTACK", "ALL ATTACK", "STANDING:",
                 "LOSSES", "RETREAT TOWARD", "ADVANCE"):
        assert word in out
    block = out.split("A WHOLE TURN, FOR THE US AT LITTLE BIG HORN\n", 1)[1].split("\n\n", 1)[0]
    engine = CusterEngine()
    state = engine.setup("little_bighorn", {}, Dice("01" * 32))
    parsed = engine.parse_orders(state, "us", block)
    assert parsed.ok, parsed.errors
    examples = ["Co. C, Co. E MOVE TO 1510", "Co. I and Co. L MOVE VIA 1711 1610 1510", "Arikara scouts DISMOUNT",
                "ALL ATTACK"]
    parsed = engine.parse_orders(state, "us", "ON Custer:\n" + "\n".join(examples))
    assert parsed.ok, parsed.errors
    ind = engine.parse_orders(state, "indians", "ON Hunkpapa:\nHunkpapa village 1 EXIT\nALL MOVE TO 1616\n"
                                                "ON Oglala:\nATTACK 0910 WITH Oglala 1, Oglala 2, Crazy Horse NO ADVANCE")
    assert ind.ok, ind.errors
