"""The four-player team variant: p1 & p3 against p2 & p4."""

from pbem.dice import Dice

from .helpers import ENGINE, build, errors, group, play, table

C3 = ("C-trooper", "C-trooper", "C-guidon")


def test_partners_play_on_each_others_cards():
    """"Players opposite one another at the table are on the same team. They play on one
    another's cards as if they were their own cards"."""
    st = build("teams", hands={"p1": ["C-trooper", "coup-stick", "bugler", "bugler", "village", "scout", "gall"]}, tables={
        "p3": [group("co-C", *C3), {"key": "chief", "cards": ["hump"]}, {"key": "custer", "cards": ["custer"]},
               group("braves", "brave", "brave", "brave")],
        "p2": [group("co-E", "E-trooper", "E-trooper", "E-guidon")]})
    new, events, _ = play(st, "LAYOFF Co. C Trooper\nPLAY Coup Stick ON Hump\nPLAY Bugler, Bugler ON Custer\n"
                              "PLAY Village ON p3's Braves\nLAYOFF Scout ON p3's Co. C")
    p3 = dict((k, v) for k, v in table(new, "p3"))
    assert p3["co-C"][:4] == [*C3, "C-trooper"]  # laid off onto the partner's meld
    assert p3["chief"] == ["hump", "coup-stick"] and p3["custer"] == ["custer", "bugler", "bugler"]
    assert p3["bv"] == ["brave", "brave", "brave", "village"] and p3["co-C"][-1] == "scout(wild)"
    assert ("co-E", ["E-guidon", "E-trooper"]) in table(new, "p1")  # the steal came from p2


def test_team_players_cannot_lay_off_on_opponents_cards():
    """"However, team players are unable to play [lay off] on opponents' cards!\""""
    st = build("teams", hands={"p1": ["E-trooper", "gall"]}, tables={"p2": [group("co-E", "E-trooper", "E-trooper", "E-guidon")]})
    assert errors(st, "LAYOFF Co. E Trooper") == [
        "there is no meld of Co. E on any table you may play on to lay Co. E Trooper off on"]
    assert errors(st, "LAYOFF Co. E Trooper ON p2") == ["in the team game you lay off only on your own side's melds, not on p2's"]


def test_team_scores_are_combined():
    """"...and combine their scores at the end"."""
    st = build("teams", hands={"p1": ["brave"]}, totals={"p1": 61, "p2": 10, "p3": 80, "p4": 20},
               tables={"p3": [group("co-C", *C3)]})
    new, events, _ = play(st, "DISCARD Brave")
    out = ENGINE.outcome(new)
    assert out["winner"] == "p1" and out["args"]["members"] == ["p1", "p3"] and out["args"]["points"] == 66 + 84
    view = ENGINE.view(new, "p2")
    assert view["sides"] == [{"members": ["p1", "p3"], "total": 150}, {"members": ["p2", "p4"], "total": 30}]


def test_sabers_and_coup_sticks_strike_only_the_other_team():
    st = build("teams", hands={"p1": ["sabers", "gall"]}, tables={
        "p2": [group("braves", "brave", "brave")], "p3": [group("braves", "brave", "brave", "brave")],
        "p4": [group("braves", "brave")]})
    new, _, _ = play(st, "PLAY Sabers")
    assert table(new, "p3") == [("braves", ["brave"] * 3)] and table(new, "p2") == [] and table(new, "p4") == []
    assert errors(st, "PLAY Sabers\nRAID p3 BRAVES") == ["Sabers raid only the opponents' tables, not p3's"]


def test_team_turns_go_round_the_table():
    st = ENGINE.setup("teams", {}, Dice("03" * 32))
    order = []
    for i in range(8):
        p = ENGINE.phase(st).awaited[0]
        order.append(p)
        st, _, _ = play(st, ENGINE.order_template(st, p), seed=f"{i:064x}")
    assert order == ["p1", "p2", "p3", "p4"] * 2
