"""Standing orders: how the other player's answers and fire are decided without a second mail."""

import pytest

from pbem.engines.peaux_rouges import messages as M
from pbem.engines.peaux_rouges.rules import default_standing

from .conftest import LC, PR, position, run


def test_documented_defaults():
    assert default_standing(LC) == {"answer": True, "pieces": {}, "fire": True, "fire_within": 3,
                                    "fire_riders": True, "targets": ["CH1", "CH2", "CH3"], "advance": False,
                                    "retreat_toward": None}
    assert default_standing(PR)["targets"] == ["C", "O1", "O2"]


def test_standing_lines_are_kept_in_the_state(engine):
    state = position({"S1": "F9", "I1": "A5"})
    new, events = run(engine, state, "STANDING ANSWER no\nSTANDING ANSWER O2 yes\nSTANDING FIRE no\n"
                                     "STANDING FIRE WITHIN 1\nSTANDING FIRE RIDERS no\n"
                                     "STANDING TARGETS I1\nSTANDING ADVANCE yes\nSTANDING RETREAT H10")
    assert new["standing"][LC] == {"answer": False, "pieces": {"O2": True}, "fire": False, "fire_within": 1,
                                   "fire_riders": False, "targets": ["I1"], "advance": True,
                                   "retreat_toward": "H10"}
    new1, _ = run(engine, dict(new, side=LC), "CONSIGNES TIR toujours")
    assert {k: new1["standing"][LC][k] for k in ("fire", "fire_within", "fire_riders")} == {
        "fire": True, "fire_within": 3, "fire_riders": True}
    assert new["standing"][PR] == state["standing"][PR]
    (ev,) = [e for e in events if e["type"] == "standing"]
    assert ev["to"] == [LC]  # the other side is not told
    new2, _ = run(engine, dict(new, side=LC), "STANDING DEFAULT")
    assert new2["standing"][LC] == default_standing(LC)


def test_new_standing_orders_act_in_the_same_turn(engine):
    """The Long Knives hold their answers from this mail on: the Indians' reply fire is unanswered."""
    state = position({"S1": "F9", "I1": "F6"})
    new, events = run(engine, state, "STANDING ANSWER no", rolls=[1])
    assert M.NO_ANSWER_HELD in [e["msg"] for e in events]


def test_reply_fire_follows_the_targets_list(engine):
    state = position({"S1": "F9", "S2": "H9", "I1": "G6"})
    state["standing"][PR]["targets"] = ["S2"]
    new, events = run(engine, state, "", rolls=[1, 1])
    assert [(e["args"]["attacker"], e["args"]["target"]) for e in events if e["type"] == "duel"] == [("I1", "S2")]
    state["standing"][PR]["targets"] = ["S1"]
    new, events = run(engine, state, "", rolls=[1, 1])
    assert [(e["args"]["attacker"], e["args"]["target"]) for e in events if e["type"] == "duel"] == [("I1", "S1")]


def test_reply_melee_comes_before_reply_fire(engine):
    state = position({"S1": "F9", "S2": "H9", "I1": "F8", "I2": "H6"})
    new, events = run(engine, state, "", rolls=[1, 1, 1, 1])
    duels = [(e["args"]["attacker"], e["msg"]) for e in events if e["type"] == "duel"]
    assert duels[0] == ("I1", M.MELEE)


def test_a_defender_who_wins_a_melee_advances_by_its_standing_orders(engine):
    state = position({"T1": "F7", "S1": "F8", "C": "A5"}, side=PR)
    state["standing"][LC]["advance"] = True
    new, events = run(engine, state, "MELEE T1 AT S1", rolls={"attacker": 1, "target": 6})
    assert new["pieces"]["T1"] is None and new["pieces"]["S1"] == "F7"
    state["standing"][LC]["advance"] = False
    new, events = run(engine, state, "MELEE T1 AT S1", rolls={"attacker": 1, "target": 6})
    assert new["pieces"]["S1"] == "F8"


def test_a_long_knife_never_leaves_the_flag_alone_to_advance(engine):
    state = position({"T1": "F7", "S1": "F8", "C": "A5"}, side=PR, flag="F8")
    state["standing"][LC]["advance"] = True
    new, events = run(engine, state, "MELEE T1 AT S1", rolls={"attacker": 1, "target": 6})
    assert new["pieces"]["S1"] == "F8" and new["flag"] == "F8"


