"""The board picture takes the reader's gettext like the other engines' pictures, but it
draws no words (square names and piece codes are the same in French and English): a
French reader's picture is the English one."""

from __future__ import annotations

from pbem.dice import Dice
from pbem.engines.base import MODERATOR
from pbem.i18n import gettext_for

from .conftest import LC, PR, seed

FRENCH = gettext_for("fr")


def seeded_game(engine) -> list[dict]:
    """Every state of one seeded bot game, from the setup to the end."""
    state = engine.setup("little_big_horn", {}, Dice(seed("picture", "setup")))
    states = [state]
    while engine.outcome(state) is None:
        phase = engine.phase(state)
        role = phase.awaited[0]
        parsed = engine.parse_orders(state, role, engine.bot_orders(state, role, Dice(seed("picture", phase.id, role))))
        state, _ = engine.resolve(state, {role: parsed.orders}, Dice(seed("picture", phase.id)))
        states.append(state)
    return states


def test_without_gettext_the_picture_is_the_same(engine):
    """``picture(view)`` and ``picture(view, gettext=None)`` draw the same board."""
    states = seeded_game(engine)
    for index, role in ((3, LC), (-1, PR)):
        view = engine.view(states[index], role)
        assert engine.picture(view, gettext=None) == engine.picture(view)


def test_every_view_of_a_seeded_game_is_the_same_picture_in_french(engine):
    for state in seeded_game(engine):
        for role in (LC, PR, None, MODERATOR):
            view = engine.view(state, role)
            assert engine.picture(view, FRENCH) == engine.picture(view)
