"""The host's console page for a club (issue 28): the policies (how conceded, drawn and stand-in
games are rated; who may start games by mail) and the tournaments, with a form to start one. Only
a moderator of every game hosts the club."""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from pbem.engines import UnknownEngine, all_engines
from pbem.service.errors import ServiceError
from pbem.service.host_policy import POLICIES
from pbem.service.timing import TimingError, parse_deadline
from pbem.web.auth import require_login
from pbem.web.context import _, refusal, service

bp = Blueprint("club_console", __name__, url_prefix="/console/club")
bp.before_request(require_login)


@bp.before_request
def _hosts_only():
    if g.get("moderator") is not None and g.moderator["games"] is not None:
        abort(403)  # a moderator of some games only does not host the club


@bp.route("/")
def club():
    svc = service()
    engines = {name: {"title": e.title, "scenarios": {s.name: s.title for s in e.scenarios().values() if len(s.roles) == 2}}
               for name, e in all_engines().items()}
    return render_template("club_console.html", policies=POLICIES, values=svc.host.all(), tournaments=svc.tournaments.list(),
                           engines=engines)


@bp.route("/policy", methods=["POST"])
def policy():
    name, value = request.form.get("name", ""), request.form.get("value", "")
    try:
        stored = service().host.set(name, value, actor=g.moderator["email"])
    except ServiceError as exc:
        flash(refusal(exc), "error")
    else:
        flash(_("%(name)s is now %(value)s.", name=name, value=stored or "-"), "ok")
    return redirect(url_for("club_console.club"))


@bp.route("/tournaments", methods=["POST"])
def new_tournament():
    form = request.form
    engine, _sep, scenario = (form.get("scenario") or "").partition("/")
    players = [p for p in (form.get("players") or "").replace(",", "\n").split() if p]
    rounds = (form.get("rounds") or "").strip()
    try:
        if rounds and not rounds.isdigit():
            raise ValueError(_("Write the rounds as a number, or leave it empty."))
        tid = service().tournaments.create(form.get("name", ""), engine, scenario, players, format=form.get("format", "swiss"),
                                           rounds=int(rounds) if rounds else None,
                                           timing={"phase": parse_deadline(form.get("deadline") or "48h")},
                                           rated=form.get("rated") == "on", actor=g.moderator["email"])
    except (ValueError, ServiceError, TimingError, UnknownEngine) as exc:
        flash(refusal(exc), "error")
        return redirect(url_for("club_console.club"))
    flash(_("The tournament %(id)s has started: its first round's games are mailed.", id=tid), "ok")
    return redirect(url_for("clubs.tournament", tournament_id=tid))
