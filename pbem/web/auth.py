"""Moderators' login and logout; the guard every console page goes through."""

from __future__ import annotations

from functools import wraps

from flask import Blueprint, abort, g, redirect, render_template, request, session, url_for

from pbem.service.errors import ServiceError
from pbem.service.moderators import may_moderate
from pbem.web.context import service

bp = Blueprint("auth", __name__)


def current_moderator() -> dict | None:
    if "mod" not in session:
        return None
    mod = service().moderators.session_moderator(session.get("mod"), session.get("fp"))
    if mod is None:
        session.clear()
    return mod


def require_login():
    """A blueprint's before_request: every page and action needs a moderator."""
    if g.get("moderator") is None:
        if request.method == "GET":
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        abort(401)


def require_game(game_id: str) -> None:
    if service().game(game_id) is None:
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


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("console.dashboard")


@bp.route("/login", methods=["GET", "POST"])
def login():
    error, email, status = None, "", 200
    if request.method == "POST":
        email = (request.form.get("email") or "").strip()
        password = request.form.get("password") or ""
        if not email or not password:
            error, status = "Enter your address and your password.", 400
        elif "@" not in email or len(email) > 320:
            error, status = "That is not an email address.", 400
        else:
            try:
                mod = service().moderators.login(email, password, request.remote_addr or "?")
            except ServiceError as exc:
                error, status = str(exc), 429
            else:
                if mod is None:
                    error, status = "Wrong address or password.", 401
                else:
                    session.clear()
                    session.permanent = True
                    session["mod"], session["fp"] = mod["id"], mod["fingerprint"]
                    return redirect(_safe_next(request.args.get("next")))
    elif g.get("moderator") is not None:
        return redirect(_safe_next(request.args.get("next")))
    return render_template("login.html", error=error, email=email), status


@bp.route("/logout", methods=["POST"])
def logout():
    session.clear()
    return redirect(url_for("auth.login"))
