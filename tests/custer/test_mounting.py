"""Mounting and dismounting: once a turn, before moving, 2 MP (3 in enemy ZOC), the rest
of the move at the new rate."""

from pbem.engines.custer import CusterEngine

from .fragments import ScriptedDice, fragment, moves_of, of_type, play_turn

CRAZY_HORSE = {"id": "ch", "name": "Crazy Horse", "side": "indians", "type": "tribe_leader", "tribe": "oglala",
               "cf": [2, 0], "hex": "0101"}
RENO = {"id": "reno", "name": "Reno", "side": "us", "type": "us_leader", "cf": [2, 0], "hex": "0808"}


def warrior(mounted=True, hex_="0301"):
    return {"id": "w", "name": "Oglala warriors", "side": "indians", "type": "warriors", "tribe": "oglala",
            "cf": [4, 2], "hex": hex_, "mounted": mounted}


def indians_turn(units, orders):
    name = fragment("mount_case", columns=10, rows=12, units=units, draws={"us": [0] * 3, "indians": [1] * 3})
    return play_turn(name, {"indians": "ON Oglala:\n" + orders})


def test_example_indian_warrior_dismounts_with_one_mp_left():
    """"an Indian warrior unit mounted has 6 MP and 3 MP when dismounted. If he is mounted and
    decides to dismount before moving, then he dismounts for 2 MP and can use his remaining
    1 MP to finish his movement at the dismounted movement rate." """
    state, events = indians_turn([CRAZY_HORSE, warrior(), RENO], "Oglala warriors DISMOUNT\nOglala warriors MOVE TO 0310")
    change = of_type(events, "dismount")[0]["args"]
    assert (change["cost"], change["rate"], change["mp_left"]) == (2, 3, 1)
    assert moves_of(events, "w")[0]["path"] == ["0301", "0302"]
    assert state["units"]["w"]["mounted"] is False


def test_example_indian_warrior_mounts_with_four_mp_left():
    """"if the warrior unit was dismounted to start the turn he could mount for 2 MP and finish
    his movement at the mounted rate by using the remaining 4 MP." """
    _, events = indians_turn([CRAZY_HORSE, warrior(mounted=False), RENO], "Oglala warriors MOUNT\nOglala warriors MOVE TO 0310")
    assert of_type(events, "mount")[0]["args"]["mp_left"] == 4
    assert moves_of(events, "w")[0]["mp_spent"] == 4


def test_mounting_in_enemy_zoc_costs_three():
    """"It cost 3 MP to mount or dismount if in an enemy ZOC." """
    reno = dict(RENO, hex="0302")
    troop = {"id": "co_c", "name": "Co. C", "side": "us", "type": "cavalry", "cf": [5, 3], "hex": "0302"}
    _, events = indians_turn([CRAZY_HORSE, warrior(mounted=False), reno, troop], "Oglala warriors MOUNT")
    change = of_type(events, "mount")[0]["args"]
    assert change["cost"] == 3 and change["mp_left"] == 3 and change["in_enemy_zoc"]


def test_us_units_dismounted_lose_two_mp():
    """"US Army units that dismount reduce their movement rate by -2"; a mounted cavalry
    unit dismounting keeps 5 - 2 - 2 = 1 MP."""
    troop = {"id": "co_c", "name": "Co. C", "side": "us", "type": "cavalry", "cf": [5, 3], "hex": "0706"}
    name = fragment("mount_us", columns=10, rows=12, units=[RENO, troop, warrior(hex_="1010")])
    _, events = play_turn(name, {"us": "ON Reno:\nCo. C DISMOUNT\nCo. C MOVE TO 0712"})
    assert of_type(events, "dismount")[0]["args"]["mp_left"] == 1
    assert moves_of(events, "co_c")[0]["mp_spent"] == 1


def test_mounting_comes_before_movement_whatever_the_line_order():
    """"Units can only mount or dismount once in a turn and must do it before beginning movement." """
    _, events = indians_turn([CRAZY_HORSE, warrior(), RENO], "Oglala warriors MOVE TO 0310\nOglala warriors DISMOUNT")
    kinds = [e["type"] for e in events if e["type"] in ("move", "dismount")]
    assert kinds == ["dismount", "move"]
    assert moves_of(events, "w")[0]["mp"] == 1


def test_leaders_and_villages_never_mount_or_dismount():
    """"Indian villages, Indian leaders and US army leaders never mount or dismount." """
    name = fragment("mount_never", units=[CRAZY_HORSE, warrior(), RENO])
    engine = CusterEngine()
    state = engine.setup(name, {}, ScriptedDice())
    result = engine.parse_orders(state, "indians", "ON Oglala:\nCrazy Horse DISMOUNT")
    assert [(e.line, e.kind) for e in result.errors] == [(2, "illegal")]
