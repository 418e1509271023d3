"""The one place a blueprint gets the service from (the app holds it in its extensions), and
the page's language for texts written in Python."""

from __future__ import annotations

from flask import Response, abort, current_app, g

from pbem.i18n import translations
from pbem.service.errors import ServiceError
from pbem.service.service import Service


def service() -> Service:
    """The Service behind the current app."""
    return current_app.extensions["pbem.service"]


def _(msgid: str, **args) -> str:
    """``msgid`` in the page's language (``g.lang``), its ``%(name)s`` placeholders filled
    from ``args``: the console's flash messages and errors (extracted as ``_()`` calls)."""
    text = translations(g.get("lang")).gettext(msgid)
    return text % args if args else text


def refusal(exc: Exception) -> str:
    """What went wrong, in the page's language: a ServiceError's message id translated
    (its English when it is none), any other error's text as it is."""
    if isinstance(exc, ServiceError):
        return exc.describe(translations(g.get("lang")).gettext)
    return str(exc)


def png_response(png: bytes | None) -> Response:
    """A console picture (a moderator's: never cached), or Not Found when there is none."""
    if not png:
        abort(404)
    return Response(png, mimetype="image/png")
