"""Cohesion checks (rules 7.8, 18): one die, +1 when no friendly non-disorganized unit is
adjacent; a roll above the unit's cohesion rating fails. First failure D, next retreat, next
elimination (a disorganized unit retreats at once); a shattered brigade's regiment that fails
is eliminated (16.6)."""

from __future__ import annotations

from pbem.engines.base import event

from .losses import commander_casualties, eliminate
from .messages import N_
from .retreat import retreat
from .situation import ON_MAP, Context


def isolated(ctx: Context, h: str, side: str) -> bool:
    sit = ctx.sit
    return not any(sit.side_at(n) == side and not sit.disorganized(n) for n in ctx.sc.board.neighbours[h])


def checks(ctx: Context, uid: str, count: int, source: str, label: str) -> None:
    """``count`` cohesion checks for ``uid``, all before the next unit's (rule 7.8)."""
    sit = ctx.sit
    info = ctx.sc.units[uid]
    for i in range(1, count + 1):
        if sit.units[uid]["status"] != ON_MAP:
            return
        h = sit.units[uid]["hex"]
        drm = 1 if isolated(ctx, h, info.side) else 0
        roll = ctx.roll(f"{label} check {uid} {i}")
        failed = roll + drm > info.cr
        if not failed:
            outcome = "passes"
        elif sit.shattered(uid):
            outcome = "eliminated (shattered brigade)"
        elif not sit.units[uid]["d"]:
            outcome = "disorganized"
        elif not sit.units[uid].get("fire_retreated"):
            outcome = "retreats"
        else:
            outcome = "routs: eliminated"
        ctx.emit(event("cohesion_check", N_("%(name)s cohesion check %(i)s of %(n)s: roll %(roll)s%(drm_text)s = %(modified)s against CR %(cr)s: %(outcome)s."),
                       unit=uid, name=info.name, i=i, n=count, roll=roll, drm=drm, modified=roll + drm, cr=info.cr,
                       drm_text=" +1 (no friendly formed unit adjacent)" if drm else "", failed=failed, outcome=outcome))
        if not failed:
            continue
        if outcome.startswith("eliminated") or outcome.startswith("routs"):
            commander_casualties(ctx, h, "a unit routed")
            eliminate(ctx, uid, "failed cohesion check")
            return
        if outcome == "disorganized":
            sit.disorganize(h)
            continue
        sit.units[uid]["fire_retreated"] = True
        commander_casualties(ctx, h, "a unit retreated")
        retreat(ctx, h, [source], forced=True, why="failed cohesion check", units=[uid])
