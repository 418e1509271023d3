"""Orders by mail: reading them, errors per line, canonical text, template and defaults."""

import pytest

from pbem.engines.custer import CusterEngine
from pbem.service.render import describe_missing

from .fragments import ScriptedDice, fragment

UNITS = [
    {"id": "custer", "name": "Custer", "side": "us", "type": "us_leader", "cf": [3, 0], "hex": "0505"},
    {"id": "co_c", "name": "Co. C", "side": "us", "type": "cavalry", "cf": [4, 2], "hex": "0505"},
    {"id": "co_e", "name": "Co. E", "side": "us", "type": "cavalry", "cf": [5, 3], "hex": "0506"},
    {"id": "co_d", "name": "Co. D", "side": "us", "type": "cavalry", "cf": [5, 3], "enter": {"turn": 2, "hex": "0808"}},
    {"id": "sitting_bull", "name": "Sitting Bull", "side": "indians", "type": "tribe_leader", "tribe": "hunkpapa",
     "cf": [2, 0], "hex": "0202"},
    {"id": "hunkpapa_w1", "name": "Hunkpapa warriors 1", "side": "indians", "type": "warriors", "tribe": "hunkpapa",
     "cf": [4, 2], "hex": "0202"},
    {"id": "hunkpapa_v", "name": "Hunkpapa village", "side": "indians", "type": "village", "tribe": "hunkpapa",
     "cf": [1, 1], "hex": "0203"},
    {"id": "oglala_w1", "name": "Oglala warriors 1", "side": "indians", "type": "warriors", "tribe": "oglala",
     "cf": [4, 2], "hex": "0303"},
]
MARKERS = [
    {"id": "m_custer_1", "name": "Custer", "side": "us", "leader": "custer", "units": 5},
    {"id": "m_custer_2", "name": "Custer", "side": "us", "leader": "custer", "units": 5},
    {"id": "m_hunkpapa", "name": "Hunkpapa", "side": "indians", "tribe": "hunkpapa"},
    {"id": "m_oglala", "name": "Oglala", "side": "indians", "tribe": "oglala"},
]


@pytest.fixture
def game():
    name = fragment("orders_case", columns=10, rows=10, units=UNITS, markers=MARKERS,
                    exits={"village": ["0101"]})
    engine = CusterEngine()
    return engine, engine.setup(name, {}, ScriptedDice())


def test_the_suggested_syntax_reads(game):
    engine, state = game
    text = """ON Custer 1:
  Custer, Co. C MOVE TO 0303   # routed at run time
  Co. E MOVE VIA 0405 0404
  co. c dismount
  ATTACK 0202 WITH Co. C, Co. E
  HOLD Co. D
STANDING:
  LOSSES Co. C FIRST
  RETREAT TOWARD 0909
  ADVANCE no
"""
    result = engine.parse_orders(state, "us", text)
    assert result.ok, result.errors
    ops = result.orders["markers"]["m_custer_1"]
    assert ops[0] == {"op": "move", "units": ["custer", "co_c"], "to": "0303"}
    assert ops[1] == {"op": "via", "units": ["co_e"], "path": ["0405", "0404"]}
    assert ops[2] == {"op": "dismount", "units": ["co_c"]}
    assert ops[3] == {"op": "attack", "hex": "0202", "units": ["co_c", "co_e"], "advance": None}
    assert ops[4] == {"op": "hold", "units": ["co_d"]}
    assert result.orders["standing"] == {"losses": ["co_c"], "retreat": "0909", "advance": False}


def test_keywords_any_case_and_names_as_written(game):
    engine, state = game
    result = engine.parse_orders(state, "indians", "on hunkpapa:\n hunkpapa_w1, SITTING BULL move to 0404\n"
                                                   "Hunkpapa Village exit\n all attack\n")
    assert result.ok, result.errors
    assert result.orders["markers"]["m_hunkpapa"] == [
        {"op": "move", "units": ["hunkpapa_w1", "sitting_bull"], "to": "0404"},
        {"op": "exit", "units": ["hunkpapa_v"]}, {"op": "all_attack"}]


