"""Night turns (rule 23): no command, artillery or combat; no ZOI; movement along roads only;
units starting in a ZOC fall back without D; the first night turn clears every D marker and
un-shatters brigades at their new strength; after the last one the dead stay dead."""

from __future__ import annotations

from pbem.engines.base import event

from .messages import N_
from .retreat import retreat
from .situation import ELIMINATED, GONE, ON_MAP, Context


def first_night_turn(ctx: Context) -> None:
    sit = ctx.sit
    for u in sit.units.values():
        u["d"] = False
        u["charged"] = False
    for b, st in ctx.state["brigades"].items():
        if st["shattered"]:
            st["basis"] = sum(ctx.sc.units[u].sp for u in ctx.sc.brigades[b] if sit.units[u]["status"] == ON_MAP)
            st["shattered"] = False
    ctx.emit(event("night_falls", N_("Night falls: every D marker is removed and shattered brigades rally at their present strength.")))


def disengage(ctx: Context, side: str) -> None:
    """Rule 23.3: a unit that starts a night turn in a ZOC retreats, not into another ZOC, without D."""
    sit = ctx.sit
    enemy = ctx.sc.enemy(side)
    for h in sorted(sit.hexes_of(side)):
        foes = [n for n in ctx.sc.board.neighbours[h] if sit.side_at(n) == enemy]
        if foes:
            retreat(ctx, h, foes, forced=False, why="disengaging at night")


def dawn(ctx: Context) -> None:
    """Rule 23.7: after the last night turn the eliminated stay eliminated; a brigade with no
    regiment on the map is destroyed and its commander removed."""
    sit = ctx.sit
    for u in sit.units.values():
        if u["status"] == ELIMINATED:
            u["status"] = GONE
    for b, regiments in ctx.sc.brigades.items():
        if sit.cmds[b]["status"] == ON_MAP and not any(sit.units[u]["status"] == ON_MAP for u in regiments):
            sit.remove_commander(b)
            ctx.emit(event("brigade_destroyed", N_("%(name)s is destroyed."), commander=b, name=ctx.sc.commanders[b].brigade_name))
    ctx.emit(event("dawn", N_("Dawn: regiments still eliminated can no longer be recovered.")))
