"""Message ids: every player-facing English text is written ``N_("...")`` so that
``pybabel extract -k N_`` finds it; the presentation layer translates it."""

from __future__ import annotations


def N_(msgid: str) -> str:
    return msgid
