"""One-click unsubscribe (RFC 8058): the link in ``List-Unsubscribe`` of an observer's mail and
of a player's reminders. A mail provider POSTs ``List-Unsubscribe=One-Click`` to it; a person
who opens it gets a page with the button that POSTs. Opening it does nothing (link checkers
open every link in a mail). The link's signature is its only authority, so the POST carries
no form token: the provider's has none."""

from __future__ import annotations

from flask import Blueprint, abort, g, render_template, request

from pbem.service.unsubscribe import OBSERVER
from pbem.web.context import service
from pbem.web.public import reader_language

bp = Blueprint("unsubscribe", __name__)


@bp.before_request
def _reader_language():
    g.lang = reader_language()


@bp.route("/unsubscribe/<kind>/<int:row_id>/<sig>", methods=["GET", "POST"])
def unsubscribe(kind, row_id, sig):
    part = service().unsubscribe
    if not part.valid(kind, row_id, sig):
        abort(404)
    if request.method == "POST":
        done = part.apply(kind, row_id, sig)
        if done is None:
            abort(404)
        return render_template("unsubscribe.html", kind=kind, game=done["game"], stopped=True, observer=kind == OBSERVER)
    found = part.what(kind, row_id)
    if found is None:
        abort(404)
    return render_template("unsubscribe.html", kind=kind, game=found["game"], stopped=found["stopped"], observer=kind == OBSERVER)
