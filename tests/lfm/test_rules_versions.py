"""`pbem verify` replays a phase with the rules it was resolved with. Version 3 (the rulebook
clause by clause, issue 24, with the phase named in the result and events in the past tense)
changes what most phases resolve, so version 2 is no longer carried: verify names such phases
instead of replaying them with rules they were not resolved by."""

from pbem.dice import Dice
from pbem.engines.lfm import LastFullMeasureEngine

from .test_positions import bot_game

ENGINE = LastFullMeasureEngine()


def test_only_rules_3_are_carried():
    assert ENGINE.rules_version == "3"
    assert ENGINE.rules("3") is ENGINE
    assert ENGINE.rules("2") is None and ENGINE.rules("1") is None


def test_a_result_names_the_phase_it_resolved():
    state, _ = bot_game("east_cavalry_field", 3)
    for i in range(4):
        phase = ENGINE.phase(state)
        role = phase.awaited[0]
        orders = {role: ENGINE.parse_orders(state, role, ENGINE.bot_orders(state, role, Dice(f"{i + 7:02d}" * 32))).orders}
        state, _ = ENGINE.resolve(state, orders, Dice(f"{i + 60:02d}" * 32))
        assert state["last"]["resolved"]["label"] == phase.id
