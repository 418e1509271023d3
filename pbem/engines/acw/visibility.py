"""What each side's troops can see (2 B, 16): an enemy unit appears to a side when it is
on the table, not concealed, and some unit of the side (or an officer on his own) has a
line of sight to it. Concealed units (placed in woods, towns or behind hills) stay hidden
until they move, fire, or an enemy comes within ``concealment_spot`` inches with a line
of sight; reserves are off the table until they enter."""

from __future__ import annotations

import json
from functools import lru_cache

from pbem.engines.base import event

from .messages import N_
from .rules import scale as scale_rules
from .scenario import generation, load
from .sight import can_see, sees_point
from .situation import ON_TABLE, Context


def reveal(ctx, uid: str, why: str) -> None:
    u = ctx.state["units"][uid]
    if u.get("concealed"):
        u["concealed"] = False
        ctx.emit(event("revealed", N_("%(unit)s is no longer concealed (%(why)s)."), unit=ctx.name(uid), id=uid, why=why))


def spot_concealed(ctx) -> None:
    """Concealed units an enemy now stands close to, with a line of sight, are revealed."""
    spot = scale_rules(ctx.scale)["concealment_spot"]
    for uid in ctx.on_table():
        if not ctx.state["units"][uid].get("concealed"):
            continue
        lay = ctx.layout(uid)
        for other in ctx.on_table(ctx.scenario.enemy(ctx.state["units"][uid]["side"])):
            olay = ctx.layout(other)
            if olay.footprint.distance(lay.footprint) <= spot and can_see(
                    ctx.table, ctx.scale, olay, lay, ctx.footprints(exclude=(uid, other))):
                reveal(ctx, uid, "spotted")
                break


def visible_enemies(scenario, state: dict, side: str) -> set[str]:
    """The enemy units ``side`` can see now (the same positions give the same answer,
    so the answer is kept for a few positions: views and reports ask again and again)."""
    key = json.dumps([[uid, u["x"], u["y"], u["facing"], u["formation"], u.get("mounted", False), len(u["stands"]),
                       u["status"], bool(u.get("concealed"))] for uid, u in sorted(state["units"].items())]
                     + [[o["x"], o["y"], o["side"], o["status"], o.get("attached")] for _, o in sorted(state["officers"].items())])
    return set(_visible(scenario.name, generation(), side, key))


@lru_cache(maxsize=256)
def _visible(name: str, registration: int, side: str, key: str) -> tuple[str, ...]:
    scenario = load(name)
    rows = json.loads(key)
    n = len(scenario.units)
    units = {uid: {"side": scenario.units[uid]["side"], "arm": scenario.units[uid]["arm"], "x": x, "y": y, "facing": f,
                   "formation": form, "mounted": mounted, "stands": [0] * stands, "status": status, "concealed": concealed}
             for uid, x, y, f, form, mounted, stands, status, concealed in rows[:n]}
    officers = [{"x": x, "y": y, "side": s, "status": st, "attached": a} for x, y, s, st, a in rows[n:]]
    ctx = Context(scenario, {"units": units, "officers": {}}, None, [])
    enemy = scenario.enemy(side)
    mine = ctx.on_table(side)
    layouts = {uid: ctx.layout(uid) for uid in ctx.on_table()}
    shapes = {uid: lay.footprint for uid, lay in layouts.items()}
    eyes = [(o["x"], o["y"]) for o in officers if o["side"] == side and o["status"] == "active" and not o["attached"]]
    seen = []
    for e in ctx.on_table(enemy):
        if units[e]["concealed"]:
            continue
        target = layouts[e]
        tx, ty = target.centre
        for m in sorted(mine, key=lambda m: (layouts[m].x - tx) ** 2 + (layouts[m].y - ty) ** 2):
            others = [s for uid, s in shapes.items() if uid not in (m, e)]
            if can_see(ctx.table, ctx.scale, layouts[m], target, others):
                seen.append(e)
                break
        else:
            others = [s for uid, s in shapes.items() if uid != e]
            if any(sees_point(ctx.table, ctx.scale, eye, c, others, target.width) for eye in eyes for c in target.stand_centres()):
                seen.append(e)
    return tuple(seen)


def visible_wagons(scenario, state: dict, side: str) -> set[str]:
    """The enemy's supply wagons (optional rule) a unit of ``side`` on the table has a line
    of sight to (kept for a few positions, as ``visible_enemies``)."""
    wagons = [[wid, w["x"], w["y"]] for wid, w in sorted(state.get("wagons", {}).items())
              if w["side"] != side and w["status"] == "active"]
    if not wagons:
        return set()
    units = [[uid, u["x"], u["y"], u["facing"], u["formation"], u.get("mounted", False), len(u["stands"]), u["status"]]
             for uid, u in sorted(state["units"].items()) if u["status"] in ON_TABLE]
    return set(_visible_wagons(scenario.name, generation(), side, json.dumps([units, wagons])))


@lru_cache(maxsize=256)
def _visible_wagons(name: str, registration: int, side: str, key: str) -> tuple[str, ...]:
    scenario = load(name)
    rows, wagons = json.loads(key)
    units = {uid: {"side": scenario.units[uid]["side"], "arm": scenario.units[uid]["arm"], "x": x, "y": y, "facing": f,
                   "formation": form, "mounted": mounted, "stands": [0] * stands, "status": status}
             for uid, x, y, f, form, mounted, stands, status in rows}
    ctx = Context(scenario, {"units": units, "officers": {}}, None, [])
    shapes = {uid: ctx.layout(uid).footprint for uid in ctx.on_table()}
    mine = ctx.on_table(side)
    seen = []
    for wid, wx, wy in wagons:
        for m in sorted(mine, key=lambda m: (units[m]["x"] - wx) ** 2 + (units[m]["y"] - wy) ** 2):
            lay = ctx.layout(m)
            others = [s for uid, s in shapes.items() if uid != m]
            if sees_point(ctx.table, ctx.scale, lay.at(0.0, 0.0), (wx, wy), others, lay.width):
                seen.append(wid)
                break
    return tuple(seen)
