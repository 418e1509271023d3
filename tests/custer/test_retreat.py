"""Retreats after combat and the winner's advance.

0404's neighbours: 0403 (N), 0504 (NE), 0505 (SE), 0405 (S), 0305 (SW), 0304 (NW)."""

from .fragments import fragment, of_type, play_turn

WIN = {"T1 A1 combat 0404 attacker": 10, "T1 A1 combat 0404 defender": 1}
NARROW_WIN = {"T1 A1 combat 0404 attacker": 3, "T1 A1 combat 0404 defender": 1}
LOSE = {"T1 A1 combat 0404 attacker": 1, "T1 A1 combat 0404 defender": 3}


def cav(uid, hex_, cf=(5, 3)):
    return {"id": uid, "name": uid, "side": "us", "type": "cavalry", "cf": list(cf), "hex": hex_, "mounted": True}


def warrior(uid, hex_, cf=(4, 2)):
    return {"id": uid, "name": uid, "side": "indians", "type": "warriors", "tribe": "oglala",
            "cf": list(cf), "hex": hex_, "mounted": True}


def attack(units, script, orders="ATTACK 0404", us_standing="", indians_standing=""):
    name = fragment("retreat_case", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    texts = {"indians": "ON Oglala:\n" + orders + ("\nSTANDING:\n" + indians_standing if indians_standing else "")}
    if us_standing:
        texts["us"] = "STANDING:\n" + us_standing
    return play_turn(name, texts, script)


def test_retreat_one_hex_away_from_the_attacked_hex():
    """"Units retreating move 1 hex away from the hex attacked." A beaten attacker goes to a
    neighbour no nearer the hex it attacked; here the free hexes behind it, as the two beside
    it are in the defender's zone of control."""
    state, _ = attack([cav("a", "0404"), warrior("w", "0403")], LOSE)
    assert state["units"]["w"]["hex"] in {"0402", "0502", "0303"}


def test_retreat_not_into_enemy_zoc_when_a_free_hex_exists():
    """"Retreat to a hex that is not in EZOC. If none available, then retreat into an EZOC is allowed" """
    units = [cav("a", "0404", (8, 4)), warrior("w1", "0403", (8, 4))]
    state, events = attack(units, NARROW_WIN, us_standing="RETREAT TOWARD 0304")
    # 0304 (nearest the hex asked for) and 0504 are next to 0403: the free 0305 is taken instead
    assert state["units"]["a"]["hex"] == "0305"
    assert not of_type(events, "retreat")[0]["args"]["into_enemy_zoc"]


def test_shared_zoc_does_not_hinder_a_retreat():
    """"When both sides share a zone of control, movement is still affected by the opposing unit
    ZOC, but retreats are not affected." A hex next to a friendly unit counts as free."""
    units = [cav("a", "0404", (8, 4)), cav("friend", "0204"), warrior("w1", "0403", (8, 4))]
    state, _ = attack(units, NARROW_WIN, us_standing="RETREAT TOWARD 0304")
    assert state["units"]["a"]["hex"] == "0304"


def test_no_retreat_possible_costs_an_extra_loss_and_the_unit_stays():
    """"If a unit cannot retreat (example all possible retreat hexes are occupied by enemy units)
    each retreating unit takes one EXTRA loss and remains in place." """
    units = [cav("a", "0404", (3, 2))] + [warrior(f"w{i}", h) for i, h in
                                          enumerate(["0403", "0504", "0505", "0405", "0305", "0304"])]
    state, events = attack(units, NARROW_WIN, orders="ATTACK 0404 WITH w0")
    assert state["units"]["a"]["hex"] == "0404" and state["units"]["a"]["reduced"]
    assert of_type(events, "retreat_blocked")[0]["args"]["unit"] == "a"
    assert not of_type(events, "advance")


def test_stack_retreats_together_within_stacking():
    """"Units together in a hex must be retreated to the same hex together if possible. Retreat
    into a hex occupied by a friendly unit is allowed as long as it follows hex stacking limits." """
    units = [cav("a", "0404", (2, 1)), cav("b", "0404", (2, 1)), cav("c", "0304"), warrior("w1", "0403"),
             warrior("w2", "0405")]
    state, _ = attack(units, NARROW_WIN)
    a, b = state["units"]["a"]["hex"], state["units"]["b"]["hex"]
    assert a == b != "0404" and a != "0304"


def test_stack_splits_when_no_hex_takes_it_whole():
    """"Units together in a hex must be retreated to the same hex together if possible": when no
    open hex has room for both, they split, each within stacking limits."""
    units = [cav("a", "0404", (2, 1)), cav("b", "0404", (2, 1)), cav("c", "0304"), cav("d", "0305")] + [
        warrior(f"w{i}", h) for i, h in enumerate(["0403", "0504", "0505", "0405"])]
    state, _ = attack(units, NARROW_WIN, orders="ATTACK 0404 WITH w0")
    assert {state["units"]["a"]["hex"], state["units"]["b"]["hex"]} == {"0304", "0305"}


def test_winning_attacker_may_advance_into_the_vacated_hex():
    """"if the attacker is the winner it may choose to occupy the adjacent hex the defender
    occupied and has retreated from" — ADVANCE YES by default."""
    state, events = attack([cav("a", "0404", (3, 2)), warrior("w", "0403")], NARROW_WIN)
    assert state["units"]["w"]["hex"] == "0404"
    assert of_type(events, "advance")[0]["args"] == {"unit": "w", "unit_name": "w", "from_hex": "0403",
                                                     "to_hex": "0404", "combat": "T1 A1 combat 0404"}


def test_advance_no_keeps_the_winner_in_place():
    """"it may choose to occupy" the hex: ADVANCE NO (standing) or NO ADVANCE (one attack) declines."""
    state, _ = attack([cav("a", "0404", (3, 2)), warrior("w", "0403")], NARROW_WIN, indians_standing="ADVANCE NO")
    assert state["units"]["w"]["hex"] == "0403"
    state, _ = attack([cav("a", "0404", (3, 2)), warrior("w", "0403")], NARROW_WIN, orders="ATTACK 0404 NO ADVANCE")
    assert state["units"]["w"]["hex"] == "0403"
