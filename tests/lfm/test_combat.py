"""Combat details checked directly: the DRMs of an attack on several hexes, the flank rule."""

from pbem.engines.lfm.combat import combined_drms, flanked

FLANK = {"why": "flank attack", "drm": -1}
WALL = {"why": "behind a stone wall", "drm": 1}
SHAKEN = {"why": "defenders disorganized or shattered", "drm": -1}


def test_an_attack_on_several_hexes_takes_attacker_drms_only_when_they_hold_for_every_hex():
    """Rule 8.4 attacks several hexes as one: the attacker's DRM (flank) counts only if it holds
    against each defending hex, the defender's (a wall) if it holds for any of them, and the -1
    for shaken defenders once per disorganized or shattered defending hex (rule 16.2)."""
    assert combined_drms([[FLANK, SHAKEN], [WALL, SHAKEN]]) == [SHAKEN, SHAKEN, WALL]
    assert combined_drms([[FLANK], [FLANK]]) == [FLANK]
    assert combined_drms([[FLANK, WALL]]) == [FLANK, WALL]


def test_flanked_from_three_hexes_or_two_that_are_not_adjacent():
    """Rule 8.7: attacked from 3 or more hexes, or from two hexes that are not adjacent."""
    assert flanked(["0504", "0506"]) and flanked(["0504", "0604", "0606"])
    assert not flanked(["0504", "0604"]) and not flanked(["0504"])
