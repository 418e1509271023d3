"""Victory points (the scenario's victory rules): SP eliminated by type, commanders lost by
their CV, objective hexes held; a 2:1 ratio with the minimum wins at once after the last
daytime turn of a day; otherwise the side with more VP at the end."""

from __future__ import annotations

from pbem.engines.base import event

from .messages import N_
from .situation import ELIMINATED, GONE, Context


def recount(ctx: Context) -> dict[str, int]:
    sc, state = ctx.sc, ctx.state
    points = sc.victory.get("points", {})
    vp = {r: 0 for r in sc.roles}
    for uid, u in state["units"].items():
        info = sc.units[uid]
        if u["status"] in (ELIMINATED, GONE):
            vp[sc.enemy(info.side)] += int(points.get(info.type, 1)) * info.sp
    for cid, c in state["commanders"].items():
        info = sc.commanders[cid]
        if c["replaced"] and info.cv:
            vp[sc.enemy(info.side)] += int(info.cv)
    for obj in sc.victory.get("objectives", []):
        if state["control"].get(obj["hex"]) == obj["side"]:
            vp[obj["side"]] += int(obj["vp"])
    return vp


def initial_control(sc) -> dict[str, str]:
    """An objective starts held by the side that does not score it."""
    return {o["hex"]: sc.enemy(o["side"]) for o in sc.victory.get("objectives", [])}


def update_control(ctx: Context) -> None:
    for obj in ctx.sc.victory.get("objectives", []):
        side = ctx.sit.side_at(obj["hex"])
        if side:
            ctx.state["control"][obj["hex"]] = side


def check(ctx: Context, final: bool) -> bool:
    """After the last daytime turn of a day (or the last turn): True when the game is over."""
    state, sc = ctx.state, ctx.sc
    vp = recount(ctx)
    state["vp"] = vp
    a, b = sc.roles
    sd = sc.victory.get("sudden_death") or {}
    ratio, least = sd.get("ratio"), sd.get("min_vp", 0)
    winner, why = None, None
    for x, y in ((a, b), (b, a)):
        if ratio and vp[x] >= least and vp[x] >= ratio * max(vp[y], 0) and vp[x] > vp[y]:
            winner, why = x, "ratio"
    if winner is None and final:
        winner = a if vp[a] > vp[b] else b if vp[b] > vp[a] else None
        why = "points" if winner else "draw"
    ctx.emit(event("victory_check", N_("Victory points: %(standing)s."), vp=vp,
                   standing=", ".join(f"{ctx.side_name(r)} {vp[r]}" for r in sc.roles)))
    if winner is None and not final:
        return False
    state["over"] = True
    state["result"] = {"winner": winner, "why": why, "vp": vp}
    ctx.emit(event("game_over", N_("The battle is over: %(result)s (%(standing)s)."), winner=winner, why=why, vp=vp,
                   result=(f"{ctx.side_name(winner)} win" + (" by a 2:1 margin" if why == "ratio" else " on points"))
                   if winner else "a draw",
                   standing=", ".join(f"{ctx.side_name(r)} {vp[r]}" for r in sc.roles)))
    return True
