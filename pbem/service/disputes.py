"""Dispute review: correct a resolved phase in the open.

A moderator starts a *draft* correction of a resolved phase, amends any role's
orders (parsed by the engine against the phase's stored starting state, with a
reason), re-adjudicates the phase from that state with the same revealed seed
(every roll whose label did not change falls the same), reads a structured
difference of the two outcomes, then publishes or discards the draft.

Publishing supersedes the phase row (a new row with ``revision + 1``), then
re-resolves every later phase in order with the orders that stood, each with
its own seed. When a later phase's orders no longer parse against the corrected
position (or the corrected position is in another phase), the game is rolled
back instead: every later phase is superseded and the corrected phase's
successor opens again, waiting for new orders. Players get a correction mail
(``X-PBEM-Kind: correction``) saying what changed and why, each from their own
view (a correction never shows one player another's secrets).

Manual adjustment (:func:`adjust_state`) is for the cases no rule covers: the
open phase's starting state is replaced by one the engine validates and reads.

Functions here are methods of :class:`pbem.service.core.Service`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter

from pbem.engines.base import MODERATOR, ViewLayout
from pbem.service.clock import to_iso
from pbem.service.render import describe_errors, visible_events
from pbem.service.store import dumps, loads

log = logging.getLogger("pbem.disputes")

MAX_NOTE_CHANGES = 40


def _error(message: str, errors: list[dict] | None = None):
    from pbem.service.core import ServiceError
    exc = ServiceError(message)
    exc.errors = errors or []  # type: ignore[attr-defined]
    return exc


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise _error("a reason is required; it goes into the game's public moderation log")
    if len(reason) > 2000:
        raise _error("the reason is longer than 2000 characters")
    return reason


# -- drafts ------------------------------------------------------------------------
def _load_draft(row: dict | None) -> dict | None:
    if row is None:
        return None
    row["orders"] = loads(row["orders"], {})
    row["amendments"] = loads(row["amendments"], {})
    row["result_state"] = loads(row["result_state"])
    row["events"] = loads(row["events"])
    row["diff"] = loads(row["diff"])
    return row


def draft(self, draft_id: int) -> dict | None:
    return _load_draft(self.store.one("SELECT * FROM drafts WHERE id = ?", (draft_id,)))


def drafts(self, game_id: str, status: str | None = "draft") -> list[dict]:
    sql, params = "SELECT * FROM drafts WHERE game_id = ?", [game_id]
    if status:
        sql += " AND status = ?"
        params.append(status)
    return [_load_draft(r) for r in self.store.all(sql + " ORDER BY id DESC", tuple(params))]


def _live_phase(store, game_id: str, seq: int) -> dict | None:
    return store.one("SELECT * FROM phases WHERE game_id = ? AND seq = ? AND status != 'superseded'", (game_id, seq))


def start_draft(self, game_id: str, seq: int, *, actor: str) -> dict:
    """The open draft correcting phase ``seq`` (created when there is none)."""
    store, now = self.store, self.now()
    with store.write():
        ph = _live_phase(store, game_id, seq)
        if ph is None:
            raise _error(f"game {game_id} has no phase number {seq}")
        if ph["status"] != "resolved":
            raise _error(f"phase {ph['label']} is not resolved yet; only a resolved phase can be corrected")
        existing = store.one("SELECT * FROM drafts WHERE game_id = ? AND seq = ? AND status = 'draft' ORDER BY id DESC LIMIT 1", (game_id, seq))
        if existing is not None:
            if existing["phase_id"] == ph["id"]:
                return _load_draft(existing)
            # The phase was corrected since: that draft is about a result that no longer stands.
            store.execute("UPDATE drafts SET status = 'discarded', closed_at = ?, reason = ? WHERE id = ?",
                          (to_iso(now), "the phase changed since the draft was started", existing["id"]))
        draft_id = store.insert("drafts", {
            "game_id": game_id, "seq": seq, "phase_id": ph["id"], "status": "draft",
            "orders": ph["orders"] or "{}", "amendments": "{}", "created_by": actor,
            "created_at": to_iso(now), "updated_at": to_iso(now),
        })
    return draft(self, draft_id)


def amend_orders(self, game_id: str, seq: int, role: str, text: str, reason: str, actor: str) -> dict:
    """Replace one role's orders in the draft correcting phase ``seq``.

    The text is parsed by the engine against the phase's starting state; any
    error refuses the amendment (the ServiceError carries ``errors``, each
    with its line, the text quoted, the reason and a suggestion)."""
    reason = _reason(reason)
    text = (text or "").replace("\r\n", "\n").strip("\n")
    if len(text) > self.settings.max_orders_chars:
        raise _error(f"the orders are {len(text)} characters long; the limit is {self.settings.max_orders_chars}")
    d = start_draft(self, game_id, seq, actor=actor)
    store, now = self.store, self.now()
    with store.write():
        ph = store.one("SELECT * FROM phases WHERE id = ?", (d["phase_id"],))
        awaited = loads(ph["awaited"], [])
        if role not in awaited and role not in (loads(ph["orders"], {}) or {}):
            raise _error(f"phase {ph['label']} took no orders from {role!r} (it awaited: {', '.join(awaited) or 'nobody'})")
        g = store.one("SELECT engine FROM games WHERE id = ?", (game_id,))
        engine = self.engine(g["engine"])
        try:
            result = engine.parse_orders(loads(ph["state"]), role, text)
        except Exception as exc:  # an engine bug must not become a 500
            log.exception("engine %s failed to parse amended orders", g["engine"])
            raise _error(f"the engine failed while reading these orders ({type(exc).__name__}: {exc})") from exc
        if result.errors:
            errors = describe_errors([e.to_json() for e in result.errors], "en")
            raise _error(f"the engine could not take {len(errors)} line(s) of these orders; nothing was changed", errors)
        orders = dict(d["orders"])
        orders[role] = result.orders
        amendments = dict(d["amendments"])
        amendments[role] = {"text": text, "canonical": result.canonical, "reason": reason, "by": actor, "at": to_iso(now),
                            "missing": list(result.missing)}
        store.execute(
            "UPDATE drafts SET orders = ?, amendments = ?, result_state = NULL, events = NULL, diff = NULL, error = NULL, updated_at = ? WHERE id = ?",
            (dumps(orders), dumps(amendments), to_iso(now), d["id"]),
        )
        self.audit(game_id, actor, "amend orders (draft)", reason, {"phase": ph["label"], "role": role, "draft": d["id"]}, public=False)
    return draft(self, d["id"])


def remove_amendment(self, draft_id: int, role: str, actor: str) -> dict:
    """Put one role's orders back as they stood in the draft."""
    store, now = self.store, self.now()
    with store.write():
        d = _open_draft(self, draft_id)
        ph = store.one("SELECT * FROM phases WHERE id = ?", (d["phase_id"],))
        orders, amendments = dict(d["orders"]), dict(d["amendments"])
        if role not in amendments:
            raise _error(f"the draft has no amendment for {role!r}")
        del amendments[role]
        original = loads(ph["orders"], {}) or {}
        if role in original:
            orders[role] = original[role]
        else:
            orders.pop(role, None)
        store.execute(
            "UPDATE drafts SET orders = ?, amendments = ?, result_state = NULL, events = NULL, diff = NULL, error = NULL, updated_at = ? WHERE id = ?",
            (dumps(orders), dumps(amendments), to_iso(now), d["id"]),
        )
    return draft(self, draft_id)


