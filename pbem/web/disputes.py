"""Dispute review: amend a resolved phase's orders, re-adjudicate, read the
difference, publish or discard; and the manual adjustment of a game's state."""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from pbem.service.disputes import draft_version
from pbem.service.errors import ServiceError
from pbem.web.auth import game_guard, require_login
from pbem.web.context import _, png_response, refusal, service

bp = Blueprint("disputes", __name__, url_prefix="/console")
bp.before_request(require_login)

MAX_REASON = 2000


def _correction_page(game_id: str, seq: int, *, status: int = 200, errors=None, message=None, role=None, text=None, reason=None,
                     confirm=None):
    """The correction page; ``confirm``: the publication asked for, shown for a second, plain
    form to confirm (no script: the page asks, the moderator answers with a second post)."""
    svc = service()
    phase = svc.console.phase(game_id, seq, g.lang)
    if phase is None:
        abort(404)
    drafts = [d for d in svc.disputes.drafts(game_id) if d["seq"] == seq]
    draft = drafts[0] if drafts else None
    if draft is not None and draft["phase_row_id"] != phase["phase"]["id"]:
        draft = None  # about a result that no longer stands; the next amendment starts afresh
    roles = phase["roles"] or sorted(phase["used"])
    forms = {}
    for r in roles:
        amended = (draft or {}).get("amendments", {}).get(r)
        forms[r] = {
            "text": amended["text"] if amended else phase["revealed"].get(r, ""),
            "amended": amended, "used": phase["used"].get(r), "defaulted": r in phase["defaulted"],
        }
    if role is not None and role in forms:
        forms[role]["text"] = text
        forms[role]["reason"] = reason
    groups: list[tuple[str, list]] = []
    for change in ((draft or {}).get("diff") or {}).get("changes", []):
        if not groups or groups[-1][0] != change["section"]:
            groups.append((change["section"], []))
        groups[-1][1].append(change)
    return render_template("correct.html", data=phase, game=phase["game"], draft=draft, forms=forms, diff_groups=groups,
                           errors=errors or [], message=message, error_role=role, confirm=confirm,
                           pictures=svc.console.has_pictures(game_id)), status


@bp.route("/games/<game_id>/phases/<int:seq>/correct")
@game_guard
def correct(game_id, seq):
    return _correction_page(game_id, seq)


@bp.route("/games/<game_id>/phases/<int:seq>/amend", methods=["POST"])
@game_guard
def amend(game_id, seq):
    role = (request.form.get("role") or "").strip()
    text = request.form.get("text") or ""
    reason = (request.form.get("reason") or "").strip()
    problem = None
    if not role:
        problem = _("Choose the role whose orders you amend.")
    elif not reason:
        problem = _("A reason is required: it goes into the game's public moderation log and the correction mail.")
    elif len(reason) > MAX_REASON:
        problem = _("The reason is longer than %(limit)s characters.", limit=MAX_REASON)
    if problem:
        return _correction_page(game_id, seq, status=400, message=problem, role=role, text=text, reason=reason)
    try:
        service().disputes.amend_orders(game_id, seq, role, text, reason, g.moderator["email"])
    except ServiceError as exc:
        return _correction_page(game_id, seq, status=400, message=refusal(exc), errors=getattr(exc, "errors", []),
                                role=role, text=text, reason=reason)
    flash(_("The orders of %(role)s are amended in the draft. Re-adjudicate to see what changes.", role=role), "ok")
    return redirect(url_for("disputes.correct", game_id=game_id, seq=seq) + "#draft")


def _draft(game_id: str, draft_id: int) -> dict:
    d = service().disputes.draft(draft_id)
    if d is None or d["game_id"] != game_id:
        abort(404)
    return d


@bp.route("/games/<game_id>/drafts/<int:draft_id>/unamend", methods=["POST"])
@game_guard
def unamend(game_id, draft_id):
    d = _draft(game_id, draft_id)
    try:
        service().disputes.remove_amendment(draft_id, (request.form.get("role") or "").strip(), g.moderator["email"])
    except ServiceError as exc:
        flash(refusal(exc), "error")
    else:
        flash(_("The amendment was withdrawn from the draft."), "ok")
    return redirect(url_for("disputes.correct", game_id=game_id, seq=d["seq"]) + "#draft")


@bp.route("/games/<game_id>/drafts/<int:draft_id>/readjudicate", methods=["POST"])
@game_guard
def readjudicate(game_id, draft_id):
    d = _draft(game_id, draft_id)
    try:
        result = service().disputes.readjudicate(draft_id)
    except ServiceError as exc:
        flash(refusal(exc), "error")
    else:
        n = len(result["diff"]["changes"])
        if result["diff"]["identical"]:
            flash(_("Re-adjudicated with the same seed: nothing changes."), "ok")
        else:
            flash(_("Re-adjudicated with the same seed: %(n)s change(s) in the result.", n=n), "ok")
    return redirect(url_for("disputes.correct", game_id=game_id, seq=d["seq"]) + "#difference")


