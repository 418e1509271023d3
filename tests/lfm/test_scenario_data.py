"""The shipped data: the committed East Cavalry Field JSON is what its builder makes, and the
scenario passes the data checks (hexes on the map, known brigades, formations and superiors)."""

import importlib.util
import json
from pathlib import Path

from pbem.engines.lfm import scenario as scenarios
from pbem.engines.lfm.situation import STACK_SP

DATA = Path(__file__).resolve().parents[2] / "data" / "lfm"


def builder():
    spec = importlib.util.spec_from_file_location("build_ecf", DATA / "build_east_cavalry_field.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_json_is_what_the_builder_makes():
    b = builder()
    assert json.loads((DATA / "maps" / "east_cavalry_field.json").read_text()) == json.loads(json.dumps(b.build_map()))
    assert json.loads((DATA / "scenarios" / "east_cavalry_field.json").read_text()) == json.loads(json.dumps(b.build_scenario()))


def test_east_cavalry_field_passes_the_data_checks():
    sc = scenarios.load("east_cavalry_field")
    assert scenarios.check(sc) == []
    assert set(sc.roles) == {"csa", "usa"} and len(sc.turns) == 6


def test_set_up_respects_stacking_one_brigade_sixteen_sp():
    sc = scenarios.load("east_cavalry_field")
    by_hex: dict[str, list] = {}
    for u in sc.units.values():
        if u.hex and not u.is_artillery:
            by_hex.setdefault(u.hex, []).append(u)
    for h, units in by_hex.items():
        assert len({u.brigade for u in units}) == 1, h
        assert sum(u.sp for u in units) <= STACK_SP, h


def test_roads_join_neighbours_and_every_strength_is_positive():
    sc = scenarios.load("east_cavalry_field")
    for a, b in sc.board.roads:
        assert b in sc.board.neighbours[a]
    assert all(u.sp >= 1 and 1 <= u.cr <= 6 for u in sc.units.values())
