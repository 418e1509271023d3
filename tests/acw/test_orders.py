"""Orders by mail: places as landmarks, grid squares or inches, bearings, brigades,
officers and standing orders; clear errors with suggestions; the template holds
everything and parses clean; canonical text reads back to the same orders."""

from pathlib import Path

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.acw.orders import STANDING_FLAGS
from pbem.engines.base import ILLEGAL, SYNTAX


def setup():
    engine = ACWMiniaturesEngine()
    return engine, engine.setup("herbst_woods", {}, Dice("ab" * 32))


def test_places_are_landmarks_grid_squares_or_inches():
    engine, state = setup()
    r = engine.parse_orders(state, "union", "2nd Wisconsin: MOVE TO Herbst Woods\n7th Wisconsin: MOVE TO c4\n"
                                            "19th Indiana: MOVE TO 40.5, 30\n24th Michigan: MOVE 6 BEARING SW")
    assert r.ok, r.errors
    units = r.orders["units"]
    assert units["wis2"] == [{"op": "move", "to": [41.0, 24.0], "ref": "Herbst Woods"}]
    assert units["wis7"] == [{"op": "move", "to": [15.0, 21.0], "ref": "C4"}]
    assert units["ind19"][0]["to"] == [40.5, 30.0]
    assert units["mich24"] == [{"op": "bearing", "distance": 6.0, "bearing": 225.0}]


def test_a_brigade_line_orders_its_regiments_and_a_unit_line_overrides_it():
    from pbem.engines.acw.orders import unit_ops
    from pbem.engines.acw.scenario import load

    engine, state = setup()
    r = engine.parse_orders(state, "union", "Iron Brigade: LINE; MOVE TO McPherson's Ridge\n19th Indiana: HOLD")
    assert r.ok
    sc = load("herbst_woods")
    assert unit_ops(sc, r.orders, "wis2")[1]["group"] == "iron"
    assert unit_ops(sc, r.orders, "ind19") == [{"op": "hold"}]


def test_officers_attach_and_standing_orders_are_read():
    engine, state = setup()
    r = engine.parse_orders(state, "union", "Meredith: ATTACH TO 2nd Wisconsin\n"
                                            "STANDING Iron Brigade: opportunity fire, support\nSTANDING 19th Indiana: NONE")
    assert r.ok, r.errors
    assert r.orders["staff"]["meredith"] == [{"op": "attach", "unit": "wis2", "rank": "front"}]
    rear = engine.parse_orders(state, "union", "Meredith: ATTACH TO 2nd Wisconsin REAR RANK")
    assert rear.orders["staff"]["meredith"] == [{"op": "attach", "unit": "wis2", "rank": "rear"}], rear.errors
    assert rear.canonical == "Meredith: ATTACH TO 2nd Wisconsin REAR RANK\n"
    assert r.orders["standing"]["wis2"] == {"opportunity": True, "pull_away": False, "countercharge": False, "support": True}
    assert r.orders["standing"]["ind19"]["opportunity"] is False


def test_bad_lines_get_a_reason_and_a_suggestion_and_lose_nothing_else():
    engine, state = setup()
    r = engine.parse_orders(state, "union", "2nd Wisconson: HOLD\n7th Wisconsin: MOVE TO Herbst Wood\n"
                                            "19th Indiana: SQUARE\n1st Tennessee: HOLD\nCalef's Battery: CHARGE 1st Tennessee\n"
                                            "24th Michigan: MOVE TO 90,10\n6th Wisconsin: ENTER AT Pike East")
    by_line = {e.line: e for e in r.errors}
    assert by_line[1].kind == SYNTAX and by_line[1].args["suggestion"] == "2nd Wisconsin"
    assert by_line[2].args["suggestion"] == "Herbst Woods"
    assert 3 not in by_line
    assert by_line[4].kind == ILLEGAL
    assert by_line[5].kind == ILLEGAL
    assert by_line[6].kind == ILLEGAL
    assert r.orders["units"]["wis6"] == [{"op": "enter", "at": "Pike East"}]
    assert r.orders["units"]["ind19"] == [{"op": "formation", "to": "square"}]


def test_a_battery_in_action_takes_face_wheel_and_moves_by_hand():
    """Section 8 (movement designed): guns in action are turned with FACE or WHEEL and pushed by
    hand with MOVE, ADVANCE or RETIRE; the orders read as for any unit (the engine turns a
    wheel into a turn on the centre and stops a push at 2 inches), and guns never charge."""
    engine, state = setup()
    r = engine.parse_orders(state, "union", "Calef's Battery: FACE 250; WHEEL RIGHT 30; ADVANCE 1; RETIRE 2; MOVE 2 BEARING S")
    assert r.ok, [(e.text, e.reason % e.args) for e in r.errors]
    assert r.orders["units"]["calef"] == [{"op": "face", "bearing": 250.0}, {"op": "wheel", "degrees": 30.0},
                                          {"op": "advance", "distance": 1.0}, {"op": "retire", "distance": 2.0},
                                          {"op": "bearing", "distance": 2.0, "bearing": 180.0}]
    bad = engine.parse_orders(state, "union", "Calef's Battery: CHARGE NEAREST")
    assert [e.kind for e in bad.errors] == [ILLEGAL]


