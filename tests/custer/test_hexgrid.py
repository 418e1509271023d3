"""Hex geometry: ids, neighbours, distance, hexsides (docs/custer-data-format.md)."""

import pytest

from pbem.engines.hexgrid import (
    center, distance, hex_id, hexside, hexside_segment, neighbours, on_board, parse_hex,
)


def test_ids_are_column_then_row():
    assert parse_hex("1412") == (14, 12)
    assert hex_id(3, 7) == "0307"
    with pytest.raises(ValueError):
        parse_hex("141")


def test_odd_columns_sit_half_a_hex_higher():
    """Neighbours of (c, r): odd c (c±1, r-1), (c±1, r); even c (c±1, r), (c±1, r+1)."""
    assert set(neighbours("0303", 10, 10)) == {"0302", "0304", "0202", "0203", "0402", "0403"}
    assert set(neighbours("0404", 10, 10)) == {"0403", "0405", "0304", "0305", "0504", "0505"}
    assert center("0301")[1] < center("0401")[1]


def test_neighbours_stay_on_the_board():
    assert set(neighbours("0101", 10, 10)) == {"0102", "0201"}
    assert all(on_board(n, 4, 4) for h in ("0101", "0404", "0104") for n in neighbours(h, 4, 4))


def test_distance_is_symmetric_and_one_for_every_neighbour():
    for c in range(1, 9):
        for r in range(1, 9):
            h = hex_id(c, r)
            for n in neighbours(h, 9, 9):
                assert distance(h, n) == distance(n, h) == 1
    assert distance("0101", "0101") == 0
    assert distance("0101", "0601") == 5
    assert distance("0303", "0306") == 3
    assert distance("0202", "0101") == 2


def test_hexside_is_the_sorted_pair_of_adjacent_hexes():
    assert hexside("1413", "1412") == ("1412", "1413")
    with pytest.raises(ValueError):
        hexside("0101", "0303")
    a, b = hexside_segment("0101", "0102")
    assert a != b


def test_toward_walks_the_straight_line():
    from pbem.engines.hexgrid import toward
    for a, b in [("0101", "2020"), ("1510", "0101"), ("3026", "0101"), ("0505", "0512")]:
        t = toward(a, b, 7)
        assert distance(a, t) == min(7, distance(a, b))
        assert distance(a, t) + distance(t, b) == distance(a, b)
