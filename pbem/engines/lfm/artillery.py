"""The artillery phase (rules 4, 7): unlimbered batteries not in a ZOC fire 2 to 8 hexes at
targets in their line of sight, the phasing side first, then the other side by its standing
orders; results are cohesion checks of one unit of the target hex."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .cohesion import checks
from .los import BLOCKED, PARTIAL, line_of_sight
from .messages import N_
from .situation import ON_MAP, Context
from .tables import artillery as artillery_table, artillery_column, table, terrain

MIN_RANGE, MAX_RANGE, FULL_RANGE = 2, 8, 4


def ready_batteries(ctx: Context, side: str, h: str) -> list[str]:
    sit = ctx.sit
    return [u for u in sit.units_at(h) if ctx.sc.units[u].is_artillery and ctx.sc.units[u].side == side
            and not sit.units[u]["limbered"] and not sit.units[u].get("fired") and not sit.units[u].get("build")]


def can_fire_from(ctx: Context, side: str, h: str) -> bool:
    return bool(ready_batteries(ctx, side, h)) and not ctx.sit.in_enemy_zoc(h, side)


def fire_line(ctx: Context, side: str, frm: str, target: str) -> str:
    friendly = frozenset(ctx.sit.hexes_of(side))
    return line_of_sight(ctx.sc.board, frm, target, friendly)


def best_target(ctx: Context, side: str, frm: str) -> str | None:
    """Standing fire: the nearest enemy hex in range and sight, clearer line first, then most SP."""
    sit = ctx.sit
    options = []
    for t in sit.hexes_of(ctx.sc.enemy(side)):
        d = distance(frm, t)
        if MIN_RANGE <= d <= MAX_RANGE:
            los = fire_line(ctx, side, frm, t)
            if los != BLOCKED:
                options.append(((d > FULL_RANGE, los == PARTIAL, d, -sum(sit.sp(u) for u in sit.units_at(t)), t), t))
    return min(options)[1] if options else None


def choose_target_unit(ctx: Context, target: str, named: str | None) -> str | None:
    units = ctx.sit.units_at(target)
    if named in units:
        return named
    # the firing player's default: the least steady unit, the larger if equal
    return min(units, key=lambda u: (ctx.sc.units[u].cr, -ctx.sit.sp(u), u)) if units else None


def fire(ctx: Context, side: str, hexes: list[str], target: str, named: str | None = None) -> bool:
    """Fire every ready battery in ``hexes`` (one, or two adjacent) at ``target``; False if it may not."""
    sit = ctx.sit
    hexes = [h for h in hexes if can_fire_from(ctx, side, h)]
    if not hexes or sit.side_at(target) != ctx.sc.enemy(side):
        return False
    if len(hexes) == 2 and distance(*hexes) != 1:
        hexes = hexes[:1]
    parts, sp, los_partial = [], 0, False
    for h in hexes:
        d = distance(h, target)
        los = fire_line(ctx, side, h, target)
        if not MIN_RANGE <= d <= MAX_RANGE or los == BLOCKED:
            continue
        los_partial = los_partial or los == PARTIAL
        here = ready_batteries(ctx, side, h)
        raw = sum(sit.sp(u) for u in here)
        used = raw if d <= FULL_RANGE else raw // 2
        sp += used
        parts.append({"hex": h, "units": here, "names": ", ".join(ctx.name(u) for u in here), "sp": raw,
                      "range": d, "used": used, "los": los})
        for u in here:
            sit.units[u]["fired"] = True
    if not parts:
        return False
    column = artillery_column(sp)
    drms = []
    spec = table("artillery")["drm"]
    if los_partial:
        drms.append({"why": "line of sight partially obstructed", "drm": spec["partial_los"]})
    if terrain()["hexes"][ctx.sc.board.terrain[target]]["cover"] or ctx.state["breastworks"].get(target) == "built":
        drms.append({"why": "target in cover", "drm": spec["target_in_cover"]})
    if sum(sit.sp(u) for u in sit.units_at(target)) >= spec["dense_sp"]:
        drms.append({"why": "dense target", "drm": spec["target_dense"]})
    label = f"fire {target} from {'+'.join(p['hex'] for p in parts)}"
    roll = ctx.roll(label)
    total = sum(x["drm"] for x in drms)
    unit = choose_target_unit(ctx, target, named)
    if column is None:
        n, row = 0, roll + total
    else:
        row, n = artillery_table(column, roll + total)
    ctx.state["last"]["fires"].append({"from": [p["hex"] for p in parts], "target": target, "checks": n})
    ctx.emit(event("artillery_fire",
                   N_("%(firers)s fired at %(target)s (%(target_name)s): %(sp)s SP, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(n)s cohesion check(s)."),
                   side=side, firers="; ".join(f"{p['names']} at {p['hex']} ({p['sp']} SP, range {p['range']}, counts {p['used']})" for p in parts),
                   parts=parts, target=target, target_unit=unit, target_name=ctx.name(unit) if unit else "",
                   sp=sp, column=column or "-", roll=roll, drms=drms,
                   drm_text="".join(f" {d['drm']:+d} ({d['why']})" for d in drms), modified=roll + total, row=row, n=n))
    if n and unit:
        checks(ctx, unit, n, parts[0]["hex"], label)
    return True


def artillery_phase(ctx: Context, side: str, orders: list[dict], limber: list[str]) -> None:
    """Phase 4: the phasing side's FIRE orders, then its other batteries by standing order,
    then the other side's; the phasing side limbers the batteries it names that did not fire."""
    sit = ctx.sit
    enemy = ctx.sc.enemy(side)
    for u in sit.units.values():
        u.pop("fired", None)
        u.pop("fire_retreated", None)
    for op in orders:
        hexes = []
        for ref in op["from"]:
            if ref in ctx.sc.units:
                if sit.units[ref]["status"] == ON_MAP:
                    hexes.append(sit.units[ref]["hex"])
            else:
                hexes.append(ref)
        hexes = list(dict.fromkeys(hexes))
        if not fire(ctx, side, hexes, op["target"], op.get("unit")):
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=op["text"],
                           why="no ready battery there can see the target in range", side=side))
    for who in (side, enemy):
        if ctx.standing(who)["artillery"] != "auto":
            continue
        for h in sorted(sit.hexes_of(who)):
            if who == side and any(sit.units[u]["hex"] == h for u in limber if sit.units[u]["status"] == ON_MAP):
                continue
            if can_fire_from(ctx, who, h):
                t = best_target(ctx, who, h)
                if t:
                    fire(ctx, who, [h], t)
    for uid in limber:
        u = sit.units[uid]
        if u["status"] != ON_MAP or not ctx.sc.units[uid].is_artillery or u["limbered"]:
            continue
        if u.get("fired"):
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=f"{ctx.name(uid)} LIMBER",
                           why="it fired this phase", side=side))
            continue
        u["limbered"] = True
        ctx.emit(event("limber", N_("%(name)s limbers at %(hex)s."), unit=uid, name=ctx.name(uid), hex=u["hex"]))
    for u in sit.units.values():  # the phase's own bookkeeping does not outlive it
        u.pop("fired", None)
        u.pop("fire_retreated", None)
