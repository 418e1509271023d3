"""Movement: terrain costs, zones of control, enemy units, stacking, entering and exiting.

Each test is named after the rule it checks and quotes it."""

from .fragments import fragment, moves_of, of_type, play_turn

RENO = {"id": "reno", "name": "Reno", "side": "us", "type": "us_leader", "cf": [2, 0], "hex": "0101"}


def cav(uid="co_c", hex_="0301", name="Co. C", **kw):
    return dict({"id": uid, "name": name, "side": "us", "type": "cavalry", "cf": [5, 3], "hex": hex_}, **kw)


def warriors(uid="w1", hex_="0808", tribe="hunkpapa", cf=(4, 2), **kw):
    return dict({"id": uid, "name": uid, "side": "indians", "type": "warriors", "tribe": tribe,
                 "cf": list(cf), "hex": hex_}, **kw)


def fast_bull(hex_="0301"):
    return {"id": "fast_bull", "name": "Fast Bull", "side": "indians", "type": "tribe_leader",
            "tribe": "oglala", "cf": [2, 0], "hex": hex_}


def us_moves(units, line, **board):
    name = fragment("move_case", units=units, **board)
    state, events = play_turn(name, {"us": "ON Reno:\n" + line})
    return state, events


def indian_moves(units, block, **board):
    name = fragment("move_case", units=units, draws={"us": [0] * 3, "indians": [1] * 3}, **board)
    state, events = play_turn(name, {"indians": block})
    return state, events


def test_example_mounted_cavalry_clear_ridge_woods_zoc():
    """"a mounted cavalry unit has 5 MP. It could move 1 clear hex (+1MP), then across a
    ridge hex line (+1) into a woods hex (+2) that is adjacent to in an Indian warrior unit
    zone of control (+1 MP)." """
    state, events = us_moves(
        [RENO, cav(), warriors(hex_="0403")], "Co. C MOVE TO 0303",
        hexes={"woods": ["0303"]}, hexsides={"ridge": [["0302", "0303"]]})
    move = moves_of(events, "co_c")[0]
    assert move["path"] == ["0301", "0302", "0303"]
    assert move["costs"] == [1, 4]
    assert move["mp_spent"] == 5
    assert move["steps"][1] == {"hex": "0303", "mp": 4, "terrain": "woods", "terrain_mp": 2,
                                "hexside": "ridge", "hexside_mp": 1, "zoc_mp": 1}


def test_example_river_and_woods_cost_four():
    """"to move across a river hex side and enter a woods hex would cost 4 MF (2 MF for the
    river and 2 MF for the woods hex)." """
    state, events = us_moves([RENO, cav(), warriors()], "Co. C MOVE VIA 0302 0303 0304",
                             hexes={"woods": ["0302"]}, hexsides={"river": [["0301", "0302"]]})
    move = moves_of(events, "co_c")[0]
    assert move["costs"][0] == 4
    assert move["path"] == ["0301", "0302", "0303"]  # 4 + 1 = 5 MP: the next hex is out of reach


def test_fast_bull_crossing_ridge_lines_in_clear_terrain():
    """"With a movement factor of 6, in this example he crosses two ridge lines and moves four hexes." """
    _, events = indian_moves([fast_bull(), cav(hex_="0707"), RENO], "ON Oglala:\nFast Bull MOVE VIA 0302 0303 0304 0305 0306",
                             hexsides={"ridge": [["0301", "0302"], ["0303", "0304"]]})
    move = moves_of(events, "fast_bull")[0]
    assert move["path"] == ["0301", "0302", "0303", "0304", "0305"]
    assert move["costs"] == [2, 1, 2, 1] and move["mp_spent"] == 6


def test_fast_bull_crossing_a_ridge_into_woods():
    """"he crosses two ridge lines and moves three hexes" ending in a woods hex."""
    _, events = indian_moves([fast_bull(), cav(hex_="0707"), RENO], "ON Oglala:\nFast Bull MOVE VIA 0302 0303 0304 0305 0306",
                             hexes={"woods": ["0304"]},
                             hexsides={"ridge": [["0301", "0302"], ["0303", "0304"]]})
    move = moves_of(events, "fast_bull")[0]
    assert move["path"] == ["0301", "0302", "0303", "0304"]
    assert move["costs"] == [2, 1, 3] and move["mp_spent"] == 6


