"""Rule options: readings of the damaged sheet that a game may choose, the literal one by default."""

import pytest

from pbem.engines.peaux_rouges import messages as M
from pbem.engines.peaux_rouges.options import RULE_OPTIONS, default_options

from .conftest import LC, PR, position, run


def test_the_defaults_are_the_literal_readings(engine):
    assert default_options() == {"leader_shots": "separate", "flag_carriers": "soldiers",
                                 "parapet_bonus": "all_foot", "stacking": "british"}
    scenario = engine.scenarios()["little_big_horn"]
    assert scenario.options == {"turn_limit": 12, **default_options()}


def test_a_new_game_keeps_its_options_in_the_state_and_shows_them(engine):
    state = engine.setup("little_big_horn", {"stacking": "one", "turn_limit": 10}, None)
    assert state["options"] == {**default_options(), "stacking": "one"} and state["turn_limit"] == 10
    assert engine.validate_state(state) == []
    assert engine.view(state, PR)["options"]["stacking"] == "one"


@pytest.mark.parametrize("name", sorted(RULE_OPTIONS))
def test_a_bad_option_value_is_refused_with_the_accepted_ones(engine, name):
    with pytest.raises(ValueError) as err:
        engine.setup("little_big_horn", {name: "sometimes"}, None)
    for value in RULE_OPTIONS[name][1]:
        assert value in str(err.value)


def test_validate_state_names_an_unknown_option(engine):
    state = engine.setup("little_big_horn", {}, None)
    state["options"]["stacking"] = "many"
    assert engine.validate_state(state) == ["option stacking='many' is not a rule option of this game"]


def test_a_state_saved_without_options_plays_by_the_defaults(engine):
    state = position({"S1": "E8", "S2": "F8", "CH1": "L9"})
    del state["options"]
    assert engine.parse_orders(state, LC, "MOVE S1 F8").ok


def test_with_one_piece_a_square_a_rider_stops_where_it_may_stand(engine):
    """Option stacking=one: a rider carried short of its square stops only on an empty one."""
    state = position({"CH1": "A8", "S1": "C10", "T1": "C9"}, side=PR, options={"stacking": "one"})
    state["standing"][LC]["fire"] = False
    new, events = run(engine, state, "MOVE CH1 D10\nMELEE T1 AT S1", rolls=[1] * 4)
    assert new["pieces"]["CH1"] == "B9"


def test_consecutive_leader_shots_in_the_fire_after_the_movers(engine):
    """Option leader_shots=consecutive: in his side's fire after the mover's, Custer's second
    shot goes at the enemy he shot first, not at another one."""
    state = position({"C": "F9", "CH1": "F6", "CH2": "H7"}, side=PR, options={"leader_shots": "consecutive"})
    new, events = run(engine, state, "", rolls=[1] * 4)
    assert [e["args"]["target"] for e in events if e["type"] == "duel"] == ["CH1", "CH1"]
    # CH1 killed by the first shot: the second has nobody to go at ...
    new, events = run(engine, state, "", rolls=[6, 1])
    assert new["pieces"]["CH1"] is None
    assert [e["args"]["target"] for e in events if e["type"] == "duel"] == ["CH1"]
    # ... while two separate shots go on at the next enemy
    state["options"]["leader_shots"] = "separate"
    new, events = run(engine, state, "", rolls=[6, 1, 1, 1])
    assert [e["args"]["target"] for e in events if e["type"] == "duel"] == ["CH1", "CH2"]


def test_a_leader_who_answered_aims_his_consecutive_shot_at_the_one_he_answered(engine):
    state = position({"C": "F9", "CH1": "F6", "CH2": "H7"}, side=PR, options={"leader_shots": "consecutive"})
    state["standing"][LC]["targets"] = ["CH1"]
    new, events = run(engine, state, "FIRE CH2 AT C", rolls=[1] * 4)
    assert [(e["args"]["attacker"], e["args"]["target"]) for e in events if e["type"] == "duel"] == [
        ("CH2", "C"), ("C", "CH2")]


def test_with_long_knife_carriers_an_officer_who_falls_back_leaves_the_flag(engine):
    """"Celui qui est obligé de reculer dans le combat ne peut emmener le drapeau avec lui"."""
    state = position({"O1": "F7", "T1": "F6", "C": "L1"}, side=PR, flag="F7", options={"flag_carriers": "long_knives"})
    state["standing"][LC]["fire"] = False
    new, events = run(engine, state, "MELEE T1 AT O1", rolls=[4, 1])
    assert new["flag"] == "F7" and new["pieces"]["O1"] != "F7"
    assert M.FLAG_LEFT in [e["msg"] for e in events]
