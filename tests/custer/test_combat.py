"""Combat: totals, terrain, the +-10 cap, rolls, results and losses, with the rulebook's examples."""

from pbem.engines.custer import scenario as scenarios
from pbem.engines.custer.combat import defence_total, losses_for_margin

from .fragments import context, fragment, of_type, play_turn


def unit(uid, side, type_, cf, hex_, tribe=None, mounted=None, name=None):
    u = {"id": uid, "name": name or uid, "side": side, "type": type_, "cf": list(cf), "hex": hex_}
    if tribe:
        u["tribe"] = tribe
    if mounted is not None:
        u["mounted"] = mounted
    return u


def warrior(uid, cf, hex_, tribe="oglala", mounted=True):
    return unit(uid, "indians", "warriors", (cf, max(cf - 2, 1)), hex_, tribe, mounted)


def two_dismounted_cavalry(hex_="0404"):
    return [unit("co_a", "us", "cavalry", (4, 2), hex_, mounted=False),
            unit("co_b", "us", "cavalry", (4, 2), hex_, mounted=False)]


def indian_attack(units, orders, script, hexsides=None, hexes=None, us_standing=""):
    name = fragment("combat_case", columns=10, rows=10, units=units, hexsides=hexsides or {}, hexes=hexes or {},
                    draws={"us": [0] * 3, "indians": [1] * 3})
    texts = {"indians": orders}
    if us_standing:
        texts["us"] = "STANDING:\n" + us_standing
    return play_turn(name, texts, script)


# 0404's neighbours: 0403 (N), 0504 (NE), 0505 (SE), 0405 (S), 0305 (SW), 0304 (NW)
# Attackers in 0403, 0504 and 0405 put every other neighbour of 0404 in their ZOC.
RIDGES = {"ridge": [["0403", "0404"], ["0404", "0504"], ["0404", "0405"]]}


def test_detailed_battle_example_21_against_12():
    """"The five Indian warrior units total 19 CF, plus an additional 2 CF for the Leader,
    resulting in a total of 21 CF ... The die results are 5 for the attacker and a 8 for the
    defender, resulting in a total combat differential of +6 for the attacker ... 1 loss
    (applied to one unit, the defenders choice) and a retreat for the defender." """
    units = two_dismounted_cavalry() + [
        warrior("w1", 4, "0403"), warrior("w2", 4, "0403"),
        unit("kicking_bear", "indians", "tribe_leader", (2, 0), "0403", "oglala"),
        warrior("w3", 4, "0504"), warrior("w4", 4, "0504"), warrior("w5", 3, "0405")]
    state, events = indian_attack(units, "ON Oglala:\nATTACK 0404", {
        "T1 A1 combat 0404 attacker": 5, "T1 A1 combat 0404 defender": 8}, hexsides=RIDGES)
    combat = of_type(events, "combat")[0]["args"]
    assert (combat["attack_total"], combat["defence_total"]) == (21, 12)
    assert combat["hexside_bonus"] == 1 and combat["hexside_kinds"] == ["ridge"]
    assert (combat["raw"], combat["capped"], combat["margin"], combat["losses"]) == (9, 9, 6, 1)
    assert combat["winner"] == "attacker"
    assert sorted(u["reduced"] for k, u in state["units"].items() if k.startswith("co_")) == [False, True]
    assert {state["units"][k]["hex"] for k in ("co_a", "co_b")} != {"0404"}
    assert len(of_type(events, "retreat")) == 2


def test_detailed_battle_example_24_against_10_capped():
    """"they would not receive the benefits of being attacked across a ridge line because
    Kicking Bear is attacking them from the same level, making a total of 10 CF ... 24 CF ...
    The maximum differential allowed for either side is +10 ... +7 for the attacker results in
    2 losses ... and a retreat for the defender. ... the only retreat path available to the
    defender is through enemy zones of control, which is allowed when no other option is present." """
    units = two_dismounted_cavalry() + [
        warrior("w1", 4, "0403"), warrior("w2", 4, "0403"),
        unit("kicking_bear", "indians", "tribe_leader", (2, 0), "0403", "oglala"),
        warrior("w3", 4, "0504"), warrior("w4", 4, "0504"), warrior("w5", 3, "0405"), warrior("w6", 3, "0405")]
    ridges = {"ridge": [["0404", "0504"], ["0404", "0405"]]}  # Kicking Bear's hexside is level
    state, events = indian_attack(units, "ON Oglala:\nATTACK 0404", {
        "T1 A1 combat 0404 attacker": 5, "T1 A1 combat 0404 defender": 8}, hexsides=ridges)
    combat = of_type(events, "combat")[0]["args"]
    assert (combat["attack_total"], combat["defence_total"]) == (24, 10)
    assert (combat["raw"], combat["capped"], combat["margin"], combat["losses"]) == (14, 10, 7, 2)
    assert [state["units"][k]["reduced"] for k in ("co_a", "co_b")] == [True, True]  # one loss each (default)
    retreats = of_type(events, "retreat")
    assert retreats and all(r["args"]["into_enemy_zoc"] for r in retreats)


