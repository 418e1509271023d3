"""How a game ends (scenario rules, designed): an army whose effectiveness falls into the
"broken" band quits the field and loses at once (both at once: a draw); otherwise after
the last turn the side holding more objective points wins (an objective is held by a
side with a formed unit within its radius and no enemy formed unit there), ties going to
the higher effectiveness, then a draw."""

from __future__ import annotations

from shapely.geometry import Point

from pbem.engines.base import event

from .messages import N_


def holders(ctx) -> dict[str, str | None]:
    out = {}
    for obj in ctx.scenario.objectives:
        at = Point(*ctx.table.landmarks[obj["name"]])
        near = {ctx.state["units"][uid]["side"] for uid in ctx.on_table()
                if ctx.state["units"][uid]["status"] == "formed" and ctx.layout(uid).footprint.distance(at) <= obj["radius"]}
        out[obj["name"]] = next(iter(near)) if len(near) == 1 else None
    return out


def points(ctx) -> dict[str, int]:
    held = holders(ctx)
    pts = {side: 0 for side in ctx.scenario.roles}
    for obj in ctx.scenario.objectives:
        if held[obj["name"]]:
            pts[held[obj["name"]]] += obj["points"]
    ctx.state["objectives"] = held
    return pts


def check_end(ctx) -> bool:
    broken = [s for s in ctx.scenario.roles if ctx.state["band"].get(s) == "broken"]
    pts = points(ctx)
    if broken:
        winner = None if len(broken) > 1 else ctx.scenario.enemy(broken[0])
        _finish(ctx, winner, "broken", pts, broken=", ".join(ctx.scenario.side_names[s] for s in broken))
        return True
    if ctx.turn >= ctx.scenario.turns:
        a, b = ctx.scenario.roles
        key = {s: (pts[s], ctx.state["effectiveness"][s]) for s in (a, b)}
        winner = a if key[a] > key[b] else b if key[b] > key[a] else None
        _finish(ctx, winner, "turns", pts)
        return True
    return False


def _finish(ctx, winner: str | None, why: str, pts: dict, **args) -> None:
    ctx.state["over"] = True
    ctx.state["result"] = {"winner": winner, "why": why, "points": pts, "args": args,
                           "effectiveness": dict(ctx.state["effectiveness"])}
    msg = (N_("Army broken, %(broken)s: it quit the field.") if why == "broken"
           else N_("The last turn was over: objective points %(points)s."))
    ctx.emit(event("game_over", msg, winner=winner, why=why,
                   points=", ".join(f"{ctx.scenario.side_names[s]} {p}" for s, p in pts.items()), **args))
