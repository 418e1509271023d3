"""Phases: opening, closing at the deadline (exactly once), reminders.

A close is computed outside the write lock (engine, pictures, templates) and
committed in one ``BEGIN IMMEDIATE`` transaction that first checks the phase is
still open, so two closers (the scheduler, the CLI, a restart catching up) can
race and the phase is still resolved exactly once.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import datetime, timedelta

from pbem.dice import Dice, commitment
from pbem.service.clock import from_iso, to_iso
from pbem.service.store import dumps, loads
from pbem.service.timing import TimingError, deadline_after, deadline_spec

log = logging.getLogger("pbem.phases")


def state_hash(state: dict) -> str:
    return hashlib.sha256(dumps(state).encode("utf-8")).hexdigest()


def open_phase(self, game_id: str, state: dict, *, seq: int, now: datetime, revision: int = 0) -> dict | None:
    """Insert the phase that ``state`` is in (inside the caller's transaction);
    None and the game marked finished when the game is over."""
    store = self.store
    g = store.one("SELECT engine, timing, status FROM games WHERE id = ?", (game_id,))
    engine = self.engine(g["engine"])
    outcome = engine.outcome(state)
    if outcome is not None:
        store.execute("UPDATE games SET status = 'finished', outcome = ?, finished_at = ? WHERE id = ?", (dumps(outcome), to_iso(now), game_id))
        return None
    info = engine.phase(state)
    if info.deadline not in {kind.name for kind in engine.deadline_kinds}:
        raise TimingError(f"{g['engine']} phase {info.id} names the deadline kind {info.deadline!r}, "
                          f"which the engine does not declare in deadline_kinds")
    spec = deadline_spec(loads(g["timing"], {}), info.deadline)
    deadline = None if g["status"] == "paused" else deadline_after(spec, now)
    seed = secrets.token_hex(32)
    row = {
        "game_id": game_id, "seq": seq, "label": info.id, "mode": info.mode, "immediate": int(info.immediate),
        "awaited": dumps(list(info.awaited)), "state": dumps(state), "commitment": commitment(seed), "seed": seed,
        "opened_at": to_iso(now), "deadline": to_iso(deadline) if deadline else None, "status": "open", "revision": revision,
    }
    row["id"] = store.insert("phases", row)
    return row


def standing_orders(store, phase_id: int) -> dict[str, dict]:
    """role -> the submission that stands for the phase."""
    rows = store.all("SELECT * FROM submissions WHERE phase_id = ? AND stands = 1", (phase_id,))
    return {r["role"]: r for r in rows}


def adjudicate(engine, state: dict, orders: dict, seed: str) -> tuple[dict, list[dict], list[dict]]:
    """Pure: the result of a phase from its start, orders and seed."""
    dice = Dice(seed)
    new_state, events = engine.resolve(state, orders, dice)
    return new_state, events, dice.rolls


def phases_ready_to_close(self, game_id: str | None = None) -> list[dict]:
    """Open immediate phases of active games whose every awaited role has standing orders
    (game_id, phase id): what the mail room closes at once, and what a crash between the
    answer and the close left open."""
    return self.store.all(
        "SELECT p.game_id, p.id FROM phases p JOIN games g ON g.id = p.game_id "
        "WHERE p.status = 'open' AND p.immediate = 1 AND g.status = 'active' AND (? IS NULL OR p.game_id = ?) "
        "AND NOT EXISTS (SELECT 1 FROM json_each(p.awaited) a WHERE NOT EXISTS ("
        "  SELECT 1 FROM submissions s WHERE s.phase_id = p.id AND s.role = a.value AND s.stands = 1))",
        (game_id, game_id),
    )


def close_ready_phases(self, game_id: str) -> None:
    """Resolve the game's open phase if every awaited role has ordered it (an immediate one)."""
    for ready in phases_ready_to_close(self, game_id):
        self.close_phase(game_id, phase_id=ready["id"], reason="every awaited role has ordered", actor="server")


def close_phase(self, game_id: str, *, reason: str = "deadline", phase_id: int | None = None, actor: str = "scheduler") -> dict | None:
    """Resolve the open phase now. Returns what happened, or None if there was
    nothing to close (already closed, paused, or not the phase asked for)."""
    from pbem.service import letters
    from pbem.service.games import audit, players_of

    store = self.store
    g = store.one("SELECT * FROM games WHERE id = ?", (game_id,))
    ph = store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open' ORDER BY seq DESC LIMIT 1", (game_id,))
    if g is None or ph is None or (phase_id is not None and ph["id"] != phase_id):
        return None
    if g["status"] != "active" and reason == "deadline":
        return None
    engine = self.engine(g["engine"])
    state = loads(ph["state"])
    standing = standing_orders(store, ph["id"])
    awaited = loads(ph["awaited"])
    orders, defaulted = {}, []
    for role in awaited:
        if role in standing:
            orders[role] = loads(standing[role]["orders"])
        else:
            defaulted.append(role)
    timing = loads(g["timing"], {})
    now = self.now()
    if defaulted and timing.get("no_orders") == "wait" and reason == "deadline":
        with store.write():
            if store.one("SELECT status FROM phases WHERE id = ?", (ph["id"],))["status"] != "open":
                return None
            store.execute("UPDATE games SET status = 'waiting' WHERE id = ?", (game_id,))
            store.execute("UPDATE phases SET deadline = NULL WHERE id = ?", (ph["id"],))
            audit(self, game_id, "scheduler", "wait for moderator", "no orders from " + ", ".join(defaulted), {"phase": ph["label"]})
        self.notify("phase", game_id)
        return {"waiting": defaulted}
    for role in defaulted:
        orders[role] = engine.default_orders(state, role)
    new_state, events, rolls = adjudicate(engine, state, orders, ph["seed"])

    with store.write():
        current = store.one("SELECT status, revision FROM phases WHERE id = ?", (ph["id"],))
        if current["status"] != "open" or current["revision"] != ph["revision"]:
            return None  # someone else closed it first
        # Orders received before the deadline may have been committed (and acknowledged as
        # standing) while the phase was being resolved outside the lock: resolve again with them.
        again = standing_orders(store, ph["id"])
        if {r: s["id"] for r, s in again.items()} != {r: s["id"] for r, s in standing.items()}:
            orders = {role: loads(again[role]["orders"]) if role in again else engine.default_orders(state, role) for role in awaited}
            defaulted = [role for role in awaited if role not in again]
            new_state, events, rolls = adjudicate(engine, state, orders, ph["seed"])
        store.update("phases", ph["id"], {
            "status": "resolved", "orders": dumps(orders), "defaulted": dumps(defaulted),
            "events": dumps({"events": events, "rolls": rolls}), "result_state": dumps(new_state), "resolved_at": to_iso(now),
        })
        next_phase = open_phase(self, game_id, new_state, seq=ph["seq"] + 1, now=now)
        if reason != "deadline":
            audit(self, game_id, actor, "close phase", reason, {"phase": ph["label"]}, public=actor != "server")
        resolved = store.one("SELECT * FROM phases WHERE id = ?", (ph["id"],))
        for p in players_of(store, game_id):
            if p["status"] == "active":
                letters.queue_report(self, game_id, p, resolved, next_phase)
    self.notify("phase", game_id)
    self.notify("outbox", game_id)
    return {"phase": ph["label"], "next": next_phase["label"] if next_phase else None, "defaulted": defaulted, "events": len(events)}


def close_due(self, limit: int = 100) -> int:
    """Close every open phase whose deadline has passed (the scheduler's catch-up)."""
    now = to_iso(self.now())
    due = self.store.all(
        "SELECT p.game_id, p.id FROM phases p JOIN games g ON g.id = p.game_id "
        "WHERE p.status = 'open' AND g.status = 'active' AND p.deadline IS NOT NULL AND p.deadline <= ? ORDER BY p.deadline LIMIT ?",
        (now, limit),
    )
    closed = 0
    for row in due:
        try:
            if close_phase(self, row["game_id"], phase_id=row["id"]):
                closed += 1
        except Exception:  # one broken game must not stop the others
            log.exception("closing %s failed", row["game_id"])
    return closed


def send_reminders(self, game_id: str | None = None) -> int:
    """Remind players who have not ordered, each at their chosen lead time before the deadline."""
    from pbem.service import letters
    from pbem.service.games import players_of

    store, now = self.store, self.now()
    sql = ("SELECT p.* FROM phases p JOIN games g ON g.id = p.game_id WHERE p.status = 'open' AND g.status = 'active' "
           "AND p.deadline IS NOT NULL AND p.deadline > ? AND p.deadline <= ?")
    params: list = [to_iso(now), to_iso(now + timedelta(days=8))]
    if game_id:
        sql += " AND p.game_id = ?"
        params.append(game_id)
    sent = 0
    for ph in store.all(sql, tuple(params)):
        deadline = from_iso(ph["deadline"])
        awaited = set(loads(ph["awaited"]))
        ordered = set(standing_orders(store, ph["id"]))
        opened = from_iso(ph["opened_at"])
        with store.write():
            for p in players_of(store, ph["game_id"]):
                if p["status"] != "active" or p["role"] not in awaited or p["role"] in ordered or not p["reminder_hours"]:
                    continue
                remind_at = deadline - timedelta(hours=p["reminder_hours"])
                # A phase shorter than the lead time gets its reminder half-way instead.
                if remind_at <= opened:
                    remind_at = opened + (deadline - opened) / 2
                if now >= remind_at and letters.queue_reminder(self, ph["game_id"], p, ph):
                    sent += 1
    if sent:
        self.notify("outbox", game_id)
    return sent


def next_reminder_time(self, ph: dict, after: datetime | None = None) -> datetime | None:
    """The earliest reminder still to come for a phase (players choose their lead time)."""
    from pbem.service.games import players_of
    deadline = from_iso(ph["deadline"])
    if deadline is None:
        return None
    opened = from_iso(ph["opened_at"])
    times = []
    for p in players_of(self.store, ph["game_id"]):
        if p["status"] == "active" and p["reminder_hours"]:
            t = deadline - timedelta(hours=p["reminder_hours"])
            times.append(t if t > opened else opened + (deadline - opened) / 2)
    if after is not None:
        times = [t for t in times if t > after]
    return min(times) if times else None


def resend_report(self, game_id: str, seq: int, role: str, *, actor: str, reason: str) -> str | None:
    """Queue a resolved phase's report again for one role (a fresh copy, its own Message-ID)."""
    from pbem.service import letters
    from pbem.service.core import ServiceError
    from pbem.service.games import audit
    store = self.store
    with store.write():
        ph = store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ? AND status = 'resolved'", (game_id, seq))
        p = store.one("SELECT * FROM players WHERE game_id = ? AND role = ? AND status = 'active'", (game_id, role))
        if ph is None or p is None:
            raise ServiceError("no resolved phase with that number, or no active player in that role")
        nxt = store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ? AND status != 'superseded'", (game_id, seq + 1))
        n = store.one("SELECT COUNT(*) AS n FROM audit WHERE game_id = ? AND action = 'resend report'", (game_id,))["n"]
        mid = letters.queue_report(self, game_id, p, ph, nxt, copy=n + 1)
        audit(self, game_id, actor, "resend report", reason, {"phase": ph["label"], "role": role})
    self.notify("outbox", game_id)
    return mid
