"""Moderators' login and logout; the guard every console page goes through; the pages
for faults the console can meet (database locked or full) instead of a bare 500."""

from __future__ import annotations

import logging
import re
import sqlite3
from functools import wraps

from flask import Blueprint, abort, g, redirect, render_template, request, session, url_for
from werkzeug.exceptions import InternalServerError

from pbem.i18n import N_, available_languages
from pbem.service.errors import ServiceError
from pbem.service.moderators import may_moderate
from pbem.web.context import _, service
from pbem.web.public import reader_language

bp = Blueprint("auth", __name__)
log = logging.getLogger("pbem.web")


def current_moderator() -> dict | None:
    """The moderator of this browser's session, which must be live on the server (the
    signed cookie only names it: logout, a new password or removal ends it)."""
    if "sid" not in session:
        return None
    mod = service().moderators.session_moderator(session.get("sid"))
    if mod is None:
        session.clear()
    return mod


def console_language(mod: dict | None) -> str:
    """The console's language: the moderator's own setting (`pbem moderator add --lang`), else
    the browser's Accept-Language among the languages pbem speaks, else English."""
    if mod is not None and mod.get("lang") in available_languages():
        return mod["lang"]
    return reader_language()


def require_login():
    """A blueprint's before_request: every page and action needs a moderator."""
    if g.get("moderator") is None:
        if request.method == "GET":
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        abort(401)


def require_game(game_id: str) -> None:
    if service().records.game(game_id) is None:
        abort(404)
    if not may_moderate(g.moderator, game_id):
        abort(403)


def game_guard(view):
    """Check the moderator may moderate the route's ``game_id``."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        require_game(kwargs["game_id"])
        return view(*args, **kwargs)
    return wrapper


#: a path on this site: printable ASCII, no backslash; "//" or "/\\" would name another host
_SAME_SITE_PATH = re.compile(r"/(?![/\\])[!-\[\]-~]*\Z")


def _safe_next(target: str | None) -> str:
    """``target`` when it is a path on this site, else the console's front page. Browsers
    drop tabs and newlines from a URL (``/\t/evil.test`` is ``//evil.test`` to them) and a
    newline cannot go in a header: any control character, space or non-ASCII refuses it."""
    if isinstance(target, str) and _SAME_SITE_PATH.match(target):
        return target
    return url_for("console.dashboard")


@bp.route("/login", methods=["GET", "POST"])
def login():
    error, email, status = None, "", 200
    if request.method == "POST":
        email = (request.form.get("email") or "").strip()
        password = request.form.get("password") or ""
        if not email or not password:
            error, status = _("Enter your address and your password."), 400
        elif "@" not in email or len(email) > 320:
            error, status = _("That is not an email address."), 400
        else:
            try:
                mod = service().moderators.login(email, password, request.remote_addr or "?")
            except ServiceError as exc:
                minutes = max((exc.retry_after or 60) // 60, 1)
                error, status = _("Too many failed attempts for this address. Try again in %(minutes)s minute(s).",
                                  minutes=minutes), 429
            else:
                if mod is None:
                    error, status = _("Wrong address or password."), 401
                else:
                    session.clear()
                    session.permanent = True
                    session["sid"] = mod["session"]
                    return redirect(_safe_next(request.args.get("next")))
    elif g.get("moderator") is not None:
        return redirect(_safe_next(request.args.get("next")))
    return render_template("login.html", error=error, email=email), status


@bp.route("/logout", methods=["POST"])
def logout():
    service().moderators.logout(session.get("sid"))  # ended on the server: a copy of the cookie is worth nothing
    session.clear()
    return redirect(url_for("auth.login"))


@bp.app_errorhandler(sqlite3.DatabaseError)
def _database_fault(exc):
    """Locked beyond the busy timeout, disk full, I/O error: nothing was done; say so."""
    log.warning("console request %s %s met a database fault: %s", request.method, request.path, exc)
    return render_template("error.html", code=503, title=N_("Try again in a moment"),
                           message=N_("The server could not use its database just now (it is busy, or its disk is full). "
                                      "Nothing was changed. Try again in a moment; if it lasts, tell the server's administrator.")
                           ), 503, {"Retry-After": "30"}


@bp.app_errorhandler(InternalServerError)
def _server_fault(exc):
    return render_template("error.html", code=500, title=N_("Something went wrong"),
                           message=N_("The server failed while doing this; the failure is in its log. "
                                      "What you asked may not have been done: look before trying again.")), 500