def test_canonical_text_reads_back_to_the_same_orders():
    engine, state = setup()
    text = ("Iron Brigade: LINE; MOVE TO E4; FACE W; WHEEL LEFT 30\n24th Michigan: ROAD TO McPherson Farm; ADVANCE 2; RETIRE 1\n"
            "Calef's Battery: LIMBER; MOVE TO 60,8; UNLIMBER; FACE Herr Ridge\n2nd Wisconsin: CHARGE NEAREST FRONT\n"
            "7th Wisconsin: SUPPORT 2nd Wisconsin\nReynolds: MOVE TO J3\nSTANDING 2nd Wisconsin: COUNTERCHARGE, PULL AWAY")
    r = engine.parse_orders(state, "union", text)
    assert r.ok, [(e.text, e.reason % e.args) for e in r.errors]
    again = engine.parse_orders(state, "union", r.canonical)
    assert again.ok and again.orders == r.orders


def test_the_template_parses_clean_and_holds_everything():
    engine, state = setup()
    for role in ("union", "confederate"):
        text = engine.order_template(state, role)
        r = engine.parse_orders(state, role, text)
        assert r.ok, r.errors
        assert all(ops == [{"op": "hold"}] for ops in r.orders["units"].values())
        assert not r.orders["brigades"]
    union = engine.order_template(state, "union")
    assert "2nd Wisconsin: HOLD" in union and "J4 (58,22) facing 270, column" in union


def test_the_template_translates_its_comments_only():
    engine, state = setup()
    text = engine.order_template(state, "union", gettext=lambda s: s.replace("Landmarks", "Repères"))
    assert "Repères:" in text and engine.parse_orders(state, "union", text).ok


def test_supply_wagons_take_orders_only_in_a_game_with_the_option():
    """Section 19's optional supply wagons: with the option a wagon line is read (MOVE TO, ROAD
    TO, HOLD) and its canonical text reads back the same; without it the line is refused with
    the reason, and the other lines still count."""
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {"supply_wagons": True}, Dice("ab" * 32))
    r = engine.parse_orders(state, "union", "Wadsworth's Ordnance Train: ROAD TO Seminary Ridge\n2nd Wisconsin: HOLD")
    assert r.ok, r.errors
    assert r.orders["wagons"]["wadsworth_train"] == [{"op": "road", "to": [70.0, 24.0], "ref": "Seminary Ridge"}]
    assert engine.parse_orders(state, "union", r.canonical).orders == r.orders
    assert "Wadsworth's Ordnance Train: HOLD" in engine.order_template(state, "union")
    bad = engine.parse_orders(state, "union", "Wadsworth's Ordnance Train: CHARGE 1st Tennessee\nHeth's Ordnance Train: HOLD\n"
                                              "STANDING Wadsworth's Ordnance Train: SUPPORT")
    assert [(e.line, e.kind) for e in bad.errors] == [(1, SYNTAX), (2, ILLEGAL), (3, ILLEGAL)]
    plain = engine.setup("herbst_woods", {}, Dice("ab" * 32))
    r = engine.parse_orders(plain, "union", "Wadsworth's Ordnance Train: MOVE TO C4\n2nd Wisconsin: HOLD")
    assert [(e.line, e.kind) for e in r.errors] == [(1, ILLEGAL)] and "supply_wagons" in r.errors[0].reason
    assert r.orders["units"]["wis2"] == [{"op": "hold"}]
    assert "Ordnance Train" not in engine.order_template(plain, "union")


def test_the_readmes_orders_example_parses_clean_with_every_form():
    """The README's ACW orders (McPherson's Ridge, where the supply wagons play) are read as
    written, comments after the orders included, and show every action and standing order."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("### ACW miniatures (1997)", 1)[1].split("```", 2)[1].strip().splitlines()
    assert block[0] == "ORDERS mr1 T3" and block[-1] == "END"
    engine = ACWMiniaturesEngine()
    state = engine.setup("mcphersons_ridge", {}, Dice("ab" * 32))
    r = engine.parse_orders(state, "union", "\n".join(block[1:-1]))
    assert r.ok, [(e.line, e.text, e.reason % e.args) for e in r.errors]
    ops = {op["op"] for part in ("brigades", "units", "staff", "wagons") for lines in r.orders[part].values() for op in lines}
    assert {"formation", "move", "road", "bearing", "advance", "retire", "face", "wheel", "hold", "fire", "charge",
            "support", "enter", "limber", "unlimber", "dismount", "attach"} <= ops
    assert r.orders["wagons"] and r.orders["staff"]["buford"][0]["op"] == "move"
    assert {flag for flags in r.orders["standing"].values() for flag, on in flags.items() if on} == set(STANDING_FLAGS)


def test_reserves_enter_by_whole_brigades():
    """2 C: "To Enter, (By Brigs./Divs. only)": ENTER AT is an order for a brigade; a regiment of a
    brigade with others in reserve is refused, with the order to write instead."""
    engine = ACWMiniaturesEngine()
    state = engine.setup("mcphersons_ridge", {}, Dice("ab" * 32))
    reserve = [uid for uid, u in state["units"].items() if u["status"] == "reserve" and u["side"] == "confederate"]
    assert len(reserve) > 1
    r = engine.parse_orders(state, "confederate", "40th Virginia: ENTER AT Pike West")
    assert not r.ok and r.errors[0].kind == ILLEGAL
    assert r.errors[0].reason % r.errors[0].args == "reserves enter by whole brigades (2 C): write ENTER AT for Brockenbrough's Brigade"
    ok = engine.parse_orders(state, "confederate", "Brockenbrough's Brigade: ENTER AT Pike West")
    assert ok.ok, ok.errors
