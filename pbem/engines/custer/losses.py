"""Losses: a loss flips a full-strength unit and removes a reduced one; leaders and
villages take a single hit (a US leader flips and stays for activation, a tribe
leader is removed, a village is captured). The losing side chooses who takes each
loss: its standing ``LOSSES`` list first, then the documented default.
"""

from __future__ import annotations

from pbem.engines.base import event

from .messages import N_
from .situation import ELIMINATED, Context
from .victory import points_for_elimination, score_elimination


def can_take_loss(ctx: Context, uid: str) -> bool:
    sit = ctx.sit
    if not sit.on_board(uid):
        return False
    return not (sit.info[uid].type == "us_leader" and sit.units[uid]["reduced"])


def eliminates(ctx: Context, uid: str) -> bool:
    """Whether one more loss removes ``uid`` (or counts as its elimination)."""
    info = ctx.sit.info[uid]
    return info.is_leader or info.type == "village" or ctx.sit.units[uid]["reduced"]


def default_loss_key(ctx: Context, uid: str) -> tuple:
    """Default choice: first a loss that eliminates nothing (flip the full-strength unit
    that loses the fewest CF by it), then the unit whose loss gives the enemy the
    fewest VP (then the weaker, leaders last)."""
    sit = ctx.sit
    info = sit.info[uid]
    if not eliminates(ctx, uid):
        return (0, info.cf[0] - info.cf[1], 0, 0, uid)
    _, vp = points_for_elimination(ctx.scenario, uid)
    return (1, vp, int(info.is_leader), sit.cf(uid), uid)


def choose_loss(ctx: Context, group: list[str], side: str) -> str | None:
    candidates = [u for u in group if can_take_loss(ctx, u)]
    if not candidates:
        return None
    for uid in ctx.standing(side).get("losses") or []:
        if uid in candidates:
            return uid
    return min(candidates, key=lambda u: default_loss_key(ctx, u))


def apply_loss(ctx: Context, uid: str, label: str) -> str:
    """One loss on ``uid``: 'flipped', 'eliminated', 'captured', 'leader_hit' or 'none'."""
    sit = ctx.sit
    info = sit.info[uid]
    unit = sit.units[uid]
    where = sit.hex_of(uid)
    if not can_take_loss(ctx, uid):
        return "none"
    if info.type == "us_leader":
        unit["reduced"] = True
        result = "leader_hit"
        msg = N_("%(unit_name)s is hit in %(hex)s: flipped, he adds no CF any more (counts as eliminated for VP).")
    elif info.type == "tribe_leader":
        sit.remove(uid, ELIMINATED)
        result = "leader_hit"
        msg = N_("%(unit_name)s is hit in %(hex)s and removed.")
    elif info.type == "village":
        sit.remove(uid, ELIMINATED)
        result = "captured"
        msg = N_("%(unit_name)s in %(hex)s is captured.")
    elif not unit["reduced"]:
        unit["reduced"] = True
        result = "flipped"
        msg = N_("%(unit_name)s in %(hex)s takes a loss and is flipped to its reduced side (%(cf)s CF).")
    else:
        sit.remove(uid, ELIMINATED)
        result = "eliminated"
        msg = N_("%(unit_name)s in %(hex)s takes a second loss and is eliminated.")
    ctx.emit(event("loss", msg, unit=uid, unit_name=info.name, hex=where, result=result,
                   cf=sit.cf(uid), combat=label))
    if result != "flipped":
        score_elimination(ctx, uid)
    return result


def take_losses(ctx: Context, group: list[str], side: str, count: int, label: str) -> list[dict]:
    """``count`` losses on ``group``, chosen one at a time; the list of what happened."""
    out = []
    for _ in range(count):
        uid = choose_loss(ctx, group, side)
        if uid is None:
            break
        out.append({"unit": uid, "result": apply_loss(ctx, uid, label)})
    return out
