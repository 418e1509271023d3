"""The locked Braves/Village meld."""

from pbem.engines.rummy import state as S

from .helpers import build, errors, group, play, table

B3 = ("brave", "brave", "brave")


def test_three_braves_and_a_village_make_a_locked_meld_worth_five():
    """"one Village card may be used as a special card and placed on a meld of three braves
    to protect the Braves, and creating a new four-card locked meld. Played this way, the
    Village scores two points"."""
    st = build(hands={"p1": ["village", "gall"]}, tables={"p1": [group("braves", *B3)]})
    new, _, res = play(st, "PLAY Village ON Braves")
    assert table(new, "p1") == [("bv", ["brave", "brave", "brave", "village"])]
    assert S.group_points(new["tables"]["p1"][0]) == 5
    st = build(hands={"p1": ["brave", "brave", "brave", "village", "gall"]})
    new, _, _ = play(st, "MELD Brave, Brave, Brave, Village")
    assert table(new, "p1") == [("bv", ["brave", "brave", "brave", "village"])]


def test_a_village_locks_exactly_three_braves():
    st = build(hands={"p1": ["village", "gall"]}, tables={"p1": [group("braves", *B3, "brave")]})
    assert errors(st, "PLAY Village ON Braves") == ["a Village locks a meld of exactly three Braves"]
    st = build(hands={"p1": ["village", "gall"]}, tables={"p2": [group("braves", *B3)]})
    assert errors(st, "PLAY Village ON p2's Braves") == ["a Village locks three Braves on your own side's table only"]


def test_locked_meld_takes_no_more_braves_or_villages():
    """"A Brave/Village meld is locked and no more of either card may be added or played
    off. In addition, If these two categories are only melded ... in this special
    combination on any players' table, then a new three-card meld of Braves or Villages
    must be laid down to reintroduce them back to scoring"."""
    st = build(hands={"p1": ["brave", "village", "brave", "brave", "brave", "gall"]},
               tables={"p2": [{"key": "bv", "cards": ["brave", "brave", "brave", "village"]}]})
    assert errors(st, "LAYOFF Brave")[0].startswith("no open meld of Braves to lay off on")
    assert errors(st, "LAYOFF Village")[0].startswith("no meld of Villages to lay off on")
    # a new meld of three Braves brings them back
    new, _, _ = play(st, "MELD Brave, Brave, Brave\nLAYOFF Brave")
    assert table(new, "p1") == [("braves", ["brave"] * 4)]


def test_other_braves_and_village_melds_take_lay_offs():
    """"Otherwise, any players can layoff on Braves and Villages melds not in this special set"."""
    st = build(hands={"p1": ["brave", "village", "gall"]},
               tables={"p2": [group("braves", *B3), group("villages", "village", "village", "village")]})
    new, _, _ = play(st, "LAYOFF Brave, Village")
    assert table(new, "p1") == []
    assert table(new, "p2") == [("braves", ["brave"] * 4), ("villages", ["village"] * 4)]


def test_braves_village_meld_is_immune_to_the_coup_stick():
    """"A Chief and a Coup Stick cannot steal cards from the Braves/Village meld"."""
    st = build(hands={"p1": ["coup-stick", "gall"]}, tables={
        "p1": [{"key": "chief", "cards": ["hump"]}],
        "p2": [{"key": "bv", "cards": ["brave", "brave", "brave", "village"]}]})
    assert errors(st, "PLAY Coup Stick ON Hump\nSTEAL Brave FROM p2")[0].startswith("Brave on p2's table is immune to theft")
    new, events, _ = play(st, "PLAY Coup Stick ON Hump")
    assert table(new, "p2") == [("bv", ["brave", "brave", "brave", "village"])]
