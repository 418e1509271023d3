"""The table picture in the reader's language: title, captions and labels in French for a
French reader, card names as players write them; ``picture(view)`` without gettext draws
the English words."""

from __future__ import annotations

import hashlib

import pytest

from pbem.dice import Dice
from pbem.engines.base import MODERATOR
from pbem.engines.rummy.picture import _head, _label, _title
from pbem.i18n import gettext_for

from .helpers import ENGINE, build

FRENCH = gettext_for("fr")


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def seeded_game() -> list[dict]:
    """Every state of one short seeded four-player game (one hand, the Sundance played)."""
    st = ENGINE.setup("four", {"target": 10}, Dice(seed("picture", "four", 6, "setup")))
    states = [st]
    while not ENGINE.outcome(st):
        p, ph = st["player"], ENGINE.phase(st).id
        res = ENGINE.parse_orders(st, p, ENGINE.bot_orders(st, p, Dice(seed("picture", "four", 6, ph, "bot"))))
        st, _ = ENGINE.resolve(st, {p: res.orders}, Dice(seed("picture", "four", 6, ph)))
        states.append(st)
    return states


def escaped_custer() -> dict:
    """Custer escaped on p1's table, a raided village, support cards, a wild Scout."""
    tables = {"p1": [{"key": "custer", "cards": ["custer"], "on": ["bugler"], "escaped": True},
                     {"key": "co-C", "cards": ["C-commander", "C-guidon", "C-trooper"], "wild": True},
                     {"key": "lone", "cards": ["village"]}, {"key": "support", "cards": ["sabers", "luck"]}]}
    return build(hands={"p1": ["brave", "E-trooper"]}, tables=tables, discard=["scout"])


def english_cases() -> dict[str, dict]:
    states = seeded_game()
    return {"mid-game, p1": ENGINE.view(states[12], "p1"), "game over, observer": ENGINE.view(states[-1], None),
            "Custer escaped, p1": ENGINE.view(escaped_custer(), "p1")}


def test_without_gettext_the_picture_is_the_english_one():
    """``picture(view)`` draws the English words, as an English reader's gettext does."""
    for name, view in english_cases().items():
        png = ENGINE.picture(view)
        assert ENGINE.picture(view, gettext=None) == png, name
        assert ENGINE.picture(view, gettext_for("en")) == png, name


def test_the_picture_is_the_same_drawn_afresh_or_from_the_caches():
    """Card faces and lines of words are kept as tiles between pictures; dropping them
    draws the same bytes."""
    from pbem.engines.rummy import picture

    view = ENGINE.view(escaped_custer(), "p1")
    png = ENGINE.picture(view, FRENCH)
    picture._CARDS.clear()
    picture._WORDS.clear()
    assert ENGINE.picture(view, FRENCH) == png


def test_a_french_reader_gets_the_words_in_french():
    view = ENGINE.view(escaped_custer(), "p1")
    english, french = ENGINE.picture(view), ENGINE.picture(view, FRENCH)
    assert french != english
    # the words are French; card names and the labels orders use are not translated
    groups = {g["key"]: g for g in view["tables"]["p1"]}
    assert _title(view, FRENCH) == "Little Bighorn Rummy - manche 1, tour 5 - à p1 de jouer - après H1.T5"  # the view's step 2: its first step was resolved
    assert _head(view, "p1", FRENCH).startswith("p1 (vous) : 2 cartes en main")
    assert [_label(groups[k], FRENCH) for k in ("custer", "co-C", "lone", "support")] == [
        "Custer (1) s'est échappé", "Co. C (7)", "Village razzié (1)", "Cartes de soutien (2)"]


def test_every_view_of_a_seeded_game_draws_in_french():
    states = seeded_game()
    roles = states[0]["roles"] + [None, MODERATOR]
    for i, state in enumerate(states):
        png = ENGINE.picture(ENGINE.view(state, roles[i % len(roles)]), FRENCH)
        assert png[:8] == b"\x89PNG\r\n\x1a\n", i
