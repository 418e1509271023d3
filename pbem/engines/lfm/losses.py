"""Losses (rule 8.10): which regiment a stack loses, elimination, commander casualties
(rule 21) and commanders left alone."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .command import chain
from .messages import N_
from .situation import ELIMINATED, GONE, ON_MAP, Context


def choose_loss(ctx: Context, candidates: list[str], cr: int | None) -> str | None:
    """The owner's pick: a unit with the cohesion rating used in the combat (rule 8.10.a) if
    any, those named in his standing LOSSES order first, else the smallest in SP."""
    if not candidates:
        return None
    side = ctx.sc.units[candidates[0]].side
    pool = [u for u in candidates if cr is None or ctx.sc.units[u].cr == cr] or list(candidates)
    preferred = [u for u in ctx.standing(side)["losses"] if u in pool]
    if preferred:
        return preferred[0]
    return min(pool, key=lambda u: (ctx.sit.sp(u), candidates.index(u)))


def eliminate(ctx: Context, uid: str, why: str) -> int:
    """Remove a unit; regiments stay recoverable by their brigade commander (rule 17)."""
    sit = ctx.sit
    sp = sit.sp(uid)
    where = sit.units[uid]["hex"]
    info = ctx.sc.units[uid]
    sit.remove(uid, GONE if info.is_artillery else ELIMINATED)
    sit.units[uid].update({"d": False, "charged": False, "build": False})
    ctx.emit(event("eliminated", N_("%(name)s (%(sp)s SP) is eliminated at %(hex)s: %(why)s."),
                   unit=uid, name=info.name, side=info.side, sp=sp, hex=where, why=why))
    rehome_commanders(ctx, where)
    return sp


def lose_one(ctx: Context, hexes: list[str], cr: int | None, why: str) -> int:
    """The stack(s) lose one unit, of the cohesion used if there is one; the SP lost."""
    candidates = [u for h in hexes for u in ctx.sit.units_at(h)]
    uid = choose_loss(ctx, candidates, cr)
    return eliminate(ctx, uid, why) if uid else 0


def lose_at_least(ctx: Context, hexes: list[str], sp: int, cr: int | None, why: str) -> int:
    """Lose units worth at least ``sp`` SP, the first of cohesion ``cr`` (the exchange)."""
    lost = 0
    first = True
    while lost < sp:
        candidates = [u for h in hexes for u in ctx.sit.units_at(h)]
        if not candidates:
            break
        uid = choose_loss(ctx, candidates, cr if first else None)
        lost += eliminate(ctx, uid, why)
        first = False
    return lost


def commander_casualties(ctx: Context, h: str, why: str) -> None:
    """Each army, corps or division commander in a hex that suffers a retreat or elimination
    rolls a die: on a 1 he is a casualty and his replacement serves (rule 21.1; 8.10.b)."""
    sit = ctx.sit
    for cid in list(sit.commanders_at(h)):
        info = ctx.sc.commanders[cid]
        if info.rank == "brigade" or sit.cmds[cid]["replaced"]:
            continue
        roll = ctx.roll(f"casualty {cid} {h}")
        hit = roll == 1
        ctx.emit(event("commander_casualty",
                       N_("%(name)s at %(hex)s rolls %(roll)s for casualty (%(why)s): %(result)s."),
                       commander=cid, name=info.name, hex=h, roll=roll, why=why,
                       result=f"hit, {info.replacement_name} takes over" if hit else "unhurt", hit=hit))
        if hit:
            sit.cmds[cid]["replaced"] = True


def rehome_commanders(ctx: Context, h: str, follow: str | None = None) -> None:
    """Commanders left without their men in ``h`` go with their stack (``follow``) or to the
    nearest unit of their command (21.2); a brigade commander to a regiment of his brigade,
    or to his superior's hex when none is left on the map (20.8)."""
    sit = ctx.sit
    for cid in list(sit.commanders_at(h)):
        info = ctx.sc.commanders[cid]
        here = sit.units_at(h)
        if info.rank == "brigade" and any(ctx.sc.units[u].brigade == cid for u in here):
            continue
        if info.rank != "brigade" and here:
            continue
        dest = follow or nearest_home(ctx, cid, h)
        if dest and dest != h:
            sit.place_commander(cid, dest)
            ctx.emit(event("commander_moves", N_("%(name)s, left alone, goes to %(hex)s."),
                           commander=cid, name=sit.commander_name(cid), hex=dest, frm=h))


def nearest_home(ctx: Context, cid: str, h: str) -> str | None:
    """Where a commander left alone goes: the nearest unit of his command (a brigade commander:
    of his brigade), else his immediate superior's hex, else the nearest unit of his side."""
    sit = ctx.sit
    info = ctx.sc.commanders[cid]
    under = chain(ctx, cid)
    mine = [u.id for u in ctx.sc.units.values() if sit.units[u.id]["status"] == ON_MAP and u.side == info.side
            and ((u.brigade in under) if info.rank == "brigade" else (u.brigade in under or u.formation in under))]
    if not mine and info.superior and sit.cmds.get(info.superior, {}).get("status") == ON_MAP:
        return sit.cmds[info.superior]["hex"]
    if not mine:
        mine = [u.id for u in ctx.sc.units.values() if u.side == info.side and sit.units[u.id]["status"] == ON_MAP]
    if not mine:
        return None
    return min((sit.units[u]["hex"] for u in mine), key=lambda x: (distance(h, x), x))
