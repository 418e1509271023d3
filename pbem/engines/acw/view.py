"""What a role may see (a whitelist): its own units and officers, the enemy units and
officers its troops can see now, the enemy's losses it saw happen, the table, and this
turn's moves, fire and close combats that it saw (a move from where it began to where it
ended); an observer sees what both sides see of each other, and everything once the battle
is over; the moderator everything (docs/games/acw.md, "What each side sees")."""

from __future__ import annotations

from shapely.geometry import Point

from pbem.engines.base import MODERATOR

from .formations import Layout
from .geometry import rounded
from .names import nearest_landmark, short_names
from .scenario import Scenario
from .situation import ON_TABLE
from .visibility import visible_enemies, visible_officers, visible_wagons


def sees_all(state: dict, role: str | None) -> bool:
    """The moderator always; an observer once the battle is over."""
    return role == MODERATOR or (role is None and bool(state.get("over")))


def seen_by(sc: Scenario, state: dict, role: str | None) -> set[str]:
    """The units ``role`` may see: its own (on the table or in reserve) and the enemies in sight."""
    if sees_all(state, role):
        return set(state["units"])
    if role is None:
        return set().union(*(visible_enemies(sc, state, side) for side in sc.roles))
    own = {uid for uid, u in state["units"].items() if u["side"] == role and (u["status"] in ON_TABLE or u["status"] == "reserve")}
    return own | visible_enemies(sc, state, role)


def _unit(sc: Scenario, state: dict, uid: str, own: bool, grid) -> dict:
    u = state["units"][uid]
    out = {"id": uid, "name": sc.units[uid]["name"], "short": short_names(sc)[uid], "side": u["side"], "arm": u["arm"],
           "brigade": sc.units[uid]["brigade"],
           "x": rounded(u["x"]), "y": rounded(u["y"]), "facing": rounded(u["facing"]), "formation": u["formation"],
           "mounted": bool(u.get("mounted", False)), "stands": len(u["stands"]), "casualties": list(u["stands"]),
           "full_stands": u["full_stands"], "status": u["status"], "grid": grid(u["x"], u["y"]),
           "near": nearest_landmark(sc, u["x"], u["y"])}
    if own:
        out.update({"rating": u["rating"], "concealed": bool(u.get("concealed")), "moved": bool(u.get("moved")),
                    "horses_lost": bool(u.get("horses_lost")), "low_ammunition": bool(u.get("low_ammunition"))})
    return out


def _officer(sc: Scenario, oid: str, o: dict, own: bool) -> dict:
    """An officer's name and rank; where he is, whom he is with and whether he has fallen
    only to his own side. Enemy officers appear only while seen (with a unit seen)."""
    out = {"id": oid, "name": sc.officers[oid]["name"], "side": o["side"], "rank": sc.officers[oid]["rank"]}
    if own:
        out.update({"x": rounded(o["x"]), "y": rounded(o["y"]), "attached": o.get("attached"),
                    "lost": None if o["status"] == "active" else o["status"]})
    return out


def officers_seen(sc: Scenario, state: dict, role: str | None) -> set[str]:
    if sees_all(state, role):
        return set(state["officers"])
    if role is None:
        return set().union(*(visible_officers(sc, state, side) for side in sc.roles))
    return {oid for oid, o in state["officers"].items() if o["side"] == role} | visible_officers(sc, state, role)


def _witnessed(sc: Scenario, thing: dict, role: str | None) -> bool:
    """Whether ``role`` saw an enemy unit (or officer) as it left the table; an observer when its enemy did."""
    if role is None:
        return sc.enemy(thing["side"]) in thing.get("last_seen_by", [])
    return role in thing.get("last_seen_by", [])


def _shown(record: dict, role: str | None, everything: bool, own: bool, fallback: bool) -> bool:
    """Whether a record of this turn's moves, fire or combats is shown: to whoever saw it
    (``fog.seen_by``; a record of an older game without that falls back on ``fallback``)."""
    if everything or own:
        return True
    if "seen_by" not in record:
        return fallback
    return record["public"] if role is None else role in record["seen_by"]


def _objectives(sc: Scenario, state: dict, role: str | None, seen: set[str], everything: bool) -> dict:
    """Who holds each objective, as the role can tell: its own hold, and an enemy's where it
    sees an enemy unit holding it."""
    held = state.get("objectives", {})
    if everything:
        return dict(held)
    out = {}
    for obj in sc.objectives:
        name, holder = obj["name"], held.get(obj["name"])
        if holder is None or holder == role:
            out[name] = holder
            continue
        at = Point(*sc.table.landmarks[name])
        near = [uid for uid, u in state["units"].items() if u["side"] == holder and u["status"] == "formed"
                and Layout(u, sc.scale).footprint.distance(at) <= obj["radius"]]
        out[name] = holder if any(uid in seen for uid in near) else None
    return out