def test_example_turn_scouts_and_co_f_attack_the_village_across_the_river():
    """"The cavalry player has 8 CF (3 + 5). The Indian player has 1 CF +2 for being attacked
    across a river, giving him 3 CF ... rolls a 3 on the die, while the Indian player rolls an 8.
    This makes the differential 0, meaning the defender wins the battle and the cavalry player
    must retreat with no losses." """
    units = [unit("custer", "us", "us_leader", (3, 0), "0302", name="Custer"),
             unit("scouts", "us", "scouts", (3, 2), "0403", mounted=True, name="Scouts"),
             unit("co_f", "us", "cavalry", (5, 3), "0403", mounted=True, name="Co. F"),
             unit("village", "indians", "village", (1, 1), "0404", "hunkpapa", name="Hunkpapa village")]
    name = fragment("turn_example_1", columns=10, rows=10, units=units, hexes={"woods": ["0403"]},
                    hexsides={"river": [["0403", "0404"]]}, draws={"us": [1], "indians": [0]})
    state, events = play_turn(name, {"us": "ON Custer:\nATTACK 0404 WITH Scouts, Co. F"},
                              {"T1 A1 combat 0404 attacker": 3, "T1 A1 combat 0404 defender": 8})
    combat = of_type(events, "combat")[0]["args"]
    assert (combat["attack_total"], combat["defence_total"], combat["raw"]) == (8, 3, 5)
    assert combat["defenders"][0] == {"unit": "village", "name": "Hunkpapa village", "cf": 1, "hexside": 2, "total": 3}
    assert (combat["margin"], combat["winner"], combat["losses"]) == (0, "defender", 0)
    assert not of_type(events, "loss")
    assert state["units"]["scouts"]["hex"] == state["units"]["co_f"]["hex"] != "0403"


def test_example_turn_hunkpapa_drive_custer_back_across_the_ford():
    """"The cavalry player has 12 CF (4 + 5 + 3). The Indian player has 14 CF (3 + 4 + 3 + 4)
    for a +2 differential ... the Indian player rolls a 1, and the cavalry player rolls a 1 as
    well ... causing Custer to retreat back across the ford with no losses. The attacking
    Indian player chooses to advance and occupy the hex that Custer retreated from." """
    units = [unit("custer", "us", "us_leader", (3, 0), "0404", name="Custer"),
             unit("co_c", "us", "cavalry", (4, 2), "0404", mounted=True, name="Co. C"),
             unit("co_e", "us", "cavalry", (5, 3), "0404", mounted=True, name="Co. E"),
             warrior("four_horns", 3, "0504", "hunkpapa"), warrior("brown_back", 4, "0504", "hunkpapa"),
             warrior("rain_in_face", 3, "0405", "hunkpapa"), warrior("black_moon", 4, "0405", "hunkpapa")]
    state, events = indian_attack(units, "ON Hunkpapa:\nATTACK 0404", {
        "T1 A1 combat 0404 attacker": 1, "T1 A1 combat 0404 defender": 1},
        hexsides={"ford": [["0304", "0404"]]}, us_standing="RETREAT TOWARD 0303")
    combat = of_type(events, "combat")[0]["args"]
    assert (combat["attack_total"], combat["defence_total"], combat["margin"]) == (14, 12, 2)
    assert combat["winner"] == "attacker" and combat["losses"] == 0
    assert {state["units"][u]["hex"] for u in ("custer", "co_c", "co_e")} == {"0304"}
    assert len(of_type(events, "advance")) == 2
    assert {u for u, s in state["units"].items() if s["hex"] == "0404"} <= {"four_horns", "brown_back", "rain_in_face", "black_moon"}


def _defence(units, attacker_hexes, hexsides=None, hexes=None):
    fragment("defence_case", columns=10, rows=10, units=units, hexsides=hexsides or {}, hexes=hexes or {})
    ctx = context("defence_case")
    return defence_total(ctx.sit, "0404", attacker_hexes)


