"""Command determination (rule 20) and the sequence of play (initiative)."""

from pbem.engines.lfm import turn
from pbem.engines.lfm.command import determine

from .fragments import context, fragment, of_type

COMMANDERS = [
    {"id": "army", "name": "Lee", "side": "csa", "rank": "army", "cv": 4, "hex": "0101"},
    {"id": "div", "name": "Heth", "side": "csa", "rank": "division", "cv": 3, "superior": "army", "hex": "0103"},
    {"id": "b1", "name": "Archer", "side": "csa", "rank": "brigade", "superior": "div", "hex": "0105"},
    {"id": "b2", "name": "Davis", "side": "csa", "rank": "brigade", "superior": "div", "hex": "0901"},
    {"id": "uarmy", "name": "Meade", "side": "usa", "rank": "army", "cv": 5, "hex": "1010"},
    {"id": "ub", "name": "Meredith", "side": "usa", "rank": "brigade", "superior": "uarmy", "hex": "1010"},
]
UNITS = [{"id": "r1", "side": "csa", "type": "infantry", "hex": "0105", "brigade": "b1"},
         {"id": "r2", "side": "csa", "type": "infantry", "hex": "0107", "brigade": "b1"},
         {"id": "r3", "side": "csa", "type": "infantry", "hex": "0108", "brigade": "b1"},
         {"id": "r4", "side": "csa", "type": "infantry", "hex": "0901", "brigade": "b2"},
         {"id": "u1", "side": "usa", "type": "infantry", "hex": "1010", "brigade": "ub"}]


def ctx_with(script):
    return context(fragment("command_board", units=UNITS, commanders=COMMANDERS), script=script)


def test_division_commander_in_range_of_an_in_command_army_commander_subtracts_one():
    """Rule 20.5: in range of his in-command superior a division commander subtracts 1; each
    brigade out of his range adds 1 (Davis is 8 hexes away)."""
    ctx = ctx_with({"test command army": 2, "test command div": 3})
    result = determine(ctx, "csa")
    roll = next(e for e in of_type(ctx.events, "command_roll") if e["args"]["commander"] == "div")
    assert roll["args"]["drm"] == 0 and roll["args"]["modified"] == 3 and roll["args"]["ok"]
    assert "div" in result and "b1" in result and "b2" not in result


def test_regiments_pass_the_word_along_their_brigade():
    """Rule 20.7: a regiment next to an in-command regiment of its brigade is in command, so a
    brigade longer than 2 hexes stays in command; a detached regiment does not."""
    ctx = ctx_with({"test command army": 1, "test command div": 1})
    result = determine(ctx, "csa")
    assert {"r1", "r2", "r3"} <= result
    ctx = ctx_with({"test command army": 1, "test command div": 1})
    ctx.state["units"]["r3"]["detached"] = True
    result = determine(ctx, "csa")
    assert "r2" in result and "r3" not in result


def test_a_detached_regiment_is_out_of_command_even_in_its_brigade_commanders_range():
    """Rule 22.3: "Detached regiments may move freely, but are not in command ... DETACHED markers
    are automatically removed if the regiment enters the command range of it's own brigade
    commander": a regiment detached where it stands keeps its marker until it moves into the
    range (tests/lfm/cases/22_3_a_detached_regiment_entering_*), and is out of command."""
    ctx = ctx_with({"test command army": 1, "test command div": 1})
    ctx.state["units"]["r2"]["detached"] = True
    assert "r2" not in determine(ctx, "csa") and ctx.state["units"]["r2"]["detached"] is True


def test_a_failed_army_roll_leaves_subordinates_on_their_own_initiative():
    """Rule 20.3-20.6: the army commander fails; the division commander rolls unmodified; a
    brigade whose division commander is not in command is out of command."""
    ctx = ctx_with({"test command army": 6, "test command div": 4})
    result = determine(ctx, "csa")
    assert "army" not in result and "div" not in result and "b1" not in result and "r1" not in result


def test_initiative_goes_to_the_higher_total_and_ties_to_the_higher_cv():
    """Phase 1: d6 + the army commander's CV; ties to the higher CV."""
    ctx = ctx_with({"test initiative csa 1": 6, "test initiative usa 1": 3})
    turn.initiative(ctx)
    assert ctx.state["order"] == ["csa", "usa"]  # 10 against 8
    ctx = ctx_with({"test initiative csa 1": 4, "test initiative usa 1": 3})
    turn.initiative(ctx)
    assert ctx.state["order"] == ["usa", "csa"]  # 8 all, Meade's CV 5 beats Lee's 4


def test_an_acting_army_commander_serves_until_a_senior_has_him_in_range():
    """Rule 20.12: with the army commander off the map the highest-ranked commander present
    acts for him; "They are relieved when they are in the command range of a ranking commander":
    a corps commander takes over once the acting division commander is within his 5 hexes."""
    from pbem.engines.lfm.command import acting_army_commander

    commanders = [
        {"id": "meade", "name": "Meade", "side": "usa", "rank": "army", "cv": 5, "enter": {"turn": 9, "hex": "1010"}},
        {"id": "reynolds", "name": "Reynolds", "side": "usa", "rank": "corps", "cv": 5, "hex": "1010"},
        {"id": "buford", "name": "Buford", "side": "usa", "rank": "division", "cv": 5, "hex": "0101"},
        {"id": "ub", "name": "Gamble", "side": "usa", "rank": "brigade", "superior": "buford", "hex": "0101"},
        {"id": "lee", "name": "Lee", "side": "csa", "rank": "army", "cv": 5, "hex": "0110"},
        {"id": "cb", "name": "Archer", "side": "csa", "rank": "brigade", "superior": "lee", "hex": "0110"}]
    units = [{"id": "u1", "side": "usa", "type": "cavalry", "hex": "0101", "brigade": "ub"},
             {"id": "c1", "side": "csa", "type": "infantry", "hex": "0110", "brigade": "cb"}]
    ctx = context(fragment("acting_board", units=units, commanders=commanders, columns=12, rows=12))
    ctx.state["acting"] = {"usa": "buford"}
    assert acting_army_commander(ctx, "usa") == "buford"  # Reynolds is 11 hexes away
    ctx.sit.place_commander("reynolds", "0505")
    assert acting_army_commander(ctx, "usa") == "buford"  # 6 hexes: outside a corps commander's 5
    ctx.sit.place_commander("reynolds", "0404")
    assert acting_army_commander(ctx, "usa") == "reynolds"
    assert of_type(ctx.events, "acting_commander")[-1]["args"]["name"] == "Reynolds"