def test_unknown_unit_gets_a_suggestion(game):
    engine, state = game
    error = engine.parse_orders(state, "us", "ON Custer 1:\n\nCo. Q MOVE TO 0303").errors[0]
    assert (error.line, error.text, error.kind) == (3, "Co. Q MOVE TO 0303", "syntax")
    assert error.describe() == "no unit 'Co. Q'"
    assert error.describe_suggestion() == "did you mean 'Co. C'?"


def test_errors_by_kind(game):
    engine, state = game
    text = "\n".join([
        "Co. C MOVE TO 0303",                 # 1 before any ON line
        "ON Custer 1:",
        "Co. C MOVE TO 9999",                 # 3 off the map
        "Sitting Bull MOVE TO 0303",          # 4 not ours
        "Co. C FLY TO 0303",                  # 5 unreadable
        "ON Hunkpapa:",                       # 6 the other side's marker
        "ON Custr 1:",                        # 7 unknown marker
        "Custer DISMOUNT",                    # 8 leaders never dismount (back in no block: syntax)
    ])
    errors = {e.line: e for e in engine.parse_orders(state, "us", text).errors}
    assert {n: e.kind for n, e in errors.items()} == {
        1: "syntax", 3: "illegal", 4: "illegal", 5: "syntax", 6: "illegal", 7: "syntax", 8: "syntax"}
    assert errors[7].describe_suggestion() == "did you mean 'Custer 1'?"
    result = engine.parse_orders(state, "us", "ON Custer 1:\nCuster DISMOUNT")
    assert result.errors[0].kind == "illegal"


def test_a_unit_of_another_tribe_is_refused_with_the_right_marker(game):
    engine, state = game
    error = engine.parse_orders(state, "indians", "ON Hunkpapa:\nOglala warriors 1 MOVE TO 0505").errors[0]
    assert error.kind == "illegal" and error.describe_suggestion() == "write it under ON Oglala:"


def test_canonical_text_parses_to_the_same_orders(game):
    engine, state = game
    text = ("on custer:\nco c, co e move to 0303\nATTACK 0202 with co. c advance\nATTACK 0203 no advance\n"
            "all dismount\nhold\nStanding:\nlosses default\nretreat away\nadvance yes\n")
    first = engine.parse_orders(state, "us", text)
    assert first.ok, first.errors
    again = engine.parse_orders(state, "us", first.canonical)
    assert again.ok and again.orders == first.orders and again.canonical == first.canonical


def test_a_shared_marker_name_orders_every_marker_of_that_name(game):
    """Two Custer markers: "ON Custer" orders both; the template names them "Custer 1" and "Custer 2"."""
    engine, state = game
    result = engine.parse_orders(state, "us", "ON Custer:\nCo. C MOVE TO 0303")
    assert set(result.orders["markers"]) == {"m_custer_1", "m_custer_2"}
    assert "ON Custer 1:" in result.canonical and "ON Custer 2:" in result.canonical


def test_missing_markers_are_listed(game):
    engine, state = game
    result = engine.parse_orders(state, "indians", "ON Oglala:\nALL ATTACK")
    assert result.missing == [{"msg": "no orders for marker %(marker)s: its units hold", "args": {"marker": "Hunkpapa"}}]
    assert describe_missing(result.missing, "en") == ["no orders for marker Hunkpapa: its units hold"]
    assert describe_missing(result.missing, "fr") == ["pas d'ordres pour le marqueur Hunkpapa : ses unités restent en place"]


@pytest.mark.parametrize("role", ["us", "indians"])
def test_the_template_parses_without_error_and_holds(game, role):
    engine, state = game
    template = engine.order_template(state, role)
    result = engine.parse_orders(state, role, template)
    assert result.ok, result.errors
    assert all(ops == [{"op": "hold", "units": []}] for ops in result.orders["markers"].values())
    assert result.orders["standing"] == {"losses": [], "retreat": None, "advance": True}
    assert "Co. C (cavalry, 4 CF, mounted) at 0505" in engine.order_template(state, "us")


def test_default_orders_hold_everything(game):
    engine, state = game
    assert engine.default_orders(state, "us") == {"markers": {}, "standing": None}
    new_state, events = engine.resolve(state, {}, ScriptedDice())
    assert not [e for e in events if e["type"] in ("move", "combat")]


