"""Dispute review: correct a resolved phase in the open.

A moderator starts a *draft* correction of a resolved phase, amends any role's
orders (parsed by the engine against the phase's stored starting state, with a
reason), re-adjudicates the phase from that state with the same revealed seed
(every roll whose label did not change falls the same), reads a structured
difference of the two outcomes (pbem.service.dispute_diff), then publishes or
discards the draft.

Publishing supersedes the phase row (a new row with ``revision + 1``), then
re-resolves every later phase in order with the orders that stood, each with
its own seed. When a later phase's orders no longer parse against the corrected
position (or the corrected position is in another phase), the game is rolled
back instead: every later phase is superseded and the corrected phase's
successor opens again, waiting for new orders. Players get a correction mail
(``X-PBEM-Kind: correction``) saying what changed and why, each from their own
view (a correction never shows one player another's secrets).

Manual adjustment (:meth:`Disputes.adjust_state`) is for the cases no rule covers:
the open phase's starting state is replaced by one the engine validates and reads.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Callable

from pbem.engines.base import MODERATOR
from pbem.i18n import N_
from pbem.service.adjudication import adjudicate, state_hash
from pbem.service.clock import to_iso
from pbem.service.dispute_diff import compute_diff, correction_note
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import MailWriter
from pbem.service.observers import Observers
from pbem.service.phases import Phases
from pbem.service.part import ConfiguredPart
from pbem.service.render import describe_errors
from pbem.service.stand_ins import stand_in_orders
from pbem.service.store import dumps, loads
from pbem.service.timing import deadline_after, deadline_spec
from pbem.service.upgrades import result_state, starting_state, versions_of

log = logging.getLogger("pbem.disputes")


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(N_("a reason is required; it goes into the game's public moderation log"))
    if len(reason) > 2000:
        raise ServiceError(N_("the reason is longer than %(limit)s characters"), params={"limit": 2000})
    return reason


def _load_draft(row: dict | None) -> dict | None:
    if row is None:
        return None
    row["orders"] = loads(row["orders"], {})
    row["amendments"] = loads(row["amendments"], {})
    row["result_state"] = loads(row["result_state"])
    row["events"] = loads(row["events"])
    row["diff"] = loads(row["diff"])
    return row


def _adjudicate(engine, state, orders, seed):
    new_state, events, rolls = adjudicate(engine, state, orders, seed)
    engine.view(new_state, MODERATOR)  # a result the engine cannot show is no result
    engine.outcome(new_state)
    return new_state, events, rolls


def draft_version(draft: dict) -> str:
    """What a moderator read of a draft (its amendments and its difference), as a short digest:
    the confirmation of a publication names it, and a draft changed since is not published."""
    return hashlib.sha256(dumps([draft["amendments"], draft["diff"]]).encode()).hexdigest()[:16]


def _same_phase(engine, state: dict, row: dict) -> bool:
    """Whether ``state`` is in the phase ``row`` is (same label, same awaited roles)."""
    if engine.outcome(state) is not None:
        return False
    info = engine.phase(state)
    return info.id == row["label"] and list(info.awaited) == list(loads(row["awaited"], []))


def check_state(engine, state) -> list[str]:
    """Why the engine cannot play from ``state`` (empty when it can)."""
    if not isinstance(state, dict):
        return ["the state must be a JSON object"]
    try:
        problems = list(engine.validate_state(state))
    except Exception as exc:
        return [f"the engine cannot read this state: {type(exc).__name__}: {exc}"]
    if problems:
        return problems
    try:
        outcome = engine.outcome(state)
        engine.view(state, MODERATOR)
        engine.view(state, None)
        if outcome is None:
            info = engine.phase(state)
            for role in info.awaited:
                engine.view(state, role)
                template = engine.order_template(state, role)
                result = engine.parse_orders(state, role, template)
                if result.errors:
                    problems.append(f"the order template of {role} does not parse in this state: {result.errors[0].describe()}")
                engine.default_orders(state, role)
        engine.picture(engine.view(state, None))
    except Exception as exc:
        problems.append(f"the engine cannot play from this state: {type(exc).__name__}: {exc}")
    return problems


@dataclass
class _Rerun:
    """What publishing did to the phases after the corrected one."""
    state: dict                                   # the position the open phase starts from
    rerun: list[str] = field(default_factory=list)  # labels of later phases resolved again
    rolled_back_from: str | None = None           # the later phase whose orders no longer fitted
    open_row: dict | None = None                  # the open phase now (None: the game is over)
    stale: dict[str, str] = field(default_factory=dict)  # role -> label of the phase whose orders were set aside


@dataclass(kw_only=True, eq=False)
class Disputes(ConfiguredPart):
    """Draft corrections of resolved phases, publishing them, and hand adjustment of the state."""

    mail: MailWriter
    phases: Phases
    observers: Observers
    notify: Callable[..., None]
    #: told (inside the transaction) that a correction re-resolved a game: its result follows
    game_revised: Callable[[str], None] = lambda game_id: None

    # -- drafts --------------------------------------------------------------------------
    def draft(self, draft_id: int) -> dict | None:
        return _load_draft(self.records.draft(draft_id))

    def drafts(self, game_id: str, status: str | None = "draft") -> list[dict]:
        """A game's drafts in one status (None: all), newest first."""
        return [_load_draft(r) for r in self.records.drafts(game_id, status or None)]

    def start_draft(self, game_id: str, seq: int, *, actor: str) -> dict:
        """The open draft correcting phase ``seq`` (created when there is none)."""
        records, now = self.records, to_iso(self.now())
        with records.write():
            ph = records.live_phase(game_id, seq)
            if ph is None:
                raise ServiceError(f"game {game_id} has no phase number {seq}")
            if ph["status"] != "resolved":
                raise ServiceError(N_("phase %(phase)s is not resolved yet; only a resolved phase can be corrected"), params={"phase": ph["label"]})
            existing = records.open_draft(game_id, seq)
            if existing is not None:
                if existing["phase_row_id"] == ph["id"]:
                    return _load_draft(existing)
                # The phase was corrected since: that draft is about a result that no longer stands.
                records.close_draft(existing["id"], "discarded", "the phase changed since the draft was started")
            draft_id = records.insert("drafts", {
                "game_id": game_id, "seq": seq, "phase_row_id": ph["id"], "status": "draft",
                "orders": ph["orders"] or "{}", "amendments": "{}", "created_by": actor,
                "created_at": now, "updated_at": now,
            })
        return self.draft(draft_id)

    def amend_orders(self, game_id: str, seq: int, role: str, text: str, reason: str, actor: str) -> dict:
        """Replace one role's orders in the draft correcting phase ``seq``.

        The text is parsed by the engine against the phase's starting state; any
        error refuses the amendment (the ServiceError carries ``errors``, each
        with its line, the text quoted, the reason and a suggestion)."""
        reason = _reason(reason)
        text = (text or "").replace("\r\n", "\n").strip("\n")
        limit = self.settings.max_orders_chars
        if len(text) > limit:
            raise ServiceError(N_("the orders are %(length)s characters long; the limit is %(limit)s"), params={"length": len(text), "limit": limit})
        d = self.start_draft(game_id, seq, actor=actor)
        records = self.records
        with records.write():
            ph = records.phase(d["phase_row_id"])
            awaited = loads(ph["awaited"], [])
            if role not in awaited and role not in (loads(ph["orders"], {}) or {}):
                raise ServiceError(N_("phase %(phase)s took no orders from %(role)r (it awaited: %(awaited)s)"),
                                   params={"phase": ph["label"], "role": role, "awaited": ", ".join(awaited) or "nobody"})
            engine_name = records.game_row(game_id)["engine"]
            try:
                engine = self.engine(engine_name)
                result = engine.parse_orders(starting_state(engine, ph), role, text)
            except Exception as exc:  # an engine bug must not become a 500
                log.exception("engine %s failed to parse amended orders", engine_name)
                raise ServiceError(f"the engine failed while reading these orders ({type(exc).__name__}: {exc})") from exc
            if result.errors:
                errors = describe_errors([e.to_json() for e in result.errors], "en")
                raise ServiceError(N_("the engine could not take %(n)s line(s) of these orders; nothing was changed"), errors,
                                   params={"n": len(errors)})
            orders = {**d["orders"], role: result.orders}
            amendments = {**d["amendments"], role: {"text": text, "canonical": result.canonical, "reason": reason, "by": actor,
                                                    "at": to_iso(self.now()), "missing": list(result.missing)}}
            self._set_draft_orders(d["id"], orders, amendments)
            records.audit(game_id, actor, "amend orders (draft)", reason, {"phase": ph["label"], "role": role, "draft": d["id"]}, public=False)
        return self.draft(d["id"])

    def remove_amendment(self, draft_id: int, role: str, actor: str) -> dict:
        """Put one role's orders back as they stood in the draft."""
        with self.records.write():
            d = self._open_draft(draft_id)
            ph = self.records.phase(d["phase_row_id"])
            orders, amendments = dict(d["orders"]), dict(d["amendments"])
            if role not in amendments:
                raise ServiceError(N_("the draft has no amendment for %(role)r"), params={"role": role})
            del amendments[role]
            original = loads(ph["orders"], {}) or {}
            if role in original:
                orders[role] = original[role]
            else:
                orders.pop(role, None)
            self._set_draft_orders(d["id"], orders, amendments)
        return self.draft(draft_id)

    def _set_draft_orders(self, draft_id: int, orders: dict, amendments: dict) -> None:
        """New orders for a draft: its last re-adjudication no longer holds."""
        self.records.update_draft(draft_id, orders=dumps(orders), amendments=dumps(amendments),
                                  result_state=None, events=None, diff=None, error=None)

    def _open_draft(self, draft_id: int) -> dict:
        d = self.draft(draft_id)
        if d is None:
            raise ServiceError(f"no draft correction #{draft_id}")
        if d["status"] != "draft":
            raise ServiceError(f"draft correction #{draft_id} was already {d['status']}")
        ph = self.records.phase(d["phase_row_id"])
        if ph is None or ph["status"] != "resolved":
            raise ServiceError(N_("the phase has changed since this draft was started (another correction was published); discard the draft and start again"))
        return d

    def readjudicate(self, draft_id: int) -> dict:
        """Run the phase again from its stored starting state, with the draft's
        orders and the phase's revealed seed, and store the result and the
        difference in the draft. The game itself is not touched; when the engine
        refuses, the draft keeps the error and a ServiceError is raised."""
        records = self.records
        d = self._open_draft(draft_id)
        ph = records.phase(d["phase_row_id"])
        engine = self.engine(records.game_row(d["game_id"])["engine"])
        try:
            new_state, events, rolls = _adjudicate(engine, starting_state(engine, ph), d["orders"], ph["seed"])
            diff = compute_diff(engine, result_state(engine, ph), loads(ph["events"], {}).get("events", []),
                                new_state, events, MODERATOR,
                                rolls_before=loads(ph["events"], {}).get("rolls", []), rolls_after=rolls)
        except Exception as exc:
            log.warning("re-adjudication of %s %s refused: %s", d["game_id"], ph["label"], exc)
            message = f"the engine refused to re-adjudicate {ph['label']} with these orders ({type(exc).__name__}: {exc}); the game is unchanged"
            with records.write():
                records.update_draft(draft_id, result_state=None, events=None, diff=None, error=message)
            raise ServiceError(message) from exc
        with records.write():
            if records.draft(draft_id)["status"] != "draft":
                raise ServiceError(N_("the draft was closed meanwhile"))
            records.update_draft(draft_id, result_state=dumps(new_state), events=dumps({"events": events, "rolls": rolls}),
                                 diff=dumps(diff), error=None)
        return self.draft(draft_id)

    def discard(self, draft_id: int, *, actor: str, reason: str = "") -> None:
        records = self.records
        with records.write():
            d = self.draft(draft_id)
            if d is None or d["status"] != "draft":
                raise ServiceError(N_("no open draft correction with that number"))
            records.close_draft(draft_id, "discarded", (reason or "").strip() or None)
            records.audit(d["game_id"], actor, "discard correction", (reason or "").strip(),
                          {"phase": records.phase(d["phase_row_id"])["label"], "draft": draft_id, "roles": sorted(d["amendments"])})

    # -- publishing ----------------------------------------------------------------------
    def audience(self, game_id: str) -> dict:
        """Who a published correction is mailed to: the active players and the observers."""
        return {"players": sum(1 for p in self.records.players(game_id) if p["status"] == "active" and p["email"]),
                "observers": len(self.records.observers(game_id))}

    def publish(self, draft_id: int, reason: str, actor: str, *, version: str | None = None) -> dict:
        """Make a draft correction the phase's result, re-resolve or roll back the
        later phases, mail every player and observer a correction, log it publicly.
        ``version``: the :func:`draft_version` the moderator confirmed; a draft changed since
        (another moderator's amendment) is refused."""
        reason = _reason(reason)
        records = self.records
        with records.write():
            d = self._open_draft(draft_id)
            if not d["amendments"]:
                raise ServiceError(N_("the draft amends nothing; amend some orders first, or discard it"))
            if version is not None and version != draft_version(d):
                raise ServiceError(N_("the draft changed after you asked to publish it (another amendment or re-adjudication); "
                                      "read its difference again, then publish"))
            game_id = d["game_id"]
            g = records.game_row(game_id)
            engine = self.engine(g["engine"])
            ph = records.phase(d["phase_row_id"])
            old_result = result_state(engine, ph)
            old_events = loads(ph["events"], {}).get("events", [])
            corrected, new_state, events, rolls = self._correct_phase(engine, d, ph)
            after = self._rerun_later_phases(engine, ph, new_state)
            if after.open_row is not None and g["status"] == "finished":
                self._unfinish(g, engine, after)
            if after.open_row is not None:
                after.open_row = records.phase(after.open_row["id"])
            records.close_draft(draft_id, "published", reason, result_state=dumps(new_state),
                                events=dumps({"events": events, "rolls": rolls}),
                                diff=dumps(compute_diff(engine, old_result, old_events, new_state, events, MODERATOR)),
                                updated_at=to_iso(self.now()))
            summary = {
                "phase": ph["label"], "revision": corrected["revision"], "draft": draft_id,
                "amended": {role: a["reason"] for role, a in sorted(d["amendments"].items())},
                "rerun": after.rerun, "rolled_back_from": after.rolled_back_from,
                "reopened": after.open_row["label"] if (after.open_row is not None and after.rolled_back_from) else None,
                "set_aside": after.stale,
            }
            records.audit(game_id, actor, "correct phase", reason, summary)
            self.game_revised(game_id)
            mails = 0
            corrected = records.phase(corrected["id"])
            for p in records.players(game_id):
                if p["status"] != "active" or not p["email"]:
                    continue
                role_diff = compute_diff(engine, old_result, old_events, new_state, events, p["role"])
                note = correction_note(ph["label"], reason, d["amendments"], role_diff, after.rerun, after.rolled_back_from,
                                       after.open_row, after.stale, p["role"])
                if self.mail.queue_report(game_id, p, corrected, after.open_row, kind="correction", note=note):
                    mails += 1
            # observers read the public view: what changed in it, and the corrected report
            public_diff = compute_diff(engine, old_result, old_events, new_state, events, None)
            note = correction_note(ph["label"], reason, d["amendments"], public_diff, after.rerun, after.rolled_back_from,
                                   after.open_row, after.stale, None)
            for mail in self.observers.report_mails(game_id, corrected, after.open_row, correction=note):
                if self.mail.queue(mail):
                    mails += 1
        self.notify("phase", game_id)
        self.notify("outbox", game_id)
        return {**summary, "mails": mails, "open": after.open_row["label"] if after.open_row else None}

    def _correct_phase(self, engine, d: dict, ph: dict) -> tuple[dict, dict, list, list]:
        """Step 1: the phase re-adjudicated with the draft's orders as its next revision,
        the amendments filed as the moderator's submissions. Returns (row, state, events, rolls)."""
        now = to_iso(self.now())
        state = starting_state(engine, ph)  # a correction is resolved by the rules installed now
        try:
            new_state, events, rolls = _adjudicate(engine, state, d["orders"], ph["seed"])
        except Exception as exc:
            raise ServiceError(f"the engine refused to re-adjudicate {ph['label']} ({type(exc).__name__}: {exc}); nothing was published") from exc
        amended = d["amendments"]
        defaulted = [r for r in (loads(ph["defaulted"], []) or []) if r not in amended]
        stood_in = [r for r in (loads(ph.get("stand_in"), []) or []) if r not in amended]
        corrected = self._replace_row(ph, {
            "state": dumps(state), **versions_of(engine), "orders": dumps(d["orders"]), "defaulted": dumps(defaulted),
            "stand_in": dumps(stood_in),
            "events": dumps({"events": events, "rolls": rolls}), "result_state": dumps(new_state), "resolved_at": now,
        })
        for role, amendment in amended.items():
            self._file_amendment(corrected, role, amendment, d["orders"][role], now)
        return corrected, new_state, events, rolls

    def _rerun_later_phases(self, engine, ph: dict, new_state: dict) -> _Rerun:
        """Step 2: every later resolved phase resolved again, in order, from the corrected
        position with the orders that stood; then the open phase set up again. When some
        later orders no longer fit, every later phase is rolled back instead."""
        records, game_id = self.records, ph["game_id"]
        later = records.later_phases(game_id, ph["seq"])
        after = _Rerun(state=new_state)
        for row in later:
            if row["status"] != "resolved":
                break
            checked = self._reparse(engine, row, after.state) if _same_phase(engine, after.state, row) else None
            if checked is None:
                after.rolled_back_from = row["label"]
                break
            orders, row_defaulted, parsed = checked
            try:
                ns, ev, rl = adjudicate(engine, after.state, orders, row["seed"])
            except Exception:
                log.exception("re-resolving %s %s failed; rolling back", game_id, row["label"])
                after.rolled_back_from = row["label"]
                break
            self._replace_row(row, {
                "state": dumps(after.state), **versions_of(engine), "orders": dumps(orders), "defaulted": dumps(row_defaulted),
                "events": dumps({"events": ev, "rolls": rl}), "result_state": dumps(ns), "resolved_at": to_iso(self.now()),
            })
            for sub, result in parsed.values():
                records.set_submission_orders(sub["id"], result.orders, result.canonical)
            after.rerun.append(row["label"])
            after.state = ns
        if after.rolled_back_from is not None:
            # Every later phase goes (the revisions just re-run too); the corrected phase's successor opens again.
            for row in records.later_phases(game_id, ph["seq"]):
                records.supersede_phase(row["id"])
            after.rerun, after.state = [], new_state
            after.open_row = self._open_again(game_id, after.state, ph["seq"] + 1)
            return after
        old_open = records.current_phase(game_id)
        if old_open is not None and _same_phase(engine, after.state, old_open):
            # The same phase, from the corrected position: same seed and deadline; orders that no longer fit are set aside.
            after.open_row, set_aside = self._restart_open_phase(engine, old_open, after.state)
            after.stale = {role: after.open_row["label"] for role in set_aside}
            return after
        if old_open is not None:
            records.supersede_phase(old_open["id"])
        seq = old_open["seq"] if old_open is not None else ph["seq"] + len(after.rerun) + 1
        after.open_row = self._open_again(game_id, after.state, seq)
        return after

    def _unfinish(self, g: dict, engine, after: _Rerun) -> None:
        """Step 3: a correction that un-finished the game makes it active again, with a deadline."""
        records = self.records
        records.set_game_status(g["id"], "active", outcome=None, finished_at=None)
        if after.open_row.get("deadline") is None:
            spec = deadline_spec(loads(g["timing"], {}), engine.phase(after.state).deadline)
            records.set_deadline(after.open_row["id"], to_iso(deadline_after(spec, self.now())), absence_delay=0.0)

    # -- phase rows under correction ---------------------------------------------------------
    def _replace_row(self, row: dict, changes: dict) -> dict:
        """Supersede a phase row and insert its next revision (same seq); its submissions follow."""
        records = self.records
        records.supersede_phase(row["id"])
        new = {k: v for k, v in row.items() if k != "id"}
        new.update(changes)
        new["revision"] = records.next_revision(row["game_id"], row["seq"])
        new["id"] = records.insert("phases", new)
        records.move_submissions(row["id"], new)
        return new

    def _open_again(self, game_id: str, state: dict, seq: int) -> dict | None:
        """Open phase ``seq`` anew from ``state``, as that number's next revision."""
        return self.phases.open(game_id, state, seq=seq, now=self.now(), revision=self.records.next_revision(game_id, seq))

    def _restart_open_phase(self, engine, old: dict, state: dict) -> tuple[dict, list[str]]:
        """The open phase from a corrected starting state (same seed and deadline); its standing
        orders read again, those that no longer parse set aside. Returns (row, roles set aside)."""
        row = self._replace_row(old, {"state": dumps(state), **versions_of(engine)})
        return row, self._reparse_standing(engine, state, row["id"])

    def _file_amendment(self, row: dict, role: str, amendment: dict, orders, now: str) -> None:
        """A moderator's amended orders become the role's standing submission for the phase."""
        p = self.records.last_player_of_role(row["game_id"], role)
        self.records.unstand_role(row["id"], role)
        self.records.insert("submissions", {
            "game_id": row["game_id"], "phase_row_id": row["id"], "phase_label": row["label"], "player_id": p["id"] if p else 0,
            "role": role, "inbound_id": None, "text": amendment["text"], "orders": dumps(orders),
            "canonical": amendment["canonical"], "errors": "[]", "missing": dumps(amendment.get("missing", [])),
            "status": "accepted", "stands": 1, "sha256": hashlib.sha256(amendment["text"].encode("utf-8")).hexdigest(),
            "received_at": now, "source": "moderator",
        })

    def _reparse(self, engine, row: dict, state: dict) -> tuple[dict, list, dict] | None:
        """A resolved phase's orders checked against a new starting state:
        (orders, defaulted, role -> (submission, parse result)), or None when some
        role's orders no longer parse."""
        standing = self.records.standing_orders(row["id"])
        stored = loads(row["orders"], {}) or {}
        was_defaulted = set(loads(row["defaulted"], []) or [])
        stood_in = set(loads(row.get("stand_in"), []) or [])
        orders, defaulted, parsed = {}, [], {}
        awaited = loads(row["awaited"], [])
        for role in list(awaited) + [r for r in stored if r not in awaited]:
            if role in was_defaulted or role not in stored:
                orders[role] = engine.default_orders(state, role)
                defaulted.append(role)
                continue
            if role in stood_in:  # the stand-in plays the corrected position, with its own dice
                given = stand_in_orders(engine, state, role, row["seed"])
                if given is None:
                    return None
                orders[role] = given
                continue
            sub = standing.get(role)
            text = (sub["canonical"] if sub["canonical"] is not None else sub["text"]) if sub else None
            if text is None:
                orders[role] = stored[role]  # nothing to re-read: the orders stand as they were
                continue
            try:
                result = engine.parse_orders(state, role, text)
            except Exception:
                log.exception("engine failed to re-read orders of %s for %s", role, row["label"])
                return None
            if result.errors:
                return None
            orders[role] = result.orders
            parsed[role] = (sub, result)
        return orders, defaulted, parsed

    def _reparse_standing(self, engine, state: dict, phase_row_id: int) -> list[str]:
        """Read the open phase's standing orders again against a corrected state: those that
        still parse stand (re-canonicalised), the others are set aside. Returns the roles set aside."""
        set_aside = []
        for sub in self.records.standing_orders(phase_row_id).values():
            text = sub["canonical"] if sub["canonical"] is not None else sub["text"]
            try:
                result = engine.parse_orders(state, sub["role"], text)
                ok = not result.errors
            except Exception:  # an order the engine can no longer read is set aside, not fatal
                ok = False
            if ok:
                self.records.set_submission_orders(sub["id"], result.orders, result.canonical)
            else:
                self.records.set_aside(sub["id"])
                set_aside.append(sub["role"])
        return set_aside

    # -- manual adjustment -----------------------------------------------------------------
    def adjust_state(self, game_id: str, new_state_json: str, reason: str, actor: str) -> dict:
        """Replace the open phase's starting state by a hand-edited one the engine
        validates and can play from. Orders already given that no longer parse are
        set aside; players get a notice with the reason."""
        reason = _reason(reason)
        try:
            state = json.loads(new_state_json or "")
        except json.JSONDecodeError as exc:
            raise ServiceError(f"this is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from exc
        records = self.records
        with records.write():
            g = records.game_row(game_id)
            if g is None:
                raise ServiceError(f"no game {game_id}")
            engine = self.engine(g["engine"])
            problems = check_state(engine, state)
            if problems:
                raise ServiceError(N_("the engine refuses this state; nothing was changed"),
                                   [{"line": None, "text": "", "reason": p, "suggestion": None} for p in problems])
            old = records.current_phase(game_id)
            if old is None:
                raise ServiceError(N_("the game has no open phase to adjust (it is over)"))
            old_state = loads(old["state"])
            if dumps(old_state) == dumps(state):
                raise ServiceError(N_("the state is unchanged"))
            changes = compute_diff(engine, old_state, [], state, [], MODERATOR)["changes"]
            set_aside = []
            if _same_phase(engine, state, old):
                row, set_aside = self._restart_open_phase(engine, old, state)
            else:
                records.supersede_phase(old["id"])
                row = self._open_again(game_id, state, old["seq"])
            # The two hashes let `pbem verify` tell this open correction from a silent change.
            records.audit(game_id, actor, "adjust state", reason, {
                "phase": old["label"], "now": row["label"] if row else "END", "changes": len(changes),
                "paths": sorted({c["section"] for c in changes})[:20],
                "seq": old["seq"], "state_before_sha256": state_hash(old_state), "state_after_sha256": state_hash(state),
            })
            text = (f"A moderator adjusted the game by hand (phase {old['label']}). Reason: {reason}\n"
                    + (f"The game is now at phase {row['label']}." if row else "The game is over.")
                    + (f"\nOrders from {', '.join(set_aside)} no longer fit and were set aside: please send new ones." if set_aside else ""))
            self.mail.queue_notice(game_id, text, serial=f"adjust{records.count_audit(game_id, 'adjust state')}")
        self.notify("phase", game_id)
        self.notify("outbox", game_id)
        return {"phase": row["label"] if row else None, "changes": changes, "set_aside": set_aside}
