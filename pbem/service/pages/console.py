"""The moderators' console: the dashboard, one game, one phase, a stored mail, the
outbox, and the state as a moderator edits it."""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass

from pbem.engines.base import MODERATOR
from pbem.mail.inbound import parse_message
from pbem.service.acks import key_of
from pbem.service.disputes import Disputes
from pbem.service.games import Games
from pbem.service.mail_writer import MailWriter
from pbem.service.moderators import may_moderate
from pbem.service.outbox import message_id
from pbem.service.pages.common import audit_log, engine_title, outcome_text, picture, pretty, time_left
from pbem.service.part import ConfiguredPart
from pbem.service.render import describe_errors, describe_missing, describe_warnings, visible_events
from pbem.service.store import loads
from pbem.service.upgrades import result_state, starting_state


def decode_raw(raw: bytes) -> dict:
    """A stored message as a moderator reads it: decoded headers and the body text."""
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


@dataclass(kw_only=True, eq=False)
class ConsolePages(ConfiguredPart):
    """Everything about the games a moderator may moderate."""

    mail: MailWriter
    games: Games
    disputes: Disputes

    def dashboard(self, mod: dict, lang: str = "en") -> dict:
        records = self.records
        rows = []
        for g in records.games():
            if not may_moderate(mod, g["id"]):
                continue
            s = self.games.summary(g["id"])
            awaited = s["awaited"]
            rows.append({
                **s, "engine_title": engine_title(self.engine, g["engine"]),
                "left": time_left(s["deadline"], self.now(), lang), "overdue": s["seconds_left"] is not None and s["seconds_left"] <= 0,
                "missing": [r for r in awaited if r not in s["ordered"]],
                "ordered_awaited": [r for r in awaited if r in s["ordered"]],
                "outcome_text": outcome_text(s["outcome"], lang),
                "drafts": records.count_open_drafts(g["id"]),
            })
        every_game = mod["games"] is None  # mail that could not be tied to a game is for every-game moderators
        return {"games": rows, "unread": records.unplaced_errors() if every_game else [],
                "failed_outbox": records.count_failed_outbox() if every_game else 0}

    def game(self, game_id: str, lang: str = "en") -> dict | None:
        """One game as its moderators see it; times left, the outcome and the log in ``lang``."""
        records = self.records
        g = records.game(game_id)
        if g is None:
            return None
        s = self.games.summary(game_id)
        engine = self.engine(g["engine"])
        view = engine.view(records.game_state(game_id), MODERATOR)
        players = []
        marks = {m["player_id"]: m for m in records.undeliverable_players(game_id)}  # issue 27: addresses whose mail bounced
        for p in records.players(game_id):
            tok = records.current_token(p["id"])
            players.append({**p, "token_since": tok["created_at"] if tok else None, "undeliverable": marks.get(p["id"]),
                            "ordered": p["role"] in s["ordered"], "awaited": p["role"] in s["awaited"]})
        phases = []
        for ph in records.phase_rows(game_id):
            events = loads(ph["events"], {}) or {}
            phases.append({
                "seq": ph["seq"], "label": ph["label"], "status": ph["status"], "revision": ph["revision"],
                "revisions": records.count_revisions(game_id, ph["seq"]),
                "opened_at": ph["opened_at"], "resolved_at": ph["resolved_at"], "deadline": ph["deadline"],
                "events": len(events.get("events", [])), "defaulted": loads(ph["defaulted"], []) or [],
                "submissions": records.count_submissions(ph["id"]),
            })
        return {
            "game": g, "summary": s, "engine_title": engine.title or g["engine"], "left": time_left(s["deadline"], self.now(), lang),
            "has_picture": engine.draws_pictures,
            "missing": [r for r in s["awaited"] if r not in s["ordered"]],
            "view": view, "view_json": pretty(view), "outcome_text": outcome_text(g["outcome"], lang),
            "players": players, "phases": list(reversed(phases)), "resolved": [p for p in phases if p["status"] == "resolved"],
            "outbox": self.outbox(game_id, limit=12),
            "inbound": records.inbound_of_game(game_id, 30),
            "audit": audit_log(records, game_id, public_only=False, limit=50, lang=lang),
            # issue 16: declared absences (by role) and how many addresses watch the game
            "absences": [{**a, "role": next((p["role"] for p in players if p["id"] == a["player_id"]), "?")}
                         for a in records.absences(game_id)],
            "observers": len(records.observers(game_id)),
            "drafts": self.disputes.drafts(game_id),
            "timing": g["timing"],
        }

    def outbox(self, game_id: str, limit: int = 200) -> list[dict]:
        return self.records.outbox_of_game(game_id, limit)

    def inbound(self, inbound_id: int) -> dict | None:
        row = self.records.inbound(inbound_id)
        if row is None:
            return None
        raw = row.pop("raw")
        row["decoded"] = decode_raw(raw)
        row["envelope_to"] = ", ".join(loads(row["envelope_to"], []) or [])
        return row

    def phase(self, game_id: str, seq: int, lang: str = "en") -> dict | None:
        """Everything about one phase: each revision, what each role sent (raw,
        decoded), how it was parsed and acknowledged, the dice and the events (in ``lang``)."""
        records = self.records
        g = records.game(game_id)
        rows = records.phase_revisions(game_id, seq)
        if g is None or not rows:
            return None
        live = next((r for r in rows if r["status"] != "superseded"), rows[0])
        submissions = [self._submission(game_id, s, live, lang) for s in records.submissions_of_phases([r["id"] for r in rows])]
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
                              "orders_json": pretty(loads(r["orders"], {})) if r["orders"] else None,
                              "events": [e["text"] for e in visible_events(rec.get("events", []), MODERATOR, lang)]})
        return {
            "game": g, "phase": live, "revisions": revisions, "resolved": live["status"] == "resolved",
            "roles": roles, "by_role": by_role, "submissions": submissions,
            "used": {role: pretty(o) for role, o in used.items()}, "defaulted": loads(live["defaulted"], []) or [],
            "revealed": self.mail.revealed_orders(live, lang) if live["status"] == "resolved" else {},
            "events": visible_events(record.get("events", []), MODERATOR, lang),
            "rolls": record.get("rolls", []),
            "drafts": [d for d in self.disputes.drafts(game_id, status=None) if d["seq"] == seq],
            "reveals_orders": self.engine(g["engine"]).reveals_orders,
        }

    def _submission(self, game_id: str, s: dict, live: dict, lang: str = "en") -> dict:
        """One submission as the phase page shows it: read, parsed, acknowledged."""
        ack_id = message_id(key_of(game_id, s["phase_label"], s["role"], s["id"]), self.settings.mail_domain)
        return {
            **s, "errors": describe_errors(loads(s["errors"], []), lang), "missing": describe_missing(loads(s["missing"], []), lang),
            "warnings": describe_warnings(loads(s["missing"], []), lang),
            "orders_json": pretty(loads(s["orders"])) if s["orders"] else None,
            "live": s["phase_row_id"] == live["id"], "ack": self.records.outbox_message(ack_id),
            "inbound": self.inbound(s["inbound_id"]) if s["inbound_id"] else None,
        }

    def picture(self, game_id: str, lang: str | None = None) -> bytes | None:
        """The game now, from the moderator's view (everything shown), its words in ``lang``."""
        g = self.records.game(game_id)
        if g is None:
            return None
        return picture(self.engine(g["engine"]), self.records.game_state(game_id), MODERATOR, lang)

    def has_pictures(self, game_id: str) -> bool:
        g = self.records.game(game_id)
        return bool(g) and self.engine(g["engine"]).draws_pictures

    def phase_picture(self, game_id: str, seq: int, when: str, lang: str | None = None) -> bytes | None:
        """A resolved phase's picture from the moderator's view: at its ``start`` (the position
        its orders were written against) or its published ``result``."""
        g = self.records.game(game_id)
        live = next((r for r in self.records.phase_revisions(game_id, seq) if r["status"] == "resolved"), None) if g else None
        if live is None:
            return None
        engine = self.engine(g["engine"])
        return picture(engine, starting_state(engine, live) if when == "start" else result_state(engine, live), MODERATOR, lang)

    def draft_picture(self, draft_id: int, lang: str | None = None) -> bytes | None:
        """The result a draft correction would publish, once re-adjudicated."""
        d = self.disputes.draft(draft_id)
        if d is None or d["result_state"] is None:
            return None
        return picture(self.engine(self.records.game(d["game_id"])["engine"]), d["result_state"], MODERATOR, lang)

    def state_for_edit(self, game_id: str) -> dict | None:
        g = self.records.game(game_id)
        ph = self.records.current_phase(game_id)
        if g is None:
            return None
        return {"game": g, "phase": ph, "state_json": pretty(loads(ph["state"])) if ph else None}
