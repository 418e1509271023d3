"""The board picture in the reader's language: its title and legend in French for a French
reader; square names and piece codes are the same in French and English, so the board itself
is the English one."""

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


def test_every_view_of_a_seeded_game_draws_its_words_in_french_on_the_same_board(engine):
    import io

    from PIL import Image

    from pbem.engines.pictures import layout_of
    from pbem.engines.peaux_rouges.picture import STRIP, TOP

    for i, state in enumerate(seeded_game(engine)):
        for role in (LC, PR, None, MODERATOR):
            view = engine.view(state, role)
            french, english = engine.pictures(view, FRENCH), engine.pictures(view)
            assert set(french) == set(english)
            words = {x["text"] for x in layout_of(french["map"])["labels"] if x["kind"] in ("title", "legend")}
            assert {"Longs-Couteaux", "le drapeau"} <= words and ("Tour " in " ".join(words) or "Avant le tour" in " ".join(words))
            fr, en = (Image.open(io.BytesIO(png)).convert("RGB") for png in (french["map"], english["map"]))
            board = (0, TOP, fr.width, TOP + 16 * 44 + 44 + STRIP)
            assert fr.crop(board).tobytes() == en.crop(board).tobytes(), (i, role)
        if i > 6:
            break