def test_fast_bull_crossing_a_ford_into_a_coulee():
    """"Fast Bull is moving across the ford, and then two hexes within the coulee, before
    moving out with his last 2 MP." Ford +1, entering the coulee +1, in coulee 1, exiting
    +1: 3 + 1 + 2 = 6 MP for three hexes (the caption's "four hexes" and "two ridge lines"
    are copied from the first example and do not add up; the costs in the text do)."""
    _, events = indian_moves([fast_bull(), cav(hex_="0707"), RENO], "ON Oglala:\nFast Bull MOVE VIA 0302 0303 0304 0305 0306",
                             hexes={"coulee": ["0302", "0303"]}, hexsides={"ford": [["0301", "0302"]]})
    move = moves_of(events, "fast_bull")[0]
    assert move["path"] == ["0301", "0302", "0303", "0304"]
    assert move["costs"] == [3, 1, 2] and move["mp_spent"] == 6


def test_fast_bull_crossing_the_river_and_steep_ridges():
    """"he crosses a river and a steep ridge and moves two hexes." """
    _, events = indian_moves([fast_bull(), cav(hex_="0707"), RENO], "ON Oglala:\nFast Bull MOVE VIA 0302 0303 0304 0305 0306",
                             hexsides={"river": [["0301", "0302"]], "steep_ridge": [["0302", "0303"]]})
    move = moves_of(events, "fast_bull")[0]
    assert move["path"] == ["0301", "0302", "0303"]
    assert move["costs"] == [3, 3]


def test_movement_points_by_unit_type():
    """"cavalry 5, scouts 6, infantry 4, miners 4, pack train 4, US leaders 5, tribe leaders 6,
    warriors 6, villages 2" (clear terrain, one hex = 1 MP)."""
    kinds = {"cavalry": 5, "scouts": 6, "infantry": 4, "miners": 4, "pack_train": 4}
    units = [RENO] + [dict(cav(uid=k, hex_=f"{i + 2:02d}01", name=k), type=k) for i, k in enumerate(kinds)]
    name = fragment("mp_case", columns=12, rows=12, units=units + [warriors(hex_="1212")],
                    markers=[{"id": "m_reno", "name": "Reno", "side": "us", "leader": "reno", "units": 5}])
    orders = "ON Reno:\n" + "\n".join(f"{k} MOVE TO {i + 2:02d}12" for i, k in enumerate(kinds)) + "\nReno MOVE TO 0112"
    _, events = play_turn(name, {"us": orders})
    for k, mp in dict(kinds, reno=5).items():
        assert moves_of(events, k)[0]["mp_spent"] == mp
        assert len(moves_of(events, k)[0]["path"]) == mp + 1


def test_unused_movement_points_are_lost():
    """"Unit movement points not used are lost; they may not be accumulated or transferred"."""
    name = fragment("lost_mp", units=[RENO, cav(), warriors()], turns=2)
    state, _ = play_turn(name, {"us": "ON Reno:\nCo. C MOVE TO 0302"})
    _, events = play_turn(name, {"us": "ON Reno:\nCo. C MOVE TO 0308"}, state=state)
    assert moves_of(events, "co_c")[0]["mp"] == 5


def test_entering_enemy_zoc_costs_one_more_and_zoc_to_zoc_is_allowed():
    """"Enemy zones of control cost one extra movement point to move into or through ...
    they may directly move from an enemy ZOC to an enemy ZOC paying the extra MP." """
    _, events = us_moves([RENO, cav(hex_="0501"), warriors(hex_="0602")], "Co. C MOVE VIA 0502 0503 0504",
                         columns=10, rows=10)
    move = moves_of(events, "co_c")[0]
    assert move["path"] == ["0501", "0502", "0503", "0504"]
    assert move["costs"] == [2, 2, 1]


def test_terrain_does_not_affect_zoc():
    """"Terrain does not affect ZOC": a ZOC reaches across a river hexside."""
    _, events = us_moves([RENO, cav(), warriors(hex_="0403")], "Co. C MOVE TO 0303",
                         hexsides={"river": [["0303", "0403"]]})
    assert moves_of(events, "co_c")[0]["steps"][-1]["zoc_mp"] == 1