def _open_draft(self, draft_id: int) -> dict:
    d = draft(self, draft_id)
    if d is None:
        raise _error(f"no draft correction #{draft_id}")
    if d["status"] != "draft":
        raise _error(f"draft correction #{draft_id} was already {d['status']}")
    ph = self.store.one("SELECT * FROM phases WHERE id = ?", (d["phase_id"],))
    if ph is None or ph["status"] != "resolved":
        raise _error("the phase has changed since this draft was started (another correction was published); discard the draft and start again")
    return d


def readjudicate(self, draft_id: int) -> dict:
    """Run the phase again from its stored starting state, with the draft's
    orders and the phase's revealed seed, and store the result and the
    difference in the draft. The game itself is not touched; when the engine
    refuses, the draft keeps the error and a ServiceError is raised."""
    store, now = self.store, self.now()
    d = _open_draft(self, draft_id)
    ph = store.one("SELECT * FROM phases WHERE id = ?", (d["phase_id"],))
    g = store.one("SELECT engine FROM games WHERE id = ?", (d["game_id"],))
    engine = self.engine(g["engine"])
    try:
        new_state, events, rolls = _adjudicate(engine, loads(ph["state"]), d["orders"], ph["seed"])
        diff = compute_diff(engine, loads(ph["result_state"]), loads(ph["events"], {}).get("events", []),
                            new_state, events, MODERATOR,
                            rolls_before=loads(ph["events"], {}).get("rolls", []), rolls_after=rolls)
    except Exception as exc:
        log.warning("re-adjudication of %s %s refused: %s", d["game_id"], ph["label"], exc)
        message = f"the engine refused to re-adjudicate {ph['label']} with these orders ({type(exc).__name__}: {exc}); the game is unchanged"
        with store.write():
            store.execute("UPDATE drafts SET result_state = NULL, events = NULL, diff = NULL, error = ?, updated_at = ? WHERE id = ?",
                          (message, to_iso(now), draft_id))
        raise _error(message) from exc
    with store.write():
        if store.one("SELECT status FROM drafts WHERE id = ?", (draft_id,))["status"] != "draft":
            raise _error("the draft was closed meanwhile")
        store.execute(
            "UPDATE drafts SET result_state = ?, events = ?, diff = ?, error = NULL, updated_at = ? WHERE id = ?",
            (dumps(new_state), dumps({"events": events, "rolls": rolls}), dumps(diff), to_iso(now), draft_id),
        )
    return draft(self, draft_id)


