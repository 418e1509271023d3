"""The ACW report and help templates render, in both formats, from a view and the events
a role may see; the text part says what the HTML says, close combats bout by bout."""

from __future__ import annotations

import html
import re

import pytest

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.base import event_text, event_visible

from .fixtures import play_turn, small_scenario


@pytest.fixture(scope="module")
def env():
    from pbem.service.render import environment
    return environment("en")


def context(engine, state, events, role, phase_id="T1"):
    visible = [dict(e, text=event_text(e)) for e in events if event_visible(e, role)]
    return {"game": {"id": "hw1", "title": "Herbst Woods", "engine": "acw", "scenario": state["scenario"]},
            "role": role, "lang": "en", "phase_id": phase_id, "view": engine.view(state, role), "events": visible,
            "orders": {}, "outcome": engine.outcome(state), "picture_cid": "table-1"}


def played_game(turns=3):
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, Dice("5a" * 32))
    events = []
    for t in range(turns):
        orders = {r: engine.parse_orders(state, r, engine.bot_orders(state, r, Dice(f"{t:02x}" * 32))).orders
                  for r in engine.phase(state).awaited}
        state, events = engine.resolve(state, orders, Dice(f"{t + 1:02x}" * 32))
    return engine, state, events


def text_of(rendered_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", rendered_html))


def test_reports_render_and_the_text_tells_every_event(env):
    engine, state, events = played_game()
    for role in ("union", "confederate"):
        ctx = context(engine, state, events, role)
        txt = env.get_template("acw/report.txt.j2").render(**ctx)
        page = env.get_template("acw/report.html.j2").render(**ctx)
        for ev in ctx["events"]:
            assert ev["text"] in txt
            assert ev["text"] in text_of(page)
        assert "ARMY EFFECTIVENESS" in txt and "POSITIONS" in txt


def test_a_close_combat_is_told_bout_by_bout(env):
    engine = ACWMiniaturesEngine()
    name = small_scenario("template_melee", units=[
        {"id": "f", "name": "First", "side": "union", "x": 10, "y": 18, "facing": 90},
        {"id": "t", "name": "Target", "side": "confederate", "x": 17, "y": 18, "facing": 270}])
    bouts = {**{f"T1 melee 1 bout {i} attacker": 5 for i in range(6)}, **{f"T1 melee 1 bout {i} defender": 2 for i in range(6)}}
    state, events = play_turn(name, {"union": "First: CHARGE Target"},
                              {"T1 variable move f": 10, "T1 fire standing t": 1, "T1 morale f to close with t F": 6,
                               "T1 morale t charged by f F": 6, **bouts})
    txt = env.get_template("acw/report.txt.j2").render(**context(engine, state, events, "confederate"))
    assert "bout 1: First d6 5 = 5 against Target d6 2 = 2: the attacker won, 2 casualties to the loser" in txt


def test_help_renders(env):
    txt = env.get_template("acw/help.txt.j2").render(game={"id": "hw1", "engine": "acw"}, lang="en")
    assert "CHARGE NEAREST" in txt and "STANDING" in txt


def test_reports_list_the_supply_wagons_and_a_units_ammunition_to_its_own_side(env):
    """With the optional supply wagons both formats list the wagons the reader may see (its
    own where they stand, a captured one as captured) and mark the reader's own units low on
    ammunition; the enemy's report does not say it."""
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {"supply_wagons": True}, Dice("5a" * 32))
    state["units"]["wis2"]["low_ammunition"] = True
    state["wagons"]["heth_train"]["status"] = "captured"
    union = context(engine, state, [], "union")
    for rendered in (env.get_template("acw/report.txt.j2").render(**union),
                     text_of(env.get_template("acw/report.html.j2").render(**union))):
        assert "Wadsworth's Ordnance Train (Union): L2 (67.0, 9.0)" in rendered
        assert "Heth's Ordnance Train (Confederates): captured" in rendered
        assert "low on ammunition" in rendered
        assert "Buff boxes edged in a side's colour are its supply wagons." in rendered
    grey = env.get_template("acw/report.txt.j2").render(**context(engine, state, [], "confederate"))
    assert "low on ammunition" not in grey
