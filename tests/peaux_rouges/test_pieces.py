"""The pieces and how many may share a square."""

from pbem.engines.peaux_rouges.pieces import KINDS, PIECES, kind_of

from .conftest import LC, PR, position


def test_roster_custer_officers_soldiers_and_flag_against_foot_chiefs_and_tomahawks(engine):
    """The British edition's box: Custer, 2 officers, 6 soldiers, 1 flag; 3 mounted chiefs,
    3 mounted tomahawk Indians, 6 Indians with rifles."""
    counts = {}
    for code in PIECES:
        counts[kind_of(code).name] = counts.get(kind_of(code).name, 0) + 1
    assert counts == {"custer": 1, "officer": 2, "soldier": 6, "chief": 3, "tomahawk": 3, "indian": 6}
    assert KINDS["chief"].mounted and KINDS["chief"].reach == 3  # "les cavaliers avec un fusil"
    assert KINDS["tomahawk"].mounted and KINDS["tomahawk"].reach == 1
    assert not KINDS["indian"].mounted and KINDS["indian"].reach == 3
    state = engine.setup("little_big_horn", {}, None)
    assert state["flag"] and all(state["pieces"][c] for c in PIECES)


def test_stacking_at_most_three_foot(engine):
    """"At most 3 foot, or 2 riders, or 1 foot + 1 rider in a square" (British edition)."""
    state = position({"S1": "E8", "S2": "E8", "S3": "E8", "S4": "F8", "CH1": "K1"})
    result = engine.parse_orders(state, LC, "MOVE S4 E8")
    assert [e.reason for e in result.errors] == [
        "%(square)s is full: at most 3 foot, or 2 riders, or 1 foot and 1 rider in a square"]
    state = position({"S1": "E8", "S2": "E8", "S4": "F8", "CH1": "K1"})
    assert engine.parse_orders(state, LC, "MOVE S4 E8").ok


def test_stacking_at_most_two_riders_or_one_foot_and_one_rider(engine):
    state = position({"CH1": "E8", "T1": "E8", "T2": "F9", "I1": "D8", "I2": "D9", "S1": "K1"}, side=PR)
    assert not engine.parse_orders(state, PR, "MOVE T2 E8").ok  # a third rider
    state = position({"CH1": "E8", "T2": "F9", "I1": "D8", "I2": "D9", "S1": "K1"}, side=PR)
    assert engine.parse_orders(state, PR, "MOVE T2 E8").ok  # two riders
    assert engine.parse_orders(state, PR, "MOVE I1 E8").ok  # one rider and one foot
    assert not engine.parse_orders(state, PR, "MOVE I1 E8\nMOVE I2 E8").ok  # two foot and a rider


def test_opposing_pieces_never_share_a_square(engine):
    """"Les cases occupées par l'ennemi ne pourront être occupées autrement que par le combat"."""
    state = position({"S1": "E8", "I1": "E6"}, side=PR)
    result = engine.parse_orders(state, PR, "MOVE I1 E7\nMOVE I1 E8")
    assert result.errors and result.errors[0].reason == "%(name)s already has an order on line %(first)s"
    result = engine.parse_orders(position({"S1": "E8", "I1": "E7"}, side=PR), PR, "MOVE I1 E8")
    assert result.errors[0].reason == "%(square)s is held by the enemy; it can only be taken by winning a melee"


def test_each_piece_starts_on_its_own_start_square_one_a_square(engine):
    """2. — DISPOSITION DES COMBATTANTS: "Les combattants se placeront au commencement de la
    partie sur les triangles, à raison d'un par case pour le coup initial", the Long Knives
    and the flag on the blue triangles, the Indians on the red ones, each rider on a red one
    with a horse's head. The start squares are ours (data/peaux_rouges/board.json, README);
    the flag shares soldier S1's square, the flag not being a combatant."""
    from pbem.engines.peaux_rouges.board import board_for, ROCKS, WOODS

    board = board_for("little_big_horn")
    state = engine.setup("little_big_horn", {}, None)
    assert {c: board.index(sq) for c, sq in state["pieces"].items()} == board.start
    assert len(set(state["pieces"].values())) == len(PIECES)  # one combatant a square
    assert state["flag"] == board.name_of(board.flag_start) == state["pieces"]["S1"]
    for code in PIECES:  # riders start where riders may stand
        if kind_of(code).mounted:
            assert board.terrain[board.index(state["pieces"][code])] not in (WOODS, ROCKS)