def test_fire_within_one_means_melee_only(engine):
    """With STANDING FIRE WITHIN 1 the Long Knives' fire after the Indians' is melee only."""
    state = position({"S1": "F9", "S2": "C9", "T1": "F8", "I1": "C6"}, side=PR)
    state["standing"][LC]["fire_within"] = 1
    new, events = run(engine, state, "", rolls=[1, 1])
    assert [(e["args"]["attacker"], e["args"]["target"]) for e in events if e["type"] == "duel"] == [("S1", "T1")]


def test_a_state_from_before_the_fire_filters_plays_by_their_defaults(engine):
    state = position({"S1": "F9", "CH1": "F6"}, side=PR)
    for key in ("fire_within", "fire_riders"):
        del state["standing"][LC][key]
    new, events = run(engine, state, "", rolls=[1, 1])
    assert [e["args"]["target"] for e in events if e["type"] == "duel"] == ["CH1"]


@pytest.mark.parametrize("text,ops", [
    ("STANDING FIRE WITHIN 2", [["fire_within", 2]]), ("CONSIGNES TIR À 2", [["fire_within", 2]]),
    ("CONSIGNES TIR JUSQU'À 1", [["fire_within", 1]]), ("consignes tir portée 3", [["fire_within", 3]]),
    ("STANDING FIRE RIDERS no", [["fire_riders", False]]), ("CONSIGNES TIR CAVALIERS non", [["fire_riders", False]]),
    ("STANDING FIRE always", [["fire_always"]]), ("STANDING FIRE never", [["fire", False]]),
    ("CONSIGNES TIR jamais", [["fire", False]]), ("CONSIGNES TIR oui", [["fire", True]]),
])
def test_fire_standing_lines_in_both_languages(engine, text, ops):
    result = engine.parse_orders(position({"S1": "F9"}), LC, text)
    assert result.ok and result.orders["standing"] == ops
    again = engine.parse_orders(position({"S1": "F9"}), LC, result.canonical)
    assert again.orders["standing"] == ops


@pytest.mark.parametrize("text,reason", [
    ("STANDING FIRE WITHIN 4", M.E_FIRE_WITHIN), ("CONSIGNES TIR À deux", M.E_FIRE_WITHIN),
    ("STANDING FIRE RIDERS maybe", M.E_YES_NO), ("STANDING FIRE WITHIN", M.E_STANDING_FORM),
    ("CONSIGNES TIR CAVALIERS", M.E_STANDING_FORM),
])
def test_bad_fire_standing_lines(engine, text, reason):
    assert [e.reason for e in engine.parse_orders(position({"S1": "F9"}), LC, text).errors] == [reason]


def test_standing_retreat_square_steers_the_losers_of_the_fire_after_the_movers(engine):
    """In the fire after the mover's, the other side's winners choose by its standing orders:
    I1 beats S1 from F6 and pushes it toward H10 (G10), not to the engine's first pick (E10)."""
    state = position({"S1": "F9", "I1": "F6"}, side=LC)
    state["standing"][PR]["retreat_toward"] = "H10"
    new, events = run(engine, state, "STANDING ANSWER no", rolls=[5, 1])
    assert new["pieces"]["S1"] == "G10"
    state["standing"][PR]["retreat_toward"] = None
    new, events = run(engine, state, "STANDING ANSWER no", rolls=[5, 1])
    assert new["pieces"]["S1"] == "E10"


@pytest.mark.parametrize("text,value", [("STANDING RETREAT H10", "H10"), ("CONSIGNES REPLI h10", "H10"),
                                        ("STANDING RETREAT TO H10", "H10"), ("CONSIGNES REPLI VERS H10", "H10"),
                                        ("STANDING RETREAT DEFAULT", None), ("CONSIGNES REPLI DÉFAUT", None)])
def test_standing_retreat_lines(engine, text, value):
    result = engine.parse_orders(position({"S1": "F9"}), LC, text)
    assert result.ok and result.orders["standing"] == [["retreat_toward", value]]
    assert engine.parse_orders(position({"S1": "F9"}), LC, result.canonical).orders == result.orders


def test_bad_standing_retreat_lines(engine):
    assert [e.reason for e in engine.parse_orders(position({"S1": "F9"}), LC, "STANDING RETREAT Z99").errors] == [
        M.E_BAD_SQUARE]
    assert [e.reason for e in engine.parse_orders(position({"S1": "F9"}), LC, "STANDING RETREAT").errors] == [
        M.E_STANDING_FORM]
