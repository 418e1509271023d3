"""The reorganization phase (rules 14.5, 15, 17, 19): shattered brigades (both sides), the
phasing side's rolls to remove D markers with its commanders' help, and brigade commanders
recovering eliminated regiments; plus the recovery rules night turns apply."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .cohesion import isolated
from .messages import N_
from .situation import ELIMINATED, ON_MAP, Context

HELP_ADJACENT, HELP_RANGE = 1, 4


def brigade_losses(ctx: Context, brigade: str) -> int:
    """SP the brigade has lost since its total strength was last noted (the start, or the first
    night turn: rule 15.3): that total less the SP of its regiments not eliminated."""
    sit = ctx.sit
    present = sum(ctx.sc.units[u].sp for u in ctx.sc.brigades[brigade] if sit.units[u]["status"] not in (ELIMINATED, "gone"))
    return max(0, ctx.state["brigades"][brigade]["basis"] - present)


def check_shatter(ctx: Context) -> None:
    """Rule 15: a brigade that has lost half or more of its strength is shattered; one that has
    more than half back on the map is not any more. (Its D markers stay: shattered units count
    as disorganized anyway, 16.5, and keep them if the brigade rallies.)"""
    for b, st in sorted(ctx.state["brigades"].items()):
        lost = brigade_losses(ctx, b)
        basis = st["basis"]
        now = basis > 0 and lost * 2 >= basis
        if now != st["shattered"]:
            st["shattered"] = now
            ctx.emit(event("shattered" if now else "unshattered",
                           N_("%(brigade)s is %(what)s: %(lost)s of %(basis)s SP lost."),
                           brigade=ctx.sc.commanders[b].brigade_name, commander=b, lost=lost, basis=basis,
                           what="shattered" if now else "no longer shattered", side=ctx.sc.commanders[b].side))


def helpers(ctx: Context, side: str, h: str) -> list[tuple[int, str]]:
    """Commanders whose CV may remove this D (rule 19): army, corps and division commanders
    stacked or adjacent; corps and division commanders within 4 hexes."""
    sit = ctx.sit
    out = []
    for cid, c in sit.cmds.items():
        info = ctx.sc.commanders[cid]
        if info.side != side or c["status"] != ON_MAP or info.rank == "brigade":
            continue
        d = distance(c["hex"], h)
        if d <= HELP_ADJACENT or (info.rank in ("corps", "division") and d <= HELP_RANGE):
            out.append((sit.commander_cv(cid), cid))
    return sorted(out, reverse=True)


def remove_d_markers(ctx: Context, side: str) -> None:
    """Rule 14.5: a die per disorganized stack; off at or under the lowest cohesion rating in
    it (+1 with no friendly formed unit adjacent, +1 in an enemy ZOI), or at or under the CV
    of a commander in range, which overrides the modifiers."""
    sit = ctx.sit
    zoi = sit.zoi_hexes(ctx.sc.enemy(side))
    for h in sorted(sit.hexes_of(side)):
        here = sit.units_at(h)
        if not sit.marked(h):
            continue
        low = min(ctx.sc.units[u].cr for u in here)
        drms = []
        if isolated(ctx, h, side):
            drms.append({"why": "no friendly formed unit adjacent", "drm": 1})
        if h in zoi:
            drms.append({"why": "in an enemy ZOI", "drm": 1})
        roll = ctx.roll(f"reorganize {h}")
        total = roll + sum(d["drm"] for d in drms)
        helper = helpers(ctx, side, h)
        cv, cid = helper[0] if helper else (0, None)
        ok = total <= low or (cid is not None and roll <= cv)
        if ok:
            for u in here:
                sit.units[u]["d"] = False
                sit.units[u]["charged"] = False
        ctx.emit(event("reorganize", N_("%(names)s at %(hex)s: roll %(roll)s%(drm_text)s = %(modified)s against lowest CR %(cr)s%(help)s: %(result)s."),
                       hex=h, units=list(here), names=", ".join(ctx.name(u) for u in here), roll=roll, drms=drms,
                       drm_text="".join(f" {d['drm']:+d} ({d['why']})" for d in drms), modified=total, cr=low,
                       commander=cid, cv=cv, help=f", or {cv} for {sit.commander_name(cid)}" if cid else "",
                       ok=ok, result="D removed" if ok else "stays disorganized"))


def recovery_problem(ctx: Context, side: str, cid: str) -> str | None:
    """Why a brigade commander marked to recover may not try (rule 17), or None."""
    sit = ctx.sit
    c = sit.cmds[cid]
    name = sit.commander_name(cid)
    if c["status"] != ON_MAP:
        return f"{name} is not on the map"
    if c["moved"]:
        return f"{name} has moved this turn: no recovery (rule 17)"
    if sit.in_enemy_zoc(c["hex"], side):
        return f"{name} is in an enemy ZOC: no recovery (rule 17)"
    if c["hex"] in sit.zoi_hexes(ctx.sc.enemy(side)):
        return f"{name} is in an enemy ZOI: no recovery (rule 17)"
    if not any(sit.units[u]["status"] == ELIMINATED for u in ctx.sc.brigades.get(cid, [])):
        return f"{name} has no eliminated regiment to recover"
    return None


def recover_regiments(ctx: Context, side: str) -> None:
    """Rule 17: a brigade commander who has not moved and is in no enemy ZOI or ZOC rolls for
    one eliminated regiment of his brigade: at or under its cohesion rating it returns in or
    next to his hex, clear of enemy ZOI and ZOC."""
    sit = ctx.sit
    zoi = sit.zoi_hexes(ctx.sc.enemy(side))
    for cid, c in sorted(sit.cmds.items()):
        info = ctx.sc.commanders[cid]
        if info.side != side or not c.get("recover"):
            continue
        c["recover"] = False
        why = recovery_problem(ctx, side, cid)
        if why:
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=f"{info.name} RECOVER", why=why,
                           side=side, to=[side]))
            continue
        h = c["hex"]
        lost = [u for u in ctx.sc.brigades.get(cid, []) if sit.units[u]["status"] == ELIMINATED]
        uid = max(lost, key=lambda u: (ctx.sc.units[u].sp, u))
        roll = ctx.roll(f"recover {cid}")
        cr = ctx.sc.units[uid].cr
        place = None
        if roll <= cr:
            for spot in [h] + sorted(ctx.sc.board.neighbours[h]):
                if spot not in zoi and not sit.in_enemy_zoc(spot, side) and not sit.stacking_problem(spot, [uid]):
                    place = spot
                    break
        ctx.emit(event("recover", N_("%(name)s tries to recover %(unit_name)s: roll %(roll)s against CR %(cr)s: %(result)s."),
                       commander=cid, name=sit.commander_name(cid), unit=uid, unit_name=ctx.name(uid), roll=roll, cr=cr,
                       ok=place is not None, hex=place,
                       result=f"it returns at {place}" if place else ("no room to place it" if roll <= cr else "not this turn")))
        if place:
            sit.place(uid, place)
            sit.units[uid].update({"d": False, "charged": False})


def reorganization_phase(ctx: Context, side: str) -> None:
    check_shatter(ctx)
    remove_d_markers(ctx, side)
    recover_regiments(ctx, side)
    check_shatter(ctx)
