"""What the three page families share: the audit log as it is shown, pictures, and
the small formatting of outcomes, time left and JSON."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Callable

from pbem.engines import Engine
from pbem.engines.base import format_message
from pbem.i18n import N_, gettext_for
from pbem.moments import format_moment, format_remaining
from pbem.service.clock import from_iso
from pbem.service.mail_writer import MailWriter, shown_seed
from pbem.service.records import Records
from pbem.service.render import visible_events
from pbem.service.store import loads


def time_left(deadline_iso: str | None, now: datetime, lang: str = "en") -> str | None:
    """The time left before a deadline, in the page's language."""
    deadline = from_iso(deadline_iso)
    if deadline is None:
        return None
    return format_remaining((deadline - now).total_seconds(), lang)


def outcome_text(outcome: dict | None, lang: str = "en") -> str | None:
    if not outcome:
        return None
    try:
        return format_message(gettext_for(lang)(outcome.get("summary", "")), outcome.get("args"))
    except Exception:
        return str(outcome.get("summary", ""))


def pretty(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def engine_title(engine: Callable[[str], Engine], name: str) -> str:
    """The title of the engine called ``name`` (its name when it is not installed)."""
    try:
        return engine(name).title or name
    except Exception:
        return name


def picture(engine: Engine, state: dict | None, role, lang: str | None = None) -> bytes | None:
    """The picture from ``role``'s view, its words in ``lang`` (None: English, for
    moderators and the public archive)."""
    if state is None:
        return None
    return engine.picture(engine.view(state, role), gettext_for(lang) if lang else None)


def pictures(engine: Engine, state: dict | None, role, lang: str | None = None) -> dict[str, bytes]:
    """Every picture of ``role``'s view by name (the whole map is ``map``; an engine may add
    close-ups), its words in ``lang``."""
    if state is None or not engine.draws_pictures:
        return {}
    return engine.pictures(engine.view(state, role), gettext_for(lang) if lang else None)


def resolved_phase(mail: MailWriter, engine, ph: dict, sealed_in: dict, role, lang: str = "en") -> dict:
    """One resolved phase as a role reads it in a history: its seed (unless sealed in the
    state ``sealed_in``), the events it may see, the orders that stood when revealed."""
    record = loads(ph["events"], {}) or {}
    return {
        "seq": ph["seq"], "label": ph["label"], "revision": ph["revision"], "resolved_at": ph["resolved_at"],
        "commitment": ph["commitment"], "seed": shown_seed(engine, sealed_in, ph, lang),
        "events": visible_events(record.get("events", []), role, lang),
        "orders": mail.revealed_orders(ph, lang) if engine.reveals_orders else {},
        "stand_in": loads(ph.get("stand_in"), []) or [],  # the roles whose orders the stand-in gave (issue 28)
    }


# -- the audit log -----------------------------------------------------------------------
#: the actors the public log names instead of an address (translated by the archive)
PUBLIC_ACTORS = (N_("player"), N_("moderator"), N_("server"), N_("scheduler"))


def _public_actor(actor: str, action: str) -> str:
    if "@" in (actor or ""):
        return "player" if action == "join" else "moderator"
    return actor or "?"


#: the log's action words, as the archive and the console show them (translated there)
AUDIT_ACTIONS = (N_("create game"), N_("rotate token"), N_("replace player"), N_("join"), N_("set deadline"), N_("pause"),
                 N_("resume"), N_("notice"), N_("resend report"), N_("correct phase"), N_("discard correction"),
                 N_("adjust state"), N_("close phase"), N_("wait for moderator"), N_("upgrade"),
                 N_("stand-in"), N_("stand-in ends"), N_("stand-in choice"))


def _moment(iso: str | None, lang: str) -> str:
    moment = from_iso(iso) if iso else None
    return format_moment(moment, "UTC", lang) if moment else "-"


def _audit_summary(action: str, d: dict, lang: str = "en") -> str:
    """A sentence from an audit entry's details, naming nothing secret, in ``lang``."""
    _ = gettext_for(lang)
    phase = d.get("phase")
    if action == "create game":
        return _("game created (%(engine)s, %(scenario)s)") % {"engine": d.get("engine", "?"), "scenario": d.get("scenario", "?")}
    if action in ("rotate token",):
        return _("new orders address for %(role)s") % {"role": d.get("role", "?")}
    if action == "replace player":
        return _("%(role)s handed to a new player") % {"role": d.get("role", "?")}
    if action == "join":
        return _("%(role)s joined") % {"role": d.get("role", "?")}
    if action == "set deadline":
        return _("deadline of %(phase)s moved from %(old)s to %(new)s") % {
            "phase": phase, "old": _moment(d.get("old"), lang), "new": _moment(d.get("new"), lang)}
    if action == "resume":
        return _("resumed, deadline %(deadline)s") % {"deadline": _moment(d.get("deadline"), lang)}
    if action == "notice":
        return _("notice to every player: %(text)s") % {"text": str(d.get("text", ""))[:500]}
    if action == "resend report":
        return _("report on %(phase)s sent again to %(role)s") % {"phase": phase, "role": d.get("role", "?")}
    if action == "correct phase":
        parts = [_("phase %(phase)s corrected (revision %(revision)s)") % {"phase": phase, "revision": d.get("revision")}]
        for role, why in (d.get("amended") or {}).items():
            parts.append(_("orders of %(role)s amended: %(reason)s") % {"role": role, "reason": why})
        if d.get("rerun"):
            parts.append(_("re-resolved: %(phases)s") % {"phases": ", ".join(d["rerun"])})
        if d.get("rolled_back_from"):
            parts.append(_("orders of %(phase)s no longer fitted: rolled back, %(reopened)s reopened") % {
                "phase": d["rolled_back_from"], "reopened": d.get("reopened") or "?"})
        if d.get("set_aside"):
            parts.append(_("orders set aside: %(roles)s") % {"roles": ", ".join(sorted(d["set_aside"]))})
        return "; ".join(parts)
    if action == "discard correction":
        return _("draft correction of %(phase)s discarded") % {"phase": phase}
    if action == "adjust state":
        return _("state adjusted by hand in %(phase)s (%(changes)s change(s)); now %(now)s") % {
            "phase": phase, "changes": d.get("changes", 0), "now": d.get("now", "?")}
    if action == "upgrade" and d.get("to"):
        return _("pbem upgraded: rules version %(old_rules)s to %(new_rules)s, state format %(old_format)s to %(new_format)s") % {
            "old_rules": d["from"]["rules_version"], "new_rules": d["to"]["rules_version"],
            "old_format": d["from"]["state_format"], "new_format": d["to"]["state_format"]}
    if phase:
        return _("phase %(phase)s") % {"phase": phase}
    return ""


def audit_log(records: Records, game_id: str, *, public_only: bool = True, limit: int = 500, lang: str = "en") -> list[dict]:
    """A game's log, newest first: the public part with players and moderators unnamed,
    or (for moderators) every entry with its actor; the summaries in ``lang``."""
    out = []
    for row in records.audit_rows(game_id, public_only=public_only, limit=limit):
        details = loads(row["details"], {}) or {}
        out.append({
            "at": row["at"], "action": row["action"], "reason": row["reason"], "public": bool(row["public"]),
            "actor": _public_actor(row["actor"], row["action"]) if public_only else row["actor"],
            "summary": _audit_summary(row["action"], details, lang),
        })
    return out
