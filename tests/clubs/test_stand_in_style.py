"""The engines' cautious stand-in (issue 28, ``Engine.bot_orders(..., style=CAUTIOUS_PLAY)``): what
each engine's stand-in leaves out of the random player's orders, and that what it keeps is orders
its own parser takes; the random player's orders are what they were without a style."""

from __future__ import annotations

import pytest

from pbem.dice import Dice
from pbem.engines import all_engines
from pbem.engines.base import CAUTIOUS_PLAY, RANDOM_PLAY, without_orders

#: the order words each engine's stand-in never gives (its bot module documents them)
NEVER_GIVEN = {"acw": ("CHARGE", "COUNTERCHARGE"), "custer": ("ATTACK",), "lfm": ("ATTACK", "CHARGE"),
               "peaux_rouges": ("MELEE", "MÊLÉE"), "rummy": ("PLAY", "STEAL", "RAID")}
#: the engines whose stand-in gives the random player's very lines less those (rummy's chooses anew
#: among the plays it allows itself, since a later meld may need a card an action would have brought)
LINES_LEFT_OUT = ("acw", "custer", "lfm", "peaux_rouges")


def test_without_orders_drops_whole_lines_naming_a_word_and_keeps_comments():
    text = "# ATTACK nothing here\nA MOVE TO 1010\nB ATTACK 1011\n  all attack,\nC CHARGES 0909"
    assert without_orders(text, ("ATTACK",)) == "# ATTACK nothing here\nA MOVE TO 1010\nC CHARGES 0909"


def test_every_installed_engine_has_a_documented_stand_in():
    assert set(NEVER_GIVEN) == set(all_engines()), "a new engine: say what its stand-in leaves out"


@pytest.mark.parametrize("name", sorted(NEVER_GIVEN))
def test_the_cautious_stand_in_gives_the_random_players_orders_less_its_attacks_and_they_parse(name):
    """Seeded bot games of every scenario, 12 phases at most: at each phase, each awaited
    role's cautious orders name no attack word (where the engine's stand-in filters the random
    player's orders, they are its lines in order less those), and its engine's parser takes them
    without an error; the default style is the random player's. Some attack was left out."""
    engine = all_engines()[name]
    words = {w.casefold() for w in NEVER_GIVEN[name]}
    checked = left_out = 0
    setups = ("5e", "a1") if name == "peaux_rouges" else ("5e",)  # its bot games are short
    for scenario, setup_seed in ((s, k) for s in sorted(engine.scenarios()) for k in setups):
        state = engine.setup(scenario, dict(engine.scenarios()[scenario].options), Dice(setup_seed * 32))
        for n in range(12):
            if engine.outcome(state) is not None:
                break
            orders = {}
            for role in engine.phase(state).awaited:
                seed = f"{n:064x}"
                random_text = engine.bot_orders(state, role, Dice(seed))
                assert engine.bot_orders(state, role, Dice(seed), style=RANDOM_PLAY) == random_text
                cautious = engine.bot_orders(state, role, Dice(seed), style=CAUTIOUS_PLAY)
                lines, kept = random_text.splitlines(), cautious.splitlines()
                it = iter(lines)
                assert name not in LINES_LEFT_OUT or all(line in it for line in kept), f"{name}: a line the random player did not write"
                assert not any(words & {w.strip(",;:").casefold() for w in line.split()} for line in kept), cautious
                result = engine.parse_orders(state, role, cautious)
                assert result.errors == [], (name, scenario, n, role, cautious, [e.describe() for e in result.errors])
                checked += 1
                left_out += sum(bool(words & {w.strip(",;:").casefold() for w in line.split()}) for line in lines)
                orders[role] = engine.parse_orders(state, role, random_text).orders
            state, _ = engine.resolve(state, orders, Dice(f"{n + 1000:064x}"))
    assert checked >= 10 and left_out > 0, f"{name}: no attack ever left out in the sample ({checked} orders)"
