"""Melds and laying off."""

import pytest

from .helpers import ENGINE, build, errors, group, hand, play, table


@pytest.mark.parametrize("cards,key", [
    ("Co. C Trooper, Co. C Trooper, Co. C Guidon", "co-C"),
    ("USA Banner, Bugler, Bugler", "staff"),
    ("Scout, Scout, Scout", "scouts"),
    ("Brave, Brave, Brave, Brave", "braves"),
    ("Village, Village, Village", "villages"),
])
def test_a_meld_is_three_or_more_set_cards_of_one_category(cards, key):
    """"A meld is three or more set cards of the same category (US Cavalry Companies,
    Staff, Scouts, Braves, or Villages)"."""
    kinds = {"co-C": ["C-trooper", "C-trooper", "C-guidon"], "staff": ["banner", "bugler", "bugler"],
             "scouts": ["scout"] * 3, "braves": ["brave"] * 4, "villages": ["village"] * 3}[key]
    st = build(hands={"p1": kinds + ["gall"]})
    new, _, _ = play(st, f"MELD {cards}")
    assert [k for k, _ in table(new, "p1")] == [key]
    assert hand(new, "p1") == ["gall"]


@pytest.mark.parametrize("cards,reason", [
    ("Co. C Trooper, Co. C Trooper", "a meld needs three cards or more"),
    ("Co. C Trooper, Co. C Trooper, Co. E Trooper", "a meld is three or more cards of one category"),
    ("Brave, Brave, Scout", "a meld is three or more cards of one category"),
    ("Gall, Hump, Crow King", "Gall is not a set card"),
])
def test_mixed_or_short_melds_are_refused(cards, reason):
    st = build(hands={"p1": ["C-trooper", "C-trooper", "E-trooper", "brave", "brave", "scout", "gall", "hump", "crow-king", "banner"]})
    (got,) = errors(st, f"MELD {cards}")
    assert got.startswith(reason)


def test_lay_off_on_anyones_melds():
    """"You may also play single cards to add to melds already placed on the table
    [laying off], whether they were placed by you or by another player. For example, you
    may play a Co. C Trooper to your table or if your opponent has a meld of 3 Co. C".
    The card joins the meld where it lies, on that table, and scores there (the house rule
    layoff_to_own_table puts it on the layer's own table instead)."""
    st = build(hands={"p1": ["C-trooper", "E-trooper", "scout"]},
               tables={"p2": [group("co-C", "C-trooper", "C-trooper", "C-guidon")],
                       "p1": [group("co-E", "E-trooper", "E-trooper", "E-guidon")]})
    new, _, _ = play(st, "LAYOFF Co. C Trooper\nLAYOFF Co. E Trooper")
    assert table(new, "p1") == [("co-E", ["E-trooper", "E-trooper", "E-guidon", "E-trooper"])]
    assert table(new, "p2") == [("co-C", ["C-trooper", "C-trooper", "C-guidon", "C-trooper"])]
    new, _, res = play(st, "LAYOFF Co. C Trooper ON p2")
    assert res.canonical == "LAYOFF Co. C Trooper ON p2"
    assert ENGINE.view(new, None)["table_points"] == {"p1": 4, "p2": 5}
    st["options"]["layoff_to_own_table"] = True
    new, _, _ = play(st, "LAYOFF Co. C Trooper ON p2")
    assert ("co-C", ["C-trooper"]) in table(new, "p1")
    assert ENGINE.view(new, None)["table_points"] == {"p1": 5, "p2": 4}


def test_lay_off_needs_a_meld_of_its_kind_on_some_table():
    st = build(hands={"p1": ["C-trooper", "E-trooper", "scout"]},
               tables={"p2": [group("co-C", "C-trooper", "C-trooper")]})
    assert errors(st, "LAYOFF Co. C Trooper") == ["there is no meld of Co. C on any table you may play on to lay Co. C Trooper off on"]
    assert errors(st, "LAYOFF Gall") == ["you do not hold Gall"]


def test_a_player_keeps_a_card_to_discard():
    """"a player CANNOT go out by playing this card to their table": the last card in hand
    is always the discard."""
    st = build(hands={"p1": ["brave", "brave", "brave"]})
    assert errors(st, "MELD Brave, Brave, Brave") == [
        "you must keep a card to discard: a player goes out only by discarding the last card"]


def test_any_number_of_melds_and_lay_offs_in_a_turn():
    """"During the Action Phase you may play as many melds and cards from your hand that
    you may legally play"."""
    st = build(hands={"p1": ["brave"] * 4 + ["scout"] * 3 + ["village"] * 4 + ["gall", "hump"]})
    new, _, _ = play(st, "MELD 4 Braves; MELD Scout x3\nMELD Village, Village, Village; LAYOFF Village\nDISCARD Gall")
    assert [k for k, _ in table(new, "p1")] == ["braves", "scouts", "villages"]
    assert len(table(new, "p1")[2][1]) == 4
    assert new["player"] == "p2"
