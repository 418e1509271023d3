"""Movement: foot one square, riders up to three, stopping next to the enemy; the flag."""

from pbem.engines.peaux_rouges import messages as M

from .conftest import LC, PR, position, run


def reasons(result):
    return [e.reason for e in result.errors]


def test_foot_move_one_square(engine):
    """"Les fantassins peuvent se déplacer sur n'importe quelles cases contiguës"."""
    state = position({"S1": "E8", "C": "A8", "CH1": "L1"})
    for dest in ("D7", "E7", "F7", "D8", "F8", "D9", "E9", "F9"):
        assert engine.parse_orders(state, LC, f"MOVE S1 {dest}").ok, dest
    result = engine.parse_orders(state, LC, "MOVE S1 E6")
    assert reasons(result) == [
        "%(piece)s is on foot and moves one square to a contiguous square; %(square)s is %(distance)s squares away"]
    assert result.errors[0].args["distance"] == 2
    state = position({"I1": "E8", "S1": "A1"}, side=PR)
    assert not engine.parse_orders(state, PR, "MOVE I1 G8").ok  # Indians on foot too


def test_riders_move_one_two_or_three_contiguous_squares(engine):
    """"Les cavaliers peuvent avancer de trois, deux ou une case contiguës entre elles"."""
    state = position({"CH1": "A10", "S1": "L1"}, side=PR)
    for dest in ("B10", "C9", "D7"):
        assert engine.parse_orders(state, PR, f"MOVE CH1 {dest}").ok, dest
    result = engine.parse_orders(state, PR, "MOVE CH1 E10")
    assert reasons(result) == ["%(piece)s cannot reach %(square)s: a rider moves at most three contiguous squares"]


def test_riders_never_enter_woods_or_rocks(engine):
    """"à l'exception des bois, des rochers et de la rivière non-guéable, emplacements sur lesquels ils ne peuvent se trouver"."""
    state = position({"T1": "E4", "CH2": "I8", "S1": "A10"}, side=PR)
    assert reasons(engine.parse_orders(state, PR, "MOVE T1 E5")) == [
        "%(square)s is woods: riders never enter woods or rocks"]
    assert reasons(engine.parse_orders(state, PR, "MOVE CH2 I6")) == [
        "%(square)s is rocks: riders never enter woods or rocks"]
    # nor pass through them: the only ways from E4 to E6 in two steps go round the wood
    from pbem.engines.peaux_rouges.rules import Match

    m = Match.from_state(state)
    reach = {m.board.name_of(s) for s in m.rider_reach("T1")}
    assert "E5" not in reach and "E6" in reach


def test_foot_may_enter_woods_and_rocks(engine):
    state = position({"I1": "E4", "I2": "H6", "S1": "A10"}, side=PR)
    assert engine.parse_orders(state, PR, "MOVE I1 E5\nMOVE I2 I6").ok


def test_a_piece_must_stop_on_reaching_a_square_next_to_an_enemy(engine):
    """"ils devront obligatoirement s'arrêter sur toute case contiguë à celle occupée par l'ennemi"."""
    state = position({"CH1": "A8", "S1": "C10"}, side=PR)
    # S1 in C10 touches B9: a rider may stop there, but not ride on through it.
    assert engine.parse_orders(state, PR, "MOVE CH1 B9\nMELEE CH1 AT S1").ok
    # going round, out of contact, is fine
    assert engine.parse_orders(state, PR, "MOVE CH1 D7").ok


def test_a_rider_ordered_past_the_enemy_stops_on_the_way_and_engages(engine):
    """"ils devront obligatoirement s'arrêter sur toute case contiguë ... et engager la lutte":
    every way from A8 to D10 passes next to S1, so the rider rides as far as it may
    (two squares, to C9 by B8) and stops there; the order is taken, and it must fight."""
    state = position({"CH1": "A8", "S1": "C10"}, side=PR)
    result = engine.parse_orders(state, PR, "MOVE CH1 D10")
    assert result.ok and result.canonical == "MOVE CH1 D10\nMELEE CH1 AT S1"
    from pbem.engines.peaux_rouges.rules import Match

    m = Match.from_state(state)
    end, way = m.rider_route("CH1", m.board.index("D10"))
    assert m.board.name_of(end) == "C9" and [m.board.name_of(s) for s in way] == ["B8", "C9"]
    new, events = run(engine, state, "MOVE CH1 D10", rolls=[1, 1, 1, 1])
    assert new["pieces"]["CH1"] == "C9"
    assert events[1]["msg"] == M.MOVE_STOPPED and events[1]["args"]["ordered_sq"] == "D10"
    assert new["last"]["moves"][0] == {"piece": "CH1", "from": "A8", "to": "C9", "flag": False}


def test_a_rider_stops_short_only_where_it_may_stand(engine):
    """The stop square must take the rider (stacking): with C9 full, the way by B9 stops there."""
    state = position({"CH1": "A8", "S1": "C10", "T1": "C9", "T2": "C9"}, side=PR)
    result = engine.parse_orders(state, PR, "MOVE CH1 D10")
    assert result.ok
    new, events = run(engine, state, "MOVE CH1 D10\nMELEE T1 AT S1\nMELEE T2 AT S1", rolls=[1] * 12)
    assert new["pieces"]["CH1"] == "B9"


