"""Chiefs, Coup Sticks and their steal, the Sundance."""

from pbem.engines.rummy import coup_sticks

from .helpers import build, errors, group, play, table, texts

C3 = ("C-trooper", "C-trooper", "C-guidon")


def test_chiefs_are_played_as_single_cards():
    """"Chief cards may be played as a single card to the table"."""
    st = build(hands={"p1": ["gall", "hump", "brave"]})
    new, _, _ = play(st, "PLAY Gall\nPLAY Hump")
    assert table(new, "p1") == [("chief", ["gall"]), ("chief", ["hump"])]
    assert errors(st, "MELD Gall, Hump, Brave")[0].startswith("Gall is not a set card")


def test_one_coup_stick_per_chief_and_none_on_sitting_bull():
    """"Coup Stick cards may be played on any Chief card except Sitting Bull, one Coup
    Stick per Chief"."""
    st = build(hands={"p1": ["coup-stick", "coup-stick", "brave"]}, tables={
        "p1": [{"key": "chief", "cards": ["sitting-bull"]}, {"key": "chief", "cards": ["gall"], "on": ["coup-stick"]}]})
    assert errors(st, "PLAY Coup Stick ON Sitting Bull") == ["a Coup Stick may not be played on Sitting Bull"]
    assert errors(st, "PLAY Coup Stick ON Gall") == ["Gall already has a Coup Stick: one per Chief"]


def test_coup_stick_only_on_a_chief_on_your_own_table():
    """"Can only be played on an open Chief (one without a Coup Stick) on a player's OWN table"."""
    st = build(hands={"p1": ["coup-stick", "brave"]}, tables={"p2": [{"key": "chief", "cards": ["gall"]}]})
    assert errors(st, "PLAY Coup Stick ON Gall") == ["there is no Gall on your table"]
    assert errors(st, "PLAY Coup Stick ON p2's Gall") == ["you play on Gall only on your own table"]


def test_chief_and_coup_stick_in_the_same_turn_steal_three_points_at_once():
    """"A Coup Stick can be played during the same Action Phase as the Chief is played";
    it allows "stealing three points worth of cards (3) from ANY player's table, moving
    them to his own. This action is a one-time action and is taken immediately"."""
    st = build(hands={"p1": ["gall", "coup-stick", "brave"]}, tables={
        "p2": [group("co-C", "C-commander", "C-trooper", "C-trooper", "C-guidon")]})
    new, events, res = play(st, "PLAY Gall\nPLAY Coup Stick ON Gall\nSTEAL Co. C Guidon, Co. C Trooper FROM p2")
    assert res.canonical.splitlines()[-1] == "STEAL Co. C Guidon, Co. C Trooper FROM p2"
    assert table(new, "p2") == [("co-C", ["C-commander", "C-trooper"])]
    assert table(new, "p1") == [("chief", ["gall", "coup-stick"]), ("co-C", ["C-guidon", "C-trooper"])]
    assert "p1 steals Co. C Guidon, Co. C Trooper (3 points) from p2's table." in texts(events, "p2")
    assert errors(st, "PLAY Gall\nPLAY Coup Stick ON Gall\nSTEAL Co. C Commander, Co. C Trooper FROM p2") == [
        "a Coup Stick steals at most three points' worth of cards (these are worth 4)"]


def test_the_steal_defaults_to_the_most_points_it_can_take():
    """By mail: when the orders name nothing to steal, the server takes the most points up
    to three (fewest cards first), from the opponent where that is most, then from the one
    with the highest score."""
    tables = {"p1": [{"key": "chief", "cards": ["hump"]}],
              "p2": [group("braves", "brave", "brave"), group("co-C", "C-guidon")],
              "p3": [group("co-E", "E-trooper", "E-trooper", "E-commander")]}
    st = build("three", hands={"p1": ["coup-stick", "brave"]}, tables=tables)
    new, events, _ = play(st, "PLAY Coup Stick ON Hump")
    assert table(new, "p3") == [("co-E", ["E-trooper", "E-trooper"])]
    assert ("co-E", ["E-commander"]) in table(new, "p1")
    tables["p3"] = [group("co-E", "E-trooper", "E-trooper")]
    st = build("three", hands={"p1": ["coup-stick", "brave"]}, tables=tables, totals={"p1": 0, "p2": 10, "p3": 30})
    new, events, _ = play(st, "PLAY Coup Stick ON Hump")
    assert table(new, "p2") == [("braves", ["brave"])]  # 2 + 1 from p2: more than p3's two troopers


