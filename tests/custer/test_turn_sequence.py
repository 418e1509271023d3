"""The turn: draw limits, the cup, set-aside markers, the pool for the next turn, the turn limit."""

from pbem.engines.custer import CusterEngine

from .fragments import ScriptedDice, fragment, of_type, play_turn


def cav(uid, hex_):
    return {"id": uid, "name": uid, "side": "us", "type": "cavalry", "cf": [5, 3], "hex": hex_, "mounted": True}


def warrior(uid, hex_, tribe):
    return {"id": uid, "name": uid, "side": "indians", "type": "warriors", "tribe": tribe, "cf": [4, 2], "hex": hex_}


def leader(uid, hex_):
    return {"id": uid, "name": uid.title(), "side": "us", "type": "us_leader", "cf": [2, 0], "hex": hex_}


UNITS = [leader("custer", "0101"), leader("reno", "0103"), cav("a", "0102"),
         warrior("h", "0808", "hunkpapa"), warrior("o", "0807", "oglala"), warrior("c", "0806", "cheyenne")]


def test_draw_limits_come_from_the_scenario_each_turn():
    """"Determine how many activation marker draws each side will draw for the turn." """
    name = fragment("seq_limits", units=UNITS, draws={"us": [1, 2], "indians": [3, 0]}, turns=2)
    state, events = play_turn(name, {}, shuffle_cup=True)
    assert of_type(events, "turn")[0]["args"]["turn"] == 2 and state["draws"] == {"us": 2, "indians": 0}
    firsts = [e for e in events if e["type"] == "draw"]
    assert sorted(e["args"]["side"] for e in firsts) == ["indians", "indians", "indians", "us"]


def test_markers_are_drawn_one_at_a_time_by_the_dice():
    """"Draw the activation markers one at a time from the cup" — each draw rolls under its own
    label ("T1 cup draw 1", ...), so the order replays from the seed."""
    name = fragment("seq_draws", units=UNITS, draws={"us": [2], "indians": [3]}, turns=1)
    engine = CusterEngine()
    s0 = engine.setup(name, {}, ScriptedDice(shuffle_cup=True))
    runs = [engine.resolve(s0, {}, ScriptedDice(shuffle_cup=True)) for _ in range(2)]
    order = [[e["args"]["marker"] for e in ev if e["type"] == "draw"] for _, ev in runs]
    assert order[0] == order[1] and len(order[0]) == 5
    labels = [e["args"]["label"] for e in runs[0][1] if e["type"] in ("draw", "set_aside")]
    assert labels == [f"T1 cup draw {i}" for i in range(1, len(labels) + 1)]


def test_marker_of_a_side_at_its_limit_is_set_aside():
    """"Once a limit has been reached any activation markers drawn are ignored and set aside until
    the next turn." """
    name = fragment("seq_aside", units=UNITS, draws={"us": [1, 1], "indians": [1, 1]}, turns=2)
    # scenario order of the markers: Custer, Reno, Cheyenne, Hunkpapa, Oglala; each draw takes the first left
    state, events = play_turn(name, {})
    kinds = [(e["type"], e["args"]["marker"]) for e in events if e["type"] in ("draw", "set_aside")]
    assert kinds == [("draw", "m_custer"), ("set_aside", "m_reno"), ("draw", "m_cheyenne")]


def test_markers_not_drawn_stay_in_the_cup_and_every_marker_is_in_next_turns_pool():
    """"Any activation markers not drawn because of limits remain in the cup. They are not used
    for the current turn but will be part of the activation pool for the next turn." Reading:
    the next turn's cup holds every marker (step 1 places ALL markers in the cup), the ones set
    aside and the ones never drawn alike."""
    name = fragment("seq_pool", units=UNITS, draws={"us": [1, 1], "indians": [1, 1]}, turns=2)
    engine = CusterEngine()
    s0 = engine.setup(name, {}, ScriptedDice())
    s1, events = engine.resolve(s0, {}, ScriptedDice())
    end = of_type(events, "end_turn")[0]["args"]
    assert (end["left"], end["aside"]) == (2, 1)  # Hunkpapa and Oglala never drawn, Reno set aside
    assert sorted(s1["cup"]) == sorted(["m_custer", "m_reno", "m_cheyenne", "m_hunkpapa", "m_oglala"])


