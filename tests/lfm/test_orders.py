"""Orders by mail: the syntax, canonical text that re-parses to the same orders, the template
(sent back unchanged: nothing moves), and clear answers to bad lines that lose nothing else."""

import pytest

from pbem.dice import Dice
from pbem.engines.base import ILLEGAL, SYNTAX
from pbem.engines.lfm import LastFullMeasureEngine, orders, scenario as scenarios

from .fragments import fragment, play

ENGINE = LastFullMeasureEngine()


def start(mails: int = 2) -> dict:
    return ENGINE.setup("east_cavalry_field", {"mails": mails}, Dice("00" * 32))


def test_orders_read_names_hexes_and_stacks_case_insensitively():
    state = start()
    text = ("fire 1110 from jackson's battery at 5th michigan\n9th Virginia, 10th Virginia dismount\n"
            "1004 MOVE TO 1007\n1st north carolina charge 1110 from 1009\nFerguson RECOVER\n"
            "Hampton move via 1005 1006\nSTANDING:\n  evade never\n  retreat 2\n  losses 36th Virginia Bn first")
    parsed = ENGINE.parse_orders(state, "csa", text)
    assert parsed.ok, parsed.errors
    ops = parsed.orders["ops"]
    assert ops[0] == {"op": "fire", "target": "1110", "from": ["jackson"], "unit": "5mi",
                      "text": "FIRE 1110 FROM Jackson's Battery AT 5th Michigan"}
    assert ops[2]["units"] == ["@1004"] and ops[2]["to"] == "1007"
    assert ops[3] == {"op": "charge", "units": ["1nc"], "target": "1110", "from": "1009",
                      "text": "1st North Carolina CHARGE 1110 FROM 1009"}
    assert ops[4] == {"op": "recover", "commander": "ferguson", "text": "Ferguson RECOVER"}
    assert parsed.orders["standing"] == {"evade": "never", "retreat": 2, "losses": ["36vabn"]}


def test_canonical_text_parses_to_the_same_orders():
    state = start()
    parsed = ENGINE.parse_orders(state, "csa", "1004 move to 1007\nfire 1110 from 0805\nstanding:\n  artillery hold")
    again = ENGINE.parse_orders(state, "csa", parsed.canonical)
    assert again.ok and again.orders == parsed.orders


def test_the_template_parses_and_holds_everything():
    state = start()
    for role in ("csa", "usa"):
        parsed = ENGINE.parse_orders(state, role, ENGINE.order_template(state, role))
        assert parsed.ok, parsed.errors
        assert parsed.orders["ops"] == []


def test_the_template_lists_the_phasing_side_by_brigade_with_hexes():
    text = ENGINE.order_template(start(), "csa")
    assert "# Hampton (brigade: Hampton's Brigade) 1004" in text
    assert "# Custer (brigade: the Michigan Brigade) 1414" in ENGINE.order_template(start(), "usa")
    assert "#   1st North Carolina (4 SP, CR 5, mounted) at 1004" in text
    assert "#   Breathed's Battery (1 SP, CR 5, limbered) enters at 0104 on turn 2" in text


def test_an_unknown_unit_is_answered_with_the_nearest_name():
    parsed = ENGINE.parse_orders(start(), "csa", "1st Nort Carolina MOVE TO 1007\n1004 MOVE TO 1007")
    (err,) = parsed.errors
    assert err.line == 1 and err.kind == SYNTAX and err.args["suggestion"] == "1st North Carolina"
    assert len(parsed.orders["ops"]) == 1  # the good line is kept


def test_the_other_side_s_units_are_refused():
    (err,) = ENGINE.parse_orders(start(), "csa", "5th Michigan MOVE TO 1110").errors
    assert err.kind == ILLEGAL