def _adjudicate(engine, state, orders, seed):
    from pbem.service.phases import adjudicate
    new_state, events, rolls = adjudicate(engine, state, orders, seed)
    engine.view(new_state, MODERATOR)  # a result the engine cannot show is no result
    engine.outcome(new_state)
    return new_state, events, rolls


def discard(self, draft_id: int, *, actor: str, reason: str = "") -> None:
    store, now = self.store, self.now()
    with store.write():
        d = draft(self, draft_id)
        if d is None or d["status"] != "draft":
            raise _error("no open draft correction with that number")
        store.execute("UPDATE drafts SET status = 'discarded', closed_at = ?, reason = ? WHERE id = ?",
                      (to_iso(now), (reason or "").strip() or None, draft_id))
        label = store.one("SELECT label FROM phases WHERE id = ?", (d["phase_id"],))["label"]
        self.audit(d["game_id"], actor, "discard correction", (reason or "").strip(),
                   {"phase": label, "draft": draft_id, "roles": sorted(d["amendments"])})


# -- the difference ----------------------------------------------------------------------
_ABSENT = object()


def flatten(value, layout: ViewLayout, prefix: str = "", out: dict | None = None, shape: str = "") -> dict:
    """A view as {path: value}, laid out as the engine declares (``Engine.view_layout``):
    dicts by key, a keyed list by its items' identifying field (``units[co_c].hex``),
    an itemized list of plain values item by item, any other list of plain values
    as one value (a hand), anything else by position. ``shape`` is the path
    without list positions, which the layout's patterns match."""
    out = {} if out is None else out
    if isinstance(value, dict):
        if not value and prefix:
            out[prefix] = {}
        for key in sorted(value, key=str):
            flatten(value[key], layout, f"{prefix}.{key}" if prefix else str(key), out, f"{shape}.{key}" if shape else str(key))
    elif isinstance(value, list):
        key = layout.key_of(shape)
        ids = [x.get(key) for x in value if isinstance(x, dict)] if key else []
        if key and value and len(ids) == len(value) and all(isinstance(i, (str, int)) for i in ids) and len(set(ids)) == len(ids):
            for item in value:
                flatten({k: v for k, v in item.items() if k != key}, layout, f"{prefix}[{item[key]}]", out, shape)
        elif all(not isinstance(x, (dict, list)) for x in value) and not layout.is_itemized(shape):
            out[prefix] = list(value)
        else:
            for i, item in enumerate(value):
                flatten(item, layout, f"{prefix}[{i}]", out, shape)
    else:
        out[prefix] = value
    return out


