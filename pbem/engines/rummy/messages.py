"""Message ids: every player-facing English text of the engine (events, order errors)
is written ``N_("...")`` so ``pybabel extract -k N_`` finds it; the presentation layer
translates it (see docs/i18n.md)."""


def N_(msgid: str) -> str:
    return msgid
