"""Casualties (section 12, designed): each hit takes one figure, two hits one gunner.
Hits from fire fall on one stand at a time, the front stand with the most already, so fire
leaves a regiment at most one "casualty stand"; in close combat each stand that loses its
bout on a 1 or 2 takes that many itself (10 D). A stand goes when all its figures are down.
A unit with no stand left is destroyed. Losing half its stands costs a point of morale for good."""

from __future__ import annotations

from pbem.engines.base import event

from . import morale, officers
from .fog import went
from .messages import N_
from .rules import hits_to_remove_stand


def apply_hits(ctx, uid: str, hits: int) -> int:
    """Mark ``hits`` on a unit; returns the stands it lost."""
    u = ctx.state["units"][uid]
    if hits <= 0 or not u["stands"]:
        return 0
    per_stand = hits_to_remove_stand(u["arm"])
    lost = 0
    for _ in range(hits):
        if not u["stands"]:
            break
        i = max(range(len(u["stands"])), key=lambda k: (u["stands"][k], -k))
        u["stands"][i] += 1
        if u["stands"][i] >= per_stand:
            u["stands"].pop(i)
            lost += 1
    return _after_casualties(ctx, uid, hits, lost)


def apply_to_stands(ctx, uid: str, taken: dict[int, int]) -> int:
    """10 D: casualties on the stands that lost their bouts (stand index -> casualties); returns
    the stands lost."""
    u = ctx.state["units"][uid]
    per_stand = hits_to_remove_stand(u["arm"])
    for i, n in taken.items():
        u["stands"][i] += n
    gone = [i for i, hits in enumerate(u["stands"]) if hits >= per_stand]
    u["stands"] = [hits for hits in u["stands"] if hits < per_stand]
    return _after_casualties(ctx, uid, sum(taken.values()), len(gone))


def _after_casualties(ctx, uid: str, hits: int, lost: int) -> int:
    u = ctx.state["units"][uid]
    u["stands_lost_turn"] = u.get("stands_lost_turn", 0) + lost
    ctx.emit(event("casualties", N_("%(unit)s took %(hits)s hit(s): %(lost)s stand(s) lost, %(left)s left."),
                   unit=ctx.name(uid), id=uid, hits=hits, lost=lost, left=len(u["stands"]),
                   casualties=list(u["stands"])))
    if lost and not u.get("half_lost") and len(u["stands"]) * 2 <= u["full_stands"]:
        u["half_lost"] = True
        morale.alter(ctx, uid, "half_stands_lost")
    if not u["stands"]:
        went(ctx, "unit", uid)
        u["status"] = "destroyed"
        ctx.emit(event("destroyed", N_("%(unit)s was destroyed."), unit=ctx.name(uid), id=uid))
        officers.follow_unit(ctx, uid)
    return lost