def show_value(value) -> str:
    if value is _ABSENT:
        return "—"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _section(path: str) -> str:
    head = path.split(".", 1)[0].split("[", 1)[0]
    return head or path


def compute_diff(engine, before_state: dict, before_events: list, after_state: dict, after_events: list, role,
                 *, rolls_before: list | None = None, rolls_after: list | None = None) -> dict:
    """What a role sees change between two results of the same phase."""
    before = flatten(engine.view(before_state, role), engine.view_layout)
    after = flatten(engine.view(after_state, role), engine.view_layout)
    changes = []
    # What a phase left behind (last moves, last combats) matters less than where things are now.
    for path in sorted(set(before) | set(after), key=lambda p: (_section(p).startswith("last"), p)):
        b, a = before.get(path, _ABSENT), after.get(path, _ABSENT)
        if b is _ABSENT or a is _ABSENT or dumps(b) != dumps(a):
            changes.append({"path": path, "section": _section(path), "before": show_value(b), "after": show_value(a)})
    ev_before = [e["text"] for e in visible_events(before_events, role, "en")]
    ev_after = [e["text"] for e in visible_events(after_events, role, "en")]
    removed_c, added_c = Counter(ev_before) - Counter(ev_after), Counter(ev_after) - Counter(ev_before)
    removed, added = [], []
    for text in ev_before:
        if removed_c[text] > 0:
            removed.append(text)
            removed_c[text] -= 1
    for text in ev_after:
        if added_c[text] > 0:
            added.append(text)
            added_c[text] -= 1
    out_before, out_after = engine.outcome(before_state), engine.outcome(after_state)
    diff = {
        "changes": changes,
        "sections": dict(Counter(c["section"] for c in changes)),
        "events_removed": removed, "events_added": added,
        "events_kept": len(ev_after) - len(added),
        "outcome_before": out_before, "outcome_after": out_after,
        "outcome_changed": dumps(out_before) != dumps(out_after),
        "identical": not changes and not removed and not added and dumps(out_before) == dumps(out_after),
    }
    if rolls_before is not None and rolls_after is not None:
        diff["dice"] = _dice_diff(rolls_before, rolls_after)
    return diff


def _dice_diff(before: list[dict], after: list[dict]) -> dict:
    def keyed(rolls):
        seen: Counter = Counter()
        out = {}
        for r in rolls:
            k = (r.get("for"), seen[r.get("for")])
            seen[r.get("for")] += 1
            out[k] = r
        return out
    b, a = keyed(before), keyed(after)
    same = sum(1 for k in b if k in a and b[k].get("value") == a[k].get("value") and b[k].get("kind") == a[k].get("kind"))
    return {"before": len(before), "after": len(after), "same": same,
            "new": [a[k] for k in a if k not in b][:50], "gone": [b[k] for k in b if k not in a][:50]}


# -- publishing ------------------------------------------------------------------------
def _next_revision(store, game_id: str, seq: int) -> int:
    return store.one("SELECT COALESCE(MAX(revision), -1) + 1 AS r FROM phases WHERE game_id = ? AND seq = ?", (game_id, seq))["r"]


