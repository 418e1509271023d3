"""Custer's escape: Staff worth four points on him, unless the Sundance came first."""

from pbem.engines.rummy import state as S

from .helpers import build, errors, play, table, texts

CUSTER = {"key": "custer", "cards": ["custer"]}


def test_staff_played_on_custer_make_him_escape_at_four_points():
    """"A combination of four points using the USA Banner and/or Buglers permits Custer's
    escape"; "may be played one at a time or as a meld on Custer"."""
    st = build(hands={"p1": ["banner", "bugler", "bugler", "gall"]}, tables={"p1": [CUSTER]})
    new, events, _ = play(st, "PLAY Bugler ON Custer")
    assert not new["tables"]["p1"][0]["escaped"]
    st2 = build(hands={"p1": ["banner", "bugler", "bugler", "gall"]}, tables={"p1": [CUSTER]})
    new, events, _ = play(st2, "MELD USA Banner, Bugler, Bugler ON Custer")
    custer = new["tables"]["p1"][0]
    assert custer["escaped"] and any("Custer escapes" in t for t in texts(events))
    assert S.group_points(custer) == 0 + 2 + 1 + 1
    st3 = build(hands={"p1": ["bugler"] * 4 + ["gall"]}, tables={"p1": [CUSTER]})
    new, _, _ = play(st3, "PLAY Bugler ON Custer; PLAY Bugler ON Custer\nPLAY 2 Buglers ON Custer")
    assert new["tables"]["p1"][0]["escaped"]


def test_sundance_played_first_prevents_the_escape():
    """"When the Sundance card is played by the owner of Sitting Bull, the escape of
    Custer, if not already accomplished, will is no longer be possible"."""
    st = build(hands={"p1": ["banner", "bugler", "bugler", "gall"]}, tables={
        "p1": [CUSTER], "p2": [{"key": "chief", "cards": ["sitting-bull"], "on": ["sundance"]}]}, sundance=True)
    new, events, _ = play(st, "PLAY USA Banner, Bugler, Bugler ON Custer")
    custer = new["tables"]["p1"][0]
    assert not custer["escaped"]
    assert S.group_points(custer) == -20 + 4  # "Staff Cards used in attempting Custer's escape, successful or not"


def test_an_escape_made_before_the_sundance_stands():
    st = build(hands={"p2": ["sundance", "gall"], "p1": ["hump"]}, player="p2", tables={
        "p1": [{"key": "custer", "cards": ["custer"], "on": ["banner", "bugler", "bugler"], "escaped": True}],
        "p2": [{"key": "chief", "cards": ["sitting-bull"]}]})
    new, events, _ = play(st, "PLAY Sundance ON Sitting Bull")
    assert new["sundance"] and new["tables"]["p1"][0]["escaped"]


def test_staff_go_on_your_own_custer():
    st = build(hands={"p1": ["bugler", "gall"]}, tables={"p2": [CUSTER]})
    assert errors(st, "PLAY Bugler ON Custer") == ["there is no Custer on your table"]
    assert errors(st, "PLAY Bugler ON p2's Custer") == ["you play on Custer only on your own table"]


def test_custer_counts_minus_twenty_unless_he_escaped():
    """"Custer is -20 unless he escaped during the hand"."""
    assert S.group_points({"key": "custer", "cards": ["custer"], "on": [], "escaped": False}) == -20
    assert S.group_points({"key": "custer", "cards": ["custer"], "on": ["bugler-1"], "escaped": False}) == -19
    assert S.group_points({"key": "custer", "cards": ["custer"], "on": ["bugler-1", "banner", "bugler-2"], "escaped": True}) == 4


def test_staff_stolen_off_custer_delay_his_escape_but_never_undo_one():
    """"it is possible to steal one or more of their Staff with Chief / Coup Stick card
    combinations": Staff stolen before the escape must be made up again (the thief keeps
    them with his own Staff); "Custer is -20 unless he escaped during the hand", so an
    escape already made stands when its Staff are stolen."""
    chief = {"key": "chief", "cards": ["hump"]}
    st = build(hands={"p2": ["coup-stick", "gall", "scout"], "p1": ["bugler", "bugler", "brave"]}, player="p2", tables={
        "p1": [{"key": "custer", "cards": ["custer"], "on": ["banner", "bugler"]}], "p2": [chief]})
    new, _, _ = play(st, "PLAY Coup Stick ON Hump\nSTEAL USA Banner FROM p1\nDISCARD Gall")
    assert new["tables"]["p1"][0]["on"][0].startswith("bugler") and ("staff", ["banner"]) in table(new, "p2")
    new["player"], new["turn"] = "p1", dict(S.new_turn(), stage="play")
    new, _, _ = play(new, "PLAY Bugler, Bugler ON Custer")  # 3 points: not yet
    assert not new["tables"]["p1"][0]["escaped"]
    escaped = build(hands={"p2": ["coup-stick", "gall"], "p1": ["brave"]}, player="p2", tables={
        "p1": [{"key": "custer", "cards": ["custer"], "on": ["banner", "bugler", "bugler"], "escaped": True}], "p2": [chief]})
    new, _, _ = play(escaped, "PLAY Coup Stick ON Hump\nSTEAL USA Banner FROM p1")
    custer = new["tables"]["p1"][0]
    assert custer["escaped"] and S.group_points(custer) == 2
