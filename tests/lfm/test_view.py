"""What players see: the whole battlefield (nothing on the map is hidden in this series), the
turn, VP, this player turn's moves, fire lines and fights; standing orders only to their own
side; and nothing of the state outside the whitelist."""

from pbem.engines.base import MODERATOR
from pbem.engines.lfm import LastFullMeasureEngine

from .fragments import ScriptedDice, fragment, play

UNITS = [{"id": "c1", "side": "csa", "type": "infantry", "hex": "0504", "sp": 8, "cr": 4, "brigade": "csa_b1"},
         {"id": "u1", "side": "usa", "type": "infantry", "hex": "0505", "sp": 4, "cr": 4, "brigade": "usa_b1"},
         {"id": "u2", "side": "usa", "type": "infantry", "hex": "0909", "sp": 4, "cr": 4, "brigade": "usa_b1"}]


def played():
    name = fragment("view_case", units=UNITS)
    return play(name, ["HOLD\nSTANDING:\n  LOSSES c1 FIRST\n  RETREAT 2", "ATTACK 0505 FROM 0504 NO ADVANCE"],
                {"T1a.C R1 combat 0505": 3})


def test_view_shows_the_battlefield_and_this_turn():
    state, _ = played()
    view = LastFullMeasureEngine().view(state, "usa")
    u1 = next(u for u in view["units"] if u["id"] == "u1")
    assert u1["hex"] == "0507" and u1["d"] is True and u1["sp"] == 4  # RETREAT 2, the default
    assert view["last"]["combats"] == [{"target": "0505", "targets": ["0505"], "attackers": ["0504"], "result": "DR"}]
    assert view["last"]["retreats"][0]["path"] == ["0505", "0506", "0507"]
    assert view["phase"] == "T1b.M" and view["phasing"] == "usa" and view["vp"] == state["vp"]


def test_view_leaks_no_standing_orders_to_the_other_side():
    state, _ = played()
    engine = LastFullMeasureEngine()
    csa, usa, observer = engine.view(state, "csa"), engine.view(state, "usa"), engine.view(state, None)
    assert csa["standing"] == {"csa": {"losses": ["c1"], "retreat": 2}}
    assert usa["standing"] == {"usa": {}} and observer["standing"] == {}
    assert set(engine.view(state, MODERATOR)["standing"]) == {"csa", "usa"}
    strip = lambda v: {k: x for k, x in v.items() if k != "standing"}  # noqa: E731
    assert strip(csa) == strip(usa) == strip(observer)
    assert "LOSSES" not in repr(usa) and "'c1']" not in repr(strip(usa))


def test_view_is_a_whitelist():
    state, _ = played()
    state["secret_probe"] = "leak"
    state["units"]["c1"]["secret_probe"] = "leak"
    assert "leak" not in repr(LastFullMeasureEngine().view(state, "usa"))


def test_orders_are_not_revealed_because_they_carry_standing_orders():
    engine = LastFullMeasureEngine()
    assert engine.reveals_orders is False
    state, _ = played()
    assert engine.public_state(state) is None


def test_resolve_does_not_mutate_its_input():
    engine = LastFullMeasureEngine()
    name = fragment("view_pure", units=UNITS)
    state, _ = play(name, ["HOLD"])
    before = repr(state)
    parsed = engine.parse_orders(state, "csa", "ATTACK 0505 FROM 0504")
    engine.resolve(state, {"csa": parsed.orders}, ScriptedDice())
    assert repr(state) == before


def test_every_event_is_public():
    """Nothing in this game is private: no event is addressed to one side only (an event's
    ``to`` would hide it from the other side's report)."""
    _, events = played()
    assert events and all("to" not in e for e in events)
