"""What anyone may read of a club (issue 28): the ladders, the tournaments' standings, the games
waiting for players. Players are named by their display names, never by address."""

from __future__ import annotations

from flask import Blueprint, abort, g, render_template

from pbem.i18n import N_
from pbem.web.context import service
from pbem.web.public import reader_language

bp = Blueprint("clubs", __name__)

#: the status words of a tournament and of a game waiting for players, translated by the pages' macro
STATUS_WORDS = (N_("running"), N_("lapsed"), N_("open"))


@bp.before_request
def _reader_language():
    g.lang = reader_language()


@bp.route("/ladder")
@bp.route("/ladder/<engine>")
def ladder(engine=None):
    data = service().public.ladder(engine or "*")
    if data is None:
        abort(404)
    return render_template("ladder.html", data=data)


@bp.route("/tournaments")
def tournaments():
    return render_template("tournaments.html", tournaments=service().tournaments.list())


@bp.route("/tournaments/<tournament_id>")
def tournament(tournament_id):
    data = service().tournaments.page(tournament_id)
    if data is None:
        abort(404)
    return render_template("tournament.html", t=data)


@bp.route("/open-games")
def open_games():
    svc = service()
    return render_template("open_games.html", games=svc.open_games.waiting(), address=svc.settings.server_address)
