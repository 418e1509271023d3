"""The moderators' console: dashboard, one game, one phase, and the actions."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, url_for

from pbem.service.clock import from_iso
from pbem.service.errors import ServiceError
from pbem.service.timing import TimingError, parse_duration
from pbem.web.auth import console_language, game_guard, require_login
from babel import Locale

from pbem.i18n import N_, available_languages
from pbem.web.context import _, png_response, refusal, service
from pbem.web.filters import when

bp = Blueprint("console", __name__, url_prefix="/console")
bp.before_request(require_login)

MAX_REASON = 2000
MAX_NOTICE = 10_000

#: status words the console shows beyond a player's (pbem.web.public.STATUS_WORDS), translated by its templates
CONSOLE_STATUS_WORDS = (N_("sent"), N_("resolved"), N_("published"), N_("processed"), N_("open"), N_("draft"), N_("queued"),
                        N_("superseded"), N_("discarded"), N_("failed"), N_("error"), N_("refused"))


def _field(name: str, label: str, *, required: bool = True, limit: int = 500) -> str:
    """A form value, stripped; a ValueError saying what is wrong."""
    value = (request.form.get(name) or "").strip()
    if required and not value:
        raise ValueError(_("%(label)s is required.", label=_(label)))
    if len(value) > limit:
        raise ValueError(_("%(label)s is longer than %(limit)s characters.", label=_(label), limit=limit))
    return value


def _role(game_id: str) -> str:
    role = _field("role", N_("The role"))
    if role not in {p["role"] for p in service().records.players(game_id)}:
        raise ValueError(_("This game has no role %(role)s.", role=repr(role)))
    return role


def _act(game_id: str, anchor: str, action) -> Response:
    """Run an action; flash its result or what was wrong; back to the game page."""
    try:
        message = action()
    except (ValueError, TimingError, ServiceError) as exc:
        flash(refusal(exc), "error")
    else:
        flash(message, "ok")
    # Back to the top of the game page, where the message and the phase's state are.
    return redirect(url_for("console.game", game_id=game_id))


# -- pages --------------------------------------------------------------------------
@bp.route("/")
def dashboard():
    languages = [(code, language_name(code)) for code in available_languages()]
    return render_template("dashboard.html", data=service().console.dashboard(g.moderator, g.lang), languages=languages)


@bp.route("/language", methods=["POST"])
def language():
    """The moderator's own console language (empty: follow the browser)."""
    chosen = request.form.get("lang") or None
    if chosen is not None and chosen not in available_languages():
        abort(400)
    service().moderators.set_language(g.moderator["id"], chosen)
    g.lang = console_language({**g.moderator, "lang": chosen})
    if chosen is None:
        flash(_("The console now follows your browser's language."), "ok")
    else:
        flash(_("The console now speaks %(language)s.", language=language_name(chosen)), "ok")
    return redirect(url_for("console.dashboard"))


def language_name(lang: str) -> str:
    """A language's name in that language ('français'), as a language menu lists it."""
    return Locale.parse(lang).get_display_name(lang)


@bp.route("/games/<game_id>")
@game_guard
def game(game_id):
    data = service().console.game(game_id, g.lang)
    return render_template("game.html", data=data, game=data["game"])


@bp.route("/games/<game_id>/map.png")
@game_guard
def picture(game_id):
    return png_response(service().console.picture(game_id, g.lang))


@bp.route("/games/<game_id>/phases/<int:seq>")
@game_guard
def phase(game_id, seq):
    data = service().console.phase(game_id, seq, g.lang)
    if data is None:
        abort(404)
    return render_template("phase.html", data=data, game=data["game"])


@bp.route("/games/<game_id>/inbound/<int:inbound_id>")
@game_guard
def inbound(game_id, inbound_id):
    row = service().console.inbound(inbound_id)
    if row is None or row["game_id"] != game_id:
        abort(404)
    return render_template("inbound.html", row=row, game=service().records.game(game_id))


