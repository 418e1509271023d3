"""Message ids: every player-facing English text of the engine is written ``N_("...")`` so
``pybabel extract -k N_`` finds it; the presentation layer translates it (docs/i18n.md)."""

from __future__ import annotations


def N_(msgid: str) -> str:
    return msgid
