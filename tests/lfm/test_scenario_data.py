"""The shipped data: the committed JSON of each scenario is what its builder makes, and the
scenarios pass the data checks (hexes on the map, known brigades, formations and superiors)."""

import importlib.util
import json
from pathlib import Path

import pytest

from pbem.engines.lfm import scenario as scenarios
from pbem.engines.lfm.situation import STACK_SP

DATA = Path(__file__).resolve().parents[2] / "data" / "lfm"


def builder(name: str = "build_east_cavalry_field"):
    spec = importlib.util.spec_from_file_location(name, DATA / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_json_is_what_the_builder_makes():
    b = builder()
    assert json.loads((DATA / "maps" / "east_cavalry_field.json").read_text()) == json.loads(json.dumps(b.build_map()))
    assert json.loads((DATA / "scenarios" / "east_cavalry_field.json").read_text()) == json.loads(json.dumps(b.build_scenario()))


def test_committed_gettysburg_json_is_what_its_builder_makes():
    b = builder("build_gettysburg_july1")
    assert json.loads((DATA / "maps" / "gettysburg.json").read_text()) == json.loads(json.dumps(b.build_map()))
    assert json.loads((DATA / "scenarios" / "gettysburg_july1.json").read_text()) == json.loads(json.dumps(b.build_scenario()))


def test_gettysburg_july1_passes_the_data_checks():
    """14 daytime turns from 7 am to 8 pm, then two night turns; Heth's leading brigades enter first."""
    sc = scenarios.load("gettysburg_july1")
    assert scenarios.check(sc) == []
    assert [t["night"] for t in sc.turns] == [False] * 14 + [True] * 2
    assert sc.turns[13]["time"] == "20:00"
    first = {u.brigade for u in sc.units.values() if u.enter and u.enter["turn"] == 1}
    assert first == {"archer", "davis", None}


def test_east_cavalry_field_passes_the_data_checks():
    sc = scenarios.load("east_cavalry_field")
    assert scenarios.check(sc) == []
    assert set(sc.roles) == {"csa", "usa"} and len(sc.turns) == 6


@pytest.mark.parametrize("name", ["east_cavalry_field", "gettysburg_july1"])
def test_set_up_respects_stacking_one_brigade_sixteen_sp(name):
    sc = scenarios.load(name)
    by_hex: dict[str, list] = {}
    for u in sc.units.values():
        if u.hex and not u.is_artillery:
            by_hex.setdefault(u.hex, []).append(u)
    for h, units in by_hex.items():
        assert len({u.brigade for u in units}) == 1, h
        assert sum(u.sp for u in units) <= STACK_SP, h


@pytest.mark.parametrize("name", ["east_cavalry_field", "gettysburg_july1"])
def test_roads_join_neighbours_and_every_strength_is_positive(name):
    sc = scenarios.load(name)
    for a, b in sc.board.roads:
        assert b in sc.board.neighbours[a]
    assert all(u.sp >= 1 and 1 <= u.cr <= 6 for u in sc.units.values())
