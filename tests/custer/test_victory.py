"""Victory: points per eliminated or exited unit, win_by, tie, sudden death."""

import copy

from pbem.engines.custer import CusterEngine, scenario as scenarios
from pbem.engines.custer.situation import Context
from pbem.engines.custer.victory import check_sudden_death, final_winner, recount

from .fragments import DEFAULT_VICTORY, ScriptedDice, fragment, new_state

UNITS = [{"id": "custer", "name": "Custer", "side": "us", "type": "us_leader", "cf": [3, 0], "hex": "0101"},
         {"id": "a", "name": "Co. A", "side": "us", "type": "cavalry", "cf": [5, 3], "hex": "0102"},
         {"id": "w", "name": "w", "side": "indians", "type": "warriors", "tribe": "oglala", "cf": [4, 2], "hex": "0808"},
         {"id": "v", "name": "v", "side": "indians", "type": "village", "tribe": "oglala", "cf": [1, 1], "hex": "0807"}]


def test_points_per_eliminated_enemy_unit_and_exited_own_unit():
    """Data format: ``eliminate[type]`` scores for each enemy unit of that type eliminated (a hit
    US leader counts); ``exit[type]`` for each own unit that leaves by an exit."""
    name = fragment("vp_case", units=UNITS)
    state = new_state(name)
    state["units"]["custer"]["reduced"] = True
    state["units"]["w"].update(status="eliminated", hex=None)
    state["units"]["v"].update(status="exited", hex=None)
    assert recount(scenarios.load(name), state) == {"us": 1, "indians": 3 + 2}


def test_win_by_and_tie():
    """"At the end of the last turn the side ahead by at least `win_by` wins; otherwise `tie` names the winner." """
    victory = copy.deepcopy(DEFAULT_VICTORY)
    victory["win_by"] = 3
    victory["tie"] = None
    sc = scenarios.load(fragment("vp_tie", units=UNITS, victory=victory))
    assert final_winner(sc, {"us": 5, "indians": 2}) == "us"
    assert final_winner(sc, {"us": 4, "indians": 2}) is None
    assert final_winner(sc, {"us": 0, "indians": 3}) == "indians"


def test_sudden_death_when_every_us_leader_is_eliminated():
    """Data format: ``"sudden_death": [{"side": "indians", "if": "all_us_leaders_eliminated"}]``."""
    victory = copy.deepcopy(DEFAULT_VICTORY)
    victory["sudden_death"] = [{"side": "indians", "if": "all_us_leaders_eliminated"}]
    name = fragment("vp_sudden", units=UNITS, victory=victory)
    state = new_state(name)
    ctx = Context(scenarios.load(name), state, ScriptedDice(), [])
    assert not check_sudden_death(ctx)
    state["units"]["custer"]["reduced"] = True
    state["vp"]["indians"] = 3
    assert check_sudden_death(ctx)
    outcome = CusterEngine().outcome(state)
    assert outcome["winner"] == "indians" and outcome["scores"] == {"us": 0, "indians": 3}
    assert CusterEngine().phase(state).awaited == ()
