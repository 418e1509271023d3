"""What players see: the whole board (Custer's Last Stand hides nothing on the board), the
cup, VP, last turn's moves and combats for the picture; standing orders only to their side."""

from pbem.engines.base import MODERATOR
from pbem.engines.custer import CusterEngine

from .fragments import ScriptedDice, fragment, play_turn

UNITS = [{"id": "reno", "name": "Reno", "side": "us", "type": "us_leader", "cf": [2, 0], "hex": "0302"},
         {"id": "co_a", "name": "Co. A", "side": "us", "type": "cavalry", "cf": [5, 3], "hex": "0403"},
         {"id": "w", "name": "Oglala 1", "side": "indians", "type": "warriors", "tribe": "oglala", "cf": [3, 2],
          "hex": "0404"}]


def played():
    name = fragment("view_case", columns=10, rows=10, units=UNITS, draws={"us": [1, 1], "indians": [0, 0]}, turns=2)
    return play_turn(name, {"us": "ON Reno:\nReno MOVE TO 0303\nATTACK 0404 WITH Co. A\nSTANDING:\nLOSSES Co. A FIRST"},
                     {"T1 A1 combat 0404 attacker": 9, "T1 A1 combat 0404 defender": 1})


def test_view_shows_the_board_the_cup_vp_and_last_turn():
    state, _ = played()
    view = CusterEngine().view(state, "indians")
    co_a = next(u for u in view["units"] if u["id"] == "co_a")
    assert {"id", "name", "side", "type", "hex", "strength", "cf", "mounted", "moved", "status"} <= set(co_a)
    assert view["turn"] == 2 and view["scenario"] == "view_case" and view["map"] == "view_case"
    assert sorted(view["cup"]) == ["m_oglala", "m_reno"]
    assert view["last_moves"][0] == {"unit": "reno", "path": ["0302", "0303"]}
    assert view["last_combats"] == [{"hex": "0404", "attackers": ["0403"], "result": "attacker"}]
    assert view["vp"] == state["vp"]


def test_view_leaks_no_side_s_standing_orders_to_the_other():
    state, _ = played()
    engine = CusterEngine()
    us, them, observer = engine.view(state, "us"), engine.view(state, "indians"), engine.view(state, None)
    assert us["standing"] == {"us": {"losses": ["co_a"]}}
    assert them["standing"] == {"indians": {}} and observer["standing"] == {}
    assert "us" in engine.view(state, MODERATOR)["standing"]
    assert (us["reader"], them["reader"], observer["reader"]) == ("us", "indians", None)  # whose close-ups
    strip = lambda v: {k: x for k, x in v.items() if k not in ("standing", "reader")}  # noqa: E731
    assert strip(us) == strip(them) == strip(observer)


def test_public_state_is_the_whole_state():
    state, _ = played()
    assert CusterEngine().public_state(state) == state


def test_resolve_does_not_mutate_its_input():
    engine = CusterEngine()
    name = fragment("view_pure", columns=10, rows=10, units=UNITS)
    state = engine.setup(name, {}, ScriptedDice())
    before = repr(state)
    engine.resolve(state, {"us": engine.parse_orders(state, "us", "ON Reno:\nALL ATTACK").orders}, ScriptedDice())
    assert repr(state) == before


def test_picture_of_little_bighorn_from_the_view():
    engine = CusterEngine()
    state = engine.setup("little_bighorn", {}, ScriptedDice())
    png = engine.picture(engine.view(state, None))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
