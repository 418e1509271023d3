"""How the battle ends."""

from pbem.engines.peaux_rouges import messages as M

from .conftest import LC, PR, position, run


def test_long_knives_win_by_killing_the_three_chiefs(engine):
    """"La partie sera gagnée par les LONGS-COUTEAUX ... s'ils parviennent à éliminer les trois Indiens
    (c'est-à-dire les cavaliers avec un fusil)"."""
    state = position({"S1": "F9", "C": "A2", "CH1": "F6", "I1": "L1"}, bystanders=False)
    new, events = run(engine, state, "FIRE S1 AT CH1", rolls={"attacker": 6, "target": 1})
    out = engine.outcome(new)
    assert out["winner"] == LC and out["summary"] == M.WIN_LC_CHIEFS
    assert engine.phase(new).awaited == () and engine.phase(new).id == "OVER"
    assert out["scores"] == {LC: 1, PR: 0}


def test_killing_other_indians_does_not_win(engine):
    state = position({"S1": "F9", "C": "A2", "CH1": "L1", "I1": "F6"}, bystanders=False)
    new, _ = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 6, "target": 1})
    assert engine.outcome(new) is None


def test_long_knives_win_by_carrying_the_flag_onto_a_blue_arrow_square(engine):
    """"soit en plaçant le drapeau dans l'une quelconque des deux cases indiquées par une flèche bleue"."""
    state = position({"S1": "B2", "CH1": "L9"}, flag="B2")
    new, events = run(engine, state, "MOVE S1 B1 WITH FLAG")
    out = engine.outcome(new)
    assert out["winner"] == LC and out["summary"] == M.WIN_LC_FLAG and out["args"] == {"square": "B1"}
    # the soldier alone on the arrow does not win
    new, _ = run(engine, state, "MOVE S1 B1")
    assert engine.outcome(new) is None


def test_indians_win_by_killing_custer_and_his_officers(engine):
    """"par les PEAUX-ROUGES, soit en éliminant le Général CUSTER et ses [officiers]"."""
    state = position({"C": "F9", "S1": "A5", "I1": "F6", "CH1": "L1"}, side=PR, bystanders=False)
    new, _ = run(engine, state, "FIRE I1 AT C", rolls={"attacker": 6, "target": 1})
    out = engine.outcome(new)
    assert out["winner"] == PR and out["summary"] == M.WIN_PR_LEADERS
    # Custer dead but an officer alive: the fight goes on
    state = position({"C": "F9", "O1": "A5", "I1": "F6", "CH1": "L1"}, side=PR, bystanders=False)
    new, _ = run(engine, state, "FIRE I1 AT C", rolls={"attacker": 6, "target": 1})
    assert engine.outcome(new) is None


def test_indians_win_by_entering_the_flags_square_when_no_soldier_holds_it(engine):
    """"soit en conquérant le drapeau (c'est-à-dire en s'introduisant dans la case où il se trouve)"."""
    state = position({"S1": "A5", "I1": "F7", "C": "K9"}, side=PR, flag="F8")
    new, events = run(engine, state, "MOVE I1 F8")
    out = engine.outcome(new)
    assert out["winner"] == PR and out["summary"] == M.WIN_PR_FLAG
    assert out["args"] == {"piece": "I1", "square": "F8"}
    # a rider cannot ride through the unguarded flag: entering its square takes it
    from pbem.engines.peaux_rouges.rules import Match

    for flag, expected in ((None, True), ("C3", False)):
        state = position({"S1": "A5", "CH1": "C5", "C": "K9"}, side=PR, flag=flag)
        m = Match.from_state(state)
        reach = {m.board.name_of(s) for s in m.rider_reach("CH1")}
        assert "C3" in reach and ("C2" in reach) is expected


def test_the_flag_is_taken_by_winning_the_melee_for_its_square(engine):
    """A melee winner entering the flag's square takes it (the engine never declines that advance)."""
    state = position({"S1": "F8", "T1": "F7", "C": "K9"}, side=PR, flag="F8")
    new, events = run(engine, state, "MELEE T1 AT S1", rolls={"attacker": 6, "target": 1})
    out = engine.outcome(new)
    assert out["winner"] == PR and out["summary"] == M.WIN_PR_FLAG and new["pieces"]["T1"] == "F8"


def test_a_guarded_flag_cannot_be_entered(engine):
    state = position({"C": "F8", "I1": "F7"}, side=PR, flag="F8")
    assert not engine.parse_orders(state, PR, "MOVE I1 F8").ok


def test_otherwise_a_draw_at_the_scenarios_turn_limit(engine):
    """"Tout autre résultat donnera lieu à un match nul"; the sheet has no turn limit, the scenario sets one."""
    state = position({"S1": "F9", "I1": "A5"}, side=PR, turn=5, turn_limit=5)
    new, events = engine.resolve(state, {PR: engine.default_orders(state, PR)}, None)
    out = engine.outcome(new)
    assert out["winner"] is None and out["summary"] == M.DRAW and out["args"] == {"turns": 5}
    assert out["scores"] == {LC: 0.5, PR: 0.5}
    # the Long Knives' half of the last turn does not end it
    state = position({"S1": "F9", "I1": "A5"}, side=LC, turn=5, turn_limit=5)
    new, _ = engine.resolve(state, {LC: engine.default_orders(state, LC)}, None)
    assert engine.outcome(new) is None and engine.phase(new).id == "T5.PR"


def test_scenario_turn_limit_is_stated_and_can_be_changed(engine):
    sc = engine.scenarios()["little_big_horn"]
    limit = sc.options["turn_limit"]
    assert engine.setup("little_big_horn", {}, None)["turn_limit"] == limit
    assert engine.setup("little_big_horn", {"turn_limit": 8}, None)["turn_limit"] == 8


def test_the_game_stops_at_the_moment_of_victory(engine):
    """Once the last chief falls, the remaining shots are not fired."""
    state = position({"S1": "F9", "S2": "G9", "C": "A2", "CH1": "F6", "I1": "G6"}, bystanders=False)
    new, events = run(engine, state, "FIRE S1 AT CH1\nFIRE S2 AT I1", rolls=[6, 1, 6, 1])
    assert [e["args"]["attacker"] for e in events if e["type"] == "duel"] == ["S1"]
    assert events[-1]["type"] == "outcome"
