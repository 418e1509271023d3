"""The difference between two results of one phase, as one role sees it: what a
dispute's draft shows the moderator and what each player's correction mail says.

Views are flattened as the engine lays them out (``Engine.view_layout``), so a
unit that moved is one change ``units[co_c].hex``, not a shifted list.
"""

from __future__ import annotations

import json
from collections import Counter

from pbem.engines.base import ViewLayout
from pbem.service.render import visible_events
from pbem.service.store import dumps

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


MAX_NOTE_CHANGES = 40


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