def _replace_row(store, row: dict, changes: dict) -> dict:
    """Supersede a phase row and insert its next revision (same seq)."""
    store.execute("UPDATE phases SET status = 'superseded' WHERE id = ?", (row["id"],))
    new = {k: v for k, v in row.items() if k != "id"}
    new.update(changes)
    new["revision"] = _next_revision(store, row["game_id"], row["seq"])
    new["id"] = store.insert("phases", new)
    return new


def _active_player(store, game_id: str, role: str) -> dict | None:
    return store.one("SELECT * FROM players WHERE game_id = ? AND role = ? ORDER BY (status = 'active') DESC, id DESC LIMIT 1", (game_id, role))


def _reparse(engine, store, row: dict, state: dict) -> tuple[dict, list, dict] | None:
    """A resolved phase's orders checked against a new starting state:
    (orders, defaulted, role -> (submission, parse result)), or None when some
    role's orders no longer parse."""
    from pbem.service.phases import standing_orders
    standing = standing_orders(store, row["id"])
    stored = loads(row["orders"], {}) or {}
    was_defaulted = set(loads(row["defaulted"], []) or [])
    orders, defaulted, parsed = {}, [], {}
    roles = list(loads(row["awaited"], [])) + [r for r in stored if r not in loads(row["awaited"], [])]
    for role in roles:
        if role in was_defaulted or role not in stored:
            orders[role] = engine.default_orders(state, role)
            defaulted.append(role)
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


def _moderator_submission(store, game_id: str, row: dict, role: str, amendment: dict, orders, now: str) -> None:
    p = _active_player(store, game_id, role)
    store.execute("UPDATE submissions SET stands = 0 WHERE phase_id = ? AND role = ?", (row["id"], role))
    store.insert("submissions", {
        "game_id": game_id, "phase_id": row["id"], "phase_label": row["label"], "player_id": p["id"] if p else 0,
        "role": role, "inbound_id": None, "text": amendment["text"], "orders": dumps(orders),
        "canonical": amendment["canonical"], "errors": "[]", "missing": dumps(amendment.get("missing", [])),
        "status": "accepted", "stands": 1, "sha256": hashlib.sha256(amendment["text"].encode("utf-8")).hexdigest(),
        "received_at": now, "source": "moderator",
    })


def _move_submissions(store, old_id: int, new_row: dict) -> None:
    store.execute("UPDATE submissions SET phase_id = ?, phase_label = ? WHERE phase_id = ?", (new_row["id"], new_row["label"], old_id))


