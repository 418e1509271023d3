"""The game options: the agreed target and the house rules (each the other reading of an
open passage, off by default), checked when a game is created and named in every report."""

import pytest

from pbem.dice import Dice
from pbem.engines.rummy.options import HOUSE_RULES

from .helpers import ENGINE, build, play
from .render import report


def test_every_scenario_offers_the_house_rules_off_by_default():
    """The defaults are the most literal readings; steal_from_opponents_only is a team-game rule."""
    for name, scenario in ENGINE.scenarios().items():
        expected = {"target": None} | {rule: False for rule in HOUSE_RULES
                                       if name == "teams" or rule != "steal_from_opponents_only"}
        assert scenario.options == expected, name
        st = ENGINE.setup(name, dict(scenario.options), Dice("01" * 32))
        assert not any(st["options"].values()) and ENGINE.view(st, None)["house_rules"] == []


def test_house_rules_are_read_as_yes_or_no_and_anything_else_is_refused():
    st = ENGINE.setup("two", {"keep_taken_card": "yes", "custer_staff_immune": 0}, Dice("01" * 32))
    assert st["options"]["keep_taken_card"] is True and st["options"]["custer_staff_immune"] is False
    with pytest.raises(ValueError, match="keep_taken_card is yes or no"):
        ENGINE.setup("two", {"keep_taken_card": "perhaps"}, Dice("01" * 32))
    with pytest.raises(ValueError, match="no option steal_from_opponents_only"):
        ENGINE.setup("four", {"steal_from_opponents_only": True}, Dice("01" * 32))
    with pytest.raises(ValueError, match="no option jokers"):
        ENGINE.setup("teams", {"jokers": True}, Dice("01" * 32))


def test_the_report_names_the_house_rules_of_the_game():
    st = build(hands={"p1": ["brave", "scout"]}, options={"keep_taken_card": True, "layoff_to_own_table": True})
    text = report(st, [], "p2")
    assert "House rules of this game: keep_taken_card, layoff_to_own_table." in text["text"]
    assert "House rules of this game: keep_taken_card, layoff_to_own_table." in text["html"]
    assert "House rules" not in report(build(hands={"p1": ["brave"]}), [], "p2")["text"]


def test_a_game_begun_before_the_options_plays_on_with_the_rules_text():
    """A stored state from before the house rules and the covered pile (no options, no pick
    or draw-two record in its turn) plays on, by the literal readings."""
    st = build(hands={"p1": ["brave", "scout"], "p2": ["village"]}, stage="draw", discard=["hump", "gall"])
    del st["options"]
    for key in ("pick_pending", "extra"):
        del st["turn"][key]
    new, _, _ = play(st, "DRAW DISCARD\nDISCARD Gall")
    assert new["player"] == "p2" and new["discard"][-1].startswith("gall")
    assert ENGINE.view(new, "p2")["house_rules"] == []


def test_a_moderators_edit_is_checked_for_house_rules_and_a_waiting_pick():
    st = build(hands={"p1": ["brave", "scout"]})
    st["options"]["jokers"] = True
    assert ENGINE.validate_state(st) == ["house rules: no option jokers (options: coup_sticks_are_support, custer_staff_immune, "
                                         "keep_taken_card, layoff_to_own_table, target)"]
    st = build(hands={"p1": ["brave", "scout"]})
    st["turn"]["pick_pending"] = True
    assert ENGINE.validate_state(st) == ["a pick from the discard pile waits, but the pile is empty"]
