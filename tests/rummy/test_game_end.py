"""The game: to 150 points (125 with three players, 100 with four, or an agreed target)."""

import pytest

from pbem.dice import Dice

from .helpers import ENGINE, build, group, play, texts


@pytest.mark.parametrize("scenario,target", [("two", 150), ("three", 125), ("four", 100), ("teams", 100)])
def test_game_to_150_125_or_100_points(scenario, target):
    """"The first player to achieve 150 points wins the game" ... "3 players – 125 Points,
    4 players – 100 Points". The team game is a four-player game: 100, combined scores."""
    assert ENGINE.setup(scenario, {}, Dice("00" * 32))["target"] == target
    assert ENGINE.setup(scenario, {"target": 60}, Dice("00" * 32))["target"] == 60


def test_agreed_target_option():
    """"Players may agree beforehand to change victory limit for shorter or longer matches"."""
    st = build(hands={"p1": ["brave"]}, target=10, totals={"p1": 4, "p2": 0})
    new, events, _ = play(st, "DISCARD Brave")
    assert ENGINE.outcome(new) is None and new["totals"]["p1"] == 9
    st = build(hands={"p1": ["brave"]}, target=10, totals={"p1": 5, "p2": 0})
    new, events, _ = play(st, "DISCARD Brave")
    out = ENGINE.outcome(new)
    assert out["winner"] == "p1" and out["scores"] == {"p1": 10, "p2": 0}


def test_the_first_to_the_target_wins():
    st = build(hands={"p1": ["brave"]}, totals={"p1": 146, "p2": 100})
    new, events, _ = play(st, "DISCARD Brave")
    out = ENGINE.outcome(new)
    assert out["winner"] == "p1" and out["scores"] == {"p1": 151, "p2": 100}
    assert ENGINE.phase(new).awaited == () and ENGINE.phase(new).id == "H1.END"
    assert "p1 wins with 151 points after 1 hands." in texts(events)
    assert ENGINE.order_template(new, "p1") == "# The game is over."


def test_highest_score_wins_when_several_pass_the_target_in_one_hand():
    """"If more than one player reaches 150 at the end of the same hand, the highest
    scoring player wins"."""
    st = build(hands={"p1": ["brave"]}, totals={"p1": 146, "p2": 149},
               tables={"p2": [group("co-C", "C-commander", "C-guidon", "C-trooper", "C-trooper")]})
    new, _, _ = play(st, "DISCARD Brave")
    out = ENGINE.outcome(new)
    assert out["scores"] == {"p1": 151, "p2": 156} and out["winner"] == "p2"


def test_a_tie_at_the_top_plays_another_hand():
    """Reading: the rules name no winner on equal highest scores; another hand is dealt."""
    st = build(hands={"p1": ["brave"]}, totals={"p1": 145, "p2": 149},
               tables={"p2": [group("co-C", "C-trooper")]})
    new, events, _ = play(st, "DISCARD Brave")
    assert new["totals"] == {"p1": 150, "p2": 150} and ENGINE.outcome(new) is None
    assert new["hand_no"] == 2 and any("another hand" in t for t in texts(events))
