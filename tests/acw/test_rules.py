"""Rules checked directly, each named after the rule and paraphrasing it."""

import pytest

from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.acw.casualties import apply_hits
from pbem.engines.acw.effectiveness import band_of, percentage
from pbem.engines.acw.formations import Layout, files_and_ranks
from pbem.engines.acw.geometry import inches
from pbem.engines.acw.rules import initial_morale, variable_move
from pbem.engines.acw.scenario import load
from pbem.engines.base import event_text

from .fixtures import context, of_type, play_turn, small_scenario


@pytest.mark.parametrize("quality, rolls", [("elite_veterans", [2, 3, 3, 3, 3, 4]), ("veterans", [2, 2, 2, 3, 3, 4]),
                                            ("green", [1, 2, 2, 2, 3, 3])])
def test_initial_morale_is_rolled_by_quality_on_the_section_19_table(quality, rolls):
    """Section 19: a unit's initial morale is a d6 read on its quality's row (Elite Veterans,
    Veterans, Green); these rows survived in the rulebook."""
    assert [initial_morale(quality, d6) for d6 in range(1, 7)] == rolls


def test_an_infantry_line_is_two_ranks_of_three_stands():
    """Section 17: an infantry regiment is 6 stands; in line, two ranks of 3 (stands of 4 men
    in a single rank); cavalry 8 stands, in line two ranks of 4."""
    assert files_and_ranks("infantry", "line", 6) == (3, 2)
    assert files_and_ranks("cavalry", "line", 8) == (4, 2)
    lay = Layout({"arm": "infantry", "x": 10, "y": 10, "facing": 90, "formation": "line", "stands": [0] * 6}, "25mm")
    assert lay.frontage == pytest.approx(4.5) and lay.total_depth == pytest.approx(1.5)
    assert len(lay.stand_centres()) == 6


def test_a_battery_unlimbered_stands_its_guns_side_by_side():
    """Section 17: a 6-gun battery is 3 stands of a gun and 2 gunners; unlimbered they stand in
    one rank, limbered in one file."""
    assert files_and_ranks("artillery", "unlimbered", 3) == (3, 1)
    assert files_and_ranks("artillery", "limbered", 3) == (1, 3)


def test_two_hits_take_a_gunner_and_a_gun_goes_with_its_two_gunners():
    """Section 17: normally 2 hits are needed to remove 1 gunner; a gun stand has two."""
    name = small_scenario("rules_gunners", units=[
        {"id": "g", "side": "union", "x": 10, "y": 10, "facing": 90, "arm": "artillery", "stands": 3, "formation": "unlimbered"},
        {"id": "e", "side": "confederate", "x": 40, "y": 30, "facing": 270}])
    ctx = context(name)
    assert apply_hits(ctx, "g", 3) == 0 and ctx.state["units"]["g"]["stands"] == [3, 0, 0]
    assert apply_hits(ctx, "g", 1) == 1 and ctx.state["units"]["g"]["stands"] == [0, 0]


def test_hits_fall_on_one_stand_at_a_time():
    """Section 12 (designed): casualties fall on the stand that already has the most, so a
    regiment has at most one casualty stand; a stand of 4 men goes at the 4th hit."""
    name = small_scenario("rules_casualties", units=[
        {"id": "i", "side": "union", "x": 10, "y": 10, "facing": 90},
        {"id": "e", "side": "confederate", "x": 40, "y": 30, "facing": 270}])
    ctx = context(name)
    assert apply_hits(ctx, "i", 6) == 1
    assert ctx.state["units"]["i"]["stands"] == [2, 0, 0, 0, 0]


def test_ranges_are_read_in_whole_inches_a_fraction_counting_as_the_next():
    """Section 7 tables: close range is to 12 inches, long range 13-24: a measured 12.0 is 12,
    12.01 is 13."""
    assert inches(12.0) == 12 and inches(12.01) == 13 and inches(11.9999999) == 12


def test_the_d20_variable_move_is_read_by_row_and_ground():
    """Section 6: after the base move a D20 adds or subtracts the variable move, read on the rows
    1-2 ... 19-20 in the open, rough or road column."""
    assert variable_move("25mm", "open", 1) == -3 and variable_move("25mm", "open", 20) == 3
    assert variable_move("25mm", "open", 10) == 0 and variable_move("25mm", "rough", 12) == -1
    assert variable_move("25mm", "road", 19) == 3


