"""The battlefield: squares, terrain, contiguity, the river."""

from pbem.engines.peaux_rouges.board import FORD, OPEN, PARAPET, RIVER, ROCKS, WOODS, board_for

from .conftest import LC, PR, TEST, position


def test_square_board_with_open_ground_woods_rocks_parapets_river_and_fords():
    """"des bois, des rochers, des parapets ... et une rivière (guéable et non guéable)"."""
    board = board_for("little_big_horn")
    assert {OPEN, WOODS, ROCKS, PARAPET, RIVER, FORD} <= set(board.terrain)
    assert board.cols == board.rows  # a square board
    assert len(board.arrows) == 2  # "deux cases indiquées par une flèche bleue"


def test_squares_are_named_column_letter_then_row_number():
    board = board_for(TEST)
    assert board.name_of(0) == "A1"
    assert board.index("C3") == 2 * board.cols + 2
    assert board.parse("c3") == board.index("C3")
    assert board.parse("M1") is None and board.parse("A11") is None and board.parse("3C") is None


def test_eight_neighbour_contiguity():
    """"les cases contiguës, c'est-à-dire celles qui sont en contact ... par un point quelconque"."""
    board = board_for(TEST)
    e5 = board.index("E5")
    names = sorted(board.name_of(n) for n in board.neighbours[e5])
    assert names == ["D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6"]
    assert len(board.neighbours[board.index("A1")]) == 3
    assert board.distance(board.index("A1"), board.index("C3")) == 2  # diagonals count as one


def test_non_fordable_river_squares_closed_to_everyone(engine):
    """"Les endroits de la rivière où il n'y a pas de gué ne peuvent jamais être traversés ni occupés"."""
    state = position({"S1": "B4", "C": "H9"})
    result = engine.parse_orders(state, LC, "MOVE S1 B3")
    assert [e.reason for e in result.errors] == ["%(square)s is river with no ford: nobody may enter it"]
    state = position({"CH1": "E4", "C": "H9"}, side=PR)
    for dest in ("E3", "E2", "F2"):
        result = engine.parse_orders(state, PR, f"MOVE CH1 {dest}")
        assert result.errors, dest  # E3 is river; E2 and F2 lie beyond it, out of reach of the ford C3


def test_fords_are_open_to_foot_and_riders(engine):
    """"les cavaliers ... ne pourront se mouvoir que sur les cases [sans] bois ni rochers, et sur les passages à gué"."""
    state = position({"S1": "C4", "C": "J9"})
    assert engine.parse_orders(state, LC, "MOVE S1 C3").ok
    state = position({"CH1": "D5", "C": "J9"}, side=PR)
    result = engine.parse_orders(state, PR, "MOVE CH1 B2")  # D5 C4 C3(ford) B2
    assert result.ok, result.errors
    assert engine.parse_orders(state, PR, "MOVE CH1 C3").ok