@bp.route("/inbound/<int:inbound_id>")
def inbound_unassigned(inbound_id):
    """Mail not tied to any game (for moderators of every game)."""
    row = service().console.inbound(inbound_id)
    if row is None or row["game_id"] is not None or g.moderator["games"] is not None:
        abort(404)
    return render_template("inbound.html", row=row, game=None)


@bp.route("/games/<game_id>/outbox")
@game_guard
def outbox(game_id):
    return render_template("outbox.html", rows=service().console.outbox(game_id), game=service().records.game(game_id))


@bp.route("/games/<game_id>/verify")
@game_guard
def verify(game_id):
    """Every resolved phase replayed from its stored start, orders and revealed seed."""
    return render_template("verify.html", result=service().verifier.verify_game(game_id), game=service().records.game(game_id))


# -- actions ------------------------------------------------------------------------
_ABSOLUTE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})\s*(?:UTC|Z)?\s*$", re.I)


def parse_new_deadline(text: str, current: datetime | None, now: datetime) -> datetime:
    """'+24h' / '-6h' (from the current deadline) or '2026-03-01 18:00' (UTC)."""
    text = (text or "").strip()
    if not text:
        raise ValueError(_("Write the change (+24h, -6h) or a new UTC time (2026-03-01 18:00)."))
    if text[0] in "+-":
        try:
            seconds = parse_duration(text[1:])
        except TimingError as exc:
            raise ValueError(_("Cannot read %(text)s: write +24h, +90m, -6h or +2d.", text=repr(text))) from exc
        base = current or now
        return base + timedelta(seconds=seconds if text[0] == "+" else -seconds)
    match = _ABSOLUTE.match(text)
    if not match:
        raise ValueError(_("Cannot read %(text)s: write +24h, -6h, or a UTC time such as 2026-03-01 18:00.", text=repr(text)))
    try:
        y, mo, d, h, mi = (int(x) for x in match.groups())
        return datetime(y, mo, d, h, mi, tzinfo=timezone.utc)
    except ValueError as exc:
        raise ValueError(_("There is no such moment as %(text)s.", text=repr(text))) from exc


@bp.route("/games/<game_id>/deadline", methods=["POST"])
@game_guard
def deadline(game_id):
    svc = service()

    def run():
        reason = _field("reason", N_("A reason"), limit=MAX_REASON)
        ph = svc.records.current_phase(game_id)
        if ph is None:
            raise ValueError(_("The game has no open phase."))
        if svc.records.game(game_id)["status"] != "active":
            raise ValueError(_("The game is paused or waiting: resume it to set a deadline."))
        new = parse_new_deadline(request.form.get("when", ""), from_iso(ph["deadline"]), svc.now())
        svc.games.set_deadline(game_id, new, actor=g.moderator["email"], reason=reason)
        return _("The deadline of %(phase)s is now %(when)s.", phase=ph["label"], when=when(new))
    return _act(game_id, "timing", run)


@bp.route("/games/<game_id>/policies", methods=["POST"])
@game_guard
def policies(game_id):
    """The long-game policies (issue 16): the most absence days per player, and whether observers may watch."""
    svc = service()

    def run():
        reason = _field("reason", N_("A reason"), limit=MAX_REASON)
        text = request.form.get("absence_days", "").strip()
        if not text.isdigit():
            raise ValueError(_("Write the absence allowance as a number of days, not %(text)s.", text=repr(text)))
        allowed = request.form.get("observers") == "on"
        svc.absences.set_policy(game_id, int(text), actor=g.moderator["email"], reason=reason)
        svc.observers.set_open(game_id, allowed, actor=g.moderator["email"], reason=reason)
        if allowed:
            return _("Absences: at most %(days)s days per player; observers welcome.", days=int(text))
        return _("Absences: at most %(days)s days per player; observers not allowed.", days=int(text))
    return _act(game_id, "policies", run)


