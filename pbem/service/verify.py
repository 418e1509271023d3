"""Replaying resolved phases: from the stored state, orders and revealed seed
(`pbem verify GAME`), or offline from a player's report attachments."""

from __future__ import annotations

import gzip
import json
import zlib
from dataclasses import dataclass

from pbem.dice import commitment
from pbem.engines import get_engine
from pbem.engines.base import StateFormatError
from pbem.service.adjudication import adjudicate, state_hash
from pbem.service.part import ServicePart
from pbem.service.stand_ins import stand_in_orders
from pbem.service.store import dumps, loads


def _explained_by_adjustments(before: dict, after: dict, adjustments: list[dict]) -> list[dict] | None:
    """The recorded adjustments that lead from ``before`` to ``after``, in order, or None
    when no chain of them does (then the state was changed without a record)."""
    current, target, chain = state_hash(before), state_hash(after), []
    for adj in adjustments:
        if adj["state_before_sha256"] == current:
            chain.append(adj)
            current = adj["state_after_sha256"]
            if current == target:
                return chain
    return None


@dataclass(kw_only=True, eq=False)
class Verifier(ServicePart):
    """`pbem verify GAME`: replays a game's resolved phases from the store, each with the
    rules version it was resolved with."""

    def _adjustments(self, game_id: str) -> dict[int, list[dict]]:
        """Hand adjustments made in the open and standing orders taken outside a side's
        phase, by phase seq, in order: who, when, why, and the hashes of the state before and after."""
        out: dict[int, list[dict]] = {}
        for row in self.records.state_adjustments(game_id):
            d = loads(row["details"], {})
            if "seq" in d and d.get("state_before_sha256") and d.get("state_after_sha256"):
                out.setdefault(d["seq"], []).append({**row, **d})
        return out

    def verify_game(self, game_id: str) -> dict:
        """Re-run every resolved phase; report each difference found. A phase that starts
        from a state a moderator adjusted in the open (recorded in the public log, with the
        hashes of the state before and after) is noted, not reported as a difference; so is
        a state brought to a new format when pbem was upgraded. ``exists`` is False for a
        game id the store does not know."""
        g = self.records.game(game_id)
        if g is None:
            return {"game": game_id, "exists": False, "ok": False, "phases": 0, "problems": [], "notes": [], "not_replayed": [],
                    "corrections": []}
        return {"exists": True, **_replay_phases(self.engine(g["engine"]), self.records.phase_rows(game_id),
                                                 self._adjustments(game_id), game_id),
                "corrections": [_correction_line(row) for row in self.records.published_corrections(game_id)]}


def _correction_line(row: dict) -> str:
    """A published correction as `pbem verify` and the Verify page list it: the phases replayed
    are its result (a corrected phase is replayed from its amended orders)."""
    d = loads(row["details"], {})
    amended = "; ".join(f"the orders of {role} amended ({why})" for role, why in sorted((d.get("amended") or {}).items()))
    line = f"{d.get('phase', '?')}: corrected by {row['actor']} on {row['at']} (revision {d.get('revision', '?')})"
    if amended:
        line += f"; {amended}"
    if d.get("rerun"):
        line += f"; re-resolved after it: {', '.join(d['rerun'])}"
    if d.get("rolled_back_from"):
        line += f"; rolled back from {d['rolled_back_from']} to {d.get('reopened') or '?'}"
    return f"{line}; reason: {row['reason']}"


def _same_position(engine, earlier: dict, earlier_format: int, later: dict, later_format: int) -> bool:
    """Whether two states, each in its own format, are the same position (compared in the
    installed engine's format when they differ)."""
    if earlier_format == later_format:
        return dumps(earlier) == dumps(later)
    try:
        return dumps(engine.migrate_state(earlier, earlier_format)) == dumps(engine.migrate_state(later, later_format))
    except StateFormatError:
        return False


def _replay_phases(engine, rows: list[dict], adjustments: dict[int, list[dict]], game_id: str) -> dict:
    """Each resolved phase row replayed from its stored state, orders and revealed seed, with
    the rules it was resolved with (``engine.rules(version)``). A phase whose rules this
    release no longer carries is named in ``not_replayed`` (and the game does not verify)."""
    problems: list[str] = []
    notes: list[str] = []
    not_replayed: list[str] = []
    checked = 0
    previous = None  # (result, format) of the previous resolved phase
    for ph in rows:
        state = loads(ph["state"])
        if previous is not None and not _same_position(engine, previous[0], previous[1], state, ph["state_format"]):
            chain = _explained_by_adjustments(previous[0], state, adjustments.get(ph["seq"], []))
            if chain is None:
                problems.append(f"{ph['label']}: its starting state is not the previous phase's result")
            for adj in chain or []:
                notes.append(f"{ph['label']}: starts from a state adjusted by {adj['actor']} on {adj['at']} "
                             f"({adj.get('changes', '?')} change(s)); reason: {adj['reason']}")
        elif previous is not None and previous[1] != ph["state_format"]:
            notes.append(f"{ph['label']}: its starting state was brought from state format {previous[1]} "
                         f"to {ph['state_format']} when pbem was upgraded")
        if commitment(ph["seed"]) != ph["commitment"]:
            problems.append(f"{ph['label']}: the seed does not match the commitment published before the phase")
        if ph["status"] != "resolved":
            continue
        previous = (loads(ph["result_state"]), ph["state_format"])
        rules = engine.rules(ph["rules_version"])
        if rules is None:
            not_replayed.append(f"{ph['label']}: resolved under {engine.name} rules version {ph['rules_version']}, "
                                f"which this release no longer carries (it has version {engine.rules_version}); not replayed")
            continue
        try:
            start = rules.migrate_state(state, ph["state_format"])
            stored_result = rules.migrate_state(previous[0], ph["state_format"])
        except StateFormatError as exc:
            not_replayed.append(f"{ph['label']}: its state (format {ph['state_format']}) cannot be read by "
                                f"rules version {ph['rules_version']} ({exc}); not replayed")
            continue
        record = loads(ph["events"], {"events": [], "rolls": []})
        orders = loads(ph["orders"])
        notes += _stand_in_notes(rules, start, orders, ph)
        new_state, events, rolls = adjudicate(rules, start, orders, ph["seed"])
        if dumps(new_state) != dumps(stored_result):
            problems.append(f"{ph['label']}: replaying gives a different result")
        if dumps(events) != dumps(record["events"]):
            problems.append(f"{ph['label']}: replaying gives different events")
        if dumps(rolls) != dumps(record["rolls"]):
            problems.append(f"{ph['label']}: replaying gives different dice")
        checked += 1
    return {"game": game_id, "ok": not problems and not not_replayed, "phases": checked, "problems": problems,
            "notes": notes, "not_replayed": not_replayed}