def objective_holders(sc: Scenario, state: dict, role: str | None) -> dict:
    """Who holds each objective as ``role`` can tell (its own holds, an enemy's it sees)."""
    return _objectives(sc, state, role, seen_by(sc, state, role), sees_all(state, role))


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


def _resolved(state: dict, phase_id: str) -> str | None:
    """The turn just resolved (``T3``), for titles: the view comes after it (None before any)."""
    if state.get("deploying"):
        return None
    if state.get("over"):
        return f"T{state['turn']}"
    return f"T{state['turn'] - 1}" if state["turn"] > 1 else ("D" if state.get("options", {}).get("free_deployment") else None)


def build(sc: Scenario, state: dict, role: str | None, phase_id: str) -> dict:
    seen = seen_by(sc, state, role)
    everything = sees_all(state, role)
    units = [_unit(sc, state, uid, role == MODERATOR or state["units"][uid]["side"] == role, sc.table.grid_ref)
             for uid in sc.units if uid in seen and (state["units"][uid]["status"] in ON_TABLE
             or (state["units"][uid]["status"] == "reserve" and (everything or state["units"][uid]["side"] == role)))]
    shown_brigades = {u["brigade"] for u in units}
    gone = [{"id": uid, "name": sc.units[uid]["name"], "side": u["side"], "status": u["status"]}
            for uid, u in sorted(state["units"].items()) if u["status"] in ("left", "destroyed", "captured", "surrendered")
            and (everything or u["side"] == role or _witnessed(sc, u, role))]
    officer_ids = officers_seen(sc, state, role)
    officers = [_officer(sc, oid, o, role == MODERATOR or o["side"] == role) for oid, o in sorted(state["officers"].items())
                if oid in officer_ids or (o["status"] != "active" and _witnessed(sc, o, role))]
    last = state.get("last", {})
    wagon_sides = {wid: w["side"] for wid, w in state.get("wagons", {}).items()}
    side_of = {uid: u["side"] for uid, u in state["units"].items()}
    keep_move = ("unit", "wagon", "path", "kind")
    keep_fire = ("firer", "target", "from", "to", "hits", "kind")
    keep_combat = ("at", "attackers", "defenders", "winner")
    return {
        "scenario": sc.name, "title": sc.title, "turn": state["turn"], "turns": sc.turns, "phase": phase_id,
        "scale": sc.scale, "role": role, "sides": dict(sc.side_names),
        "table": {"width": sc.table.width, "height": sc.table.height, "grid": sc.table.grid,
                  # a list of records: a landmark's name is a value the table shows every reader
                  "landmarks": [{"name": k, "at": list(v)} for k, v in sc.table.landmarks.items()]},
        "units": units, "gone": gone, "officers": officers,
        # the brigades and divisions of the units shown, to group them by (a battery's brigade bears its name:
        # an enemy one unseen is not named)
        "commands": {bid: {"name": b["name"], "side": b["side"], "division": b.get("division")}
                     for bid, b in sc.brigades.items() if bid in shown_brigades},
        "divisions": {did: {"name": d["name"], "side": d["side"]} for did, d in sc.divisions.items()
                      if any(sc.brigades[b].get("division") == did for b in shown_brigades)},
        "objective_points": [{"name": o["name"], "points": o["points"], "radius": o["radius"],
                              "at": list(sc.table.landmarks[o["name"]])} for o in sc.objectives],
        "resolved": _resolved(state, phase_id),
        "wagons": _wagons(sc, state, role, sc.table.grid_ref),
        "moves": [{k: m[k] for k in keep_move if k in m} for m in last.get("moves", [])
                  if (m.get("wagon") in wagon_sides and (everything or wagon_sides[m["wagon"]] == role))
                  or (m.get("unit") in side_of and _shown(m, role, everything, side_of[m["unit"]] == role, m["unit"] in seen))],
        "fires": [{k: f[k] for k in keep_fire} for f in last.get("fires", [])
                  if _shown(f, role, everything, False, f["firer"] in seen and f["target"] in seen)],
        "combats": [{k: c[k] for k in keep_combat} for c in last.get("combats", [])
                    if _shown(c, role, everything, False, all(u in seen for u in c["attackers"] + c["defenders"]))],
        "effectiveness": dict(state.get("effectiveness", {})), "band": dict(state.get("band", {})),
        "objectives": _objectives(sc, state, role, seen, everything),
        "standing": {r: {uid: dict(f) for uid, f in v.items()} for r, v in state.get("standing", {}).items()
                     if everything or r == role},
        "over": bool(state.get("over")), "result": state.get("result"),
    }
