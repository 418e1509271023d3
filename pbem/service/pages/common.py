"""What the three page families share: the audit log as it is shown, pictures, and
the small formatting of outcomes, time left and JSON."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Callable

from pbem.engines import Engine
from pbem.engines.base import format_message
from pbem.i18n import gettext_for
from pbem.moments import format_remaining
from pbem.service.clock import from_iso
from pbem.service.mail_writer import MailWriter, shown_seed
from pbem.service.records import Records
from pbem.service.render import visible_events
from pbem.service.store import loads


def time_left(deadline_iso: str | None, now: datetime) -> str | None:
    """The time left before a deadline, in English (console and archive)."""
    deadline = from_iso(deadline_iso)
    if deadline is None:
        return None
    return format_remaining((deadline - now).total_seconds(), "en")


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


def resolved_phase(mail: MailWriter, engine, ph: dict, sealed_in: dict, role, lang: str = "en") -> dict:
    """One resolved phase as a role reads it in a history: its seed (unless sealed in the
    state ``sealed_in``), the events it may see, the orders that stood when revealed."""
    record = loads(ph["events"], {}) or {}
    return {
        "seq": ph["seq"], "label": ph["label"], "revision": ph["revision"], "resolved_at": ph["resolved_at"],
        "commitment": ph["commitment"], "seed": shown_seed(engine, sealed_in, ph, lang),
        "events": visible_events(record.get("events", []), role, lang),
        "orders": mail.revealed_orders(ph, lang) if engine.reveals_orders else {},
    }


# -- the audit log -----------------------------------------------------------------------
def _public_actor(actor: str, action: str) -> str:
    if "@" in (actor or ""):
        return "player" if action == "join" else "moderator"
    return actor or "?"


def _audit_summary(action: str, d: dict) -> str:
    """A sentence from an audit entry's details, naming nothing secret."""
    phase = d.get("phase")
    if action == "create game":
        return f"game created ({d.get('engine', '?')}, {d.get('scenario', '?')})"
    if action in ("rotate token",):
        return f"new orders address for {d.get('role', '?')}"
    if action == "replace player":
        return f"{d.get('role', '?')} handed to a new player"
    if action == "join":
        return f"{d.get('role', '?')} joined"
    if action == "set deadline":
        return f"deadline of {phase} moved from {d.get('old') or '-'} to {d.get('new') or '-'}"
    if action == "resume":
        return f"resumed, deadline {d.get('deadline') or '-'}"
    if action == "notice":
        return "notice to every player: " + str(d.get("text", ""))[:500]
    if action == "resend report":
        return f"report on {phase} sent again to {d.get('role', '?')}"
    if action == "correct phase":
        parts = [f"phase {phase} corrected (revision {d.get('revision')})"]
        for role, why in (d.get("amended") or {}).items():
            parts.append(f"orders of {role} amended: {why}")
        if d.get("rerun"):
            parts.append("re-resolved: " + ", ".join(d["rerun"]))
        if d.get("rolled_back_from"):
            parts.append(f"orders of {d['rolled_back_from']} no longer fitted: rolled back, {d.get('reopened') or '?'} reopened")
        if d.get("set_aside"):
            parts.append("orders set aside: " + ", ".join(sorted(d["set_aside"])))
        return "; ".join(parts)
    if action == "discard correction":
        return f"draft correction of {phase} discarded"
    if action == "adjust state":
        return f"state adjusted by hand in {phase} ({d.get('changes', 0)} change(s)); now {d.get('now', '?')}"
    if phase:
        return f"phase {phase}"
    return ""


def audit_log(records: Records, game_id: str, *, public_only: bool = True, limit: int = 500) -> list[dict]:
    """A game's log, newest first: the public part with players and moderators unnamed,
    or (for moderators) every entry with its actor."""
    out = []
    for row in records.audit_rows(game_id, public_only=public_only, limit=limit):
        details = loads(row["details"], {}) or {}
        out.append({
            "at": row["at"], "action": row["action"], "reason": row["reason"], "public": bool(row["public"]),
            "actor": _public_actor(row["actor"], row["action"]) if public_only else row["actor"],
            "summary": _audit_summary(row["action"], details),
        })
    return out
