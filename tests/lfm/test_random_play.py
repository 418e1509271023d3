"""Seeded random play: the bot plays both sides of whole East Cavalry Field games by mail, in
the default two-mail mode and the one-mail option: no exception, no stuck phase (every phase
id new), every order text the bot writes parses, the state stays valid after every resolve,
no combat phase runs into the 30-round guard, and every game ends by the turn limit with the
VP the units and objectives give; the same for Gettysburg, 1 July.

The normal suite plays a small sample; the 200-game East Cavalry Field run and the 20-game
Gettysburg run are marked slow and run with
``PBEM_SLOW=1 .venv/bin/python -m pytest tests/lfm -m slow -p no:cacheprovider``."""

import hashlib
import os

import pytest

from pbem.dice import Dice
from pbem.engines.lfm import LastFullMeasureEngine, scenario as scenarios
from pbem.engines.lfm.situation import Context
from pbem.engines.lfm.victory import recount

SCENARIO = "east_cavalry_field"


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def play(engine: LastFullMeasureEngine, game: int, mails: int = 2, scenario: str = SCENARIO,
         phases: int | None = None) -> tuple[dict, int]:
    state = engine.setup(scenario, {"mails": mails}, Dice(seed(scenario, game, mails, "setup")))
    turns = len(scenarios.load(scenario).turns)
    seen = set()
    for _ in range(phases or turns * 4 + 2):
        if engine.outcome(state) is not None:
            return state, len(seen)
        phase = engine.phase(state)
        assert phase.id not in seen, f"stuck on {phase.id}"
        seen.add(phase.id)
        (role,) = phase.awaited
        text = engine.bot_orders(state, role, Dice(seed(scenario, game, mails, phase.id, role)))
        parsed = engine.parse_orders(state, role, text)
        assert parsed.ok, (text, parsed.errors)
        state, events = engine.resolve(state, {role: parsed.orders}, Dice(seed(scenario, game, mails, phase.id)))
        assert engine.validate_state(state) == []
        assert not [e for e in events if e["type"] == "combat_guard"], "a combat phase ran into the round guard"
    if phases:
        return state, len(seen)
    raise AssertionError("the game did not end by the turn limit")


def check_finished(engine, state, scenario: str = SCENARIO):
    outcome = engine.outcome(state)
    assert outcome is not None and outcome["winner"] in ("csa", "usa", None)
    ctx = Context(scenarios.load(scenario), state, None, [])
    assert outcome["scores"] == recount(ctx) == state["vp"]


@pytest.mark.parametrize("game", range(6))
def test_random_games_end_by_the_turn_limit(game):
    engine = LastFullMeasureEngine()
    state, phases = play(engine, game)
    check_finished(engine, state)
    assert phases >= 12  # six turns of two player turns at least


@pytest.mark.parametrize("game", range(2))
def test_random_games_with_one_mail_per_player_turn(game):
    engine = LastFullMeasureEngine()
    state, phases = play(engine, game, mails=1)
    check_finished(engine, state)
    assert phases == 12


def test_the_same_seed_replays_the_same_game():
    engine = LastFullMeasureEngine()
    assert play(engine, 3)[0] == play(engine, 3)[0]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("PBEM_SLOW"), reason="the 200-game run: set PBEM_SLOW=1")
def test_two_hundred_random_games():
    engine = LastFullMeasureEngine()
    winners = {"csa": 0, "usa": 0, None: 0}
    for game in range(200):
        state, _ = play(engine, 1000 + game)
        check_finished(engine, state)
        winners[engine.outcome(state)["winner"]] += 1
    assert sum(winners.values()) == 200


def test_the_first_hours_of_gettysburg_play_without_a_hitch():
    """The big scenario's opening (Buford against Heth, the I Corps coming up): eight phases."""
    state, phases = play(LastFullMeasureEngine(), 0, scenario="gettysburg_july1", phases=8)
    assert phases == 8 and state["turn"] >= 3


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("PBEM_SLOW"), reason="the 20-game Gettysburg run: set PBEM_SLOW=1")
def test_twenty_random_gettysburg_games():
    engine = LastFullMeasureEngine()
    for game in range(20):
        state, _ = play(engine, game, scenario="gettysburg_july1")
        check_finished(engine, state, "gettysburg_july1")
