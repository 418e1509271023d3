"""Read models for the web pages, and the moderators' login.

The web app never touches the store: every page asks one function here for
plain dicts. Three audiences, three sets of functions:

* moderators (``console_*``): everything about the games they may moderate;
* the public (``public_*``): the turn history of a game, each turn's picture
  from the observer's view, the public events and the moderation log; never a
  hidden hand, an order of the open phase or a seed not yet revealed;
* one player (``player_*``), through the token link of their mail: their own
  view, orders and reports.

Functions here are methods of :class:`pbem.service.core.Service`.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
from datetime import timedelta

from pbem.engines.base import MODERATOR, format_message
from pbem.service.clock import from_iso, to_iso
from pbem.service.outbox import message_id
from pbem.i18n import gettext_for
from pbem.service.render import describe_errors, describe_missing, format_moment, format_remaining, visible_events
from pbem.service.store import loads

LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_MAX_FAILURES = 5


# -- moderators' login ------------------------------------------------------------------
def _fingerprint(password_hash: str) -> str:
    """Changes when the password does, so a reset ends every open session."""
    return hashlib.sha256(password_hash.encode("utf-8")).hexdigest()[:16]


def moderator_login(self, email_addr: str, password: str, ip: str) -> dict | None:
    """The moderator when the password is right, else None. Raises a
    ServiceError (with ``retry_after`` seconds) after too many failures from
    one address and IP in the window."""
    from pbem.service.core import ServiceError
    from pbem.service.moderators import check_login
    email_addr = (email_addr or "").strip().lower()[:320]
    ip = (ip or "?")[:64]
    store, now = self.store, self.now()
    since = to_iso(now - LOGIN_WINDOW)
    recent = store.all("SELECT at FROM login_failures WHERE email = ? AND ip = ? AND at >= ? ORDER BY at", (email_addr, ip, since))
    if len(recent) >= LOGIN_MAX_FAILURES:
        oldest = from_iso(recent[-LOGIN_MAX_FAILURES]["at"])
        wait = max(int((oldest + LOGIN_WINDOW - now).total_seconds()), 1)
        exc = ServiceError(f"Too many failed attempts for this address. Try again in {max(wait // 60, 1)} minute(s).")
        exc.retry_after = wait  # type: ignore[attr-defined]
        raise exc
    mod = check_login(self, email_addr, password)
    with store.write():
        if mod is None:
            store.insert("login_failures", {"email": email_addr, "ip": ip, "at": to_iso(now)})
            store.execute("DELETE FROM login_failures WHERE at < ?", (to_iso(now - timedelta(days=1)),))
            return None
        store.execute("DELETE FROM login_failures WHERE email = ? AND ip = ?", (email_addr, ip))
    return {"id": mod["id"], "email": mod["email"], "games": mod["games"], "fingerprint": _fingerprint(mod["password_hash"])}


def session_moderator(self, moderator_id, fingerprint: str | None) -> dict | None:
    """The moderator a session names, or None when gone or the password changed."""
    try:
        moderator_id = int(moderator_id)
    except (TypeError, ValueError):
        return None
    row = self.store.one("SELECT id, email, games, password_hash FROM moderators WHERE id = ?", (moderator_id,))
    if row is None or not fingerprint or _fingerprint(row["password_hash"]) != fingerprint:
        return None
    return {"id": row["id"], "email": row["email"], "games": loads(row["games"])}


def may_moderate(mod: dict | None, game_id: str) -> bool:
    return mod is not None and (mod["games"] is None or game_id in mod["games"])


# -- shared bits ------------------------------------------------------------------------
def _left(self, deadline_iso: str | None) -> str | None:
    deadline = from_iso(deadline_iso)
    if deadline is None:
        return None
    return format_remaining((deadline - self.now()).total_seconds(), "en")


def _outcome_text(outcome: dict | None, lang: str = "en") -> str | None:
    if not outcome:
        return None
    try:
        return format_message(gettext_for(lang)(outcome.get("summary", "")), outcome.get("args"))
    except Exception:
        return str(outcome.get("summary", ""))


def _pretty(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def _engine_title(self, name: str) -> str:
    try:
        return self.engine(name).title or name
    except Exception:
        return name


# -- the dashboard -------------------------------------------------------------------------
def console_dashboard(self, mod: dict) -> dict:
    rows = []
    for g in self.games():
        if not may_moderate(mod, g["id"]):
            continue
        s = self.game_summary(g["id"])
        awaited = s["awaited"]
        rows.append({
            **s, "engine_title": _engine_title(self, g["engine"]),
            "left": _left(self, s["deadline"]), "overdue": s["seconds_left"] is not None and s["seconds_left"] <= 0,
            "missing": [r for r in awaited if r not in s["ordered"]],
            "ordered_awaited": [r for r in awaited if r in s["ordered"]],
            "outcome_text": _outcome_text(s["outcome"]),
            "drafts": self.store.one("SELECT COUNT(*) AS n FROM drafts WHERE game_id = ? AND status = 'draft'", (g["id"],))["n"],
        })
    unread = []
    if mod["games"] is None:  # mail that could not be tied to a game is for every-game moderators
        unread = self.store.all(
            "SELECT id, received_at, from_addr, subject, status, note FROM inbound WHERE status = 'error' AND game_id IS NULL ORDER BY id DESC LIMIT 20")
    failed = self.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'failed'")["n"] if mod["games"] is None else 0
    return {"games": rows, "unread": unread, "failed_outbox": failed}


# -- one game -----------------------------------------------------------------------------
def console_game(self, game_id: str) -> dict | None:
    g = self.game(game_id)
    if g is None:
        return None
    s = self.game_summary(game_id)
    engine = self.engine(g["engine"])
    state = self.game_state(game_id)
    view = engine.view(state, MODERATOR)
    players = []
    for p in self.players(game_id):
        tok = self.store.one("SELECT created_at FROM tokens WHERE player_id = ? AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1", (p["id"],))
        players.append({**p, "token_since": tok["created_at"] if tok else None,
                        "ordered": p["role"] in s["ordered"], "awaited": p["role"] in s["awaited"]})
    phases = []
    for ph in self.phase_rows(game_id):
        revisions = self.store.one("SELECT COUNT(*) AS n FROM phases WHERE game_id = ? AND seq = ?", (game_id, ph["seq"]))["n"]
        events = loads(ph["events"], {}) or {}
        phases.append({
            "seq": ph["seq"], "label": ph["label"], "status": ph["status"], "revision": ph["revision"], "revisions": revisions,
            "opened_at": ph["opened_at"], "resolved_at": ph["resolved_at"], "deadline": ph["deadline"],
            "events": len(events.get("events", [])), "defaulted": loads(ph["defaulted"], []) or [],
            "submissions": self.store.one("SELECT COUNT(*) AS n FROM submissions WHERE phase_id = ?", (ph["id"],))["n"],
        })
    resolved = [p for p in phases if p["status"] == "resolved"]
    return {
        "game": g, "summary": s, "engine_title": engine.title or g["engine"], "left": _left(self, s["deadline"]),
        "has_picture": engine.draws_pictures,
        "missing": [r for r in s["awaited"] if r not in s["ordered"]],
        "view": view, "view_json": _pretty(view), "outcome_text": _outcome_text(g["outcome"]),
        "players": players, "phases": list(reversed(phases)), "resolved": resolved,
        "outbox": console_outbox(self, game_id, limit=12),
        "inbound": self.store.all(
            "SELECT id, received_at, from_addr, subject, status, note FROM inbound WHERE game_id = ? ORDER BY id DESC LIMIT 30", (game_id,)),
        "audit": audit_log(self, game_id, public_only=False, limit=50),
        "drafts": self.drafts(game_id),
        "timing": g["timing"],
    }


def console_outbox(self, game_id: str, limit: int = 200) -> list[dict]:
    return self.store.all(
        "SELECT o.id, o.message_id, o.to_addr, o.kind, o.subject, o.status, o.attempts, o.last_error, o.created_at, o.sent_at, "
        "o.next_attempt_at, p.role FROM outbox o LEFT JOIN players p ON p.id = o.player_id WHERE o.game_id = ? ORDER BY o.id DESC LIMIT ?",
        (game_id, limit),
    )


def decode_raw(raw: bytes) -> dict:
    """A stored message as a moderator reads it: decoded headers and the body text."""
    from pbem.mail.inbound import parse_message
    headers = []
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        for name, value in list(msg.raw_items())[:200]:
            try:
                value = str(msg.policy.header_factory(name, value))
            except Exception:
                value = str(value)
            headers.append((name, value[:2000]))
    except Exception as exc:
        headers = [("(error)", f"the headers could not be read: {type(exc).__name__}")]
    parsed = parse_message(raw)
    return {"headers": headers, "text": parsed.text, "from_html": parsed.text_from_html, "problems": parsed.problems,
            "size": len(raw)}


def console_inbound(self, inbound_id: int) -> dict | None:
    row = self.store.one("SELECT * FROM inbound WHERE id = ?", (inbound_id,))
    if row is None:
        return None
    raw = row.pop("raw")
    row["decoded"] = decode_raw(raw)
    row["envelope_to"] = ", ".join(loads(row["envelope_to"], []) or [])
    return row


def console_phase(self, game_id: str, seq: int) -> dict | None:
    """Everything about one phase: each revision, what each role sent (raw,
    decoded), how it was parsed and acknowledged, the dice and the events."""
    from pbem.service.letters import revealed_orders
    g = self.game(game_id)
    rows = self.store.all("SELECT * FROM phases WHERE game_id = ? AND seq = ? ORDER BY revision DESC, id DESC", (game_id, seq))
    if g is None or not rows:
        return None
    live = next((r for r in rows if r["status"] != "superseded"), rows[0])
    engine = self.engine(g["engine"])
    domain = self.settings.mail_domain
    ids = [r["id"] for r in rows]
    subs = self.store.all(
        f"SELECT s.*, p.email AS player_email FROM submissions s LEFT JOIN players p ON p.id = s.player_id "
        f"WHERE s.phase_id IN ({','.join('?' * len(ids))}) ORDER BY s.received_at, s.id", tuple(ids))
    submissions = []
    for s in subs:
        ack_id = message_id(f"ack/{game_id}/{s['phase_label']}/{s['role']}/{s['id']}", domain)
        ack = self.store.one("SELECT id, status, sent_at, created_at, subject, last_error FROM outbox WHERE message_id = ?", (ack_id,))
        inbound = console_inbound(self, s["inbound_id"]) if s["inbound_id"] else None
        submissions.append({
            **s, "errors": describe_errors(loads(s["errors"], []), "en"), "missing": describe_missing(loads(s["missing"], []), "en"),
            "orders_json": _pretty(loads(s["orders"])) if s["orders"] else None,
            "live": s["phase_id"] == live["id"], "ack": ack, "inbound": inbound,
        })
    roles = list(loads(live["awaited"], []))
    by_role = {r: [] for r in roles}
    for s in submissions:
        by_role.setdefault(s["role"], []).append(s)
    record = loads(live["events"], {}) or {}
    used = loads(live["orders"], {}) or {}
    revisions = []
    for r in rows:
        rec = loads(r["events"], {}) or {}
        revisions.append({"id": r["id"], "revision": r["revision"], "status": r["status"], "resolved_at": r["resolved_at"],
                          "orders_json": _pretty(loads(r["orders"], {})) if r["orders"] else None,
                          "events": [e["text"] for e in visible_events(rec.get("events", []), MODERATOR, "en")]})
    return {
        "game": g, "phase": live, "revisions": revisions, "resolved": live["status"] == "resolved",
        "roles": roles, "by_role": by_role, "submissions": submissions,
        "used": {role: _pretty(o) for role, o in used.items()}, "defaulted": loads(live["defaulted"], []) or [],
        "revealed": revealed_orders(self, live) if live["status"] == "resolved" else {},
        "events": visible_events(record.get("events", []), MODERATOR, "en"),
        "rolls": record.get("rolls", []),
        "drafts": [d for d in self.drafts(game_id, status=None) if d["seq"] == seq],
        "reveals_orders": engine.reveals_orders,
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


def audit_log(self, game_id: str, *, public_only: bool = True, limit: int = 500) -> list[dict]:
    sql = "SELECT * FROM audit WHERE game_id = ?" + (" AND public = 1" if public_only else "") + " ORDER BY id DESC LIMIT ?"
    out = []
    for row in self.store.all(sql, (game_id, limit)):
        details = loads(row["details"], {}) or {}
        out.append({
            "at": row["at"], "action": row["action"], "reason": row["reason"], "public": bool(row["public"]),
            "actor": _public_actor(row["actor"], row["action"]) if public_only else row["actor"],
            "summary": _audit_summary(row["action"], details),
        })
    return out


# -- pictures --------------------------------------------------------------------------------
def _picture(self, engine_name: str, state: dict | None, role, lang: str | None = None) -> bytes | None:
    """The picture from ``role``'s view, its words in ``lang`` (None: English, for
    moderators and the public archive)."""
    if state is None:
        return None
    engine = self.engine(engine_name)
    return engine.picture(engine.view(state, role), gettext_for(lang) if lang else None)


def moderator_picture(self, game_id: str) -> bytes | None:
    g = self.game(game_id)
    if g is None:
        return None
    return _picture(self, g["engine"], self.game_state(game_id), MODERATOR)


def public_picture(self, game_id: str, seq: int) -> bytes | None:
    """A phase's picture from the observer's view: the position after a
    resolved phase, the starting position of the open one."""
    g = self.game(game_id)
    ph = self.store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ? AND status != 'superseded'", (game_id, seq))
    if g is None or ph is None:
        return None
    state = loads(ph["result_state"] if ph["status"] == "resolved" else ph["state"])
    return _picture(self, g["engine"], state, None)


# -- the public archive --------------------------------------------------------------------
def public_games(self) -> list[dict]:
    out = []
    for g in self.games():
        ph = self.current_phase(g["id"])
        out.append({"id": g["id"], "title": g["title"], "engine": _engine_title(self, g["engine"]), "status": g["status"],
                    "phase": ph["label"] if ph else None, "created_at": g["created_at"]})
    return out


def public_archive(self, game_id: str) -> dict | None:
    from pbem.service.letters import revealed_orders, shown_seed
    g = self.game(game_id)
    if g is None:
        return None
    engine = self.engine(g["engine"])
    current = self.current_phase(game_id)
    sealed_in = self.game_state(game_id)  # seeds that dealt cards still in play stay sealed
    history = []
    for ph in self.phase_rows(game_id):
        if ph["status"] != "resolved":
            continue
        record = loads(ph["events"], {}) or {}
        history.append({
            "seq": ph["seq"], "label": ph["label"], "revision": ph["revision"], "resolved_at": ph["resolved_at"],
            "commitment": ph["commitment"], "seed": shown_seed(engine, sealed_in, ph),
            "events": visible_events(record.get("events", []), None, "en"),
            "orders": revealed_orders(self, ph) if engine.reveals_orders else {},
            "defaulted": loads(ph["defaulted"], []) or [],
        })
    players = [{"role": p["role"], "name": p["name"], "status": p["status"]}
               for p in self.players(game_id) if p["status"] != "replaced"]
    return {
        "game": {"id": g["id"], "title": g["title"], "engine": engine.title or g["engine"], "scenario": g["scenario"],
                 "status": g["status"], "created_at": g["created_at"], "finished_at": g["finished_at"]},
        "outcome": _outcome_text(g["outcome"]), "players": players,
        "current": {"seq": current["seq"], "label": current["label"], "deadline": current["deadline"],
                    "left": _left(self, current["deadline"]), "commitment": current["commitment"],
                    "awaited": loads(current["awaited"], [])} if current else None,
        "history": list(reversed(history)),
        "audit": audit_log(self, game_id, public_only=True),
        "reveals_orders": engine.reveals_orders, "has_picture": engine.draws_pictures,
    }


# -- a player's own page ------------------------------------------------------------------------
def _token_player(self, game_id: str, token: str) -> dict | None:
    if not token or len(token) > 128:
        return None
    tok = self.store.one("SELECT * FROM tokens WHERE token = ?", (token,))
    if tok is None or tok["revoked_at"] is not None or tok["game_id"] != game_id:
        return None
    p = self.store.one("SELECT * FROM players WHERE id = ?", (tok["player_id"],))
    if p is None or p["status"] not in ("active",):
        return None
    return p


def player_picture(self, game_id: str, token: str) -> bytes | None:
    p = _token_player(self, game_id, token)
    if p is None:
        return None
    g = self.game(game_id)
    return _picture(self, g["engine"], self.game_state(game_id), p["role"], p["lang"])


def player_page(self, game_id: str, token: str) -> dict | None:
    """One player's page, or None when the token is unknown, revoked or not for this game."""
    from pbem.service.letters import _orders_block, _template, revealed_orders, shown_seed
    p = _token_player(self, game_id, token)
    if p is None:
        return None
    g = self.game(game_id)
    engine = self.engine(g["engine"])
    role, lang = p["role"], p["lang"] or "en"
    state = sealed_in = self.game_state(game_id)
    view = engine.view(state, role)
    current = self.current_phase(game_id)
    phase = None
    if current is not None:
        awaited = loads(current["awaited"], [])
        mine = self.store.all(
            "SELECT * FROM submissions WHERE phase_id = ? AND role = ? ORDER BY id DESC", (current["id"], role))
        standing = next((s for s in mine if s["stands"]), None)
        phase = {
            "label": current["label"], "deadline": current["deadline"], "awaited": role in awaited,
            # in the player's zone and language, as the mails say it
            "deadline_text": format_moment(from_iso(current["deadline"]), p["tz"], lang, now=self.now()) if current["deadline"] else None,
            "commitment": current["commitment"], "standing": standing,
            "template": _orders_block(game_id, current["label"], _template(self, g["engine"], loads(current["state"]), role, lang), lang)
                        if role in awaited else None,
        }
    reports = []
    for ph in reversed(self.phase_rows(game_id)):
        if ph["status"] != "resolved":
            continue
        record = loads(ph["events"], {}) or {}
        reports.append({
            "seq": ph["seq"], "label": ph["label"], "revision": ph["revision"], "resolved_at": ph["resolved_at"],
            "seed": shown_seed(engine, sealed_in, ph, lang), "commitment": ph["commitment"],
            "events": visible_events(record.get("events", []), role, lang),
            "orders": revealed_orders(self, ph, lang) if engine.reveals_orders else {},
        })
        if len(reports) >= 30:
            break
    history = []
    for s in self.store.all("SELECT * FROM submissions WHERE game_id = ? AND player_id = ? ORDER BY id DESC LIMIT 50", (game_id, p["id"])):
        history.append({"phase": s["phase_label"], "received_at": s["received_at"], "status": s["status"], "stands": bool(s["stands"]),
                        "text": s["text"], "canonical": s["canonical"], "source": s["source"],
                        "errors": describe_errors(loads(s["errors"], []), lang)})
    hand_key = engine.view_layout.hand
    hand = view.get(hand_key) if hand_key and isinstance(view, dict) else None
    return {
        "game": {"id": g["id"], "title": g["title"], "status": g["status"], "engine": engine.title or g["engine"]},
        "player": {"role": role, "name": p["name"], "email": p["email"], "tz": p["tz"], "lang": lang, "reminder_hours": p["reminder_hours"]},
        "orders_address": self.orders_address(game_id, p["id"]),
        "phase": phase, "view_json": _pretty(view), "hand": hand, "reports": reports, "history": history,
        "outcome": _outcome_text(g["outcome"], lang),
        "has_picture": engine.draws_pictures,
    }


# -- manual adjustment -------------------------------------------------------------------------
def state_for_edit(self, game_id: str) -> dict | None:
    g = self.game(game_id)
    ph = self.current_phase(game_id)
    if g is None:
        return None
    return {"game": g, "phase": ph, "state_json": _pretty(loads(ph["state"])) if ph else None}
