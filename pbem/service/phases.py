"""Phases: opening, closing at the deadline (exactly once), reminders.

A close is computed outside the write lock (engine, pictures, templates) and
committed in one ``BEGIN IMMEDIATE`` transaction that first checks the phase is
still open, so two closers (the scheduler, the CLI, a restart catching up) can
race and the phase is still resolved exactly once.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from pbem.dice import commitment
from pbem.i18n import N_
from pbem.service.absences import deadline_after_absences
from pbem.service.adjudication import adjudicate
from pbem.service.clock import from_iso, to_iso
from pbem.service.endings import lapse_draw
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import MailWriter
from pbem.service.observers import Observers
from pbem.service.part import ServicePart
from pbem.service.store import dumps, loads
from pbem.service.timing import TimingError, deadline_after, deadline_spec

log = logging.getLogger("pbem.phases")


def reminder_time(deadline: datetime, opened: datetime, lead_hours: int) -> datetime:
    """When a player who wants ``lead_hours`` of warning is reminded; a phase shorter
    than the lead time gets its reminder half-way instead."""
    remind_at = deadline - timedelta(hours=lead_hours)
    return remind_at if remind_at > opened else opened + (deadline - opened) / 2


def _orders_to_resolve(engine, state: dict, awaited: list[str], standing: dict[str, dict]) -> tuple[dict, list[str]]:
    """(role -> orders, roles defaulted): each awaited role's standing orders, then the
    engine's default orders for each role without any (the order the engine is given them in)."""
    defaulted = [role for role in awaited if role not in standing]
    orders = {role: loads(standing[role]["orders"]) for role in awaited if role in standing}
    orders.update((role, engine.default_orders(state, role)) for role in defaulted)
    return orders, defaulted


