"""Brigade integrity (rule 22): a regiment that is not detached stays stacked with or next to
another regiment of its brigade; one cut off moves to rejoin at its earliest opportunity.

How the engine enforces it (docs/games/lfm.md, "Readings of the rules"):

* a move order that would leave a regiment cut off is skipped with the reason, counting the
  brigade's other regiments where they stand and where a later order of the same mail sends
  them (a brigade moves stack by stack);
* a regiment cut off when its movement phase begins (a retreat left it alone) may only be
  ordered to rejoin or to come nearer its brigade; given no order, it moves by itself to the
  reachable hex nearest its brigade (not out of an enemy ZOC: the rule does not make it
  break contact);
* whatever is still cut off at the end of movement (a later order did not get where it was
  sent) is named, to rejoin in its next movement phase.
"""

from __future__ import annotations

from pbem.engines.hexgrid import distance

from .situation import ON_MAP, Context


def bound(ctx: Context, uid: str, moving: tuple[str, ...] = ()) -> bool:
    """Whether rule 22.1 binds this unit: a regiment of a brigade, not detached, not sharpshooters
    (20.7: they need not stay next to their brigade), with another regiment of its brigade on the
    map (``moving``: units entering with it count as on the map)."""
    info = ctx.sc.units[uid]
    if not info.brigade or info.is_artillery or info.type == "sharpshooters" or ctx.sit.units[uid]["detached"]:
        return False
    return bool(mates(ctx, uid, moving))


def mates(ctx: Context, uid: str, moving: tuple[str, ...] = ()) -> list[str]:
    """The other regiments of ``uid``'s brigade on the map (or entering with it), detached
    ones left out (they are away from the brigade by order), and sharpshooters (attached to it,
    they need not stay with it, 20.7)."""
    sit = ctx.sit
    return [m for m in ctx.sc.brigades.get(ctx.sc.units[uid].brigade, [])
            if m != uid and (sit.units[m]["status"] == ON_MAP or m in moving) and not sit.units[m]["detached"]
            and ctx.sc.units[m].type != "sharpshooters"]


def with_brigade(ctx: Context, uid: str, at: str, moving: tuple[str, ...] = (), promised: dict | None = None) -> bool:
    """Whether ``uid`` at ``at`` is stacked with or next to another regiment of its brigade:
    those in ``moving`` go to ``at`` with it; the others count where they stand and where
    ``promised`` (unit -> hex a later order sends it) says."""
    near = {at, *ctx.sc.board.neighbours[at]}
    for m in mates(ctx, uid, moving):
        if m in moving:
            return True
        if ctx.sit.units[m]["status"] == ON_MAP and ctx.sit.units[m]["hex"] in near:
            return True
        if promised and promised.get(m) in near:
            return True
    return False


def gap(ctx: Context, uid: str, at: str) -> int:
    """Hexes from ``at`` to the nearest other regiment of the brigade on the map."""
    return min((distance(at, ctx.sit.units[m]["hex"]) for m in mates(ctx, uid) if ctx.sit.units[m]["status"] == ON_MAP),
               default=0)


def cut_off(ctx: Context, side: str) -> list[str]:
    """The side's regiments on the map that rule 22.1 binds and that are cut off, in id order."""
    sit = ctx.sit
    return sorted(u for u, st in sit.units.items()
                  if st["status"] == ON_MAP and ctx.sc.units[u].side == side and bound(ctx, u)
                  and not with_brigade(ctx, u, st["hex"]))


def move_breaks_it(ctx: Context, units: list[str], start: str, end: str, must_close_up: set[str],
                   promised: dict) -> str | None:
    """Why moving ``units`` from ``start`` (their hex, or the entry hex) to ``end`` breaks rule
    22, or None: a regiment with its brigade must stay with it; one in ``must_close_up`` (cut
    off, or entering apart from its brigade: 22.2) must rejoin it or come nearer."""
    moving = tuple(units)
    for u in units:
        if not bound(ctx, u, moving) or with_brigade(ctx, u, end, moving, promised):
            continue
        name = ctx.name(u)
        if u not in must_close_up:
            return f"{name} would end cut off from its brigade (rule 22.1: stacked with or next to another of its regiments)"
        if gap(ctx, u, end) >= gap(ctx, u, start):
            return f"{name} is cut off from its brigade and must move to rejoin it (rule 22.1)"
    return None


def rejoin_hex(ctx: Context, uid: str, reachable: dict, stack_ok) -> str | None:  # noqa: ANN001
    """Among ``reachable`` hexes (search keys), the one a cut-off regiment moves to by itself:
    with its brigade if it can, else the nearest to it, the cheapest first; None when no hex
    is better than where it stands."""
    homes = [ctx.sit.units[m]["hex"] for m in mates(ctx, uid) if ctx.sit.units[m]["status"] == ON_MAP]
    if not homes:
        return None
    near = set(homes).union(*(ctx.sc.board.neighbours[h] for h in homes))

    def away(h: str) -> int:
        return 0 if h in near else min(distance(h, x) for x in homes)

    here = ctx.sit.units[uid]["hex"]
    standing = (away(here), 0)
    for key, h in sorted(((away(h), cost), h) for (h, _road), (cost, _prev) in reachable.items() if h != here):
        if key >= standing:
            return None
        if stack_ok(h):
            return h
    return None
