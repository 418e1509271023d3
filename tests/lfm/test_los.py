"""Line of sight (rule 27) and zones of influence (rule 6)."""

from pbem.engines.lfm import scenario as scenarios
from pbem.engines.lfm.los import hex_lines, line_of_sight

from .fragments import context, fragment


def board(**kw):
    return scenarios.load(fragment("los_board", units=[{"id": "c1", "side": "csa", "type": "infantry", "hex": "0101", "brigade": "b"},
                                                          {"id": "u1", "side": "usa", "type": "infantry", "hex": "1010", "brigade": "ub"}],
                                   **kw)).board


def test_flat_open_ground_is_clear():
    assert line_of_sight(board(), "0502", "0506") == "clear"


def test_higher_ground_between_blocks():
    """An elevation higher than both the firing and the target hex blocks the line."""
    assert line_of_sight(board(elevation={"1": ["0504"]}), "0502", "0506") == "blocked"


def test_woods_raise_a_hex_by_one_level():
    """Woods add a level: on flat ground they block a line through them."""
    assert line_of_sight(board(hexes={"woods": ["0504"]}), "0502", "0506") == "blocked"


def test_a_line_along_hexsides_with_one_side_blocked_is_partial():
    """When two shortest paths exist and only one is obstructed, the line is partially obstructed."""
    lines = hex_lines("0202", "0402")
    assert len(lines) == 2
    blocker = lines[0][0]
    assert line_of_sight(board(hexes={"woods": [blocker]}), "0202", "0402") == "partial"


def test_a_target_in_woods_or_town_is_at_best_partial():
    assert line_of_sight(board(hexes={"town": ["0506"]}), "0502", "0506") == "partial"


def test_same_level_as_the_firer_blocks_a_lower_target():
    """An elevation the same as the firing hex blocks when the target is lower."""
    assert line_of_sight(board(elevation={"1": ["0502", "0504"]}), "0502", "0506") == "blocked"


def test_zoi_reaches_three_hexes_it_can_see():
    """Combat units exert a ZOI 3 hexes out, not where they cannot see."""
    name = fragment("zoi_board", hexes={"woods": ["0504"]},
                    units=[{"id": "u1", "side": "usa", "type": "infantry", "hex": "0507", "brigade": "ub"},
                           {"id": "c1", "side": "csa", "type": "infantry", "hex": "0101", "brigade": "b"}])
    zoi = context(name).sit.zoi_hexes("usa")
    assert "0505" in zoi and "0508" in zoi and "0503" not in zoi and "0501" not in zoi
