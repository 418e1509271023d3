"""What a role may see (a whitelist): its own units and officers, the enemy units its
troops can see now, the table, this turn's moves and fire between units it can see;
an observer sees what both sides see of each other; the moderator everything."""

from __future__ import annotations

from pbem.engines.base import MODERATOR

from .geometry import rounded
from .scenario import Scenario
from .situation import ON_TABLE
from .visibility import visible_enemies, visible_wagons


def seen_by(sc: Scenario, state: dict, role: str | None) -> set[str]:
    """The units ``role`` may see: its own (on the table or in reserve) and the enemies in sight."""
    if role == MODERATOR:
        return set(state["units"])
    if role is None:
        return set().union(*(visible_enemies(sc, state, side) for side in sc.roles))
    own = {uid for uid, u in state["units"].items() if u["side"] == role and (u["status"] in ON_TABLE or u["status"] == "reserve")}
    return own | visible_enemies(sc, state, role)


def _unit(sc: Scenario, state: dict, uid: str, own: bool, grid) -> dict:
    u = state["units"][uid]
    out = {"id": uid, "name": sc.units[uid]["name"], "side": u["side"], "arm": u["arm"], "brigade": sc.units[uid]["brigade"],
           "x": rounded(u["x"]), "y": rounded(u["y"]), "facing": rounded(u["facing"]), "formation": u["formation"],
           "mounted": bool(u.get("mounted", False)), "stands": len(u["stands"]), "casualties": list(u["stands"]),
           "full_stands": u["full_stands"], "status": u["status"], "grid": grid(u["x"], u["y"])}
    if own:
        out.update({"rating": u["rating"], "concealed": bool(u.get("concealed")), "moved": bool(u.get("moved")),
                    "horses_lost": bool(u.get("horses_lost")), "low_ammunition": bool(u.get("low_ammunition"))})
    return out


def _officer(sc: Scenario, oid: str, o: dict, own: bool) -> dict:
    """Every officer's name and rank are known to all (the order of battle); where he is,
    whom he is with and whether he has fallen only to his own side."""
    out = {"id": oid, "name": sc.officers[oid]["name"], "side": o["side"], "rank": sc.officers[oid]["rank"]}
    if own:
        out.update({"x": rounded(o["x"]), "y": rounded(o["y"]), "attached": o.get("attached"),
                    "lost": None if o["status"] == "active" else o["status"]})
    return out


def _wagons(sc: Scenario, state: dict, role: str | None, grid) -> list[dict]:
    """Supply wagons (optional rule): one's own with where they stand; the enemy's while a
    unit of the side sees them; a captured wagon is known to all (its capture is told)."""
    wagons = state.get("wagons", {})
    if not wagons:
        return []
    if role == MODERATOR:
        seen = set(wagons)
    elif role is None:
        seen = set().union(*(visible_wagons(sc, state, side) for side in sc.roles))
    else:
        seen = {wid for wid, w in wagons.items() if w["side"] == role} | visible_wagons(sc, state, role)
    out = []
    for wid, w in sorted(wagons.items()):
        entry = {"id": wid, "name": sc.wagons[wid]["name"], "side": w["side"], "status": w["status"]}
        if w["status"] == "active" and wid in seen:
            out.append({**entry, "x": rounded(w["x"]), "y": rounded(w["y"]), "grid": grid(w["x"], w["y"])})
        elif w["status"] != "active":
            out.append(entry)
    return out


def build(sc: Scenario, state: dict, role: str | None, phase_id: str) -> dict:
    seen = seen_by(sc, state, role)
    everything = role == MODERATOR
    units = [_unit(sc, state, uid, everything or state["units"][uid]["side"] == role, sc.table.grid_ref)
             for uid in sorted(seen) if state["units"][uid]["status"] in ON_TABLE
             or (state["units"][uid]["status"] == "reserve" and (everything or state["units"][uid]["side"] == role))]
    gone = [{"id": uid, "name": sc.units[uid]["name"], "side": u["side"], "status": u["status"]}
            for uid, u in sorted(state["units"].items()) if u["status"] in ("left", "destroyed", "captured", "surrendered")]
    officers = [_officer(sc, oid, o, everything or o["side"] == role) for oid, o in sorted(state["officers"].items())]
    last = state.get("last", {})
    wagon_sides = {wid: w["side"] for wid, w in state.get("wagons", {}).items()}
    return {
        "scenario": sc.name, "title": sc.title, "turn": state["turn"], "turns": sc.turns, "phase": phase_id,
        "scale": sc.scale, "role": role, "sides": dict(sc.side_names),
        "table": {"width": sc.table.width, "height": sc.table.height, "grid": sc.table.grid,
                  "landmarks": {k: list(v) for k, v in sc.table.landmarks.items()}},
        "units": units, "gone": gone, "officers": officers,
        "wagons": _wagons(sc, state, role, sc.table.grid_ref),
        "moves": [m for m in last.get("moves", []) if m.get("unit") in seen
                  or (m.get("wagon") in wagon_sides and (everything or wagon_sides[m["wagon"]] == role))],
        "fires": [f for f in last.get("fires", []) if f["firer"] in seen and f["target"] in seen],
        "combats": [c for c in last.get("combats", []) if all(u in seen for u in c["attackers"] + c["defenders"])],
        "effectiveness": dict(state.get("effectiveness", {})), "band": dict(state.get("band", {})),
        "objectives": dict(state.get("objectives", {})),
        "standing": {r: {uid: dict(f) for uid, f in v.items()} for r, v in state.get("standing", {}).items()
                     if everything or r == role},
        "over": bool(state.get("over")), "result": state.get("result"),
    }