@bp.route("/games/<game_id>/pause", methods=["POST"])
@game_guard
def pause(game_id):
    def run():
        service().games.pause(game_id, actor=g.moderator["email"], reason=_field("reason", N_("A reason"), limit=MAX_REASON))
        return _("The game is paused; its deadline is kept until you resume it.")
    return _act(game_id, "timing", run)


@bp.route("/games/<game_id>/resume", methods=["POST"])
@game_guard
def resume(game_id):
    def run():
        service().games.resume(game_id, actor=g.moderator["email"], reason=_field("reason", N_("A reason"), limit=MAX_REASON))
        return _("The game runs again.")
    return _act(game_id, "timing", run)


@bp.route("/games/<game_id>/close", methods=["POST"])
@game_guard
def close(game_id):
    svc = service()

    def run():
        reason = _field("reason", N_("A reason"), limit=MAX_REASON)
        # The form names the phase the moderator saw: sent twice (or by two moderators at
        # once), it closes that phase once and never the one opened after it.
        named = request.form.get("phase_row_id")  # absent only from a page older than the field
        if named is not None and not named.isdigit():
            raise ValueError(_("The form did not say which phase to close; reload the page and try again."))
        result = svc.phases.close(game_id, reason=reason, actor=g.moderator["email"],
                                  phase_row_id=int(named) if named else None)
        if result is None and named:
            raise ValueError(_("That phase is no longer open (it was closed already); nothing was done."))
        if result is None:
            raise ValueError(_("There was no open phase to close."))
        if result.get("waiting"):
            return _("The game waits for a moderator.")
        if result.get("next"):
            return _("Phase %(phase)s resolved; %(next)s is open.", phase=result["phase"], next=result["next"])
        return _("Phase %(phase)s resolved; the game is over.", phase=result["phase"])
    return _act(game_id, "timing", run)


@bp.route("/games/<game_id>/replace", methods=["POST"])
@game_guard
def replace(game_id):
    def run():
        role = _role(game_id)
        email = _field("email", N_("The new address"), limit=320)
        if not re.match(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", email):
            raise ValueError(_("%(email)s is not an email address.", email=repr(email)))
        reason = _field("reason", N_("A reason"), limit=MAX_REASON)
        service().games.replace_player(game_id, role, email, actor=g.moderator["email"], reason=reason)
        return _("%(role)s now plays from %(email)s; the old orders address no longer works, and a welcome mail is on its way.",
                 role=role, email=email)
    return _act(game_id, "players", run)


@bp.route("/games/<game_id>/rotate", methods=["POST"])
@game_guard
def rotate(game_id):
    def run():
        role = _role(game_id)
        service().games.rotate_token(game_id, role, actor=g.moderator["email"], reason=_field("reason", N_("A reason"), limit=MAX_REASON))
        return _("%(role)s has a new orders address (mailed); the old one no longer works.", role=role)
    return _act(game_id, "players", run)


@bp.route("/games/<game_id>/resend", methods=["POST"])
@game_guard
def resend(game_id):
    def run():
        role = _role(game_id)
        try:
            seq = int(_field("seq", N_("The phase")))
        except ValueError as exc:
            raise ValueError(_("Choose a resolved phase.")) from exc
        reason = _field("reason", N_("A reason"), limit=MAX_REASON)
        mid = service().phases.resend_report(game_id, seq, role, actor=g.moderator["email"], reason=reason)
        return _("The report was queued again.") if mid else _("That report is already queued.")
    return _act(game_id, "players", run)


@bp.route("/games/<game_id>/notice", methods=["POST"])
@game_guard
def notice(game_id):
    def run():
        text = _field("text", N_("The notice"), limit=MAX_NOTICE)
        n = service().games.send_notice(game_id, text, actor=g.moderator["email"])
        return _("Notice queued for %(n)s player(s).", n=n)
    return _act(game_id, "notice", run)