def test_the_steal_is_limited_to_what_the_table_holds():
    """"If the opponent does not have a total of three points the stealing player is
    limited to only the points on the table if any"."""
    st = build(hands={"p1": ["coup-stick", "brave"]}, tables={
        "p1": [{"key": "chief", "cards": ["hump"]}], "p2": [group("braves", "brave")]})
    new, events, _ = play(st, "PLAY Coup Stick ON Hump")
    assert table(new, "p2") == [] and ("braves", ["brave"]) in table(new, "p1")
    st = build(hands={"p1": ["coup-stick", "brave"]}, tables={"p1": [{"key": "chief", "cards": ["hump"]}]})
    new, events, _ = play(st, "PLAY Coup Stick ON Hump")
    assert "There is nothing p1 may steal." in texts(events)


def test_steal_immunities_braves_village_meld_and_chief_with_coup_stick():
    """"There are two groups of cards that cannot be stolen using a Chief/Coup Stick
    combination: A meld of Braves with a Village is immune to theft; another Chief with a
    Coup Stick is immune to theft". Custer himself is no "points worth" to take; the Staff
    on him may be stolen ("it is possible to steal one or more of their Staff"), unless the
    house rule custer_staff_immune is played; an open Chief may be taken."""
    st = build(hands={"p1": ["coup-stick", "brave"]}, tables={
        "p1": [{"key": "chief", "cards": ["hump"]}],
        "p2": [{"key": "bv", "cards": ["brave", "brave", "brave", "village"]},
               {"key": "chief", "cards": ["gall"], "on": ["coup-stick"]},
               {"key": "custer", "cards": ["custer"], "on": ["bugler"]},
               {"key": "chief", "cards": ["two-moons"]}]})
    assert errors(st, "PLAY Coup Stick ON Hump\nSTEAL Gall FROM p2")[0].startswith("Gall on p2's table is immune")
    assert errors(st, "PLAY Coup Stick ON Hump\nSTEAL Custer FROM p2")[0].startswith("Lt. Col. Custer on p2's table is immune")
    assert {u["kind"] for u in coup_sticks.stealable(st, "p2")} == {"two-moons", "bugler"}
    st["options"]["custer_staff_immune"] = True
    assert errors(st, "PLAY Coup Stick ON Hump\nSTEAL Bugler FROM p2")[0].startswith("Bugler on p2's table is immune")
    assert {u["kind"] for u in coup_sticks.stealable(st, "p2")} == {"two-moons"}
    new, _, _ = play(st, "PLAY Coup Stick ON Hump\nSTEAL Two Moons FROM p2")
    assert ("chief", ["two-moons"]) in table(new, "p1")


def test_steal_from_any_other_players_table():
    """"stealing three points worth of cards (3) from ANY player's table, moving them to his
    own": in the team game the partner's table too (not under the house rule
    steal_from_opponents_only); never one's own. Left to the server, the steal comes from
    the other team (moving a partner's cards gains the team nothing)."""
    st = build("teams", hands={"p1": ["coup-stick", "brave"]}, tables={
        "p1": [{"key": "chief", "cards": ["hump"]}], "p3": [group("braves", "brave", "brave", "brave")],
        "p2": [group("braves", "brave")]})
    assert errors(st, "PLAY Coup Stick ON Hump\nSTEAL Brave FROM p3") == []
    assert errors(st, "PLAY Coup Stick ON Hump\nSTEAL Brave FROM p1") == ["a Coup Stick steals from another player's table"]
    new, _, _ = play(st, "PLAY Coup Stick ON Hump")
    assert table(new, "p2") == [] and table(new, "p3") == [("braves", ["brave"] * 3)]
    st["options"]["steal_from_opponents_only"] = True
    assert errors(st, "PLAY Coup Stick ON Hump\nSTEAL Brave FROM p3") == ["a Coup Stick steals from an opponent's table"]


def test_steal_nothing_is_allowed():
    st = build(hands={"p1": ["coup-stick", "brave"]}, tables={
        "p1": [{"key": "chief", "cards": ["hump"]}], "p2": [group("braves", "brave", "brave", "brave")]})
    new, events, _ = play(st, "PLAY Coup Stick ON Hump; STEAL NOTHING")
    assert table(new, "p2") == [("braves", ["brave"] * 3)]


def test_sundance_only_on_sitting_bull():
    """"The Sundance card may be played ONLY on the Chief Sitting Bull card"."""
    st = build(hands={"p1": ["sundance", "brave"]}, tables={"p1": [{"key": "chief", "cards": ["gall"]}]})
    assert errors(st, "PLAY Sundance ON Gall") == ["the Sundance is played only on Sitting Bull"]
    assert errors(st, "PLAY Sundance") == ["there is no Sitting Bull on your table"]
    st = build(hands={"p1": ["sundance", "brave"]}, tables={"p1": [{"key": "chief", "cards": ["sitting-bull"]}]})
    new, _, _ = play(st, "PLAY Sundance ON Sitting Bull")
    assert table(new, "p1") == [("chief", ["sitting-bull", "sundance"])] and new["sundance"]