def publish(self, draft_id: int, reason: str, actor: str) -> dict:
    """Make a draft correction the phase's result, re-resolve or roll back the
    later phases, mail every player a correction, log it publicly."""
    from pbem.service import letters
    from pbem.service.games import players_of
    from pbem.service.phases import adjudicate, open_phase

    reason = _reason(reason)
    store, now = self.store, self.now()
    iso = to_iso(now)
    with store.write():
        d = _open_draft(self, draft_id)
        if not d["amendments"]:
            raise _error("the draft amends nothing; amend some orders first, or discard it")
        game_id = d["game_id"]
        g = store.one("SELECT * FROM games WHERE id = ?", (game_id,))
        engine = self.engine(g["engine"])
        ph = store.one("SELECT * FROM phases WHERE id = ?", (d["phase_id"],))
        old_result = loads(ph["result_state"])
        old_events = loads(ph["events"], {}).get("events", [])
        try:
            new_state, events, rolls = _adjudicate(engine, loads(ph["state"]), d["orders"], ph["seed"])
        except Exception as exc:
            raise _error(f"the engine refused to re-adjudicate {ph['label']} ({type(exc).__name__}: {exc}); nothing was published") from exc
        amended = d["amendments"]
        defaulted = [r for r in (loads(ph["defaulted"], []) or []) if r not in amended]
        corrected = _replace_row(store, ph, {
            "orders": dumps(d["orders"]), "defaulted": dumps(defaulted),
            "events": dumps({"events": events, "rolls": rolls}), "result_state": dumps(new_state), "resolved_at": iso,
        })
        _move_submissions(store, ph["id"], corrected)
        for role, amendment in amended.items():
            _moderator_submission(store, game_id, corrected, role, amendment, d["orders"][role], iso)

        # Later phases, in order.
        later = store.all("SELECT * FROM phases WHERE game_id = ? AND seq > ? AND status != 'superseded' ORDER BY seq", (game_id, ph["seq"]))
        state = new_state
        rerun: list[str] = []
        rolled_back_from: str | None = None
        stale: dict[str, str] = {}  # role -> phase label whose orders were set aside
        open_row = None
        for row in later:
            if row["status"] != "resolved":
                break
            fits = engine.outcome(state) is None
            if fits:
                info = engine.phase(state)
                fits = info.id == row["label"] and list(info.awaited) == list(loads(row["awaited"], []))
            checked = _reparse(engine, store, row, state) if fits else None
            if checked is None:
                rolled_back_from = row["label"]
                break
            orders, row_defaulted, parsed = checked
            try:
                ns, ev, rl = adjudicate(engine, state, orders, row["seed"])
            except Exception:
                log.exception("re-resolving %s %s failed; rolling back", game_id, row["label"])
                rolled_back_from = row["label"]
                break
            new_row = _replace_row(store, row, {
                "state": dumps(state), "orders": dumps(orders), "defaulted": dumps(row_defaulted),
                "events": dumps({"events": ev, "rolls": rl}), "result_state": dumps(ns), "resolved_at": iso,
            })
            _move_submissions(store, row["id"], new_row)
            for role, (sub, result) in parsed.items():
                store.execute("UPDATE submissions SET orders = ?, canonical = ? WHERE phase_id = ? AND role = ? AND stands = 1",
                              (dumps(result.orders), result.canonical, new_row["id"], role))
            rerun.append(row["label"])
            state = ns

        if rolled_back_from is not None:
            # Every later phase goes; the corrected phase's successor opens again.
            for row in later:
                store.execute("UPDATE phases SET status = 'superseded' WHERE id = ? AND status != 'superseded'", (row["id"],))
            rerun = []
            state = new_state
            open_row = open_phase(self, game_id, state, seq=ph["seq"] + 1, now=now, revision=_next_revision(store, game_id, ph["seq"] + 1))
        else:
            old_open = store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open' ORDER BY seq DESC LIMIT 1", (game_id,))
            last_seq = ph["seq"] + len(rerun)
            if old_open is not None and engine.outcome(state) is None:
                info = engine.phase(state)
                if info.id == old_open["label"] and list(info.awaited) == list(loads(old_open["awaited"], [])):
                    # The same phase, from the corrected position: same seed and deadline; orders that no longer fit are set aside.
                    open_row = _replace_row(store, old_open, {"state": dumps(state)})
                    _move_submissions(store, old_open["id"], open_row)
                    for role in _reparse_standing(store, engine, state, open_row["id"]):
                        stale[role] = open_row["label"]
                else:
                    store.execute("UPDATE phases SET status = 'superseded' WHERE id = ?", (old_open["id"],))
                    open_row = open_phase(self, game_id, state, seq=old_open["seq"], now=now, revision=_next_revision(store, game_id, old_open["seq"]))
            else:
                if old_open is not None:
                    store.execute("UPDATE phases SET status = 'superseded' WHERE id = ?", (old_open["id"],))
                seq = old_open["seq"] if old_open is not None else last_seq + 1
                open_row = open_phase(self, game_id, state, seq=seq, now=now, revision=_next_revision(store, game_id, seq))
        if open_row is not None and g["status"] == "finished":
            # The correction un-finished the game.
            store.execute("UPDATE games SET status = 'active', outcome = NULL, finished_at = NULL WHERE id = ?", (game_id,))
            if open_row.get("deadline") is None:
                from pbem.service.timing import deadline_after, deadline_spec
                spec = deadline_spec(loads(g["timing"], {}), engine.phase(state).deadline)
                store.execute("UPDATE phases SET deadline = ? WHERE id = ?", (to_iso(deadline_after(spec, now)), open_row["id"]))
        if open_row is not None:
            open_row = store.one("SELECT * FROM phases WHERE id = ?", (open_row["id"],))

        store.execute("UPDATE drafts SET status = 'published', closed_at = ?, reason = ?, result_state = ?, events = ?, diff = ?, updated_at = ? WHERE id = ?",
                      (iso, reason, dumps(new_state), dumps({"events": events, "rolls": rolls}),
                       dumps(compute_diff(engine, old_result, old_events, new_state, events, MODERATOR)), iso, draft_id))
        summary = {
            "phase": ph["label"], "revision": corrected["revision"], "draft": draft_id,
            "amended": {role: a["reason"] for role, a in sorted(amended.items())},
            "rerun": rerun, "rolled_back_from": rolled_back_from,
            "reopened": open_row["label"] if (open_row is not None and rolled_back_from) else None,
            "set_aside": stale,
        }
        self.audit(game_id, actor, "correct phase", reason, summary)
        corrected = store.one("SELECT * FROM phases WHERE id = ?", (corrected["id"],))
        mails = 0
        for p in players_of(store, game_id):
            if p["status"] != "active" or not p["email"]:
                continue
            role_diff = compute_diff(engine, old_result, old_events, new_state, events, p["role"])
            note = correction_note(ph["label"], reason, amended, role_diff, rerun, rolled_back_from, open_row, stale, p["role"])
            if letters.queue_report(self, game_id, p, corrected, open_row, kind="correction", note=note):
                mails += 1
    self.notify("phase", game_id)
    self.notify("outbox", game_id)
    return {**summary, "mails": mails, "open": open_row["label"] if open_row else None}


