"""Scoring at the end of a hand."""

from pbem.engines.rummy import state as S

from .helpers import build, group, play


def _end(st, text="DISCARD Brave"):
    new, events, _ = play(st, text)
    return new["scores"][-1], [e for e in events if e["type"] == "score"]


def test_scoring_card_values_and_the_bonus_card():
    """"each player adds up the score value of all the cards they have played to their
    table ... The Bonus Point Card is given to the person who went out: five (5) points"."""
    st = build(hands={"p1": ["brave"], "p2": ["scout", "gall"]}, tables={
        "p1": [group("co-C", "C-commander", "C-guidon", "C-trooper", wild=True),
               {"key": "chief", "cards": ["hump"], "on": ["coup-stick"]},
               {"key": "support", "cards": ["sabers"]}],
        "p2": [group("staff", "banner", "bugler", "bugler"), group("villages", "village", "village", "village"),
               {"key": "chief", "cards": ["sitting-bull"], "on": ["sundance"]}]})
    score, events = _end(st)
    assert score["points"] == {"p1": (3 + 2 + 1 + 1) + (2 + 1) + 1 + 5, "p2": 4 + 3 + (3 + 2)}
    assert score["out"] == "p1"
    detail = {d["group"]: d["points"] for d in events[0]["args"]["detail"]}
    assert detail == {"Co. C": 7, "Hump": 3, "Support cards": 1, "Bonus for going out": 5}


def test_cards_left_in_hand_do_not_count():
    """"Cards left in players' hands do not count against them in scoring!\""""
    st = build(hands={"p1": ["brave"], "p2": ["C-commander", "sitting-bull", "banner"]})
    score, _ = _end(st)
    assert score["points"]["p2"] == 0


def test_custer_scores_minus_twenty_unless_he_escaped_and_his_staff_score_either_way():
    """"Custer is -20 unless he escaped during the hand ... Staff Cards used in attempting
    Custer's escape, successful or not, are added to your score"."""
    st = build(hands={"p1": ["brave"]}, tables={
        "p1": [{"key": "custer", "cards": ["custer"], "on": ["bugler", "bugler"]}]})
    score, _ = _end(st)
    assert score["points"]["p1"] == -20 + 2 + 5
    st = build(hands={"p1": ["brave"]}, tables={
        "p1": [{"key": "custer", "cards": ["custer"], "on": ["banner", "bugler", "bugler"], "escaped": True}]})
    score, _ = _end(st)
    assert score["points"]["p1"] == 0 + 4 + 5


def test_special_scoring_braves_village_and_lone_village():
    st = build(hands={"p1": ["brave"]}, tables={
        "p1": [{"key": "bv", "cards": ["brave", "brave", "brave", "village"]}, {"key": "lone", "cards": ["village"]}]})
    score, _ = _end(st)
    assert score["points"]["p1"] == 5 + 1 + 5


def test_totals_add_up_across_hands():
    st = build(hands={"p1": ["brave"]}, tables={"p2": [group("braves", "brave", "brave", "brave")]},
               totals={"p1": 40, "p2": 12})
    new, _, _ = play(st, "DISCARD Brave")
    assert new["totals"] == {"p1": 45, "p2": 15}
    assert [S.score_table(new, p)[0] for p in ("p1", "p2")] == [sum(S.group_points(g) for g in new["tables"][p]) for p in ("p1", "p2")]