def test_example_cavalry_behind_rosebud_creek_defends_with_12():
    """"a dismounted 4 CF cavalry unit and a mounted 5 CF cavalry unit are stacked and defending
    in a hex south behind Rosebud Creek ... (4 CF +1 CF for dismounted + 2 CF for river defense
    bonus and 5 CF) for a total CF of 12. If ANY attacking Indian units were attacking from the
    south of Rosebud Creek ... the cavalry unit would not receive the terrain benefit." """
    units = [unit("dis", "us", "cavalry", (4, 2), "0404", mounted=False),
             unit("mtd", "us", "cavalry", (5, 3), "0404", mounted=True),
             warrior("w", 4, "0403")]
    creek = {"river": [["0403", "0404"], ["0404", "0504"], ["0304", "0404"]]}
    total, items, terrain = _defence(units, ["0403", "0504"], creek)
    assert total == 12 and terrain["hexside_bonus"] == 2
    assert items[0] == {"unit": "dis", "name": "dis", "cf": 4, "dismounted": 1, "hexside": 2, "total": 7}
    total, _, _ = _defence(units, ["0403", "0505"], creek)
    assert total == 10


def test_example_village_and_warrior_in_woods_defend_with_6():
    """"if a village at 1 CF and a dismounted Indian warrior unit at 3 CF are defending in a
    woods hex, they would add +1 to each defending unit ... for a total of 6 CF. They would
    receive this bonus from all attacks."

    Reconciled reading: "at 3 CF" is the warrior's strength once dismounted (printed CF + 1),
    here a reduced 4-2 warrior: 2 + 1 (dismounted) + 1 (woods) = 4; the village, always
    considered dismounted, gets the terrain but not the +1 for dismounting (the example turn's
    village across the river is 1 + 2 = 3): 1 + 1 = 2. Total 6."""
    w = warrior("w", 4, "0404", "hunkpapa", mounted=False)
    v = unit("v", "indians", "village", (1, 1), "0404", "hunkpapa")
    units = [w, v, unit("co_c", "us", "cavalry", (5, 3), "0403", mounted=True)]
    fragment("woods_case", columns=10, rows=10, units=units, hexes={"woods": ["0404", "0403"]})
    ctx = context("woods_case")
    ctx.sit.units["w"]["reduced"] = True
    total, items, _ = defence_total(ctx.sit, "0404", ["0403"])
    assert total == 6
    assert [i["total"] for i in items] == [4, 2]


def test_terrain_only_for_dismounted_defenders():
    """"Terrain Effects for combat ONLY APPLY TO DISMOUNTED DEFENDERS." """
    units = [unit("mtd", "us", "cavalry", (5, 3), "0404", mounted=True), warrior("w", 4, "0403")]
    total, _, _ = _defence(units, ["0403"], {"river": [["0403", "0404"]]}, {"woods": ["0404"]})
    assert total == 5


def test_entering_coulee_gives_one_only_when_every_attacker_enters():
    """"ENTERING COULEE +1CF ... IN COULEE N/A ... EXITING COULEE N/A" """
    units = [unit("dis", "us", "cavalry", (4, 2), "0404", mounted=False), warrior("w", 4, "0403")]
    assert _defence(units, ["0403"], hexes={"coulee": ["0404"]})[0] == 6
    assert _defence(units, ["0403", "0504"], hexes={"coulee": ["0404", "0504"]})[0] == 5
    assert _defence(units, ["0403"], hexes={"coulee": ["0403"]})[0] == 5


def test_leaders_add_cf_only_when_stacked_and_never_terrain():
    """"They must be stacked with non-leader units to use their CF" and "US Army leaders
    never mount or dismount and do not add terrain benefits when defending in combat." """
    leader = unit("reno", "us", "us_leader", (2, 0), "0404")
    troop = unit("dis", "us", "cavalry", (4, 2), "0404", mounted=False)
    attackers = [warrior("w", 4, "0403")]
    total, items, _ = _defence([leader, troop] + attackers, ["0403"], hexes={"woods": ["0404"]})
    assert total == 2 + 4 + 1 + 1 and items[0] == {"unit": "reno", "name": "reno", "cf": 2, "total": 2}
    total, _, _ = _defence([leader] + attackers, ["0403"], hexes={"woods": ["0404"]})
    assert total == 0