def test_no_entering_enemy_squares(engine):
    """"Les cases occupées par l'ennemi ne pourront être occupées autrement que par le combat"."""
    state = position({"S1": "E8", "I1": "E7"})
    assert reasons(engine.parse_orders(state, LC, "MOVE S1 E7")) == [
        "%(square)s is held by the enemy; it can only be taken by winning a melee"]
    state = position({"S1": "C8", "CH1": "A8"}, side=PR)
    from pbem.engines.peaux_rouges.rules import Match

    assert Match.from_state(state).board.index("C8") not in Match.from_state(state).rider_reach("CH1")


def test_each_piece_moves_once_a_turn(engine):
    state = position({"S1": "E8", "CH1": "L1"})
    result = engine.parse_orders(state, LC, "MOVE S1 E7\nMOVE S1 E6")
    assert reasons(result) == ["%(name)s already has an order on line %(first)s"]
    assert result.orders["moves"] == [{"piece": "S1", "to": "E7", "flag": False}]


def test_the_flag_moves_only_with_a_soldier_in_its_square(engine):
    """"[le drapeau] ne pourra être déplacé que par un soldat, et ne pourra jamais être bougé seul"."""
    state = position({"S1": "E8", "C": "E8", "S2": "F8", "CH1": "L1"}, flag="E8")
    new, events = run(engine, state, "MOVE S1 E7 WITH FLAG")
    assert new["flag"] == "E7" and new["pieces"]["S1"] == "E7"
    assert reasons(engine.parse_orders(state, LC, "MOVE C E7 WITH FLAG")) == [
        "only a soldier (S1 to S6) can carry the flag"]
    assert reasons(engine.parse_orders(state, LC, "MOVE S2 F7 WITH FLAG")) == [
        "the flag is not in %(square)s with %(piece)s"]
    # a soldier who leaves without saying so leaves the flag where it is
    new, _ = run(engine, state, "MOVE S1 E7")
    assert new["flag"] == "E8"


def test_a_retreating_soldier_leaves_the_flag_behind(engine):
    """"Celui qui est obligé de reculer dans le combat ne peut emmener le drapeau avec lui"."""
    state = position({"S1": "F8", "C": "F8", "I1": "F5"}, side=PR, flag="F8")
    new, events = run(engine, state, "FIRE I1 AT S1", rolls={"attacker": 5, "target": 1})
    assert new["pieces"]["S1"] in ("E9", "F9", "G9")  # pushed back, away from the shooter
    assert new["flag"] == "F8" and new["pieces"]["C"] == "F8"
    assert any(e["type"] == "flag_left" for e in events)


def test_a_melee_winner_may_take_the_losers_square(engine):
    """"Dans le corps à corps, le vainqueur pourra occuper la case du vaincu"."""
    state = position({"T1": "E9", "S1": "E8", "C": "A2"}, side=PR)
    new, events = run(engine, state, "MELEE T1 AT S1 ADVANCE", rolls={"attacker": 6, "target": 1})
    assert new["pieces"]["S1"] is None and new["pieces"]["T1"] == "E8"
    new, _ = run(engine, state, "MELEE T1 AT S1 STAY", rolls={"attacker": 6, "target": 1})
    assert new["pieces"]["T1"] == "E9"
    new, _ = run(engine, state, "MELEE T1 AT S1", rolls={"attacker": 6, "target": 1})
    assert new["pieces"]["T1"] == "E9"  # standing order ADVANCE defaults to no


def test_a_melee_winner_rider_never_takes_woods_or_rocks(engine):
    """"(les cavaliers ne pourront jamais occuper les bois ni les rochers)"."""
    state = position({"T1": "E4", "S1": "E5", "C": "A2"}, side=PR)
    new, events = run(engine, state, "MELEE T1 AT S1 ADVANCE", rolls={"attacker": 6, "target": 1})
    assert new["pieces"]["S1"] is None and new["pieces"]["T1"] == "E4"
    state = position({"I1": "E4", "S1": "E5", "C": "A2"}, side=PR)
    new, events = run(engine, state, "MELEE I1 AT S1 ADVANCE", rolls={"attacker": 6, "target": 1})
    assert new["pieces"]["I1"] == "E5"  # a foot Indian may


def test_moves_are_checked_in_the_order_written(engine):
    state = position({"S1": "E8", "S2": "E8", "S3": "E8", "S4": "E9", "CH1": "L1"})
    assert not engine.parse_orders(state, LC, "MOVE S4 E8\nMOVE S1 E7").ok
    assert engine.parse_orders(state, LC, "MOVE S1 E7\nMOVE S4 E8").ok


def test_a_piece_may_move_within_the_enemys_range_of_fire(engine):
    """CASES MENACÉES PAR L'ENNEMI: "Les combattants pourront progresser, même à portée de tir
    des armes adverses": riding through squares 2 and 3 from soldier S1 (in its range, not
    next to it) does not stop the rider."""
    state = position({"CH1": "A5", "S1": "E8"}, side=PR)
    new, events = run(engine, state, "MOVE CH1 D5")
    assert new["pieces"]["CH1"] == "D5"
    assert not any(e["type"] == "duel" and e["args"].get("attacker") == "CH1" for e in events)  # no melee forced
