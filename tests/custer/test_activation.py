"""Activations: who a marker activates, once a turn, and when attacks happen."""

from .fragments import fragment, moves_of, of_type, play_turn


def cav(uid, hex_, cf=(5, 3)):
    return {"id": uid, "name": uid, "side": "us", "type": "cavalry", "cf": list(cf), "hex": hex_, "mounted": True}


def warrior(uid, hex_, tribe="oglala", cf=(4, 2)):
    return {"id": uid, "name": uid, "side": "indians", "type": "warriors", "tribe": tribe,
            "cf": list(cf), "hex": hex_, "mounted": True}


CUSTER = {"id": "custer", "name": "Custer", "side": "us", "type": "us_leader", "cf": [3, 0], "hex": "0505"}
FAR_CUSTER = dict(CUSTER, hex="0909")


def custer_markers(n=2, units=2):
    return [{"id": f"m_custer_{i}", "name": "Custer", "side": "us", "leader": "custer", "units": units}
            for i in range(1, n + 1)] + [{"id": "m_oglala", "name": "Oglala", "side": "indians", "tribe": "oglala"}]


def test_leader_marker_activates_leader_and_n_units_within_five_hexes():
    """"it shows a leader that moves and a number that shows how many units it may move in
    addition to itself and have combat. These units MUST be within 5 hexes of the activated leader." """
    units = [CUSTER, cav("a", "0506"), cav("b", "0507"), cav("c", "0508"), cav("far", "1115"), warrior("w", "1515")]
    name = fragment("act_leader", columns=16, rows=16, units=units, markers=custer_markers(1, 2))
    _, events = play_turn(name, {"us": "ON Custer:\na, b, c, far MOVE TO 0501\nCuster MOVE TO 0601"})
    act = of_type(events, "activation")[0]["args"]
    assert act["units"] == ["custer", "a", "b"]
    whys = {e["args"]["unit"]: e["args"]["why"] for e in of_type(events, "skipped") if "why" in e["args"]}
    assert whys == {"c": "the marker's 2 units are already chosen", "far": "more than 5 hexes from the leader"}
    assert moves_of(events, "a") and moves_of(events, "custer") and not moves_of(events, "c")


def test_units_move_and_attack_once_a_turn():
    """"once a unit has been activated in a turn for movement/combat it may not be activated
    again until the next turn. It may still defend, retreat, etc. as many times as it is
    attacked but it may not move or attack but once a turn." The second Custer marker finds
    Custer and his units spent; the units he could still take are those not yet activated."""
    units = [CUSTER, cav("a", "0506"), cav("b", "0507"), cav("c", "0508"), warrior("w", "1010")]
    name = fragment("act_once", columns=12, rows=12, units=units, markers=custer_markers(2, 2),
                    draws={"us": [2], "indians": [0]})
    orders = "ON Custer 1:\na, b MOVE TO 0501\nON Custer 2:\na, c MOVE TO 0511\nCuster MOVE TO 0911"
    _, events = play_turn(name, {"us": orders})
    acts = [e["args"]["units"] for e in of_type(events, "activation")]
    assert acts == [["custer", "a", "b"], ["c"]]
    assert len(moves_of(events, "a")) == 1 and len(moves_of(events, "custer")) == 0
    assert {e["args"]["why"] for e in of_type(events, "skipped")
            if e["args"].get("unit") == "a" and "why" in e["args"]} == {"already acted this turn"}


