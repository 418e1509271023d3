"""The shipped Custer maps and scenarios (data/custer/) are well formed.

Checked against docs/custer-data-format.md with geometry written here from that
document (not imported from the engine), so a slip in either shows up.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data" / "custer"
SCENARIOS = ["little_bighorn", "rosebud"]
MOVEMENT_POINTS = {
    "cavalry": 5, "scouts": 6, "infantry": 4, "miners": 4, "pack_train": 4,
    "us_leader": 5, "tribe_leader": 6, "warriors": 6, "village": 2,
}
LEADERS = {"us_leader", "tribe_leader"}
MOUNTABLE = {"cavalry", "scouts", "infantry", "miners", "pack_train", "warriors"}
LBH_TRIBES = {"hunkpapa", "oglala", "miniconjou", "sans_arc", "cheyenne", "blackfeet", "brule"}
HEXSIDE_TYPES = {"river", "ford", "ridge", "steep_ridge"}


def load(kind: str, name: str) -> dict:
    return json.loads((DATA / kind / f"{name}.json").read_text(encoding="utf-8"))


def parse(h: str) -> tuple[int, int]:
    assert isinstance(h, str) and len(h) == 4 and h.isdigit(), f"bad hex id {h!r}"
    return int(h[:2]), int(h[2:])


def hid(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def around(h: str) -> list[tuple[int, int]]:
    """The six neighbours on an unbounded grid (docs/custer-data-format.md)."""
    c, r = parse(h)
    if c % 2:
        return [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]


def adjacent(a: str, b: str) -> bool:
    return parse(b) in around(a)


def on_board(h: str, m: dict) -> bool:
    c, r = parse(h)
    return 1 <= c <= m["columns"] and 1 <= r <= m["rows"]


def neighbours(h: str, m: dict) -> list[str]:
    return [hid(c, r) for c, r in around(h) if 1 <= c <= m["columns"] and 1 <= r <= m["rows"]]


def touching(s: tuple[str, str], t: tuple[str, str]) -> bool:
    """Two hexsides meet at a corner: they share one hex and the other two are neighbours."""
    common = set(s) & set(t)
    if len(common) != 1:
        return False
    (x,) = set(s) - common
    (y,) = set(t) - common
    return adjacent(x, y)


def on_edge(side: tuple[str, str], m: dict) -> bool:
    """The hexside has a corner on the board edge (a third hex at that corner is off the board)."""
    a, b = side
    third = set(around(a)) & set(around(b))
    return any(not (1 <= c <= m["columns"] and 1 <= r <= m["rows"]) for c, r in third)


@pytest.fixture(params=SCENARIOS)
def data(request):
    scen = load("scenarios", request.param)
    return scen, load("maps", scen["map"])


def test_map_has_the_documented_keys(data):
    _, m = data
    assert set(m) == {"name", "title", "columns", "rows", "hexes", "hexsides", "labels", "exits", "north"}
    assert 30 <= m["columns"] <= 36 and 24 <= m["rows"] <= 28
    assert set(m["hexes"]) <= {"woods", "coulee"}
    assert set(m["hexsides"]) == HEXSIDE_TYPES


def test_every_hex_id_is_on_the_board(data):
    _, m = data
    listed = [h for hexes in m["hexes"].values() for h in hexes]
    listed += [h for pairs in m["hexsides"].values() for pair in pairs for h in pair]
    listed += [lab["hex"] for lab in m["labels"]]
    listed += [h for hexes in m["exits"].values() for h in hexes]
    off = [h for h in listed if not on_board(h, m)]
    assert not off, off


def test_a_hex_has_one_terrain(data):
    _, m = data
    seen = [h for hexes in m["hexes"].values() for h in hexes]
    assert len(seen) == len(set(seen))


def test_every_hexside_is_between_neighbours_once_smaller_id_first(data):
    _, m = data
    seen = set()
    for kind, pairs in m["hexsides"].items():
        for a, b in pairs:
            assert adjacent(a, b), f"{kind} {a}-{b}: not neighbours"
            assert a < b, f"{kind} {a}-{b}: smaller id first"
            assert (a, b) not in seen, f"{a}-{b} listed twice (a hexside has one type)"
            seen.add((a, b))


def test_the_river_is_one_continuous_line_from_edge_to_edge(data):
    _, m = data
    sides = [tuple(s) for s in m["hexsides"]["river"] + m["hexsides"]["ford"]]
    assert sides
    links = {s: [t for t in sides if t != s and touching(s, t)] for s in sides}
    assert all(len(v) <= 2 for v in links.values()), "the river branches or touches itself"
    ends = [s for s, v in links.items() if len(v) == 1]
    assert len(ends) == 2, f"the river has {len(ends)} ends"
    seen, todo = {ends[0]}, [ends[0]]
    while todo:
        for t in links[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    assert seen == set(sides), "the river is in several pieces"
    assert all(on_edge(e, m) for e in ends), "the river must run off the board at both ends"


def test_fords_are_on_the_river(data):
    _, m = data
    river = [tuple(s) for s in m["hexsides"]["river"]]
    assert m["hexsides"]["ford"]
    for f in m["hexsides"]["ford"]:
        assert any(touching(tuple(f), r) for r in river), f"ford {f} is not on the river"


def test_exits_are_on_the_board_edge(data):
    _, m = data
    assert m["exits"]
    for kind, hexes in m["exits"].items():
        assert kind in MOVEMENT_POINTS
        for h in hexes:
            c, r = parse(h)
            assert c in (1, m["columns"]) or r in (1, m["rows"]), f"exit {h} is not on the edge"


def test_units_are_well_formed_and_names_unique(data):
    scen, m = data
    ids = [u["id"] for u in scen["units"]]
    names = [u["name"].lower() for u in scen["units"]]
    assert len(ids) == len(set(ids))
    assert len(names) == len(set(names))
    for u in scen["units"]:
        assert u["side"] in scen["roles"]
        assert u["type"] in MOVEMENT_POINTS, u
        full, reduced = u["cf"]
        assert full >= reduced >= 0
        if u["type"] in LEADERS:
            assert reduced == 0 and "mounted" not in u
        elif u["type"] == "village":
            assert u["cf"] == [1, 1] and "mounted" not in u
        else:
            assert isinstance(u["mounted"], bool) and u["type"] in MOUNTABLE
        if u["side"] == "indians":
            assert u.get("tribe"), u
        assert ("hex" in u) != ("enter" in u), f"{u['id']}: exactly one of hex / enter"


def test_every_unit_starts_or_enters_on_the_board(data):
    scen, m = data
    for u in scen["units"]:
        where = u.get("hex") or u["enter"]["hex"]
        assert on_board(where, m), f"{u['id']} at {where}"
        if "enter" in u:
            assert 1 < u["enter"]["turn"] <= scen["turns"]
            c, r = parse(where)
            assert c in (1, m["columns"]) or r in (1, m["rows"]), f"{u['id']} enters away from the edge"


def test_stacking_limits_at_set_up(data):
    scen, _ = data
    stacks: dict[str, list[dict]] = {}
    for u in scen["units"]:
        if "hex" in u:
            stacks.setdefault(u["hex"], []).append(u)
    for h, units in stacks.items():
        leaders = [u for u in units if u["type"] in LEADERS]
        assert len({u["side"] for u in units}) == 1, f"{h}: both sides"
        assert len(leaders) <= 1, f"{h}: two leaders"
        assert len(units) - len(leaders) <= 2, f"{h}: more than two units"


def test_markers_name_existing_leaders_and_tribes(data):
    scen, _ = data
    units = {u["id"]: u for u in scen["units"]}
    ids = [mk["id"] for mk in scen["markers"]]
    assert len(ids) == len(set(ids))
    tribes = {u.get("tribe") for u in scen["units"] if u["side"] == "indians"}
    marked_tribes = set()
    for mk in scen["markers"]:
        assert mk["side"] in scen["roles"]
        if "leader" in mk:
            leader = units.get(mk["leader"])
            assert leader and leader["type"] == "us_leader" and leader["side"] == mk["side"], mk
            assert mk["units"] >= 1
        else:
            assert mk["tribe"] in tribes, mk
            marked_tribes.add(mk["tribe"])
        assert mk.get("from_turn", 1) <= scen["turns"]
    assert marked_tribes == tribes, "every tribe or group has its marker"
    # every US leader moves with a marker of his own (a leader moves only with his marker)
    us_leaders = {u["id"] for u in scen["units"] if u["type"] == "us_leader"}
    assert us_leaders == {mk["leader"] for mk in scen["markers"] if "leader" in mk}
    assert set(scen.get("cup_start", ids)) <= set(ids)


def test_draws_cover_every_turn(data):
    scen, _ = data
    assert 12 <= scen["turns"] <= 16
    assert set(scen["draws"]) == set(scen["roles"])
    for side, draws in scen["draws"].items():
        assert len(draws) == scen["turns"]
        assert all(isinstance(n, int) and n >= 1 for n in draws)
        markers = [mk for mk in scen["markers"] if mk["side"] == side]
        assert max(draws) <= len(markers)


def test_victory_points_name_real_types(data):
    scen, _ = data
    v = scen["victory"]
    assert set(v["points"]) == set(scen["roles"])
    for side, table in v["points"].items():
        for kind in ("eliminate", "exit"):
            assert set(table.get(kind, {})) <= set(MOVEMENT_POINTS), table
    assert v["tie"] in (*scen["roles"], None)
    assert v["win_by"] >= 1


def test_tribes_are_the_documented_ones():
    scen = load("scenarios", "little_bighorn")
    assert {u["tribe"] for u in scen["units"] if u["side"] == "indians"} == LBH_TRIBES
    rb = load("scenarios", "rosebud")
    assert all(len(u["tribe"]) == 1 for u in rb["units"] if u["side"] == "indians")


def _region(m: dict, start: str) -> set[str]:
    water = {tuple(s) for k in ("river", "ford") for s in m["hexsides"][k]}
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in neighbours(h, m):
            if n not in seen and tuple(sorted((h, n))) not in water:
                seen.add(n)
                todo.append(n)
    return seen


def test_villages_start_on_the_bank_of_their_exits():
    """The camps stood on the west bank; the families fled west and north-west."""
    scen, m = load("scenarios", "little_bighorn"), load("maps", "little_bighorn")
    exits = set(m["exits"]["village"])
    for u in scen["units"]:
        if u["type"] == "village":
            assert _region(m, u["hex"]) & exits, f"{u['id']} cannot reach an exit without fording"


def test_the_maps_are_what_the_build_script_makes():
    """data/custer/build_maps.py is the source: the committed JSON is its output."""
    spec = importlib.util.spec_from_file_location("custer_build_maps", DATA / "build_maps.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    for make in (build.little_bighorn, build.rosebud):
        made = make()
        assert json.loads(json.dumps(made.to_json())) == load("maps", made.name)
    assert build.little_bighorn_scenario() == load("scenarios", "little_bighorn")
    assert build.rosebud_scenario() == load("scenarios", "rosebud")


def test_every_unit_starts_at_full_strength():
    """GAME SETUP: "Each player starts with all of his game units at full strength." """
    from pbem.dice import Dice
    from pbem.engines.custer import CusterEngine

    for name in SCENARIOS:
        state = CusterEngine().setup(name, {}, Dice("00" * 32))
        assert not any(u["reduced"] for u in state["units"].values()), name


# the rulebook's full-strength CF by unit type (US ARMY UNITS, INDIAN WARRIOR UNITS)
FULL_CF = {"cavalry": {4, 5}, "scouts": {2, 3}, "infantry": {4}, "miners": {3}, "pack_train": {2},
           "warriors": {3, 4}, "village": {1}}


def test_unit_strengths_and_battles_are_the_rulebooks():
    """"CAVALRY ... 4 to 5 CF", "SCOUTS ... 2 to 3 CF", "INFANTRY ... 4 CF ... Only played in the
    Battle of Rosebud", "MINERS ... 3 CF ... Only played in the Battle of Rosebud", "PACK TRAIN
    ... 2 CF", warriors "3 or 4 CF", villages "1 CF ... Only played in the Battle of Little Big
    Horn"."""
    for name in SCENARIOS:
        scen = load("scenarios", name)
        for u in scen["units"]:
            if u["type"] in FULL_CF:
                assert u["cf"][0] in FULL_CF[u["type"]], u
        types = {u["type"] for u in scen["units"]}
        if name == "little_bighorn":
            assert not types & {"infantry", "miners"} and "village" in types
        else:
            assert {"infantry", "miners"} <= types and "village" not in types
