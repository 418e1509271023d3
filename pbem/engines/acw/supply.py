"""The optional SUPPLY WAGONS rule (section 19; only its heading survived, so designed:
data/acw/tables/supply.json, reasons in data/acw/README.md). Game option ``supply_wagons``.

* A regiment or battery whose volley shows two or more 1s is low on ammunition from then
  on; low, it rolls half its fire dice, rounded up.
* A unit low on ammunition that did not fire this turn and ends it (step I) within
  6 inches of a friendly wagon is resupplied.
* Wagons are models that move on their side's Staff card, 12 inches, straight or along a
  road; they keep out of woods and towns except on a road, cross streams only at fords and
  bridges, and halt an inch short of the enemy. They cannot be fired at (as staff, 5 D).
* At the end of the turn a wagon with a formed enemy unit within 2 inches and no formed
  friendly unit within 4 inches is captured.
* Each wagon counts 3 points in its army's effectiveness, like a regiment, while it is not
  captured (section 18).
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point

from pbem.engines.base import event

from .fog import went
from .geometry import rounded
from .messages import N_
from .rules import table as rules_table

OPTION = "supply_wagons"
STEP = 0.25


def in_play(state: dict) -> bool:
    return bool(state.get("options", {}).get(OPTION))


def _rules() -> dict:
    return rules_table("supply")


def initial_wagons(scenario, options: dict) -> dict:
    """The wagons of a game with the option, where the scenario parks them."""
    if not options.get(OPTION):
        return {}
    return {wid: {"side": w["side"], "x": float(w["x"]), "y": float(w["y"]), "status": "active"}
            for wid, w in scenario.wagons.items()}


def active_wagons(state: dict, side: str | None = None) -> list[str]:
    return [wid for wid, w in sorted(state.get("wagons", {}).items())
            if w["status"] == "active" and (side is None or w["side"] == side)]


# --- fire ------------------------------------------------------------------------------
def dice_to_roll(ctx, uid: str, full: int) -> int:
    """The dice a unit rolls: all of them, or half rounded up when it is low on ammunition."""
    if not in_play(ctx.state) or not ctx.state["units"][uid].get("low_ammunition"):
        return full
    return math.ceil(full * _rules()["low_dice_share"])


def after_volley(ctx, uid: str, dice: list[int]) -> bool:
    """Mark a unit low on ammunition when its volley shows enough 1s; True when it just ran low."""
    u = ctx.state["units"][uid]
    if not in_play(ctx.state):
        return False
    u["fired"] = True
    if u.get("low_ammunition"):
        return False
    if dice.count(1) >= _rules()["low_on_ones"]:
        u["low_ammunition"] = True
        return True
    return False


# --- the Staff card ------------------------------------------------------------------
def move_wagons(ctx, side: str, wagon_orders: dict) -> None:
    """Wagons move on their side's Staff card (designed)."""
    if not in_play(ctx.state):
        return
    for wid, ops in sorted(wagon_orders.items()):
        w = ctx.state["wagons"].get(wid)
        if w is None or w["status"] != "active" or w["side"] != side:
            continue
        for op in ops:
            if op["op"] == "move":
                waypoints = [tuple(op["to"])]
            elif op["op"] == "road":
                waypoints = ctx.table.road_path(w["x"], w["y"], *op["to"])
                if waypoints is None:
                    ctx.emit(event("wagon_short", N_("%(wagon)s could not go by road to %(place)s: no road within 3 inches."),
                                   to=[side], wagon=ctx.scenario.wagons[wid]["name"], place=op["ref"]))
                    continue
                waypoints = waypoints + [tuple(op["to"])]
            else:
                continue
            _drive(ctx, wid, waypoints, op["ref"])


