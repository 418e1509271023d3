"""The one place a blueprint gets the service from (the app holds it in its extensions), and
the page's language for texts written in Python."""

from __future__ import annotations

from flask import current_app, g

from pbem.i18n import translations
from pbem.service.service import Service


def service() -> Service:
    """The Service behind the current app."""
    return current_app.extensions["pbem.service"]


def _(msgid: str, **args) -> str:
    """``msgid`` in the page's language (``g.lang``), its ``%(name)s`` placeholders filled
    from ``args``: the console's flash messages and errors (extracted as ``_()`` calls)."""
    text = translations(g.get("lang")).gettext(msgid)
    return text % args if args else text
