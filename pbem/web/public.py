"""What anyone may read: the games, each game's archive and its pictures; and
a player's private page, opened only by the token link from their mail."""

from __future__ import annotations

from flask import Blueprint, Response, abort, g, redirect, render_template, request, url_for

from pbem.i18n import DEFAULT_LANGUAGE, N_, available_languages
from pbem.web.context import service

bp = Blueprint("public", __name__)


def reader_language() -> str:
    """The language of a page read by someone who is not a player of the game (an observer,
    a moderator reading the archive): the browser's preference (Accept-Language) among the
    languages pbem speaks. A player's own page speaks the player's language instead."""
    return request.accept_languages.best_match(available_languages(), default=DEFAULT_LANGUAGE)


@bp.before_request
def _reader_language():
    g.lang = reader_language()


#: the status words a player's page shows in pills, translated there by the macro
STATUS_WORDS = (N_("active"), N_("paused"), N_("waiting"), N_("finished"), N_("accepted"), N_("partial"),
                N_("rejected"), N_("held"), N_("late"), N_("stale"), N_("replaced"), N_("resigned"))


@bp.route("/")
def index():
    return redirect(url_for("public.games"))


@bp.route("/games")
def games():
    return render_template("public_games.html", games=service().public.games())


@bp.route("/games/<game_id>")
def archive(game_id):
    data = service().public.archive(game_id, g.lang)
    if data is None:
        abort(404)
    return render_template("archive.html", data=data)


@bp.route("/games/<game_id>/phase/<int:seq>.png")
def phase_picture(game_id, seq):
    png = service().public.picture(game_id, seq, g.lang)
    if not png:
        abort(404)
    # its words are in the reader's language: a cache keeps one copy per language asked
    return Response(png, mimetype="image/png", headers={"Cache-Control": "public, max-age=60", "Vary": "Accept-Language"})


@bp.route("/play/<game_id>/<token>")
def play(game_id, token):
    data = service().player_pages.page(game_id, token)
    if data is None:
        abort(404)
    g.lang, g.tz = data["player"]["lang"], data["player"]["tz"]
    return render_template("play.html", data=data, token=token)


@bp.route("/play/<game_id>/<token>/map.png")
def play_picture(game_id, token):
    png = service().player_pages.picture(game_id, token)
    if not png:
        abort(404)
    return Response(png, mimetype="image/png", headers={"Cache-Control": "private, no-store"})


@bp.route("/play/<game_id>/<token>/picture/<name>.png")
def play_named_picture(game_id, token, name):
    png = service().player_pages.picture(game_id, token, name) if name.isascii() and name.isalnum() else None
    if not png:
        abort(404)
    return Response(png, mimetype="image/png", headers={"Cache-Control": "private, no-store"})


@bp.route("/play/<game_id>/<token>/report/<int:seq>.json")
def play_report_json(game_id, token, seq):
    data = service().player_pages.report_json(game_id, token, seq)
    if data is None:
        abort(404)
    return Response(data, mimetype="application/json", headers={"Cache-Control": "private, no-store"})