def test_attacks_wait_for_the_combat_mail_unless_one_mail_is_played():
    (err,) = ENGINE.parse_orders(start(), "csa", "ATTACK 1110 FROM 1009").errors
    assert err.kind == ILLEGAL and "combat mail" in err.reason
    assert ENGINE.parse_orders(start(mails=1), "csa", "ATTACK 1110 FROM 1009").ok


def test_bad_hexes_and_standing_values_are_explained():
    errors = ENGINE.parse_orders(start(), "csa", "1004 MOVE TO 9999\nRETREAT 3\n1004 MOVE TO 12").errors
    assert [e.line for e in errors] == [1, 2, 3]
    assert errors[0].kind == ILLEGAL and errors[1].args["choices"] == "1, 2"


def test_fire_from_two_hexes_written_with_a_space():
    parsed = orders.parse(scenarios.load("east_cavalry_field"), start(), "usa", "FIRE 1110 FROM 1315 1514", check=False)
    assert parsed.ok and parsed.orders["ops"][0]["from"] == ["1315", "1514"]
    # checked on arrival: the two hexes are not adjacent (rule 7.1), as the deadline would say
    assert [e.args["why"] for e in ENGINE.parse_orders(start(), "usa", "FIRE 1110 FROM 1315 1514").errors] == [
        "1315 and 1514 are not adjacent and may not combine their fire (rule 7.1)"]


def test_the_combat_mail_template_lists_the_hexes_that_must_be_attacked():
    name = fragment("template_combat", units=[
        {"id": "c1", "side": "csa", "type": "infantry", "hex": "0504", "sp": 8, "cr": 4, "brigade": "csa_b1"},
        {"id": "u1", "side": "usa", "type": "infantry", "hex": "0505", "sp": 4, "cr": 4, "brigade": "usa_b1"}])
    state, _ = play(name, ["HOLD"])
    assert state["step"] == "combat"
    text = ENGINE.order_template(state, "csa")
    assert "# must attack 0505 (from 0504)" in text
    assert ENGINE.parse_orders(state, "csa", text).ok


def test_retreat_toward_is_a_standing_order():
    parsed = ENGINE.parse_orders(start(), "csa", "STANDING:\n  RETREAT TOWARD 0704\n  RETREAT 2")
    assert parsed.ok and parsed.orders["standing"] == {"toward": "0704", "retreat": 2}
    assert ENGINE.parse_orders(start(), "csa", parsed.canonical).orders == parsed.orders


def test_standing_orders_can_be_applied_outside_ones_own_phase():
    """The other side's decisions come from standing orders it may change at any time: the
    engine merges a STANDING-only block into the state without resolving anything."""
    state = start()
    parsed = ENGINE.parse_orders(state, "usa", "STANDING:\n  EVADE NEVER\n  RETREAT TOWARD 1416")
    new = ENGINE.apply_standing(state, "usa", parsed.orders)
    assert new["standing"]["usa"] == {"evade": "never", "toward": "1416"} and state["standing"]["usa"] == {}
    assert ENGINE.phase(new) == ENGINE.phase(state)
    assert ENGINE.apply_standing(state, "usa", ENGINE.parse_orders(state, "usa", "1416 MOVE TO 1415").orders) is None


def test_advance_all_is_read_in_an_attack_and_as_a_standing_order():
    """Rule 10.3-10.4 lets every stack that took part advance: ATTACK ... ADVANCE ALL and the
    standing order ADVANCE ALL are read, and written back as they were."""
    state = start(mails=1)
    parsed = ENGINE.parse_orders(state, "csa", "ATTACK 1110 FROM 1009 ADVANCE ALL\nSTANDING:\n  ADVANCE ALL")
    assert parsed.ok, parsed.errors
    [attack] = [op for op in parsed.orders["ops"] if op["op"] == "attack"]
    assert attack["advance"] == "all" and parsed.orders["standing"] == {"advance": "all"}
    assert "ATTACK 1110 FROM 1009 ADVANCE ALL" in parsed.canonical
    assert ENGINE.parse_orders(state, "csa", parsed.canonical).orders == parsed.orders
