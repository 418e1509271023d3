"""Orders by mail: an ORDERS block checked against the game's open phase, read by the engine,
recorded, then made to stand and acknowledged, or held until the player confirms it.

Each step answers the player itself when the orders cannot be used, and says so by
returning None or False. ``room`` is the mail room's handling of the message
(:class:`pbem.service.mailroom.MessageHandling`), inside the receiving transaction.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import traceback
from datetime import timedelta

from pbem.i18n import N_, gettext_for
from pbem.moments import format_moment
from pbem.service.adjudication import state_hash
from pbem.service.clock import from_iso, to_iso
from pbem.service.records import STANDING_ORDERS_AUDIT
from pbem.service.store import dumps, loads

log = logging.getLogger("pbem.mailroom")


def take_orders(room, cmd, *, held: bool) -> None:
    """Read an ORDERS block; ``held``: it came from an address not registered to the player."""
    phase = _open_phase_named(room, cmd)
    if phase is None:
        return
    if room.player["role"] not in loads(phase["awaited"]) and room.svc.engine(room.game["engine"]).takes_standing_orders:
        if _within_size_limit(room, cmd):
            _take_standing_orders(room, cmd, phase, held=held)
        return
    if not _awaited_and_on_time(room, cmd, phase) or not _within_size_limit(room, cmd):
        return
    result = _read_with_engine(room, cmd, phase)
    if result is None:
        return
    errors = [e.to_json() for e in result.errors]
    status = "held" if held else _status_of(errors, result.canonical)
    submission = record_submission(room, phase, cmd, status=status, errors=errors, orders=result.orders,
                                   canonical=result.canonical, missing=result.noted())
    if held:
        _hold(room, submission, phase, result.canonical)
        return
    new_orders = False
    if status in ("accepted", "partial"):
        stood_before = room.svc.records.make_standing(submission["id"], phase["id"], submission["role"])
        new_orders = submission["sha256"] not in stood_before  # the same text sent again is not new
        submission["stands"] = 1
    _acknowledge(room, cmd, submission, phase, new_orders=new_orders)
    close_when_all_ordered(room, room.game, phase)


def _status_of(errors: list, canonical: str | None) -> str:
    if not errors:
        return "accepted"
    return "partial" if (canonical or "").strip() else "rejected"  # partial: something was understood


def _open_phase_named(room, cmd) -> dict | None:
    """The open phase, when the block names this game and that phase."""
    player, game_id, game = room.player, room.game_id, room.game
    if len(cmd.args) < 2:
        room.mail_problem(player, N_("The ORDERS line must name the game and the phase, as in 'ORDERS %(game)s T3'."), game=game_id)
        return None
    named_game, named_phase = cmd.args[0].lower(), cmd.args[1]
    phase = room.open_phase(game_id)
    if named_game != game_id:
        room.refuse()
        room.mail_problem(player, N_("This block names game %(named)s but was sent to your address for game %(game)s; it was not used."),
                          N_("Reply to a mail from game %(named)s to order there."), named=named_game, game=game_id)
        return None
    if game["status"] == "finished" or phase is None:
        room.mail_problem(player, N_("Game %(game)s is over; no more orders are taken."), game=game_id)
        return None
    if named_phase.lower() != phase["label"].lower():
        _answer_other_phase(room, named_phase, phase)
        return None
    return phase


def _answer_other_phase(room, named_phase: str, phase: dict) -> None:
    """A block for a phase already resolved (quoted from an old mail) or for no phase at all."""
    game_id = room.game_id
    old = room.svc.records.resolved_phase_labelled(game_id, named_phase)
    room.refuse()
    if old:
        room.note("stale orders block")
        room.mail_problem(room.player, N_("This orders block is for phase %(named)s, which was resolved on %(when)s. The game is now at phase %(current)s, so these orders were not used (a block quoted from an old mail is never taken as new orders)."),
                          N_("Write new orders under 'ORDERS %(game)s %(current)s'; the latest report holds a pre-filled template."),
                          named=named_phase, when=format_moment(from_iso(old["resolved_at"]), room.player["tz"], room.player["lang"]),
                          current=phase["label"], game=game_id)
    else:
        room.mail_problem(room.player, N_("There is no phase %(named)s in game %(game)s; the current phase is %(current)s."),
                          N_("Write 'ORDERS %(game)s %(current)s'."), named=named_phase, current=phase["label"], game=game_id)


def _take_standing_orders(room, cmd, phase: dict, *, held: bool) -> None:
    """A block from a role the phase does not await, to an engine with standing orders: when
    it holds only standing orders (the engine's ``apply_standing`` says), the open phase's
    state takes them now, audited privately, and the block is acknowledged; otherwise the
    usual refusal."""
    result = _read_with_engine(room, cmd, phase)
    if result is None:
        return
    engine, role = room.svc.engine(room.game["engine"]), room.player["role"]
    state = loads(phase["state"])
    try:
        new_state = engine.apply_standing(state, role, result.orders)
    except Exception:
        log.exception("engine %s failed to apply standing orders", room.game["engine"])
        room.status = "error"
        room.note("the engine failed to apply standing orders:\n" + traceback.format_exc()[-1500:])
        room.mail_problem(room.player, N_("The server failed while reading your orders; a moderator has been told. Your previous orders, if any, still stand."))
        return
    if new_state is None:
        _refuse_not_awaited(room, phase)
        return
    if held:  # no CONFIRM step for them: a forged sender must not change a side's standing orders
        room.refuse()
        room.mail_problem(room.player, N_("Standing orders sent outside your own phase are taken only from your registered address; these were not used."),
                          N_("Send them from that address, or with your next orders."))
        return
    errors = [e.to_json() for e in result.errors]
    submission = record_submission(room, phase, cmd, status=_status_of(errors, result.canonical), errors=errors,
                                   orders=result.orders, canonical=result.canonical, missing=[])
    records = room.svc.records
    if submission["status"] != "rejected" and dumps(new_state) != dumps(state):
        records.update("phases", phase["id"], {"state": dumps(new_state)})
        # Private (they are the side's secret); the hashes let `pbem verify` follow the change.
        records.audit(room.game_id, role, STANDING_ORDERS_AUDIT, "standing orders changed by mail outside the side's phase", {
            "phase": phase["label"], "seq": phase["seq"], "submission": submission["id"],
            "state_before_sha256": state_hash(state), "state_after_sha256": state_hash(new_state)}, public=False)
    _ = gettext_for(room.player["lang"])
    note = _(N_("Phase %(phase)s waits for the %(awaited)s player, so only your standing orders were read; they hold from now on, until you change them.")) % {
        "phase": phase["label"], "awaited": ", ".join(loads(phase["awaited"]))}
    # Only standing orders that change the side's state are new: the same block again is answered within the brake.
    changed = submission["status"] != "rejected" and dumps(new_state) != dumps(state)
    room.acknowledge(submission, phase, notes=[note] + cmd.problems_in(_) + list(room.msg.problems), new_orders=changed, line=cmd.line)


def _refuse_not_awaited(room, phase: dict) -> None:
    awaited = loads(phase["awaited"])
    room.refuse()
    room.mail_problem(room.player, N_("Phase %(phase)s does not wait for orders from the %(role)s player (it waits for: %(awaited)s)."),
                      N_("Your next report will say when your orders are due."), phase=phase["label"], role=room.player["role"], awaited=", ".join(awaited))


def _awaited_and_on_time(room, cmd, phase: dict) -> bool:
    if room.player["role"] not in loads(phase["awaited"]):
        _refuse_not_awaited(room, phase)
        return False
    # Past the deadline but still open: the mail room closes such a phase before reading the mail,
    # so this is a paused game or a close that failed in the engine (logged); the phase takes
    # the orders and its close uses them: nobody is told "late" about a phase that is open.
    deadline = from_iso(phase["deadline"])
    if deadline is not None and room.now > deadline:
        room.note("after the deadline, before the phase closed: taken")
    return True


def _within_size_limit(room, cmd) -> bool:
    body, limit = cmd.body or "", room.svc.settings.max_orders_chars
    if len(body) > limit:
        room.refuse()
        room.mail_problem(room.player, N_("Your orders are %(length)d characters long; the limit is %(limit)d."), length=len(body), limit=limit)
        return False
    return True


def _read_with_engine(room, cmd, phase: dict):
    """The engine's reading of the orders (its ParseResult), or None when the engine failed."""
    engine_name = room.game["engine"]
    try:
        return room.svc.engine(engine_name).parse_orders(room.svc.phase_states.of(phase), room.player["role"], cmd.body or "")
    except Exception:
        log.exception("engine %s failed to parse orders", engine_name)
        room.status = "error"
        room.note("the engine failed to read the orders:\n" + traceback.format_exc()[-1500:])
        room.mail_problem(room.player, N_("The server failed while reading your orders; a moderator has been told. Your previous orders, if any, still stand."))
        return None


def record_submission(room, phase: dict, cmd, *, status, errors, orders, canonical, missing) -> dict:
    body = cmd.body or ""
    player = room.player
    row = {
        "game_id": room.game_id, "phase_row_id": phase["id"], "phase_label": phase["label"], "player_id": player["id"],
        "role": player["role"], "inbound_id": room.inbound_id, "text": body,
        "orders": dumps(orders) if orders is not None else None, "canonical": canonical,
        "errors": dumps(errors), "missing": dumps(missing), "status": status, "stands": 0,
        "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(), "received_at": to_iso(room.now),
    }
    row["id"] = room.svc.records.insert("submissions", row)
    return row


def _hold(room, submission: dict, phase: dict, canonical: str | None) -> None:
    """Orders from another address wait for the registered player's CONFIRM <code>."""
    code = secrets.token_hex(4)
    room.svc.records.update("submissions", submission["id"], {"confirm_code": code})
    room.status = "held"
    _ = gettext_for(room.player["lang"])
    room.mail_reply("error", "mail/held.txt.j2", _("Orders held: please confirm"), player=room.player, answer="confirmation",
                    sender=room.sender or "?", phase=phase, canonical=canonical, code=code)




def _acknowledge(room, cmd, submission: dict, phase: dict, *, new_orders: bool) -> None:
    # New orders that stand are always acknowledged (the player must know they count).
    # Other answers count against the per-address brake: a script that re-sends the
    # same orders on every mail it gets would otherwise loop for ever. The orders are
    # taken either way; only the answer is withheld (and noted).
    _ = gettext_for(room.player["lang"])
    notes = cmd.problems_in(_) + list(room.msg.problems)
    if room.read_from:
        notes.insert(0, _(N_("Your orders were read from the attached file %(name)s.")) % {"name": room.read_from})
    room.acknowledge(submission, phase, notes=notes, new_orders=new_orders, line=cmd.line)


def confirm_held_orders(room, code: str) -> bool:
    """CONFIRM <code> for held orders: they are used as if sent from the registered address.
    False when no held orders of this player wait for that code."""
    records, player = room.svc.records, room.player
    submission = records.held_submission(player["id"], code)
    if submission is None:
        return False
    phase = records.phase(submission["phase_row_id"])
    if phase["status"] != "open":
        room.mail_problem(player, N_("Those held orders were for phase %(phase)s, which is closed."), phase=phase["label"])
        return True
    status = _status_of(loads(submission["errors"], []), submission["canonical"])
    records.set_submission_status(submission["id"], status)
    if status != "rejected":
        records.make_standing(submission["id"], phase["id"], submission["role"])
    submission = records.submission(submission["id"])
    room.acknowledge(submission, phase, notes=[], new_orders=status != "rejected")
    close_when_all_ordered(room, records.game_row(room.game_id), phase)
    return True


def close_when_all_ordered(room, game: dict, phase: dict) -> None:
    """Once every awaited role's orders stand: an immediate phase closes now; otherwise the
    deadline moves up to the game's early-close delay, if it has one."""
    awaited = set(loads(phase["awaited"]))
    ordered = room.svc.records.ordered_roles(phase["id"])
    if not awaited <= ordered or game["status"] != "active":
        return
    if phase["immediate"]:
        room.games_to_close_now.append(game["id"])
        return
    delay = loads(game["timing"], {}).get("early_close_seconds")
    if delay is not None:
        early = room.now + timedelta(seconds=delay)
        deadline = from_iso(phase["deadline"])
        if deadline is None or early < deadline:
            # what absences added still counts as far as it delays the close
            base = deadline - timedelta(seconds=phase["absence_delay"]) if deadline else early
            room.svc.records.set_deadline(phase["id"], to_iso(early), absence_delay=max((early - base).total_seconds(), 0.0))
            room.deadline_moved = True
