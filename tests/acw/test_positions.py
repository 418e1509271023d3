"""Every ACW report lists the positions, as a Diplomacy judge lists every unit each turn: the
reader's own army and the enemy units its troops see now (the fog of war holds:
test_fog_of_war.py checks the list against the engine's line of sight through the whole
service), grouped by division and brigade, the reader's own side first, each unit by the short
name its label carries on the pictures, with its grid square and coordinates in inches, the
landmark it stands by, formation, facing, stands and state."""

import html
import re

import pytest

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.base import event_text, event_visible

ENGINE = ACWMiniaturesEngine()


@pytest.fixture(scope="module")
def env():
    from pbem.service.render import environment
    return environment("en")


def bot_game(scenario: str, turns: int):
    state, events = ENGINE.setup(scenario, {}, Dice("5a" * 32)), []
    for t in range(turns):
        orders = {r: ENGINE.parse_orders(state, r, ENGINE.bot_orders(state, r, Dice(f"{t:02x}" * 32))).orders
                  for r in ENGINE.phase(state).awaited}
        state, events = ENGINE.resolve(state, orders, Dice(f"{t + 1:02x}" * 32))
    return state, events


def render(env, kind: str, state: dict, events: list[dict], role):
    return env.get_template(f"acw/report.{kind}.j2").render(
        game={"id": "g1"}, role=role, lang="en", phase_id="T2", view=ENGINE.view(state, role),
        events=[dict(e, text=event_text(e)) for e in events if event_visible(e, role)], orders={},
        outcome=ENGINE.outcome(state), picture_cid="map", how_to_win=ENGINE.how_to_win(state, role))


def text_rows(text: str) -> list[str]:
    section = text.split("POSITIONS (", 1)[1]
    for heading in ("\nSUPPLY WAGONS", "\nNO LONGER ON THE TABLE", "\nHOW TO WIN"):
        section = section.split(heading, 1)[0]
    return section.splitlines()[1:]


def html_rows(page: str) -> list[str]:
    section = page.split(">Positions<", 1)[1]
    return [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", row))).strip()
            for row in re.findall(r'<li class="unit">.*?</li>', section, re.S)]


def where(u: dict) -> str:
    return "in reserve" if u["status"] == "reserve" else f"{u['grid']} ({u['x']}, {u['y']})"


@pytest.mark.parametrize("scenario,turns", [("herbst_woods", 3), ("mcphersons_ridge", 2)])
@pytest.mark.parametrize("role", ["union", "confederate", None])
def test_every_unit_the_reader_may_see_is_listed_with_its_position(env, scenario, turns, role):
    state, events = bot_game(scenario, turns)
    view = ENGINE.view(state, role)
    assert {u["side"] for u in view["units"]} == set(view["sides"])  # both armies are in sight by then
    for rows in (text_rows(render(env, "txt", state, events, role)), html_rows(render(env, "html", state, events, role))):
        for u in view["units"]:
            found = [r for r in rows if r.strip().startswith(u["short"] + " ") or r.strip().startswith(u["short"] + ":")]
            found = [r for r in found if where(u) in r]
            assert len(found) == 1, (u["short"], where(u), rows[:6])
            assert f"{u['stands']} of {u['full_stands']} stands" in found[0]
            if u["status"] != "reserve":
                assert f"facing {round(u['facing']) % 360} (" in found[0] and u["formation"].replace("_", " ") in found[0]
            if u["near"]:
                assert u["near"]["name"] in found[0]
        listed = sum(1 for r in rows if re.match(r"\s*\S.*: .*stands", r))
        assert listed == len(view["units"])  # nobody else: no unit the reader may not see


def test_the_readers_own_side_comes_first_and_each_regiment_sits_under_its_brigade_and_division(env):
    state, events = bot_game("mcphersons_ridge", 1)
    for role, first, second in (("union", "Union (you)", "Confederates (what your troops can see now)"),
                                ("confederate", "Confederates (you)", "Union (what your troops can see now)")):
        rows = [r.rstrip() for r in text_rows(render(env, "txt", state, events, role)) if r.strip()]
        assert rows[0] == first and second in rows
    rows = [r.rstrip() for r in text_rows(render(env, "txt", state, events, "union"))]
    division = rows.index("  Wadsworth's Division")
    iron = rows.index("    Iron Brigade")
    assert division < iron
    below = [r.strip().split(" (")[0] for r in rows[iron + 1:iron + 6]]
    assert sorted(below) == sorted(["2 WI", "7 WI", "19 IN", "24 MI", "6 WI"])


def test_a_unit_reads_with_its_state(env):
    state, events = bot_game("herbst_woods", 0)
    u = state["units"]["wis6"]
    u["status"], u["low_ammunition"], u["stands"] = "routed", True, [0, 0, 0, 2]
    row = next(r for r in text_rows(render(env, "txt", state, events, "union")) if r.strip().startswith("6 WI "))
    for mark in ("ROUTED", "low on ammunition", "4 of 6 stands", "2 casualties on a stand", "morale "):
        assert mark in row, row
    state["units"]["tn1"].update(x=u["x"] - 6, y=u["y"], facing=90.0)  # in the Union's sight, so the observer's
    seen = next(r for r in text_rows(render(env, "txt", state, events, None)) if r.strip().startswith("6 WI "))
    assert "ROUTED" in seen and "morale" not in seen and "ammunition" not in seen  # a rating and ammunition are the owner's