def test_leaders_by_themselves_exert_no_zoc():
    """"All units, except leaders, have a zone of control ... Leaders by themselves do not exert a ZOC." """
    _, events = us_moves([RENO, cav(), fast_bull(hex_="0403"), warriors()], "Co. C MOVE TO 0303")
    assert "zoc_mp" not in moves_of(events, "co_c")[0]["steps"][-1]


def test_no_moving_through_enemy_units():
    """"MAY NOT move through an enemy unit but may move through friendly units." The route
    goes round; a MOVE TO the enemy's hex stops next to it."""
    _, events = us_moves([RENO, cav(), warriors(hex_="0303")], "Co. C MOVE TO 0303")
    move = moves_of(events, "co_c")[0]
    assert "0303" not in move["path"] and move["path"][-1] == "0302"


def test_units_may_move_through_and_end_on_lone_enemy_leaders():
    """"Exception, units may move through and end movement on opposing leaders by themselves."
    Reading: a lone leader that enemy units end on falls back one hex as in a retreat."""
    _, events = us_moves([RENO, cav(), fast_bull(hex_="0303"), warriors()], "Co. C MOVE TO 0303")
    assert moves_of(events, "co_c")[0]["path"] == ["0301", "0302", "0303"]
    assert of_type(events, "leader_overrun")[0]["args"]["unit"] == "fast_bull"
    assert of_type(events, "retreat")[0]["args"]["unit"] == "fast_bull"


def test_stacking_at_most_two_units_and_one_leader():
    """"No more than two non-leader units may end movement in one hex. One leader may stack
    with two non-leader units. Leaders may not stack with each other." """
    units = [RENO, cav("a", "0201", "A"), cav("b", "0202", "B"), cav("c", "0203", "C"),
             {"id": "benteen", "name": "Benteen", "side": "us", "type": "us_leader", "cf": [2, 0], "hex": "0303"},
             warriors()]
    name = fragment("stack_case", units=units, draws={"us": [2] * 3, "indians": [1] * 3})
    state, events = play_turn(name, {"us": "ON Reno:\nReno, A, B, C MOVE TO 0305\n"
                                           "ON Benteen:\nBenteen MOVE TO 0305"})
    at = {u: s["hex"] for u, s in state["units"].items()}
    assert [u for u in ("reno", "a", "b", "c", "benteen") if at[u] == "0305"] == ["reno", "a", "b"]
    assert at["c"] != "0305" and at["benteen"] != "0305"


def test_entering_the_game_board_costs_nothing():
    """"ENTERING THE GAME BOARD: No extra cost. Place units on the entry location hex or
    adjacent to the entry hex." """
    late = cav("co_d", None, "Co. D", enter={"turn": 1, "hex": "0305"})
    del late["hex"]
    _, events = us_moves([RENO, late, warriors()], "Co. D MOVE TO 0310", rows=12)
    assert of_type(events, "enter")[0]["args"]["hex"] == "0305"
    move = moves_of(events, "co_d")[0]
    assert move["path"][0] == "0305" and move["mp_spent"] == 5


def test_villages_exit_at_the_arrows_and_score():
    """"Indian village units may exit the game board at the brown arrows to score victory
    points. Any villages that exit the game board may not return." Leaving costs no MP."""
    village = {"id": "v", "name": "Hunkpapa village", "side": "indians", "type": "village",
               "tribe": "hunkpapa", "cf": [1, 1], "hex": "0302"}
    state, events = indian_moves([village, warriors(), cav(hex_="0707"), RENO], "ON Hunkpapa:\nHunkpapa village EXIT",
                                 exits={"village": ["0301"]})
    assert state["units"]["v"]["status"] == "exited"
    assert state["vp"]["indians"] == 2
    assert of_type(events, "exit")[0]["args"]["hex"] == "0301"


def test_only_listed_types_may_exit():
    """"Cavalry and warrior units may not exit the game board in Little Big Horn, in
    Rosebud Cavalry units only may exit the gameboard." Exits are keyed by unit type."""
    from pbem.engines.custer import CusterEngine
    from .fragments import ScriptedDice
    name = fragment("exit_types", units=[RENO, cav(), warriors()], exits={"village": ["0301"]})
    engine = CusterEngine()
    state = engine.setup(name, {}, ScriptedDice())
    result = engine.parse_orders(state, "us", "ON Reno:\nCo. C EXIT")
    assert result.errors[0].kind == "illegal"
    name = fragment("exit_types", units=[RENO, cav(hex_="0302"), warriors()], exits={"cavalry": ["0301"]})
    state, _ = play_turn(name, {"us": "ON Reno:\nCo. C EXIT"})
    assert state["units"]["co_c"]["status"] == "exited"


