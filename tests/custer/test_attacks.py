"""Attack orders: who takes part (a leader only where named, or with ALL), an attack on
leaders alone (an overrun, no roll), and the dismounted +1 CF in attack and defence.

0404's neighbours: 0403 (N), 0504 (NE), 0505 (SE), 0405 (S), 0305 (SW), 0304 (NW)."""

from pbem.engines.custer.combat import attack_total

from .fragments import context, fragment, of_type, play_turn

ROLLS = {"T1 A1 combat 0403 attacker": 3, "T1 A1 combat 0403 defender": 2}


def cav(uid, hex_, cf=(5, 3), mounted=True):
    return {"id": uid, "name": uid, "side": "us", "type": "cavalry", "cf": list(cf), "hex": hex_, "mounted": mounted}


def custer(hex_="0404"):
    return {"id": "custer", "name": "Custer", "side": "us", "type": "us_leader", "cf": [2, 0], "hex": hex_}


def warrior(uid, hex_, cf=(4, 2), mounted=True):
    return {"id": uid, "name": uid, "side": "indians", "type": "warriors", "tribe": "oglala", "cf": list(cf),
            "hex": hex_, "mounted": mounted}


def us_attack(units, orders, script=ROLLS, options=None, name="attack_case"):
    name = fragment(name, columns=10, rows=10, units=units, draws={"us": [1], "indians": [0]})
    return play_turn(name, {"us": "ON Custer:\n" + orders}, script, options=options)


def test_attack_without_with_takes_the_active_leader_stacked_with_the_attackers():
    """"ATTACK <hex>" alone uses every active unit next to the hex: the leader stacked with
    them is one of them, and adds his CF beside his hex's troops."""
    _, events = us_attack([custer(), cav("a", "0404"), warrior("w", "0403")], "ATTACK 0403")
    combat = of_type(events, "combat")[0]["args"]
    assert [x["unit"] for x in combat["attackers"]] == ["custer", "a"]
    assert combat["attack_total"] == 7


def test_all_attack_takes_the_leaders_stacked_with_the_attackers():
    """ALL ATTACK: each adjacent enemy hex, with every free active unit next to it and the
    active leaders stacked with them."""
    _, events = us_attack([custer(), cav("a", "0404"), warrior("w", "0403")], "ALL ATTACK")
    assert of_type(events, "combat")[0]["args"]["attack_total"] == 7


def test_a_leader_joins_the_second_attack_of_his_stack_when_it_names_him():
    """"Attacking units stacked together may separate their attacks": the first attack does not
    name Custer, so he is free for the second, which does."""
    units = [custer(), cav("a", "0404"), cav("b", "0404", (4, 2)), warrior("w1", "0403"), warrior("w2", "0504")]
    script = dict(ROLLS, **{"T1 A1 combat 0504 attacker": 3, "T1 A1 combat 0504 defender": 2})
    _, events = us_attack(units, "ATTACK 0403 WITH a\nATTACK 0504 WITH b, Custer", script)
    totals = {e["args"]["hex"]: e["args"]["attack_total"] for e in of_type(events, "combat")}
    assert totals == {"0403": 5, "0504": 6}
    assert not of_type(events, "skipped")


def test_all_attack_overruns_a_lone_leader_without_a_roll():
    """Leaders "can not ... defend if by themselves": ALL ATTACK on a hex holding only a leader
    rolls no die; he falls back one hex and the attacker advances."""
    units = [custer("0606"), cav("a", "0404"),
             {"id": "gall", "name": "Gall", "side": "indians", "type": "tribe_leader", "tribe": "hunkpapa",
              "cf": [3, 0], "hex": "0403"}]
    state, events = us_attack(units, "ALL ATTACK", script={}, name="overrun_case")
    assert not of_type(events, "combat")
    assert of_type(events, "leader_overrun")[0]["args"]["by"] == ["a"]
    assert state["units"]["a"]["hex"] == "0403" and state["units"]["gall"]["hex"] not in (None, "0403")
    assert state["vp"] == {"us": 0, "indians": 0}


def test_attack_total_counts_the_dismounted_bonus_unless_told_not_to():
    """Dismounting "increases their combat factors by +1": in the attack total too, shown per
    attacker; ``dismount_bonus=False`` (option dismount_bonus_in_defence_only) leaves it out."""
    name = fragment("attack_total_case", columns=10, rows=10, units=[cav("a", "0404", (4, 2), mounted=False),
                                                                      cav("b", "0404", (5, 3)), warrior("w", "0403")])
    sit = context(name).sit
    total, items = attack_total(sit, ["a", "b"])
    assert total == 10 and items[0]["dismounted"] == 1 and items[0]["total"] == 5 and "dismounted" not in items[1]
    assert attack_total(sit, ["a", "b"], dismount_bonus=False)[0] == 9


def test_the_defence_only_option_keeps_the_dismounted_bonus_in_defence():
    """With option dismount_bonus_in_defence_only the defenders still add +1 each when dismounted."""
    name = fragment("defence_option_case", columns=10, rows=10,
                    units=[cav("a", "0404", (4, 2), mounted=False), warrior("w", "0403")],
                    draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Oglala:\nATTACK 0404 WITH w"},
                          {"T1 A1 combat 0404 attacker": 5, "T1 A1 combat 0404 defender": 5},
                          options={"dismount_bonus_in_defence_only": True})
    assert of_type(events, "combat")[0]["args"]["defence_total"] == 5
