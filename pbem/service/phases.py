"""Phases: opening, closing at the deadline (exactly once), reminders.

A close is worked out first (:meth:`Phases.prepare_close`: the engine, the next phase
with its new seed, every report composed to its bytes) from the rows read, without
writing, so that it can run in a worker process
(pbem.service.close_pool) as well as here; then :meth:`Phases.commit_close` writes it in
one ``BEGIN IMMEDIATE`` transaction if none of those rows has changed meanwhile, and
else works it out again inside that transaction. Two closers (the scheduler, the CLI,
a restart catching up, a worker's close redone after it died) can race and the phase
is still resolved exactly once, and its reports queued once.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Callable

from pbem.dice import commitment
from pbem.i18n import N_
from pbem.service import outbox
from pbem.service.absences import deadline_after_absences
from pbem.service.adjudication import adjudicate
from pbem.service.clock import from_iso, to_iso
from pbem.service.endings import lapse_draw
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import MailWriter
from pbem.service.observers import Observers
from pbem.service.outbox import ComposedMail
from pbem.service.part import ServicePart
from pbem.service.stand_ins import StandIns, stand_in_orders, who_stands_in
from pbem.service.store import dumps, loads
from pbem.service.timing import TimingError, deadline_after, deadline_spec

log = logging.getLogger("pbem.phases")

#: the reason of a close because every awaited role has ordered an immediate phase
EVERYONE_ORDERED = "every awaited role has ordered"


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


def _digest(rows: dict) -> str:
    return hashlib.sha256(dumps(rows).encode("utf-8")).hexdigest()


@dataclass(kw_only=True)
class ClosePlan:
    """A close worked out from the rows read, for :meth:`Phases.commit_close` to write as it
    is if those rows (``inputs``, their digest) have not changed. Plain data: a worker
    process sends it back to the server."""
    game_id: str
    phase_row_id: int
    reason: str
    actor: str
    now: datetime
    inputs: str
    label: str
    waiting: list[str] | None = None    # no orders at a deadline of a game that waits: the roles missing
    resolution: dict = field(default_factory=dict)  # the phases row's new columns
    next_phase: dict | None = None      # the row to insert; None when the game ends
    outcome: dict | None = None         # the game's outcome when it ends
    mails: list[ComposedMail] = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    stand_ins: list[str] = field(default_factory=list)  # the roles whose orders the stand-in gave


@dataclass(kw_only=True, eq=False)
class Phases(ServicePart):
    """Opening and closing phases, reminders, and resending a report."""

    mail: MailWriter
    observers: Observers
    notify: Callable[..., None]
    stand_ins: StandIns
    #: told (inside the transaction) that a game has just finished: its result, ratings, tournament
    game_over: Callable[[str], None] = lambda game_id: None

    def next_phase_row(self, game_id: str, state: dict, *, seq: int, now: datetime, revision: int = 0,
                       game: dict | None = None) -> tuple[dict | None, dict | None]:
        """(the phases row of the phase ``state`` is in, not yet inserted, with its new seed;
        None) or, when the game is over, (None, its outcome). Reads only."""
        g = game or self.records.game_row(game_id)
        engine = self.engine(g["engine"])
        outcome = engine.outcome(state)
        if outcome is not None:
            return None, outcome
        info = engine.phase(state)
        if info.deadline not in {kind.name for kind in engine.deadline_kinds}:
            raise TimingError(f"{g['engine']} phase {info.id} names the deadline kind {info.deadline!r}, "
                              f"which the engine does not declare in deadline_kinds")
        spec = deadline_spec(loads(g["timing"], {}), info.deadline)
        base = None if g["status"] == "paused" else deadline_after(spec, now)
        deadline = deadline_after_absences(self.records, game_id, info.awaited, base, game=g)  # ABSENCE
        seed = secrets.token_hex(32)
        return {
            "game_id": game_id, "seq": seq, "label": info.id, "mode": info.mode, "immediate": int(info.immediate),
            "awaited": dumps(list(info.awaited)), "state": dumps(state), "commitment": commitment(seed), "seed": seed,
            "opened_at": to_iso(now), "deadline": to_iso(deadline) if deadline else None, "status": "open", "revision": revision,
            "absence_delay": (deadline - base).total_seconds() if deadline else 0.0,
            "rules_version": engine.rules_version, "state_format": engine.state_format,
        }, None

    def open(self, game_id: str, state: dict, *, seq: int, now: datetime, revision: int = 0) -> dict | None:
        """Insert the phase that ``state`` is in (inside the caller's transaction);
        None and the game marked finished when the game is over."""
        row, outcome = self.next_phase_row(game_id, state, seq=seq, now=now, revision=revision)
        if row is None:
            self._finish(game_id, outcome, now)
            return None
        row["id"] = self.records.insert("phases", row)
        return row

    def _finish(self, game_id: str, outcome: dict, now: datetime) -> None:
        self.records.set_game_status(game_id, "finished", outcome=dumps(outcome), finished_at=to_iso(now))
        self.game_over(game_id)

    def ready_to_close(self, game_id: str | None = None) -> list[dict]:
        """Open immediate phases of active games whose every awaited role has standing orders
        (game_id, phase row id): what the mail room closes at once, and what a crash between
        the answer and the close left open."""
        return self.records.ready_phases(game_id)

    def close_ready(self, game_id: str) -> None:
        """Resolve the game's open phase if every awaited role has ordered it (an immediate one)."""
        for ready in self.ready_to_close(game_id):
            self.close(game_id, phase_row_id=ready["id"], reason=EVERYONE_ORDERED, actor="server")

    def close(self, game_id: str, *, reason: str = "deadline", phase_row_id: int | None = None, actor: str = "scheduler") -> dict | None:
        """Resolve the open phase now, in this thread. Returns what happened, or None if there
        was nothing to close (already closed, paused, or not the phase row asked for)."""
        plan = self.prepare_close(game_id, reason=reason, phase_row_id=phase_row_id, actor=actor, now=self.now())
        return self.commit_close(plan) if plan is not None else None

    def _close_rows(self, game_id: str, phase_row_id: int) -> dict:
        """Every row a close of this phase is worked out from: the game, the phase, its standing
        orders, the players and their tokens (each report's Reply-To), the observers, the
        absences (the next deadline)."""
        records = self.records
        players = records.players(game_id)
        return {
            "game": records.game_row(game_id), "phase": records.phase(phase_row_id),
            "standing": records.standing_orders(phase_row_id), "players": players,
            "tokens": [records.token_for(p["id"]) for p in players],
            "observers": records.observers(game_id), "absences": records.absences(game_id),
            "history": records.missed_orders_history(game_id),  # who missed deadlines: the stand-in (issue 28)
        }

    def close_inputs(self, game_id: str, phase_row_id: int) -> str:
        """A digest of the rows a close of this phase is worked out from: equal digests, the same close."""
        return _digest(self._close_rows(game_id, phase_row_id))

    def prepare_close(self, game_id: str, *, reason: str = "deadline", phase_row_id: int | None = None,
                      actor: str = "scheduler", now: datetime) -> ClosePlan | None:
        """Work a close out without writing: resolve the phase, make the next phase's row, and
        compose every report (each player's, each observer's) to its bytes. None when there is
        nothing to close. What a worker process runs.

        The plan is made from the rows its digest was taken of, and the digest is taken again
        at the end: rows that changed meanwhile (orders committed while the engine ran) make it
        work the close out again, and after that the commit (which compares the digest with the
        rows as they are then, inside its transaction) does."""
        first = self.records.current_phase(game_id)
        if first is None or (phase_row_id is not None and first["id"] != phase_row_id):
            return None
        for _ in range(2):
            rows = self._close_rows(game_id, first["id"])
            plan = self._work_out(rows, reason=reason, actor=actor, now=now)
            if plan is None or self.close_inputs(game_id, first["id"]) == plan.inputs:
                break
        return plan

    def _work_out(self, rows: dict, *, reason: str, actor: str, now: datetime) -> ClosePlan | None:
        g, ph, standing = rows["game"], rows["phase"], rows["standing"]
        if g is None or ph is None or ph["status"] != "open":
            return None
        if g["status"] != "active" and reason == "deadline":
            return None
        game_id = g["id"]
        plan = ClosePlan(game_id=game_id, phase_row_id=ph["id"], reason=reason, actor=actor, now=now,
                         inputs=_digest(rows), label=ph["label"])
        engine = self.engine(g["engine"])
        state, awaited = loads(ph["state"]), loads(ph["awaited"])
        missing = [role for role in awaited if role not in standing]
        covered = who_stands_in(rows, missing, from_iso(ph["deadline"]) or now)  # the stand-in gives their orders
        uncovered = [role for role in missing if role not in covered]
        if uncovered and reason == "deadline" and loads(g["timing"], {}).get("no_orders") == "wait":
            plan.waiting = uncovered
            return plan
        orders, defaulted = _orders_to_resolve(engine, state, awaited, standing)
        stood_in = []
        for role in (role for role in covered if role in defaulted):
            given = stand_in_orders(engine, state, role, ph["seed"])
            if given is not None:
                orders[role] = given
                stood_in.append(role)
        defaulted = [role for role in defaulted if role not in stood_in]
        plan.stand_ins = stood_in
        new_state, events, rolls = adjudicate(engine, state, orders, ph["seed"])
        plan.resolution = {
            "status": "resolved", "orders": dumps(orders), "defaulted": dumps(defaulted), "stand_in": dumps(stood_in),
            "events": dumps({"events": events, "rolls": rolls}), "result_state": dumps(new_state), "resolved_at": to_iso(now),
            "rules_version": engine.rules_version,
        }
        plan.next_phase, plan.outcome = self.next_phase_row(game_id, new_state, seq=ph["seq"] + 1, now=now, game=g)
        # The reports show the game as the commit leaves it (over, when it ends here).
        shown_game = dict(g, status="finished", outcome=dumps(plan.outcome), finished_at=to_iso(now)) if plan.outcome else g
        plan.mails = [self.mail.compose(m) for m in self._report_mails(game_id, dict(ph, **plan.resolution), plan.next_phase, shown_game)]
        plan.summary = {"phase": ph["label"], "next": plan.next_phase["label"] if plan.next_phase else None,
                        "defaulted": defaulted, "stand_in": stood_in, "events": len(events)}
        return plan

    def commit_close(self, plan: ClosePlan) -> dict | None:
        """Write a close worked out by :meth:`prepare_close` (here or in a worker) in one
        transaction, if every row it was worked out from is as it was; else work it out again
        inside the transaction (orders that came meanwhile, a moderator's change, another
        closer first). Returns what happened, or None when the phase was no longer to close."""
        return self.commit_closes([plan])[0]

    def commit_closes(self, plans: list[ClosePlan]) -> list[dict | None]:
        """:meth:`commit_close` for each plan, all in one transaction (one disk sync for the
        lot: a burst of deadlines commits what its workers send back in batches); everyone is
        told once it is committed. A plan that fails undoes the whole batch."""
        records, written = self.records, []
        with records.write():
            for plan in plans:
                if self.close_inputs(plan.game_id, plan.phase_row_id) != plan.inputs:
                    plan = self.prepare_close(plan.game_id, reason=plan.reason, phase_row_id=plan.phase_row_id,
                                              actor=plan.actor, now=plan.now)
                # None: someone else closed it first
                written.append((plan, self._write_close(plan) if plan is not None else None))
        for plan, _ in written:
            if plan is not None:
                self.notify("phase", plan.game_id)
                if plan.waiting is None:
                    self.notify("outbox", plan.game_id)
        return [result for _, result in written]

    def _write_close(self, plan: ClosePlan) -> dict:
        records, game_id = self.records, plan.game_id
        if plan.waiting is not None:
            # A game timed to wait rather than play default orders stops (status 'waiting', no
            # deadline) until a moderator acts.
            records.set_game_status(game_id, "waiting")
            records.set_deadline(plan.phase_row_id, None)
            records.audit(game_id, "scheduler", "wait for moderator", "no orders from " + ", ".join(plan.waiting), {"phase": plan.label})
            return {"waiting": plan.waiting}
        records.update("phases", plan.phase_row_id, plan.resolution)
        if plan.stand_ins:
            self.stand_ins.took_seats(game_id, plan.stand_ins, plan.label)
        if plan.next_phase is not None:
            records.insert("phases", plan.next_phase)
        else:
            self._finish(game_id, plan.outcome, plan.now)
        if plan.reason != "deadline":
            records.audit(game_id, plan.actor, "close phase", plan.reason, {"phase": plan.label}, public=plan.actor != "server")
        for mail in plan.mails:
            outbox.queue_composed(records.store, mail, now=plan.now)
        lapse_draw(records, self.mail, game_id, {"id": plan.phase_row_id, "label": plan.label})  # a draw proposed in this phase was not agreed in time
        return plan.summary

    def _report_mails(self, game_id: str, resolved: dict, next_phase: dict | None, game: dict) -> list:
        """The report on a resolved phase to each active player and each observer."""
        mails = [self.mail.report_mail(game_id, p, resolved, next_phase, game=game)
                 for p in self.records.players(game_id) if p["status"] == "active"]
        return mails + self.observers.report_mails(game_id, resolved, next_phase, game)

    def close_due(self, limit: int = 100) -> int:
        """Close every open phase whose deadline has passed, in this thread (the scheduler's
        sweep submits the same phases to its closes instead)."""
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
        for r in records.players_to_remind(to_iso(now), to_iso(now + timedelta(days=8)), game_id or None):
            if now < reminder_time(from_iso(r["deadline"]), from_iso(r["opened_at"]), r["reminder_hours"]):
                continue
            with records.write():
                ph = records.phase(r["phase_row_id"])
                if self.mail.queue_reminder(ph["game_id"], records.player(r["player_id"]), ph):
                    sent += 1
        if sent:
            self.notify("outbox", game_id)
        return sent

    def next_reminder_time(self, ph: dict, leads: list[int], after: datetime | None = None) -> datetime | None:
        """The earliest reminder still to come for a phase, given its game's players' lead hours
        (Records.reminder_leads: players choose their lead time)."""
        deadline = from_iso(ph["deadline"])
        if deadline is None:
            return None
        opened = from_iso(ph["opened_at"])
        times = [reminder_time(deadline, opened, hours) for hours in leads]
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
