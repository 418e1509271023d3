"""Every report lists the positions, as a Diplomacy judge lists every unit each turn: both
armies as the reader may see them (the whole battlefield in this series), grouped by command,
the reader's own side first, each unit by the short name its counter carries, with its hex (or
where it will enter), strength, mode and state."""

import html
import re

import pytest

from pbem.dice import Dice
from pbem.engines.base import event_text
from pbem.engines.lfm import LastFullMeasureEngine
from pbem.engines.lfm import scenario as scenarios
from pbem.engines.lfm.names import short_name, short_names

ENGINE = LastFullMeasureEngine()


def bot_game(scenario: str, phases: int) -> tuple[dict, list[dict]]:
    state, events = ENGINE.setup(scenario, {}, Dice("00" * 32)), []
    for i in range(phases):
        role = ENGINE.phase(state).awaited[0]
        parsed = ENGINE.parse_orders(state, role, ENGINE.bot_orders(state, role, Dice(f"{i:02d}" * 32)))
        state, events = ENGINE.resolve(state, {role: parsed.orders}, Dice(f"{i + 40:02d}" * 32))
    return state, events


@pytest.fixture(scope="module")
def env():
    from pbem.service.render import environment
    return environment("en")


def render(env, kind: str, state: dict, events: list[dict], role: str | None) -> str:
    view = ENGINE.view(state, role)
    return env.get_template(f"lfm/report.{kind}.j2").render(
        game={"id": "g1"}, role=role, lang="en", phase_id="T2a.M", view=view,
        events=[dict(ev, text=event_text(ev)) for ev in events], orders={}, outcome=None, picture_cid="map")


def where(u: dict) -> str:
    if u["status"] == "on_map":
        return u["hex"]
    if u["status"] == "waiting":
        return f"enters at {u['enter']['hex']} on turn {u['enter']['turn']}"
    if u["status"] == "off_map":
        return f"off the map, returns at {u['returns']}"
    return "eliminated" if u["status"] == "eliminated" else "destroyed"


def text_rows(text: str) -> list[str]:
    return text.split("POSITIONS", 1)[1].split("VICTORY POINTS", 1)[0].splitlines()[1:]


def html_rows(page: str) -> list[str]:
    section = page.split(">Positions<", 1)[1].split(">Victory points<", 1)[0]
    return [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", row))).strip()
            for row in re.findall(r"<tr>.*?</tr>", section, re.S)]


@pytest.mark.parametrize("scenario,phases", [("east_cavalry_field", 5), ("gettysburg_july1", 3)])
@pytest.mark.parametrize("role", ["csa", "usa", None])
def test_every_unit_the_reader_may_see_is_listed_with_its_position(env, scenario, phases, role):
    state, events = bot_game(scenario, phases)
    view = ENGINE.view(state, role)
    text, page = render(env, "txt", state, events, role), render(env, "html", state, events, role)
    for rows, split in ((text_rows(text), str.split), (html_rows(page), str.split)):
        for u in view["units"]:
            found = [r for r in rows if split(r)[:len(u["short"].split())] == u["short"].split() and where(u) in r]
            assert len(found) == 1, (u["short"], where(u), rows[:5])
            assert f"{u['sp']} SP" in found[0] and f"CR {u['cr']}" in found[0]
            if u["status"] == "on_map" and u["d"]:
                assert "D (" in found[0]
            if u["type"] == "cavalry":
                assert ("dismounted" in found[0]) == (not u["mounted"])
        for c in view["commanders"]:
            assert any(r.startswith(f"{c['name']} ") and where(c) in r for r in (x.strip() for x in rows)), c["name"]


def test_the_readers_own_side_comes_first_and_each_regiment_sits_under_its_brigade(env):
    state, events = bot_game("east_cavalry_field", 2)
    for role, first, second in (("usa", "Union (you)", "Confederates"), ("csa", "Confederates (you)", "Union")):
        rows = [r.rstrip() for r in text_rows(render(env, "txt", state, events, role)) if r.strip()]
        assert rows[0] == first and second in rows
    rows = [r.strip() for r in text_rows(render(env, "txt", state, events, "usa"))]
    custer = next(i for i, r in enumerate(rows) if r.startswith("Custer "))
    assert "the Michigan Brigade" in rows[custer]
    assert [r.split()[0] + " " + r.split()[1] for r in rows[custer + 1:custer + 5]] == ["5 MI", "6 MI", "7 MI", "1 MI"]


def test_a_state_reads_with_its_marks(env):
    """D, shattered, detached, building works and out of command (the phasing side, in its
    combat mail, after command was rolled) all show on the unit's line."""
    state, events = bot_game("east_cavalry_field", 0)
    u = state["units"]["5mi"]
    u["d"], u["detached"], u["build"] = True, True, True
    state["brigades"]["custer"]["shattered"] = True
    state["step"], state["order"], state["pt"], state["in_command"] = "combat", ["usa", "csa"], 0, []
    row = next(r for r in text_rows(render(env, "txt", state, events, "usa")) if r.strip().startswith("5 MI "))
    for mark in ("D (disorganized)", "shattered", "out of command", "detached", "building works"):
        assert mark in row


def test_short_names_are_unique_in_each_scenario_and_read_like_the_regiment():
    assert short_name("14th Virginia") == "14 VA" and short_name("Jackson's Battery") == "Jackson Bty"
    assert short_name("Pegram's Battalion 2") == "Pegram 2" and short_name("Cobb's Legion") == "Cobb Leg"
    assert short_name("12th Illinois-3rd Indiana") == "12 IL-3 IN" and short_name("34th Virginia Bn") == "34 VA Bn"
    for name in scenarios.SCENARIO_NAMES:
        sc = scenarios.load(name)
        names = short_names(sc)
        assert len(set(names.values())) == len(names)
        commanders = {c.name for c in sc.commanders.values()}
        assert not commanders & set(names.values())  # "Reynolds Bty", never the general's name alone
