"""The construction phase (rule 24): build markers become breastworks a turn later if a unit
stayed in the hex and no enemy ZOI covers it; new build markers on units that held their hex
since the start of the turn and are outside every enemy ZOI. Burning bridges (rule 25) has
no bridge to burn on the shipped maps and is not implemented yet."""

from __future__ import annotations

from pbem.engines.base import event

from .messages import N_
from .situation import ON_MAP, Context

BUILDERS = frozenset({"infantry", "sharpshooters", "artillery", "horse_artillery"})


def can_build(ctx: Context, uid: str) -> bool:
    info = ctx.sc.units[uid]
    return info.type in BUILDERS or (info.is_cavalry and not ctx.sit.mounted(uid))


def construction_phase(ctx: Context, side: str, builders: list[str]) -> None:
    sit = ctx.sit
    zoi = sit.zoi_hexes(ctx.sc.enemy(side))
    works = ctx.state["breastworks"]
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
            for u in here:
                sit.units[u]["build"] = False
            ctx.emit(event("works_built", N_("Breastworks are finished at %(hex)s."), hex=h))
    for uid in builders:
        u = sit.units[uid]
        if u["status"] != ON_MAP or not can_build(ctx, uid):
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=f"{ctx.name(uid)} BUILD",
                           why="only infantry, dismounted cavalry and artillery on the map build", side=side))
            continue
        h = u["hex"]
        if h in zoi or works.get(h):
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=f"{ctx.name(uid)} BUILD",
                           why="an enemy ZOI covers the hex" if h in zoi else "the hex already has breastworks", side=side))
            continue
        works[h] = "building"
        ctx.state["works_side"][h] = side
        u["build"] = True
        ctx.emit(event("works_begun", N_("%(name)s begins breastworks at %(hex)s (it may not move this turn)."),
                       unit=uid, name=ctx.name(uid), hex=h))


def clear_build_flags(ctx: Context, side: str) -> None:
    """Builders are tied to their hex for the turn they begin only (rule 24.1.a)."""
    for uid, u in ctx.sit.units.items():
        if ctx.sc.units[uid].side == side and u.get("build") and ctx.state["breastworks"].get(u["hex"]) == "built":
            u["build"] = False