def test_losses_by_margin():
    """"exceeds ... by 4 to 6 the losing side takes one loss ... by 7 or more ... two losses." """
    assert [losses_for_margin(m) for m in (0, 3, 4, 6, 7, 15, -3, -4, -7)] == [0, 0, 1, 1, 2, 2, 0, 1, 2]


def simple_fight(script, defender_cf=(4, 2), attacker_cfs=(4,), us_standing="", indians_orders="ATTACK 0404"):
    units = [unit("co_a", "us", "cavalry", defender_cf, "0404", mounted=True, name="Co. A")]
    hexes = ["0403", "0504", "0505"]
    units += [warrior(f"w{i}", cf, hexes[i // 2]) for i, cf in enumerate(attacker_cfs)]
    return indian_attack(units, "ON Oglala:\n" + indians_orders,
                         {"T1 A1 combat 0404 attacker": script[0], "T1 A1 combat 0404 defender": script[1]},
                         us_standing=us_standing)


def test_defender_wins_ties():
    """"If the defender's combat number equals or exceeds the attacker's combat number, then the
    defender wins the combat and ALL attacking unit's in that combat must retreat." """
    state, events = simple_fight((5, 5))
    assert of_type(events, "combat")[0]["args"]["winner"] == "defender"
    assert state["units"]["w0"]["hex"] != "0403"
    assert state["units"]["co_a"]["hex"] == "0404"


def test_differential_capped_at_ten_both_ways():
    """"the differential between the attacker and defender (and vice versa) cannot be more than a +10." """
    _, events = simple_fight((1, 10), defender_cf=(20, 10))
    combat = of_type(events, "combat")[0]["args"]
    assert (combat["raw"], combat["capped"], combat["margin"], combat["losses"]) == (-16, -10, -19, 2)


def test_attacker_losses_two_eliminate_a_lone_warrior():
    """"Each loss in combat is applied by either flipping a unit from its full strength side to
    it reduced side or if already reduced, removing it from the game." """
    state, events = simple_fight((1, 10), defender_cf=(20, 10))
    assert state["units"]["w0"]["status"] == "eliminated"
    assert [e["args"]["result"] for e in of_type(events, "loss")] == ["flipped", "eliminated"]
    assert state["vp"]["us"] == 1


def test_loser_chooses_which_unit_takes_losses():
    """"If the loser has more than one unit engaged in the combat, he chooses which unit or units
    to apply any loss or losses to." The standing order LOSSES names who goes first."""
    units = [unit("co_a", "us", "cavalry", (4, 2), "0404", mounted=True, name="Co. A"),
             unit("co_b", "us", "cavalry", (5, 3), "0404", mounted=True, name="Co. B"),
             warrior("w1", 4, "0403"), warrior("w2", 4, "0403"), warrior("w3", 4, "0504"), warrior("w4", 4, "0504")]
    script = {"T1 A1 combat 0404 attacker": 10, "T1 A1 combat 0404 defender": 1}
    state, _ = indian_attack(units, "ON Oglala:\nATTACK 0404", script, us_standing="LOSSES Co. B FIRST")
    assert state["units"]["co_b"]["status"] == "eliminated" and not state["units"]["co_a"]["reduced"]


def test_us_leader_hit_flips_and_counts_as_eliminated():
    """"When hit, they flip and lose any ability to add their CF ... They stay in the game for
    activation purposes ... they are considered "eliminated" for victory point purposes." """
    units = [unit("reno", "us", "us_leader", (2, 0), "0404", name="Reno"),
             unit("co_a", "us", "cavalry", (4, 2), "0404", mounted=True, name="Co. A"),
             warrior("w1", 4, "0403"), warrior("w2", 4, "0403"), warrior("w3", 4, "0504")]
    script = {"T1 A1 combat 0404 attacker": 10, "T1 A1 combat 0404 defender": 1}
    state, _ = indian_attack(units, "ON Oglala:\nATTACK 0404", script, us_standing="LOSSES Reno FIRST")
    reno = state["units"]["reno"]
    assert reno["reduced"] and reno["status"] == "on_board"
    assert state["vp"]["indians"] == 3 + 0  # the second loss flips Co. A (no VP)
    assert state["units"]["co_a"]["reduced"]


def test_tribe_leader_hit_is_removed():
    """"When hit, Tribe Leader units are removed from the game." """
    units = [unit("co_a", "us", "cavalry", (9, 5), "0404", mounted=True, name="Co. A"),
             warrior("w1", 4, "0403"), unit("kb", "indians", "tribe_leader", (2, 0), "0403", "oglala", name="Kicking Bear")]
    name = fragment("leader_hit", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    state, _ = play_turn(name, {"indians": "ON Oglala:\nATTACK 0404\nSTANDING:\nLOSSES Kicking Bear FIRST"},
                         {"T1 A1 combat 0404 attacker": 1, "T1 A1 combat 0404 defender": 10})
    assert state["units"]["kb"]["status"] == "eliminated"
    assert state["vp"]["us"] == 3


def test_villages_are_captured_when_hit_and_never_attack():
    """"They may not attack. Once hit they are considered captured and removed from the game." """
    units = [unit("reno", "us", "us_leader", (2, 0), "0302", name="Reno"),
             unit("co_a", "us", "cavalry", (5, 3), "0403", mounted=True, name="Co. A"),
             unit("v", "indians", "village", (1, 1), "0404", "hunkpapa", name="Hunkpapa village"),
             warrior("w", 4, "0909", "hunkpapa")]
    name = fragment("village_hit", columns=10, rows=10, units=units, draws={"us": [1], "indians": [0]})
    state, events = play_turn(name, {"us": "ON Reno:\nATTACK 0404 WITH Co. A"},
                              {"T1 A1 combat 0404 attacker": 8, "T1 A1 combat 0404 defender": 1})
    assert state["units"]["v"]["status"] == "eliminated" and state["vp"]["us"] == 2
    assert of_type(events, "loss")[0]["args"]["result"] == "captured"
    assert state["units"]["co_a"]["hex"] == "0404"  # the winner advances into the empty hex
    sc = scenarios.load("village_hit")
    from pbem.engines.custer import CusterEngine
    from .fragments import ScriptedDice
    engine = CusterEngine()
    s0 = engine.setup("village_hit", {}, ScriptedDice())
    assert engine.parse_orders(s0, "indians", "ON Hunkpapa:\nATTACK 0403 WITH Hunkpapa village").ok
    assert sc.units["v"].type == "village"


def test_villages_may_not_attack_at_run_time():
    """"Indian Villages units can only defend." An attack naming a village skips it."""
    units = [unit("co_a", "us", "cavalry", (5, 3), "0403", mounted=True, name="Co. A"),
             unit("v", "indians", "village", (1, 1), "0404", "hunkpapa", name="Hunkpapa village")]
    name = fragment("village_attack", columns=10, rows=10, units=units, draws={"us": [0], "indians": [1]})
    _, events = play_turn(name, {"indians": "ON Hunkpapa:\nATTACK 0403 WITH Hunkpapa village"})
    assert not of_type(events, "combat")
    assert any("villages only defend" in e["args"].get("why", "") for e in of_type(events, "skipped"))


def test_terrain_summary_gives_each_hexside_its_defence_bonus():
    """TERRAIN EFFECTS ON COMBAT SUMMARY: "CLEAR N/A, WOODS +1CF, CROSSING RIVER +2CF,
    CROSSING FORD +1CF, CROSSING RIDGE +1CF, CROSSING STEEP RIDGE +2CF": a dismounted 4 CF
    cavalry unit (+1 dismounted) attacked from 0403 across each kind of hexside."""
    units = [unit("dis", "us", "cavalry", (4, 2), "0404", mounted=False), warrior("w", 4, "0403")]
    side = [["0403", "0404"]]
    assert _defence(units, ["0403"])[0] == 5
    assert _defence(units, ["0403"], hexes={"woods": ["0404"]})[0] == 6
    for kind, bonus in {"river": 2, "ford": 1, "ridge": 1, "steep_ridge": 2}.items():
        assert _defence(units, ["0403"], {kind: side})[0] == 5 + bonus, kind


def test_a_hit_us_leader_takes_no_more_hits():
    """US ARMY LEADERS: "When hit, they flip ... They stay in the game for activation purposes
    ... and may not take any more hits." A flipped US leader can take no further loss; a tribe
    leader, removed when hit, is never on the board to take one."""
    from pbem.engines.custer.losses import can_take_loss

    units = [unit("reno", "us", "us_leader", (2, 0), "0404", name="Reno"),
             unit("co_a", "us", "cavalry", (4, 2), "0404", mounted=True, name="Co. A"), warrior("w", 4, "0403")]
    fragment("hit_leader_case", columns=10, rows=10, units=units)
    ctx = context("hit_leader_case")
    assert can_take_loss(ctx, "reno")
    ctx.sit.units["reno"]["reduced"] = True
    assert not can_take_loss(ctx, "reno") and can_take_loss(ctx, "co_a")