def correction_note(label: str, reason: str, amended: dict, diff: dict, rerun: list, rolled_back_from: str | None,
                    open_row: dict | None, stale: dict, role: str) -> str:
    """What changed and why, for one role (from that role's own view)."""
    lines = [f"Phase {label} was corrected by a moderator. Reason: {reason}"]
    for r, a in sorted(amended.items()):
        lines.append(f"- The orders of {r} were amended: {a['reason']}")
    lines.append("")
    if diff["identical"]:
        lines.append("What you can see of the result did not change.")
    else:
        # The record of what the phase did (last moves...) is told by the events below.
        changes = [c for c in diff["changes"] if not c["section"].startswith("last")] or diff["changes"]
        if changes:
            lines.append("Changes in the result:")
            for c in changes[:MAX_NOTE_CHANGES]:
                lines.append(f"  {c['path']}: {c['before']} -> {c['after']}")
            if len(changes) > MAX_NOTE_CHANGES:
                lines.append(f"  ... and {len(changes) - MAX_NOTE_CHANGES} more")
        if diff["events_removed"]:
            lines.append("No longer happened:")
            lines.extend(f"  - {t}" for t in diff["events_removed"][:MAX_NOTE_CHANGES])
        if diff["events_added"]:
            lines.append("Happened instead:")
            lines.extend(f"  + {t}" for t in diff["events_added"][:MAX_NOTE_CHANGES])
    if rerun:
        lines += ["", f"The later phase(s) {', '.join(rerun)} were resolved again from the corrected position, with the orders that stood and their own revealed seeds."]
    if rolled_back_from:
        reopened = open_row["label"] if open_row else "-"
        lines += ["", f"The orders given for {rolled_back_from} no longer fit the corrected position, so every phase after {label} was undone. "
                      f"Phase {reopened} is open again: please send new orders."]
    if role in stale:
        lines += ["", f"Your orders for {stale[role]} no longer fit the corrected position and were set aside: please send new ones."]
    return "\n".join(lines)


# -- manual adjustment -----------------------------------------------------------------------
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


