"""The board picture takes the reader's gettext like the other engines' pictures, but it
draws no words (square names and piece codes are the same in French and English): a
French reader's picture is the English one, and ``picture(view)`` without gettext draws
exactly what it drew before pictures could be translated."""

from __future__ import annotations

import hashlib

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


# sha256 of the English PNGs drawn before picture() took a gettext (Pillow 13.0; a Pillow
# that renders text differently changes them: recompute them from that commit's code).
ENGLISH_BEFORE = {
    (3, LC): "5d71af1cf9981de620bd7e6584a386ec895b26b4f58192b19728d61c50c20609",
    (-1, PR): "1158bd0da14f90c2df93862964cc352939b92fe88c7a826242ec566cc3e7fc0b",
}


def test_the_english_picture_is_the_one_drawn_before_translation(engine):
    states = seeded_game(engine)
    for (index, role), digest in ENGLISH_BEFORE.items():
        view = engine.view(states[index], role)
        png = engine.picture(view)
        assert hashlib.sha256(png).hexdigest() == digest, (index, role)
        assert engine.picture(view, gettext=None) == png


def test_every_view_of_a_seeded_game_is_the_same_picture_in_french(engine):
    for state in seeded_game(engine):
        for role in (LC, PR, None, MODERATOR):
            view = engine.view(state, role)
            assert engine.picture(view, FRENCH) == engine.picture(view)
