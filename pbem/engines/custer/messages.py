"""Message ids: every player-facing English text of the engine (events, order errors,
the order template's comments) is written ``N_("...")`` so ``pybabel extract -k N_``
finds it; the presentation layer translates it (see docs/i18n.md).

An argument is inserted untranslated, so a sentence that names a side, a reason or a
unit type in words is written out once for each of them rather than built from pieces.
"""

from __future__ import annotations


def N_(msgid: str) -> str:
    return msgid


def for_side(side: str | None, us: str, indians: str, other: str) -> str:
    """The message id that names ``side`` in words (``other`` keeps ``%(side)s`` for
    a scenario with sides of its own)."""
    return {"us": us, "indians": indians}.get(side, other)
