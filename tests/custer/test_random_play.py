"""Seeded random play: 200 complete games of each scenario with the bot on both sides, no
exception, no stuck turn, and the invariants hold after every phase (stacking, no unit on an
enemy-held hex, the VP tally equals a recount from the units)."""

import hashlib

import pytest

from pbem.dice import Dice
from pbem.engines.custer import CusterEngine, scenario as scenarios

GAMES = 200


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def scenario_for(name: str) -> str:
    """A shipped scenario: its data must be there (missing data is a failure, not a skip)."""
    assert scenarios.load(name).units, f"scenario {name} places no units"
    return name


def play(engine: CusterEngine, name: str, game: int, impulse: bool = False) -> dict:
    state = engine.setup(name, {"impulse": impulse}, Dice(seed(name, game, "setup")))
    sc = scenarios.load(name)
    seen = set()
    for _ in range(sc.turns * 40):
        if engine.outcome(state) is not None:
            return state
        phase = engine.phase(state)
        assert phase.id not in seen, f"stuck on {phase.id}"
        seen.add(phase.id)
        orders = {}
        for role in phase.awaited:
            text = engine.bot_orders(state, role, Dice(seed(name, game, phase.id, role)))
            parsed = engine.parse_orders(state, role, text)
            assert parsed.ok, (text, parsed.errors)
            orders[role] = parsed.orders
        state, _ = engine.resolve(state, orders, Dice(seed(name, game, phase.id)))
        assert engine.validate_state(state) == []
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("scenario", ["little_bighorn", "rosebud"])
def test_random_games_end_by_the_turn_limit_with_invariants_kept(scenario):
    name = scenario_for(scenario)
    engine = CusterEngine()
    turns = scenarios.load(name).turns
    winners = set()
    for game in range(GAMES):
        state = play(engine, name, game)
        outcome = engine.outcome(state)
        assert state["turn"] <= turns and outcome["scores"] == state["vp"]
        winners.add(outcome["winner"])
    assert winners <= {"us", "indians", None}


@pytest.mark.parametrize("scenario", ["little_bighorn", "rosebud"])
def test_random_games_in_impulse_mode(scenario):
    name = scenario_for(scenario)
    engine = CusterEngine()
    for game in range(10):
        state = play(engine, name, game, impulse=True)
        assert engine.outcome(state) is not None


def test_the_same_seed_replays_the_same_game():
    engine = CusterEngine()
    name = scenario_for("little_bighorn")
    assert play(engine, name, 3) == play(engine, name, 3)


def test_the_bot_writes_pass_enter_at_and_named_leaders_legally():
    """Over a few seeded Little Big Horn games (both modes) the bot uses every new order: PASS on
    a Custer marker, ENTER AT for Benteen's and McDougall's reinforcements, and a leader named
    in an ATTACK ... WITH; every text it writes parses without error (checked in ``play``)."""
    engine = CusterEngine()
    name = scenario_for("little_bighorn")
    texts = []
    real = engine.bot_orders

    def recording(state, role, dice):
        text = real(state, role, dice)
        texts.append(text)
        return text

    engine.bot_orders = recording
    for game in range(4):
        play(engine, name, game)
        play(engine, name, game, impulse=True)
    written = "\n".join(texts)
    leaders = ("Custer", "Reno", "Keogh", "Yates", "Tom Custer", "Benteen", "Weir", "McDougall")
    assert "  PASS" in written and " ENTER AT " in written
    assert any(line.strip().startswith("ATTACK ") and line.rstrip().endswith(leaders) for line in written.splitlines())