def test_move_via_stops_at_the_last_legal_hex():
    """A given path is followed until MP run out or the next hex is barred; the unit stops
    at the last hex on the way where it may end."""
    _, events = us_moves([RENO, cav(), warriors(hex_="0304")], "Co. C MOVE VIA 0302 0303 0304 0305")
    assert moves_of(events, "co_c")[0]["path"] == ["0301", "0302", "0303"]


def test_reduced_units_keep_their_movement_points():
    """GAME UNITS: "Generally, when units are reduced, the unit combat factor reduces but the
    movement points do not." A reduced cavalry unit still moves 5 clear hexes."""
    from pbem.engines.custer import CusterEngine
    from .fragments import ScriptedDice

    name = fragment("reduced_mp", columns=12, rows=12, units=[RENO, cav(hex_="0201"), warriors(hex_="1212")])
    state = CusterEngine().setup(name, {}, ScriptedDice())
    state["units"]["co_c"]["reduced"] = True
    _, events = play_turn(name, {"us": "ON Reno:\nCo. C MOVE TO 0212"}, state=state)
    assert moves_of(events, "co_c")[0]["mp_spent"] == 5
    assert len(moves_of(events, "co_c")[0]["path"]) == 6


def test_indian_movement_points_by_unit_type():
    """INDIAN WARRIOR UNITS: tribe leaders "move 6 MP", warriors "move 6 MP", villages "move
    2 MP" (clear terrain, one hex = 1 MP); all of them move when their tribe's marker is drawn."""
    sitting_bull = {"id": "sb", "name": "Sitting Bull", "side": "indians", "type": "tribe_leader",
                    "tribe": "hunkpapa", "cf": [1, 0], "hex": "0301"}
    village = {"id": "v", "name": "Hunkpapa village", "side": "indians", "type": "village",
               "tribe": "hunkpapa", "cf": [1, 1], "hex": "0201"}
    name = fragment("indian_mp", columns=12, rows=12, units=[warriors(hex_="0101"), village, sitting_bull,
                                                             cav(hex_="1212"), dict(RENO, hex="1211")],
                    draws={"us": [0] * 3, "indians": [1] * 3})
    _, events = play_turn(name, {"indians": "ON Hunkpapa:\nw1 MOVE TO 0112\nv MOVE TO 0212\nsb MOVE TO 0312"})
    for uid, mp in {"w1": 6, "v": 2, "sb": 6}.items():
        assert moves_of(events, uid)[0]["mp_spent"] == mp, uid
        assert len(moves_of(events, uid)[0]["path"]) == mp + 1, uid


def test_terrain_costs_villages_and_dismounted_units_alike():
    """TERRAIN EFFECTS ON MOVEMENT: "Terrain effects movement for both mounted and dismounted
    units and Indian village units." A village (2 MP) crossing a ridge spends 1 + 1 on its
    first hex; a dismounted warrior (3 MP) entering woods spends 2, then 1 on a clear hex."""
    village = {"id": "v", "name": "Hunkpapa village", "side": "indians", "type": "village",
               "tribe": "hunkpapa", "cf": [1, 1], "hex": "0301"}
    _, events = indian_moves([village, warriors(hex_="0101", mounted=False), cav(hex_="0808"), dict(RENO, hex="0807")],
                             "ON Hunkpapa:\nHunkpapa village MOVE VIA 0302 0303\nw1 MOVE VIA 0102 0103 0104",
                             hexsides={"ridge": [["0301", "0302"]]}, hexes={"woods": ["0102"]})
    assert moves_of(events, "v")[0]["path"] == ["0301", "0302"] and moves_of(events, "v")[0]["mp_spent"] == 2
    assert moves_of(events, "w1")[0]["path"] == ["0101", "0102", "0103"] and moves_of(events, "w1")[0]["mp_spent"] == 3
