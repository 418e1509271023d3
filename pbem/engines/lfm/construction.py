"""The construction phase (rules 24, 25): build markers become breastworks a turn later if a
unit stayed in the hex and no enemy ZOI covers it; new build markers on units that held their
hex since the start of the turn and are outside every enemy ZOI. Burned-bridge markers go on
a unit beside a bridge (a road crossing a stream); in the side's next construction phase the
bridge burns if the unit has not moved and passes a cohesion check (+1 in an enemy ZOI or
ZOC; there is no rain in the shipped scenarios)."""

from __future__ import annotations

from pbem.engines.base import event

from .cohesion import isolated
from .messages import N_
from .situation import ON_MAP, Context

BUILDERS = frozenset({"infantry", "sharpshooters", "artillery", "horse_artillery"})


def build_problem(ctx: Context, side: str, uid: str, zoi: set[str]) -> str | None:
    """Why this unit may not begin breastworks now (rules 24.1, 24.10), or None."""
    u, name = ctx.sit.units[uid], ctx.name(uid)
    if u["status"] != ON_MAP:
        return f"{name} is not on the map: a builder holds its hex from the start of the turn (rule 24.1.a)"
    if not can_build(ctx, uid):
        return f"{name} may not build: only infantry, dismounted cavalry and artillery build breastworks (rule 24.1)"
    if u["hex"] in zoi:
        return f"an enemy ZOI covers {u['hex']}: no breastworks are begun there (rule 24.10)"
    if ctx.state["breastworks"].get(u["hex"]):
        return f"{u['hex']} already has breastworks"
    return None


def can_build(ctx: Context, uid: str) -> bool:
    info = ctx.sc.units[uid]
    return info.type in BUILDERS or (info.is_cavalry and not ctx.sit.mounted(uid))


def construction_phase(ctx: Context, side: str, builders: list[str]) -> None:
    sit = ctx.sit
    zoi = sit.zoi_hexes(ctx.sc.enemy(side))
    works = ctx.state["breastworks"]
    new = ctx.state.setdefault("works_new", {})
    for h in [h for h, t in new.items() if t != ctx.state["turn"] or h not in works]:
        del new[h]
    for h, st in sorted(works.items()):
        if st != "building" or ctx.state["works_side"].get(h) != side:
            continue
        here = [u for u in sit.units_at(h) if ctx.sc.units[u].side == side]
        if not here:
            del works[h]
            ctx.emit(event("works_abandoned", N_("The breastworks begun at %(hex)s are abandoned."), hex=h))
        elif h in zoi:
            ctx.emit(event("works_paused", N_("Work on the breastworks at %(hex)s waits: an enemy ZOI covers it."), hex=h))
        else:
            works[h] = "built"
            ctx.state.setdefault("works_new", {})[h] = ctx.state["turn"]
            for u in here:
                sit.units[u]["build"] = False
            ctx.emit(event("works_built", N_("Breastworks are finished at %(hex)s."), hex=h))
    for uid in builders:
        why = build_problem(ctx, side, uid, zoi)
        if why:
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=f"{ctx.name(uid)} BUILD", why=why,
                           side=side, to=[side]))
            continue
        u = sit.units[uid]
        h = u["hex"]
        works[h] = "building"
        ctx.state["works_side"][h] = side
        u["build"] = True
        ctx.emit(event("works_begun", N_("%(name)s begins breastworks at %(hex)s (it may not move this turn)."),
                       unit=uid, name=ctx.name(uid), hex=h))


def works_to_hold(ctx: Context) -> set[str]:
    """Hexes whose breastworks were emplaced this turn: a unit must stay in each (rule 24.1.b)."""
    turn = ctx.state["turn"]
    return {h for h, t in (ctx.state.get("works_new") or {}).items() if t == turn}


def clear_build_flags(ctx: Context, side: str) -> None:
    """Builders are tied to their hex for the turn they begin only (rule 24.1.a)."""
    for uid, u in ctx.sit.units.items():
        if ctx.sc.units[uid].side == side and u.get("build") and ctx.state["breastworks"].get(u["hex"]) == "built":
            u["build"] = False


def bridge_key(a: str, b: str) -> str:
    return f"{a}-{b}" if a < b else f"{b}-{a}"


def is_bridge(ctx: Context, a: str, b: str) -> bool:
    board = ctx.sc.board
    return b in board.neighbours.get(a, ()) and bool(board.road(a, b)) and "stream" in board.sides(a, b)


def burning_phase(ctx: Context, side: str, orders: list[tuple[str, str]]) -> None:
    """Rule 25: roll for this side's Burned-Bridge markers, then place the new ones ordered
    (``orders``: unit, the hex across the bridge)."""
    sit = ctx.sit
    burning = ctx.state.setdefault("burning", {})
    burned = ctx.state.setdefault("burned", [])
    enemy = ctx.sc.enemy(side)
    for key, mark in sorted(burning.items()):
        if mark["side"] != side:
            continue
        uid = mark["unit"]
        u = sit.units[uid]
        if u["status"] != ON_MAP or u["hex"] != mark["hex"]:
            del burning[key]
            ctx.emit(event("burn_abandoned", N_("The attempt to burn the bridge %(bridge)s is given up: %(name)s has moved."),
                           bridge=key, unit=uid, name=ctx.name(uid)))
            continue
        drms = []
        if u["hex"] in sit.zoi_hexes(enemy) or sit.in_enemy_zoc(u["hex"], side):
            drms.append({"why": "in an enemy ZOI or ZOC", "drm": 1})
        if isolated(ctx, u["hex"], side):
            drms.append({"why": "no friendly formed unit adjacent", "drm": 1})
        if ctx.sc.turn_info(ctx.state["turn"]).get("rain"):
            drms.append({"why": "rain", "drm": 1})  # 25: wet timbers burn badly
        roll = ctx.roll(f"burn {key}")
        total = roll + sum(d["drm"] for d in drms)
        cr = ctx.sc.units[uid].cr
        ok = total <= cr
        ctx.emit(event("burn", N_("%(name)s tries to burn the bridge %(bridge)s: roll %(roll)s%(drm_text)s = %(modified)s against CR %(cr)s: %(result)s."),
                       unit=uid, name=ctx.name(uid), bridge=key, roll=roll, drms=drms, modified=total, cr=cr, ok=ok,
                       drm_text="".join(f" {d['drm']:+d} ({d['why']})" for d in drms),
                       result="the bridge burns" if ok else "not yet"))
        if ok:
            del burning[key]
            if key not in burned:
                burned.append(key)
    for uid, across in orders:
        u = sit.units[uid]
        key = bridge_key(u["hex"], across) if u["status"] == ON_MAP else ""
        why = (f"{ctx.name(uid)} is not on the map" if u["status"] != ON_MAP
               else f"no bridge between {u['hex']} and {across}: a unit burns a bridge from a hex beside it (rule 25)"
               if not is_bridge(ctx, u["hex"], across)
               else f"the bridge {key} is already burned" if key in burned
               else f"the bridge {key} is already being readied to burn" if key in burning else None)
        if why:
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=f"{ctx.name(uid)} BURN {across}",
                           why=why, side=side, to=[side]))
            continue
        burning[key] = {"side": side, "unit": uid, "hex": u["hex"]}
        ctx.emit(event("burn_marker", N_("%(name)s makes ready to burn the bridge %(bridge)s."), unit=uid,
                       name=ctx.name(uid), bridge=key))