def adjust_state(self, game_id: str, new_state_json: str, reason: str, actor: str) -> dict:
    """Replace the open phase's starting state by a hand-edited one the engine
    validates and can play from. Orders already given that no longer parse are
    set aside; players get a notice with the reason."""
    from pbem.service import letters
    from pbem.service.phases import open_phase, state_hash

    reason = _reason(reason)
    try:
        state = json.loads(new_state_json or "")
    except json.JSONDecodeError as exc:
        raise _error(f"this is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from exc
    store, now = self.store, self.now()
    with store.write():
        g = store.one("SELECT * FROM games WHERE id = ?", (game_id,))
        if g is None:
            raise _error(f"no game {game_id}")
        engine = self.engine(g["engine"])
        problems = check_state(engine, state)
        if problems:
            raise _error("the engine refuses this state; nothing was changed", [{"line": None, "text": "", "reason": p, "suggestion": None} for p in problems])
        old = store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open' ORDER BY seq DESC LIMIT 1", (game_id,))
        if old is None:
            raise _error("the game has no open phase to adjust (it is over)")
        old_state = loads(old["state"])
        if dumps(old_state) == dumps(state):
            raise _error("the state is unchanged")
        changes = compute_diff(engine, old_state, [], state, [], MODERATOR)["changes"]
        info = engine.phase(state) if engine.outcome(state) is None else None
        same_phase = info is not None and info.id == old["label"] and list(info.awaited) == list(loads(old["awaited"], []))
        set_aside = []
        if same_phase:
            row = _replace_row(store, old, {"state": dumps(state)})
            _move_submissions(store, old["id"], row)
            set_aside.extend(_reparse_standing(store, engine, state, row["id"]))
        else:
            store.execute("UPDATE phases SET status = 'superseded' WHERE id = ?", (old["id"],))
            row = open_phase(self, game_id, state, seq=old["seq"], now=now, revision=_next_revision(store, game_id, old["seq"]))
        # The two hashes let `pbem verify` tell this open correction from a silent change.
        self.audit(game_id, actor, "adjust state", reason, {
            "phase": old["label"], "now": row["label"] if row else "END", "changes": len(changes),
            "paths": sorted({c["section"] for c in changes})[:20],
            "seq": old["seq"], "state_before_sha256": state_hash(old_state), "state_after_sha256": state_hash(state),
        })
        text = (f"A moderator adjusted the game by hand (phase {old['label']}). Reason: {reason}\n"
                + (f"The game is now at phase {row['label']}." if row else "The game is over.")
                + (f"\nOrders from {', '.join(set_aside)} no longer fit and were set aside: please send new ones." if set_aside else ""))
        n = store.one("SELECT COUNT(*) AS n FROM audit WHERE game_id = ? AND action = 'adjust state'", (game_id,))["n"]
        letters.queue_notice(self, game_id, text, serial=f"adjust{n}")
    self.notify("phase", game_id)
    self.notify("outbox", game_id)
    return {"phase": row["label"] if row else None, "changes": changes, "set_aside": set_aside}


def _reparse_standing(store, engine, state: dict, phase_id: int) -> list[str]:
    """Read the open phase's standing orders again against a corrected state: those that
    still parse stand (re-canonicalised), the others are set aside. Returns the roles set aside."""
    set_aside = []
    for sub in store.all("SELECT * FROM submissions WHERE phase_id = ? AND stands = 1", (phase_id,)):
        text = sub["canonical"] if sub["canonical"] is not None else sub["text"]
        try:
            result = engine.parse_orders(state, sub["role"], text)
            ok = not result.errors
        except Exception:  # an order the engine can no longer read is set aside, not fatal
            ok = False
        if ok:
            store.execute("UPDATE submissions SET orders = ?, canonical = ? WHERE id = ?", (dumps(result.orders), result.canonical, sub["id"]))
        else:
            store.execute("UPDATE submissions SET stands = 0, status = 'stale' WHERE id = ?", (sub["id"],))
            set_aside.append(sub["role"])
    return set_aside