def _stand_in_notes(rules, start: dict, orders: dict, ph: dict) -> list[str]:
    """The stand-in's orders in a phase, worked out again from its seed (pbem.service.stand_ins): a
    note for each seat it played, saying whether this release's stand-in gives the same orders (its
    bot is not part of the rules version, so a later release may give others: a note, not a problem;
    the phase itself is replayed with the orders stored, like any other)."""
    notes = []
    for role in loads(ph.get("stand_in"), []) or []:
        again = stand_in_orders(rules, start, role, ph["seed"])
        same = again is not None and dumps(again) == dumps(orders.get(role))
        notes.append(f"{ph['label']}: the stand-in gave {role}'s orders; worked out again from the seed, "
                     + ("they are the same" if same else "this release's stand-in gives other orders (its bot may have changed since)"))
    return notes


class NotReportJSON(ValueError):
    """A file that is not a report's JSON (neither the gzipped attachment nor plain JSON)."""


def read_report_json(data: bytes) -> dict:
    """A report's JSON as a player saved it: the attachment as mailed (``.json.gz``), unpacked,
    or as the player's page serves it (``.json``)."""
    try:
        if data[:2] == b"\x1f\x8b":  # gzip's magic number
            data = gzip.decompress(data)
        value = json.loads(data.decode("utf-8"))
    except (OSError, EOFError, zlib.error, ValueError) as exc:  # bad gzip, bad UTF-8, bad JSON
        raise NotReportJSON(str(exc)) from exc
    if not isinstance(value, dict):
        raise NotReportJSON("not a JSON object")
    return value


def verify_attachments(previous: dict | None, current: dict) -> dict:
    """Check one report's phase from its JSON attachment (and the previous
    mail's, which carried the commitment), without trusting the server."""
    problems, notes = [], []
    phase = current.get("phase") or {}
    seed = phase.get("seed")
    if not seed and phase.get("sealed"):
        notes.append("this phase's seed is still sealed (its dice decided something still hidden from a player): nothing to replay yet")
        return {"ok": True, "problems": problems, "notes": notes}
    if not seed:
        return {"ok": False, "problems": ["the attachment reveals no seed"], "notes": notes}
    if commitment(seed) != phase.get("commitment"):
        problems.append("the revealed seed does not match this report's commitment")
    if previous is not None:
        announced = (previous.get("next_phase") or {}).get("commitment")
        if announced != phase.get("commitment"):
            problems.append("the commitment announced in the previous mail differs from this one")
        else:
            notes.append("the commitment matches the one announced before the phase")
    replay = current.get("replay") or {}
    state_before = replay.get("state_before")
    if previous is not None and state_before is not None:
        # A report gives its result by hash (the next report carries the state itself); a
        # welcome mail, and reports before issue 17, give the state.
        previous_hash = (previous.get("replay") or {}).get("state_after_sha256")
        if previous.get("state_after") is not None:
            if dumps(previous["state_after"]) != dumps(state_before):
                problems.append("the state this phase started from is not the previous report's result")
        elif previous_hash is not None and previous_hash != state_hash(state_before):
            problems.append("the state this phase started from is not the previous report's result")
    if state_before is None or replay.get("orders") is None:
        notes.append("this game keeps secrets (hidden hands), so the phase cannot be replayed from one player's mail; the seed and commitment were checked")
        return {"ok": not problems, "problems": problems, "notes": notes}
    engine = get_engine(replay["engine"])
    version = replay.get("rules_version", engine.rules_version)
    if version != engine.rules_version:
        # the attachment's states are in the installed format, its phase was resolved by other rules
        notes.append(f"this phase was resolved under {replay['engine']} rules version {version} and this pbem has version "
                     f"{engine.rules_version}: it is not replayed offline (`pbem verify GAME` on the server replays it with its own rules)")
        return {"ok": not problems, "problems": problems, "notes": notes}
    new_state, events, _rolls = adjudicate(engine, state_before, replay["orders"], seed)
    if state_hash(new_state) != replay.get("state_after_sha256"):
        problems.append("replaying the phase gives a different result from the server's")
    else:
        notes.append("replaying the phase from its start, the orders and the seed gives the server's result")
    if current.get("state_after") is not None and dumps(current["state_after"]) != dumps(new_state):
        problems.append("the result in the attachment differs from the replay")
    return {"ok": not problems, "problems": problems, "notes": notes}
