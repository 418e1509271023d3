"""`pbem verify` replays a phase with the rules it was resolved with. Version 3 (the rulebook
clause by clause, issue 24, with the phase named in the result and events in the past tense)
changes what most phases resolve, so version 2 is no longer carried: verify names such phases
instead of replaying them with rules they were not resolved by. Version 4 (issue 25) only adds
to three kinds of event what each roll needed, so version 3 is carried."""

from pbem.dice import Dice
from pbem.engines.lfm import LastFullMeasureEngine

from .test_positions import bot_game

ENGINE = LastFullMeasureEngine()


def test_rules_4_and_3_are_carried():
    assert ENGINE.rules_version == "4"
    assert ENGINE.rules("4") is ENGINE
    assert ENGINE.rules("3").rules_version == "3"
    assert ENGINE.rules("2") is None and ENGINE.rules("1") is None


def test_rules_3_resolve_as_4_with_the_events_as_3_wrote_them():
    """Version 4 only adds what each roll needed (issue 25) to the combat, charge and artillery
    events: version 3 gives the same states, and those events without ``scale`` and ``needs``."""
    old = ENGINE.rules("3")
    state, _ = bot_game("east_cavalry_field", 3)
    seen = set()
    for i in range(10):
        role = ENGINE.phase(state).awaited[0]
        orders = {role: ENGINE.parse_orders(state, role, ENGINE.bot_orders(state, role, Dice(f"{i + 7:02d}" * 32))).orders}
        new, events = ENGINE.resolve(state, orders, Dice(f"{i + 60:02d}" * 32))
        again, old_events = old.resolve(state, orders, Dice(f"{i + 60:02d}" * 32))
        assert again == new and len(events) == len(old_events)
        for ev, was in zip(events, old_events):
            if ev["type"] in ("combat", "charge", "artillery_fire"):
                seen.add(ev["type"])
                assert ev["args"]["needs"] and "needs" not in was["args"] and "%(needs)s" not in was["msg"]
                assert {k: v for k, v in ev["args"].items() if k not in ("scale", "needs")} == was["args"]
            else:
                assert ev == was
        state = new
    assert seen, "no combat, charge or fire in these phases: the check saw nothing"


def test_a_result_names_the_phase_it_resolved():
    state, _ = bot_game("east_cavalry_field", 3)
    for i in range(4):
        phase = ENGINE.phase(state)
        role = phase.awaited[0]
        orders = {role: ENGINE.parse_orders(state, role, ENGINE.bot_orders(state, role, Dice(f"{i + 7:02d}" * 32))).orders}
        state, _ = ENGINE.resolve(state, orders, Dice(f"{i + 60:02d}" * 32))
        assert state["last"]["resolved"]["label"] == phase.id
