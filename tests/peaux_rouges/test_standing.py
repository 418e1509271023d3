"""Standing orders: how the other player's answers and fire are decided without a second mail."""

from pbem.engines.peaux_rouges import messages as M
from pbem.engines.peaux_rouges.rules import default_standing

from .conftest import LC, PR, position, run


def test_documented_defaults():
    assert default_standing(LC) == {"answer": True, "pieces": {}, "fire": True,
                                    "targets": ["CH1", "CH2", "CH3"], "advance": False}
    assert default_standing(PR)["targets"] == ["C", "O1", "O2"]


def test_standing_lines_are_kept_in_the_state(engine):
    state = position({"S1": "F9", "I1": "A5"})
    new, events = run(engine, state, "STANDING ANSWER no\nSTANDING ANSWER O2 yes\nSTANDING FIRE no\n"
                                     "STANDING TARGETS I1\nSTANDING ADVANCE yes")
    assert new["standing"][LC] == {"answer": False, "pieces": {"O2": True}, "fire": False,
                                   "targets": ["I1"], "advance": True}
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
