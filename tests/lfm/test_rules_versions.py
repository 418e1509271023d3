"""`pbem verify` replays a phase with the rules it was resolved with: version 2 (before the
result named its phase and the events were worded in the past tense) is still carried, and
gives what version 3 gives, as version 2 recorded it."""

from pbem.dice import Dice
from pbem.engines.lfm import LastFullMeasureEngine
from pbem.engines.lfm.legacy import V2_MESSAGES

from .test_positions import bot_game

ENGINE = LastFullMeasureEngine()


def test_rules_2_resolve_as_3_without_the_phase_name_and_in_the_old_wording():
    old = ENGINE.rules("2")
    assert old is not None and old.rules_version == "2" and ENGINE.rules("3") is ENGINE and ENGINE.rules("1") is None
    state, _ = bot_game("east_cavalry_field", 3)
    for i in range(4):
        role = ENGINE.phase(state).awaited[0]
        orders = {role: ENGINE.parse_orders(state, role, ENGINE.bot_orders(state, role, Dice(f"{i + 7:02d}" * 32))).orders}
        new_state, new_events = ENGINE.resolve(state, orders, Dice(f"{i + 60:02d}" * 32))
        old_state, old_events = old.resolve(state, orders, Dice(f"{i + 60:02d}" * 32))
        assert new_state["last"]["resolved"]["label"] == ENGINE.phase(state).id
        assert "resolved" not in old_state["last"]
        assert {k: v for k, v in new_state.items() if k != "last"} == {k: v for k, v in old_state.items() if k != "last"}
        assert len(old_events) == len(new_events)
        for new, was in zip(new_events, old_events):
            assert was["msg"] == V2_MESSAGES.get(new["msg"], new["msg"]) and "done" not in was["args"]
            assert was["msg"] not in V2_MESSAGES
        state = new_state