@dataclass(kw_only=True, eq=False)
class Phases(ServicePart):
    """Opening and closing phases, reminders, and resending a report."""

    mail: MailWriter
    observers: Observers
    notify: Callable[..., None]

    def open(self, game_id: str, state: dict, *, seq: int, now: datetime, revision: int = 0) -> dict | None:
        """Insert the phase that ``state`` is in (inside the caller's transaction);
        None and the game marked finished when the game is over."""
        g = self.records.game_row(game_id)
        engine = self.engine(g["engine"])
        outcome = engine.outcome(state)
        if outcome is not None:
            self.records.set_game_status(game_id, "finished", outcome=dumps(outcome), finished_at=to_iso(now))
            return None
        info = engine.phase(state)
        if info.deadline not in {kind.name for kind in engine.deadline_kinds}:
            raise TimingError(f"{g['engine']} phase {info.id} names the deadline kind {info.deadline!r}, "
                              f"which the engine does not declare in deadline_kinds")
        spec = deadline_spec(loads(g["timing"], {}), info.deadline)
        deadline = None if g["status"] == "paused" else deadline_after(spec, now)
        deadline = deadline_after_absences(self.records, game_id, info.awaited, deadline)  # ABSENCE
        seed = secrets.token_hex(32)
        row = {
            "game_id": game_id, "seq": seq, "label": info.id, "mode": info.mode, "immediate": int(info.immediate),
            "awaited": dumps(list(info.awaited)), "state": dumps(state), "commitment": commitment(seed), "seed": seed,
            "opened_at": to_iso(now), "deadline": to_iso(deadline) if deadline else None, "status": "open", "revision": revision,
            "rules_version": engine.rules_version, "state_format": engine.state_format,
        }
        row["id"] = self.records.insert("phases", row)
        return row

    def ready_to_close(self, game_id: str | None = None) -> list[dict]:
        """Open immediate phases of active games whose every awaited role has standing orders
        (game_id, phase row id): what the mail room closes at once, and what a crash between
        the answer and the close left open."""
        return self.records.ready_phases(game_id)

    def close_ready(self, game_id: str) -> None:
        """Resolve the game's open phase if every awaited role has ordered it (an immediate one)."""
        for ready in self.ready_to_close(game_id):
            self.close(game_id, phase_row_id=ready["id"], reason="every awaited role has ordered", actor="server")

    def close(self, game_id: str, *, reason: str = "deadline", phase_row_id: int | None = None, actor: str = "scheduler") -> dict | None:
        """Resolve the open phase now. Returns what happened, or None if there was
        nothing to close (already closed, paused, or not the phase row asked for)."""
        records = self.records
        g = records.game_row(game_id)
        ph = records.current_phase(game_id)
        if g is None or ph is None or (phase_row_id is not None and ph["id"] != phase_row_id):
            return None
        if g["status"] != "active" and reason == "deadline":
            return None
        engine = self.engine(g["engine"])
        state, awaited = loads(ph["state"]), loads(ph["awaited"])
        standing = records.standing_orders(ph["id"])
        missing = [role for role in awaited if role not in standing]
        if missing and reason == "deadline" and loads(g["timing"], {}).get("no_orders") == "wait":
            return self._wait_for_moderator(game_id, ph, missing)
        now = self.now()
        orders, defaulted = _orders_to_resolve(engine, state, awaited, standing)
        new_state, events, rolls = adjudicate(engine, state, orders, ph["seed"])
        with records.write():
            current = records.phase_status(ph["id"])
            if current["status"] != "open" or current["revision"] != ph["revision"]:
                return None  # someone else closed it first
            # Orders received before the deadline may have been committed (and acknowledged as
            # standing) while the phase was being resolved outside the lock, or a side's standing
            # orders may have changed the phase's state (Engine.apply_standing): resolve again with them.
            again = records.standing_orders(ph["id"])
            fresh = records.phase(ph["id"])["state"]
            if fresh != ph["state"] or {r: sub["id"] for r, sub in again.items()} != {r: sub["id"] for r, sub in standing.items()}:
                state = loads(fresh)
                orders, defaulted = _orders_to_resolve(engine, state, awaited, again)
                new_state, events, rolls = adjudicate(engine, state, orders, ph["seed"])
            records.update("phases", ph["id"], {
                "status": "resolved", "orders": dumps(orders), "defaulted": dumps(defaulted),
                "events": dumps({"events": events, "rolls": rolls}), "result_state": dumps(new_state), "resolved_at": to_iso(now),
                "rules_version": engine.rules_version,
            })
            next_phase = self.open(game_id, new_state, seq=ph["seq"] + 1, now=now)
            if reason != "deadline":
                records.audit(game_id, actor, "close phase", reason, {"phase": ph["label"]}, public=actor != "server")
            self._queue_reports(game_id, records.phase(ph["id"]), next_phase)
            lapse_draw(records, self.mail, game_id, ph)  # a draw proposed in this phase was not agreed in time
        self.notify("phase", game_id)
        self.notify("outbox", game_id)
        return {"phase": ph["label"], "next": next_phase["label"] if next_phase else None, "defaulted": defaulted, "events": len(events)}

    def _wait_for_moderator(self, game_id: str, ph: dict, missing: list[str]) -> dict | None:
        """A game timed to wait rather than play default orders: at the deadline without
        every awaited role's orders, it stops (status 'waiting', no deadline) until a moderator acts."""
        records = self.records
        with records.write():
            if records.phase_status(ph["id"])["status"] != "open":
                return None
            records.set_game_status(game_id, "waiting")
            records.set_deadline(ph["id"], None)
            records.audit(game_id, "scheduler", "wait for moderator", "no orders from " + ", ".join(missing), {"phase": ph["label"]})
        self.notify("phase", game_id)
        return {"waiting": missing}

    def _queue_reports(self, game_id: str, resolved: dict, next_phase: dict | None) -> None:
        """The report on a resolved phase to each active player and each observer."""
        for p in self.records.players(game_id):
            if p["status"] == "active":
                self.mail.queue_report(game_id, p, resolved, next_phase)
        self.observers.queue_reports(game_id, resolved, next_phase)

    def close_due(self, limit: int = 100) -> int:
        """Close every open phase whose deadline has passed (the scheduler's catch-up)."""
        closed = 0
        for row in self.records.due_phases(to_iso(self.now()), limit):
            try:
                if self.close(row["game_id"], phase_row_id=row["id"]):
                    closed += 1
            except Exception:  # one broken game must not stop the others
                log.exception("closing %s failed", row["game_id"])
        return closed

    def send_reminders(self, game_id: str | None = None) -> int:
        """Remind players who have not ordered, each at their chosen lead time before the deadline."""
        records, now = self.records, self.now()
        sent = 0
        for ph in records.phases_due_between(to_iso(now), to_iso(now + timedelta(days=8)), game_id or None):
            deadline = from_iso(ph["deadline"])
            awaited = set(loads(ph["awaited"]))
            ordered = records.ordered_roles(ph["id"])
            opened = from_iso(ph["opened_at"])
            with records.write():
                for p in records.players(ph["game_id"]):
                    if p["status"] != "active" or p["role"] not in awaited or p["role"] in ordered or not p["reminder_hours"]:
                        continue
                    if now >= reminder_time(deadline, opened, p["reminder_hours"]) and self.mail.queue_reminder(ph["game_id"], p, ph):
                        sent += 1
        if sent:
            self.notify("outbox", game_id)
        return sent

    def next_reminder_time(self, ph: dict, after: datetime | None = None) -> datetime | None:
        """The earliest reminder still to come for a phase (players choose their lead time)."""
        deadline = from_iso(ph["deadline"])
        if deadline is None:
            return None
        opened = from_iso(ph["opened_at"])
        times = [reminder_time(deadline, opened, p["reminder_hours"])
                 for p in self.records.players(ph["game_id"]) if p["status"] == "active" and p["reminder_hours"]]
        if after is not None:
            times = [t for t in times if t > after]
        return min(times) if times else None

    def resend_report(self, game_id: str, seq: int, role: str, *, actor: str, reason: str) -> str | None:
        """Queue a resolved phase's report again for one role (a fresh copy, its own Message-ID)."""
        records = self.records
        with records.write():
            ph = records.resolved_phase(game_id, seq)
            p = records.active_player(game_id, role)
            if ph is None or p is None:
                raise ServiceError(N_("no resolved phase with that number, or no active player in that role"))
            nxt = records.live_phase(game_id, seq + 1)
            n = records.count_audit(game_id, "resend report")
            mid = self.mail.queue_report(game_id, p, ph, nxt, copy=n + 1)
            records.audit(game_id, actor, "resend report", reason, {"phase": ph["label"], "role": role})
        self.notify("outbox", game_id)
        return mid