def test_a_marker_that_activates_nobody_is_set_aside():
    """"If not usable, set aside and draw another activation marker until one drawn is eligible." """
    units = [u for u in UNITS if u["id"] != "c"] + [warrior("c", "0806", "cheyenne")]
    name = fragment("seq_unusable", units=units, draws={"us": [0], "indians": [1]}, turns=1)
    engine = CusterEngine()
    s0 = engine.setup(name, {}, ScriptedDice())
    s0["units"]["c"]["status"] = "eliminated"
    s0["units"]["c"]["hex"] = None
    s0["vp"]["us"] = 1
    _, events = engine.resolve(s0, {}, ScriptedDice())
    aside = [e["args"] for e in of_type(events, "set_aside")]
    assert {"marker": "m_cheyenne", "reason": "no_units"}.items() <= aside[-1].items()
    assert of_type(events, "draw")[0]["args"]["marker"] == "m_hunkpapa"


def test_markers_join_the_cup_from_their_turn():
    """Scenario data: a marker with ``from_turn`` joins the cup on that turn."""
    markers = [{"id": "m_custer", "name": "Custer", "side": "us", "leader": "custer", "units": 3},
               {"id": "m_reno", "name": "Reno", "side": "us", "leader": "reno", "units": 3, "from_turn": 2},
               {"id": "m_hunkpapa", "name": "Hunkpapa", "side": "indians", "tribe": "hunkpapa"}]
    name = fragment("seq_join", units=UNITS, markers=markers, turns=2)
    engine = CusterEngine()
    s0 = engine.setup(name, {}, ScriptedDice())
    assert s0["cup"] == ["m_custer", "m_hunkpapa"]
    s1, _ = engine.resolve(s0, {}, ScriptedDice())
    assert s1["cup"] == ["m_custer", "m_reno", "m_hunkpapa"]


def test_the_game_ends_after_the_last_turn():
    """The scenario's ``turns``: after the last one the side ahead by ``win_by`` VP wins, else ``tie``."""
    name = fragment("seq_end", units=UNITS, turns=2)
    engine = CusterEngine()
    state = engine.setup(name, {}, ScriptedDice())
    assert engine.phase(state).id == "T1"
    state, _ = engine.resolve(state, {}, ScriptedDice())
    assert engine.phase(state).id == "T2" and engine.outcome(state) is None
    state, events = engine.resolve(state, {}, ScriptedDice())
    assert engine.phase(state).id == "END" and engine.phase(state).awaited == ()
    out = engine.outcome(state)
    assert out["winner"] == "indians" and out["scores"] == {"us": 0, "indians": 0}
    assert of_type(events, "game_over")


def test_a_second_leader_marker_with_nobody_left_is_set_aside():
    """"If not usable, set aside": a leader's second marker, drawn after he and every unit in
    reach have acted, activates nobody and does not count toward the limit."""
    markers = [{"id": f"m_custer_{i}", "name": "Custer", "side": "us", "leader": "custer", "units": 3} for i in (1, 2)]
    markers.append({"id": "m_hunkpapa", "name": "Hunkpapa", "side": "indians", "tribe": "hunkpapa"})
    units = [leader("custer", "0101"), cav("a", "0102"), warrior("h", "0808", "hunkpapa")]
    name = fragment("seq_spent_leader", units=units, markers=markers, draws={"us": [2], "indians": [0]}, turns=1)
    _, events = play_turn(name, {"us": "ON Custer 1:\nALL MOVE TO 0105"})
    assert [e["args"]["marker"] for e in of_type(events, "draw")] == ["m_custer_1"]
    assert ("m_custer_2", "no_units") in [(e["args"]["marker"], e["args"]["reason"]) for e in of_type(events, "set_aside")]