def test_standing_orders_persist_until_changed(game):
    engine, state = game
    orders = engine.parse_orders(state, "us", "STANDING:\nLOSSES Co. E FIRST\nADVANCE NO").orders
    state, _ = engine.resolve(state, {"us": orders}, ScriptedDice())
    assert state["standing"]["us"] == {"losses": ["co_e"], "advance": False}
    orders = engine.parse_orders(state, "us", "ADVANCE YES").orders
    state, _ = engine.resolve(state, {"us": orders}, ScriptedDice())
    assert state["standing"]["us"] == {"losses": ["co_e"], "advance": True}
    assert "LOSSES Co. E FIRST" in engine.order_template(state, "us")


def test_the_template_leaves_out_a_losses_preference_for_a_unit_no_longer_in_the_game(game):
    """A standing LOSSES preference holds until changed, but a unit eliminated since cannot
    be named in orders; the template, which must parse as it is, writes only the units
    still in the game (none left: LOSSES DEFAULT)."""
    engine, state = game
    orders = engine.parse_orders(state, "us", "STANDING:\nLOSSES Co. E FIRST").orders
    state, _ = engine.resolve(state, {"us": orders}, ScriptedDice())
    state["units"]["co_e"]["status"] = "eliminated"
    template = engine.order_template(state, "us")
    assert "LOSSES DEFAULT" in template and "LOSSES Co. E" not in template
    assert engine.parse_orders(state, "us", template).ok


def test_a_name_shared_by_two_units_is_ambiguous():
    units = UNITS + [dict(UNITS[2], id="co_e2")]
    name = fragment("orders_ambiguous", columns=10, rows=10, units=units, markers=MARKERS)
    engine = CusterEngine()
    state = engine.setup(name, {}, ScriptedDice())
    error = engine.parse_orders(state, "us", "ON Custer 1:\nCo. E MOVE TO 0303").errors[0]
    assert error.kind == "ambiguous" and error.args["suggestion"] == "co_e"
    assert engine.parse_orders(state, "us", "ON Custer 1:\nco_e2 MOVE TO 0303").ok
    assert "co_e2 (cavalry" in engine.order_template(state, "us")  # the template names it by id


def test_an_empty_block_holds_and_its_canonical_text_reads_back(game):
    engine, state = game
    result = engine.parse_orders(state, "us", "ON Custer 1:")
    assert result.orders["markers"]["m_custer_1"] == [{"op": "hold", "units": []}]
    assert engine.parse_orders(state, "us", result.canonical).orders == result.orders


def test_pass_and_enter_at_read_and_read_back(game):
    """PASS waits for another marker of the same leader; it may follow ON <marker>: on its line.
    <units> ENTER AT <hex> places reinforcements on their entry hex or a hex next to it."""
    engine, state = game
    result = engine.parse_orders(state, "us", "ON Custer 1: PASS\nON Custer 2:\n  Co. D ENTER AT 0807\n  Co. D MOVE TO 0606")
    assert result.ok, result.errors
    assert result.orders["markers"]["m_custer_1"] == [{"op": "pass"}]
    assert result.orders["markers"]["m_custer_2"][0] == {"op": "enter", "units": ["co_d"], "hex": "0807"}
    again = engine.parse_orders(state, "us", result.canonical)
    assert again.orders == result.orders and "  PASS" in result.canonical and "Co. D ENTER AT 0807" in result.canonical
    assert engine.parse_orders(state, "us", "on custer 1: wait").orders["markers"]["m_custer_1"] == [{"op": "pass"}]


def test_enter_at_is_checked_against_the_entry_hex(game):
    """"Place units on the entry location hex or adjacent to the entry hex": anything else is
    refused when the orders arrive, as is ENTER for a unit already on the board."""
    engine, state = game
    errors = engine.parse_orders(state, "us", "ON Custer:\nCo. D ENTER AT 0805\nCo. C ENTER AT 0506\nCo. D ENTER\n").errors
    assert [(e.line, e.kind) for e in errors] == [(2, "illegal"), (3, "illegal"), (4, "syntax")]
    assert errors[0].reason % errors[0].args == "Co. D enters at 0808 or a hex next to it, not at 0805"
    assert errors[1].reason % errors[1].args == "Co. C is not a reinforcement waiting to enter"