def _drive(ctx, wid: str, waypoints: list, ref: str) -> None:
    w = ctx.state["wagons"][wid]
    side, name = w["side"], ctx.scenario.wagons[wid]["name"]
    budget = float(_rules()["wagon_move"][ctx.scale])
    halt = float(_rules()["wagon_halt_short_of_enemy"])
    crossing_cost = rules_table("movement")["stream_crossing"]
    enemies = [ctx.layout(e).footprint for e in ctx.on_table(ctx.scenario.enemy(side))]
    spent, stopped = 0.0, "arrived"
    track = [[rounded(w["x"]), rounded(w["y"])]]
    for wx, wy in waypoints:
        while stopped == "arrived":
            dist = math.hypot(wx - w["x"], wy - w["y"])
            if dist < 1e-6:
                break
            step = min(STEP, dist)
            nx, ny = w["x"] + (wx - w["x"]) / dist * step, w["y"] + (wy - w["y"]) / dist * step
            cost, why = _step_cost(ctx, (w["x"], w["y"]), (nx, ny), step, crossing_cost)
            here, there = Point(w["x"], w["y"]), Point(nx, ny)
            # an inch short of the enemy; a wagon the enemy has come close to may still drive away
            if why is None and any(fp.distance(there) < halt and fp.distance(there) < fp.distance(here) for fp in enemies):
                why = "enemy"
            if why is None and spent + cost > budget + 1e-9:
                why = "allowance"
            if why is not None:
                stopped = why
                break
            spent += cost
            w["x"], w["y"] = nx, ny
        if stopped != "arrived":
            break
        track.append([rounded(w["x"]), rounded(w["y"])])
    w["x"], w["y"] = rounded(w["x"]), rounded(w["y"])
    if track[-1] != [w["x"], w["y"]]:
        track.append([w["x"], w["y"]])
    ctx.state["last"]["moves"].append({"wagon": wid, "path": track, "kind": "wagon"})
    at = f"{ctx.table.grid_ref(w['x'], w['y'])} ({w['x']:g}, {w['y']:g})"
    if stopped == "arrived":
        ctx.emit(event("wagon_move", N_("%(wagon)s drove %(distance)s in. to %(at)s."), to=[side], wagon=name, wagon_id=wid,
                       distance=rounded(spent), at=at, track=track))
        return
    why = {"allowance": N_("its drive ran out"), "terrain": N_("woods, a town or a stream without a ford bar the way"),
           "edge": N_("the table edge"), "enemy": N_("an enemy unit within an inch")}[stopped]
    ctx.emit(event("wagon_short", N_("%(wagon)s drove %(distance)s in. toward %(place)s and stopped at %(at)s: %(why)s."),
                   to=[side], wagon=name, wagon_id=wid, distance=rounded(spent), place=ref, at=at, why=why, stopped=stopped,
                   track=track))


def _step_cost(ctx, a: tuple[float, float], b: tuple[float, float], step: float, crossing_cost: dict):
    """(inches the step costs, why it cannot be taken or None)."""
    table = ctx.table
    if not table.contains(*b):
        return 0.0, "edge"
    closed = ("woods", "town")
    if table.ground(*b) in closed and not table.on_road(*b) and not (table.ground(*a) in closed and not table.on_road(*a)):
        return 0.0, "terrain"  # it does not go in off the road (one parked inside may drive out)
    crossing = table.stream_crossing(LineString([a, b]))
    if crossing == "stream":
        return 0.0, "terrain"
    return step + (crossing_cost[crossing] if crossing else 0.0), None


# --- the end of the turn ---------------------------------------------------------------
def wagons_phase(ctx) -> None:
    """I (with the rallies): unguarded wagons the enemy reaches are captured, then the wagons
    still in hand refill the units near them that did not fire this turn."""
    if not in_play(ctx.state):
        return
    ctx.state["phase_step"] = "I"
    rules = _rules()
    capture, guard = rules["capture_radius"][ctx.scale], rules["guard_radius"][ctx.scale]
    for wid in active_wagons(ctx.state):
        w = ctx.state["wagons"][wid]
        at = Point(w["x"], w["y"])
        formed = [uid for uid in ctx.on_table() if ctx.state["units"][uid]["status"] == "formed"]
        takers = [uid for uid in formed if ctx.state["units"][uid]["side"] != w["side"]
                  and ctx.layout(uid).footprint.distance(at) <= capture]
        guards = [uid for uid in formed if ctx.state["units"][uid]["side"] == w["side"]
                  and ctx.layout(uid).footprint.distance(at) <= guard]
        if takers and not guards:
            went(ctx, "wagon", wid)
            # the wagon's side learns of its loss (masked when it cannot see the taker); the taker's side saw it
            w["last_seen_by"] = sorted(set(w["last_seen_by"]) | {w["side"], ctx.state["units"][takers[0]]["side"]})
            w["status"] = "captured"
            ctx.emit(event("wagon_captured", N_("%(wagon)s, with no friend within %(guard)s in., was captured by %(unit)s."),
                           wagon=ctx.scenario.wagons[wid]["name"], wagon_id=wid, guard=guard, unit=ctx.name(takers[0]),
                           unit_id=takers[0]))
    radius = rules["resupply_radius"][ctx.scale]
    for uid in ctx.on_table():
        u = ctx.state["units"][uid]
        if not u.get("low_ammunition") or u["status"] == "routed":
            continue
        if u.get("fired"):
            continue
        fp = ctx.layout(uid).footprint
        near = [wid for wid in active_wagons(ctx.state, u["side"])
                if fp.distance(Point(ctx.state["wagons"][wid]["x"], ctx.state["wagons"][wid]["y"])) <= radius]
        if near:
            u["low_ammunition"] = False
            ctx.emit(event("resupplied", N_("%(unit)s, %(distance)s in. from %(wagon)s and silent this turn, filled its cartridge boxes."),
                           to=[u["side"]], unit=ctx.name(uid), id=uid, wagon=ctx.scenario.wagons[near[0]]["name"], wagon_id=near[0],
                           distance=rounded(fp.distance(Point(ctx.state["wagons"][near[0]]["x"], ctx.state["wagons"][near[0]]["y"])))))


def wagon_points(state: dict, side: str) -> tuple[int, int]:
    """(wagons still in hand, wagons the side started with) for army effectiveness."""
    mine = [w for w in state.get("wagons", {}).values() if w["side"] == side]
    return sum(1 for w in mine if w["status"] == "active"), len(mine)
