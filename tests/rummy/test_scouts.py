"""Scouts: melded among themselves, or one as a wild card on a full company."""

from .helpers import build, errors, group, play, table

C3 = ("C-trooper", "C-trooper", "C-guidon")


def test_scout_is_a_wild_card_only_on_a_full_company_meld():
    """"One Scout may be added as a wild card to a full three-card or more company meld
    ... two company members and one scout DOES NOT make a legal meld"."""
    st = build(hands={"p1": ["C-trooper", "C-trooper", "C-guidon", "scout", "gall"]})
    assert errors(st, "MELD Co. C Trooper, Co. C Trooper, Scout") == [
        "a Scout joins only a full company meld: three company cards or more besides the Scout"]
    new, _, _ = play(st, "MELD Co. C Trooper, Co. C Trooper, Co. C Guidon, Scout")
    assert table(new, "p1") == [("co-C", ["C-trooper", "C-trooper", "C-guidon", "scout(wild)"])]
    st = build(hands={"p1": ["scout", "gall"]}, tables={"p1": [group("co-C", *C3)]})
    new, _, res = play(st, "LAYOFF Scout ON Co. C")
    assert res.canonical == "LAYOFF Scout ON Co. C"
    assert table(new, "p1") == [("co-C", ["C-trooper", "C-trooper", "C-guidon", "scout(wild)"])]


def test_only_one_scout_per_company_on_any_table():
    """"Only ONE Scout card per lettered/color Company is allowed on any scoring table"
    (read: one per company across all the tables)."""
    st = build(hands={"p1": ["scout", "gall", "C-commander"]},
               tables={"p2": [group("co-C", *C3, wild=True)], "p1": [group("co-C", "C-trooper", "C-trooper", "C-trooper")]})
    assert errors(st, "LAYOFF Scout ON Co. C") == ["Co. C already has its Scout on a table: one Scout per company"]


def test_scout_joins_a_company_established_on_another_table():
    """"A player may layoff a scout card to a Company if they have or add one of that
    melded lettered/color Company on their own table. That action is only allowed if that
    company has been established on any other players' table, minus a scout"."""
    st = build(hands={"p1": ["scout", "C-commander", "gall"]}, tables={"p2": [group("co-C", *C3)]},
               options={"layoff_to_own_table": True})
    # no Co. C card on p1's own table yet: refused
    assert errors(st, "LAYOFF Scout ON Co. C") == [
        "there is no Co. C card on your table for the Scout to join: lay one down first"]
    # "or add one": lay off a Co. C card, then the Scout beside it (laying off to one's own table)
    new, _, _ = play(st, "LAYOFF Co. C Commander\nLAYOFF Scout ON Co. C")
    assert table(new, "p1") == [("co-C", ["C-commander", "scout(wild)"])]
    # by default a card laid off joins the meld where it lies: the Scout too
    st["options"]["layoff_to_own_table"] = False
    new, _, _ = play(st, "LAYOFF Scout ON p2's Co. C")
    assert table(new, "p2") == [("co-C", [*C3, "scout(wild)"])] and table(new, "p1") == []
    # a company not established (three strong, scout not counted) on any table: refused
    st = build(hands={"p1": ["scout", "gall"]},
               tables={"p1": [group("co-E", "E-trooper")], "p2": [group("co-E", "E-trooper", "E-guidon", wild=True)]})
    assert errors(st, "LAYOFF Scout ON Co. E")[0].startswith("a Scout joins only a full company")


def test_scouts_score_two_in_a_scout_meld_and_one_as_wild_card():
    """"Scouts are counted differently ... 2 pts each in a scout meld, or 1 pt. each if
    added to a company as a wild card"."""
    st = build(hands={"p1": ["scout", "scout", "scout", "scout", "gall"]}, tables={"p1": [group("co-C", *C3)]})
    new, _, _ = play(st, "MELD Scout, Scout, Scout\nLAYOFF Scout ON Co. C")
    from pbem.engines.rummy import state as S
    groups = new["tables"]["p1"]
    assert [S.group_points(g) for g in groups] == [1 + 1 + 2 + 1, 6]


def test_scout_laid_off_on_a_scout_meld():
    st = build(hands={"p1": ["scout", "gall"]}, tables={"p2": [group("scouts", "scout", "scout", "scout")]})
    new, _, _ = play(st, "LAYOFF Scout")
    assert table(new, "p2") == [("scouts", ["scout"] * 4)]
    new, _, _ = play(st, "LAYOFF Scout ON p2's Scouts")
    assert table(new, "p2") == [("scouts", ["scout"] * 4)]


def test_a_scout_joins_another_players_company_only_when_it_is_a_full_meld():
    """"One Scout may be added as a wild card to a full three-card or more company meld": on
    your own side's table it goes beside any card of the company ("if they have or add one");
    on another player's table only onto a full meld of it."""
    st = build("three", hands={"p1": ["scout", "gall"]},
               tables={"p2": [group("co-C", "C-commander")], "p3": [group("co-C", *C3)]})
    assert errors(st, "LAYOFF Scout ON p2's Co. C") == [
        "there is no Co. C card on your table, nor a meld of Co. C on a table you may play on, for the Scout to join"]
    new, _, _ = play(st, "LAYOFF Scout ON Co. C")
    assert table(new, "p3") == [("co-C", [*C3, "scout(wild)"])] and table(new, "p2") == [("co-C", ["C-commander"])]