def test_grid_squares_are_lettered_from_the_left_and_numbered_from_the_top():
    """Orders name a 6-inch grid square (C4) as drawn on the picture; x,y inches work too."""
    table = load("herbst_woods").table
    assert table.grid_point("A1") == (3.0, 3.0) and table.grid_point("c4") == (15.0, 21.0)
    assert table.grid_point("M1") is None and table.grid_point("A9") is None
    assert table.grid_ref(15.0, 21.0) == "C4"


def test_army_effectiveness_is_three_points_per_fresh_unit_as_a_share_of_the_army():
    """Section 18, game option effectiveness_percent=share_of_start: 3 points for each regiment
    or battery with all its stands; the total as a percentage of the army's; the bands
    (designed): 50 steady, 30 wavering, under 30 broken."""
    name = small_scenario("rules_effectiveness", units=[
        {"id": f"u{i}", "side": "union", "x": 10, "y": 4 + 6 * i, "facing": 90} for i in range(4)] + [
        {"id": "e", "side": "confederate", "x": 40, "y": 30, "facing": 270}])
    ctx = context(name)
    ctx.state["options"]["effectiveness_percent"] = "share_of_start"
    ctx.state["units"]["u0"]["stands"].pop()
    assert percentage(ctx, "union") == 75
    assert [band_of(p)["name"] for p in (75, 50, 49, 30, 29)] == ["steady", "steady", "wavering", "wavering", "broken"]


def test_army_effectiveness_read_literally_is_the_points_themselves():
    """Section 18 A, literally: "The resultant number is the Armys' Effectiveness percentage":
    three fresh regiments of four make 9 points, 9 %."""
    name = small_scenario("rules_effectiveness_literal", units=[
        {"id": f"u{i}", "side": "union", "x": 10, "y": 4 + 6 * i, "facing": 90} for i in range(4)] + [
        {"id": "e", "side": "confederate", "x": 40, "y": 30, "facing": 270}])
    ctx = context(name)
    ctx.state["units"]["u0"]["stands"].pop()
    assert percentage(ctx, "union") == 9


def test_a_falling_back_unit_is_in_hand_again_once_its_response_passes():
    """14 A.3: falling back units stay so until their next normal move, that is until they pass
    their command response."""
    name = small_scenario("rules_reform", units=[
        {"id": "u", "side": "union", "x": 10, "y": 10, "facing": 90},
        {"id": "e", "side": "confederate", "x": 40, "y": 30, "facing": 270, "formation": "column"}])
    engine_state, events = play_turn(name, {"union": "u: HOLD"}, {"T1 response union_bde": 1},
                                     options={"effectiveness_percent": "share_of_start"})
    engine_state["units"]["u"]["status"] = "falling_back"
    state, events = play_turn(name, {"union": "u: FACE 80"}, {"T2 response union_bde": 1}, state=engine_state)
    assert state["units"]["u"]["status"] == "formed" and of_type(events, "reformed")


def test_the_game_ends_when_an_army_is_broken():
    """Section 18 (designed band, read as a share of the army at the start): an army under 30 %
    effectiveness quits the field; the other side wins at once."""
    name = small_scenario("rules_broken", units=[
        {"id": "a", "side": "union", "x": 10, "y": 4, "facing": 90}, {"id": "b", "side": "union", "x": 10, "y": 20, "facing": 90},
        {"id": "e", "side": "confederate", "x": 40, "y": 30, "facing": 270}])
    engine = ACWMiniaturesEngine()
    state, _ = play_turn(name, {}, options={"effectiveness_percent": "share_of_start"})
    state["units"]["a"]["stands"].pop()
    state["units"]["b"]["stands"].pop()
    state, events = play_turn(name, {}, state=state)
    assert engine.outcome(state)["winner"] == "confederate" and state["result"]["why"] == "broken"


def test_fire_at_a_target_partly_in_the_cone_says_its_centre_is_outside():
    """7.1: a target is in the cone when any part of it is; the fire report says so plainly
    when its centre stands outside the 60 degrees instead of calling it in the cone."""
    name = small_scenario("cone_partly", units=[{"id": "f", "side": "union", "x": 10, "y": 18, "facing": 90},
                                                {"id": "t", "side": "confederate", "x": 18, "y": 23, "facing": 0}])
    _, events = play_turn(name, {}, {"T1 fire standing f": 2, "T1 fire standing t": 2})
    [fire] = [e for e in of_type(events, "fire") if e["args"]["firer"] == "f"]
    assert "its centre 36 degrees off its front, part of it in the 60-degree cone" in event_text(fire)