@bp.route("/games/<game_id>/drafts/<int:draft_id>/publish", methods=["POST"])
@game_guard
def publish(game_id, draft_id):
    """The first post asks (the page shows what publishing does, with a second form); only the
    second, which names the draft as the moderator read it, publishes."""
    d = _draft(game_id, draft_id)
    reason = (request.form.get("reason") or "").strip()
    if not reason or len(reason) > MAX_REASON:
        flash(_("A reason (up to %(limit)s characters) is required to publish: the players read it in the correction mail.",
                limit=MAX_REASON), "error")
        return redirect(url_for("disputes.correct", game_id=game_id, seq=d["seq"]) + "#publish")
    if request.form.get("confirmed") != "yes":
        if d["status"] != "draft" or not d["diff"]:
            flash(_("Re-adjudicate the draft and read its difference before publishing it."), "error")
            return redirect(url_for("disputes.correct", game_id=game_id, seq=d["seq"]) + "#draft")
        return _correction_page(game_id, d["seq"], confirm={"reason": reason, "version": draft_version(d),
                                                            **service().disputes.audience(game_id)})
    try:
        result = service().disputes.publish(draft_id, reason, g.moderator["email"], version=request.form.get("version") or "")
    except ServiceError as exc:
        flash(refusal(exc), "error")
        return redirect(url_for("disputes.correct", game_id=game_id, seq=d["seq"]) + "#publish")
    text = _("Phase %(phase)s is corrected (revision %(revision)s); %(mails)s correction mail(s) queued.",
             phase=result["phase"], revision=result["revision"], mails=result["mails"])
    if result["rerun"]:
        text += " " + _("Re-resolved: %(phases)s.", phases=", ".join(result["rerun"]))
    if result["rolled_back_from"]:
        text += " " + _("The orders of %(phase)s no longer fitted: the game is back at %(reopened)s.",
                        phase=result["rolled_back_from"], reopened=result["reopened"])
    flash(text, "ok")
    return redirect(url_for("console.game", game_id=game_id))


@bp.route("/games/<game_id>/phases/<int:seq>/map/<when>.png")
@game_guard
def phase_picture(game_id, seq, when):
    """The map or table of a resolved phase as a moderator sees it: where it started (what its
    orders were written against) or its published result."""
    if when not in ("start", "result"):
        abort(404)
    return png_response(service().console.phase_picture(game_id, seq, when, g.lang))


@bp.route("/games/<game_id>/drafts/<int:draft_id>/result.png")
@game_guard
def draft_picture(game_id, draft_id):
    """The result a draft correction would publish."""
    _draft(game_id, draft_id)
    return png_response(service().console.draft_picture(draft_id, g.lang))


@bp.route("/games/<game_id>/drafts/<int:draft_id>/discard", methods=["POST"])
@game_guard
def discard(game_id, draft_id):
    d = _draft(game_id, draft_id)
    try:
        service().disputes.discard(draft_id, actor=g.moderator["email"], reason=(request.form.get("reason") or "").strip()[:MAX_REASON])
    except ServiceError as exc:
        flash(refusal(exc), "error")
    else:
        flash(_("The draft was thrown away; the game is unchanged."), "ok")
    return redirect(url_for("console.phase", game_id=game_id, seq=d["seq"]))


@bp.route("/games/<game_id>/adjust", methods=["GET", "POST"])
@game_guard
def adjust(game_id):
    svc = service()
    data = svc.console.state_for_edit(game_id)
    if request.method == "GET":
        return render_template("adjust.html", data=data, game=data["game"], text=data["state_json"], reason="", errors=[], message=None)
    text = request.form.get("state") or ""
    reason = (request.form.get("reason") or "").strip()
    errors, message = [], None
    if not reason:
        message = _("A reason is required: it goes into the game's public moderation log and the notice to the players.")
    elif len(reason) > MAX_REASON:
        message = _("The reason is longer than %(limit)s characters.", limit=MAX_REASON)
    else:
        try:
            result = svc.disputes.adjust_state(game_id, text, reason, g.moderator["email"])
        except ServiceError as exc:
            message, errors = refusal(exc), getattr(exc, "errors", [])
        else:
            if result["phase"]:
                flash(_("The state was adjusted (%(n)s change(s)); the game is at %(phase)s.", n=len(result["changes"]),
                        phase=result["phase"]), "ok")
            else:
                flash(_("The state was adjusted (%(n)s change(s)); the game is at its end.", n=len(result["changes"])), "ok")
            return redirect(url_for("console.game", game_id=game_id))
    return render_template("adjust.html", data=data, game=data["game"], text=text, reason=reason, errors=errors, message=message), 400