def test_tribe_marker_activates_every_unit_of_the_tribe_anywhere():
    """"The corresponding Indian Warrior units can move and have combat regardless of where they
    are on the game board (or any associated tribe or group leader) when their activation marker is drawn." """
    units = [warrior("w1", "0101"), warrior("w2", "1212"), warrior("h", "0606", tribe="hunkpapa"), FAR_CUSTER]
    name = fragment("act_tribe", columns=12, rows=12, units=units, draws={"us": [0], "indians": [2]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nALL MOVE TO 0610"})
    assert [e["args"]["units"] for e in of_type(events, "activation")] == [["h"], ["w1", "w2"]]
    assert moves_of(events, "w1") and moves_of(events, "w2") and not moves_of(events, "h")


def test_attacks_come_after_all_movement_of_the_activation():
    """"All movement for an activation marker drawn must be completed before combat begins." An
    ATTACK line written before a MOVE line still resolves after it."""
    units = [warrior("w1", "0401"), warrior("w2", "0402"), cav("a", "0404"), FAR_CUSTER]
    name = fragment("act_order", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nATTACK 0404 WITH w1, w2\nw1 MOVE TO 0403"})
    kinds = [e["type"] for e in events if e["type"] in ("move", "combat")]
    assert kinds == ["move", "combat"]
    assert [a["unit"] for a in of_type(events, "combat")[0]["args"]["attackers"]] == ["w1"]


def test_attack_on_a_hex_no_longer_adjacent_is_skipped_and_reported():
    """Orders survive a changed situation: an attack whose units are no longer adjacent is skipped
    with an event saying why."""
    units = [warrior("w1", "0403"), cav("a", "0404"), FAR_CUSTER]
    name = fragment("act_skip", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nw1 MOVE TO 0401\nATTACK 0404 WITH w1"})
    assert not of_type(events, "combat")
    assert [e["args"]["why"] for e in of_type(events, "skipped") if "why" in e["args"]] == ["it is not adjacent to 0404"]


def test_a_hex_is_attacked_at_most_once_per_activation():
    """"Defending units can only be attacked once in an activation but may be attacked more than
    once in a turn." (Tracked by unit, so a retreated defender is not attacked again either.)"""
    units = [warrior("w1", "0403", cf=(1, 1)), warrior("w2", "0504", cf=(1, 1)), cav("a", "0404", (9, 5)), FAR_CUSTER]
    name = fragment("act_once_hex", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nATTACK 0404 WITH w1\nATTACK 0404 WITH w2"},
                          {"T1 A1 combat 0404 attacker": 5, "T1 A1 combat 0404 defender": 5})
    assert len(of_type(events, "combat")) == 1
    assert any("already attacked in this activation" in e["msg"] for e in of_type(events, "skipped"))


def test_a_retreated_defender_is_not_attacked_again_in_the_same_activation():
    """"Defending units can only be attacked once in an activation" even in the hex they retreated to."""
    units = [warrior("w1", "0403", cf=(9, 5)), warrior("w2", "0506"), warrior("w3", "0205"), cav("a", "0404", (9, 5)),
             FAR_CUSTER]
    name = fragment("act_once_unit", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nATTACK 0404 WITH w1 NO ADVANCE\nATTACK 0505 WITH w2",
                                 "us": "RETREAT TOWARD 0505"},
                          {"T1 A1 combat 0404 attacker": 2, "T1 A1 combat 0404 defender": 1})
    assert of_type(events, "retreat")[0]["args"]["to_hex"] == "0505"
    assert len(of_type(events, "combat")) == 1
    assert any("already attacked in this activation" in e["msg"] for e in of_type(events, "skipped"))


def test_all_units_in_the_hex_defend_together():
    """"When attacking a unit or units in a hex, all units in the defending hex must be attacked
    as one combined group of combat factors." """
    units = [warrior("w1", "0403"), cav("a", "0404", (3, 2)), cav("b", "0404", (2, 1)), FAR_CUSTER]
    name = fragment("act_group", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nATTACK 0404"})
    combat = of_type(events, "combat")[0]["args"]
    assert [d["unit"] for d in combat["defenders"]] == ["a", "b"] and combat["defence_total"] == 5


def test_stacked_attackers_may_split_their_attacks():
    """"Attacking units stacked together may separate their attacks" """
    units = [warrior("w1", "0404"), warrior("w2", "0404"), cav("a", "0403", (1, 1)), cav("b", "0405", (1, 1)), FAR_CUSTER]
    name = fragment("act_split", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nATTACK 0403 WITH w1\nATTACK 0405 WITH w2"})
    assert [c["args"]["hex"] for c in of_type(events, "combat")] == ["0403", "0405"]


def test_only_active_units_attack():
    """"Only active units can initiate combat by attacking adjacent opposing units." A unit of
    another tribe is refused when the orders are read; a unit the leader could not take is
    skipped when the attack is made."""
    from pbem.engines.custer import CusterEngine
    from .fragments import ScriptedDice
    units = [warrior("w1", "0403"), warrior("h", "0504", tribe="hunkpapa"), cav("a", "0404"), FAR_CUSTER]
    name = fragment("act_active", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    engine = CusterEngine()
    state = engine.setup(name, {}, ScriptedDice())
    error = engine.parse_orders(state, "indians", "ON Oglala:\nATTACK 0404 WITH w1, h").errors[0]
    assert (error.kind, error.args["suggestion"]) == ("illegal", "Hunkpapa")
    units = [dict(CUSTER, hex="0302"), cav("a", "0403"), cav("b", "0504"), warrior("w1", "0404")]
    name = fragment("act_active", columns=10, rows=10, units=units, markers=custer_markers(1, 1),
                    draws={"us": [1], "indians": [0]})
    _, events = play_turn(name, {"us": "ON Custer:\na HOLD\nATTACK 0404 WITH a, b"})
    assert [a["unit"] for a in of_type(events, "combat")[0]["args"]["attackers"]] == ["a"]


def test_a_marker_without_orders_holds_and_does_not_attack():
    """Reading: a drawn marker with no orders activates its units, which hold and make no attack."""
    units = [warrior("w1", "0403"), cav("a", "0404"), FAR_CUSTER]
    name = fragment("act_hold", columns=10, rows=10, units=units, draws={"us": [1], "indians": [1]})
    state, events = play_turn(name, {})
    assert not of_type(events, "combat") and not of_type(events, "move")
    assert state["units"]["w1"]["activated"] is False  # a new turn has begun and cleared the flags


def test_all_attack_attacks_every_adjacent_enemy_hex():
    """ALL ATTACK: every adjacent enemy hex, best odds first, with every active unit next to it."""
    units = [warrior("w1", "0404"), warrior("w2", "0404"), cav("a", "0403", (1, 1)), cav("b", "0405", (6, 3)), FAR_CUSTER]
    name = fragment("act_all", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nALL ATTACK"})
    combats = of_type(events, "combat")
    assert combats[0]["args"]["hex"] == "0403"
    assert [a["unit"] for a in combats[0]["args"]["attackers"]] == ["w1", "w2"]
    assert len(combats) == 1  # both warriors have attacked: nobody is left for 0405


def test_units_defend_any_number_of_times_but_attack_once():
    """"It may still defend, retreat, etc. as many times as it is attacked but it may not move or
    attack but once a turn." Two tribes attack the same cavalry in one turn; the second
    Oglala marker finds every Oglala unit spent, activates nobody and is set aside."""
    units = [cav("a", "0404", (9, 5)), FAR_CUSTER, warrior("w1", "0403", cf=(1, 1)),
             warrior("h1", "0504", tribe="hunkpapa", cf=(1, 1))]
    markers = [{"id": "m_custer", "name": "Custer", "side": "us", "leader": "custer", "units": 2},
               {"id": "m_oglala_1", "name": "Oglala", "side": "indians", "tribe": "oglala"},
               {"id": "m_hunkpapa", "name": "Hunkpapa", "side": "indians", "tribe": "hunkpapa"},
               {"id": "m_oglala_2", "name": "Oglala", "side": "indians", "tribe": "oglala"}]
    name = fragment("act_defend", columns=10, rows=10, units=units, markers=markers, draws={"us": [0], "indians": [3]})
    script = {f"T1 A{n} combat 0404 {who}": 5 for n in (1, 2, 3) for who in ("attacker", "defender")}
    _, events = play_turn(name, {"indians": "ON Oglala 1:\nATTACK 0404 NO ADVANCE\nON Hunkpapa:\nATTACK 0404 WITH h1\n"
                                            "ON Oglala 2:\nATTACK 0404 WITH w1"}, script)
    assert [c["args"]["combat"] for c in of_type(events, "combat")] == ["T1 A1 combat 0404", "T1 A2 combat 0404"]
    assert [e["args"]["activation"] for e in of_type(events, "activation")] == ["T1 A1", "T1 A2"]
    aside = [(e["args"]["marker"], e["args"]["reason"]) for e in of_type(events, "set_aside")]
    assert ("m_oglala_2", "no_units") in aside


def test_all_stands_for_the_active_units_not_held():
    """ALL in an order means every unit the marker activates, less those named in HOLD; an order
    that only some of them can carry out (ALL DISMOUNT) passes over the others without a word."""
    units = [warrior("w1", "0101"), warrior("w2", "0103"),
             {"id": "ch", "name": "Crazy Horse", "side": "indians", "type": "tribe_leader", "tribe": "oglala",
              "cf": [3, 0], "hex": "0101"}, FAR_CUSTER]
    name = fragment("act_all_held", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    state, events = play_turn(name, {"indians": "ON Oglala:\nHOLD w2\nALL DISMOUNT\nALL MOVE TO 0108"})
    assert [e["args"]["unit"] for e in of_type(events, "dismount")] == ["w1"]
    assert {e["args"]["unit"] for e in of_type(events, "move")} == {"w1", "ch"}
    assert not of_type(events, "skipped") and state["units"]["w2"]["hex"] == "0103"


def test_zoc_does_not_affect_a_leaders_five_hex_range():
    """ZONES OF CONTROL: "ZOC does not affect US Army leaders 5 hex range of activation." A unit
    5 hexes from Custer, with an enemy zone of control across the hexes between them, is still
    within his range."""
    units = [CUSTER, cav("a", "0510"), warrior("w", "0607")]
    name = fragment("act_range_zoc", columns=12, rows=12, units=units, markers=custer_markers(1, 2))
    _, events = play_turn(name, {"us": "ON Custer:\na MOVE TO 0410"})
    assert of_type(events, "activation")[0]["args"]["units"] == ["custer", "a"]
    assert moves_of(events, "a")
