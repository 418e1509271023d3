"""Falling back and routed units (section 14), the morale checks fire causes, rallies.

A unit falling back moves a double move straight to its rear, facing the enemy still, with
no terrain penalty, through friends (14 A.1); it stays falling back until it passes a
command response. A routed unit turns about and does the same (14 B.1); friends within
4 inches of where it started, and any it passes through, check morale (14 B.2); a router
that meets formed enemy is captured (14 B.3). A falling-back unit that meets enemy checks
at -1: on 6 or more it fights them (in step H, at -1 on its dice), below it surrenders (14 A.2). Routers rally at
the end of the next turn or leave the table (14 B.6). Dismounted cavalry falling back rolls
for its horse holders (15 H).
"""

from __future__ import annotations

from shapely.geometry import LineString, Point

from pbem.engines.base import event

from . import morale, officers
from .fog import both_ends, seen_by, went
from .formations import Layout, about_face
from .geometry import direction
from .messages import N_
from .movement import base_of, has_room, travel
from .rules import scale as scale_rules, table as rules_table


CLEAR_BEYOND = 12.0  # inches a unit falling back through friends may go on to stand clear of them


def _double_move(ctx, uid: str) -> float:
    u = ctx.state["units"][uid]
    base = base_of(ctx, uid)
    if base <= 0:  # a square or unlimbered guns run at their marching rate
        saved = u["formation"]
        u["formation"] = "limbered" if u["arm"] == "artillery" else "line"
        base = base_of(ctx, uid)
        u["formation"] = saved
    return rules_table("movement")["fall_back_multiple"] * base


def _go_back(ctx, uid: str, routing: bool, turn_about: bool = True) -> dict:
    """The double move to the rear (14 A.1, B.1). A unit routing for the first time turns
    about and runs; a router that routs again runs on the way it faces, away from the enemy
    it ran from (14 B.4-5): it never turns back into him."""
    u = ctx.state["units"][uid]
    if routing:
        if turn_about:
            about_face(u, ctx.scale)
        if u["arm"] == "artillery":
            u["formation"] = "limbered"
        fx, fy = direction(u["facing"])
    else:
        bx, by = direction(u["facing"])
        fx, fy = -bx, -by
    distance = _double_move(ctx, uid)
    start, seen_before = (u["x"], u["y"]), seen_by(ctx, [uid])
    far = (u["x"] + fx * distance, u["y"] + fy * distance)
    # a router is captured only by organized enemy (14 B.3): it runs through routed enemies as through friends
    res = travel(ctx, None, [far], budget=distance, free=True, through_friends=True, unit_id=uid,
                 halt_at=scale_rules(ctx.scale)["halt_short_of_enemy"] / 2.0, through_routed=routing)
    if res["stopped"] in ("arrived", "allowance") and not has_room(ctx, uid):
        # it passed through friends (14 A.1) but does not stop on them: it goes on until clear
        on = (u["x"] + fx * CLEAR_BEYOND, u["y"] + fy * CLEAR_BEYOND)
        more = travel(ctx, None, [on], budget=CLEAR_BEYOND, free=True, through_friends=True, unit_id=uid,
                      halt_at=scale_rules(ctx.scale)["halt_short_of_enemy"] / 2.0, until_clear=True,
                      through_routed=routing)
        res = dict(more, track=res["track"] + more["track"][1:])
        if u["status"] in ("formed", "falling_back", "routed") and not has_room(ctx, uid):
            _back_to_clear_ground(ctx, uid, start)
            res["at"] = [round(u["x"], 2), round(u["y"], 2)]
            res["track"] = res["track"] + [res["at"]]
    ctx.state["last"]["moves"].append({"unit": uid, "path": res["track"], "kind": "rout" if routing else "fall_back",
                                       **both_ends(seen_before, seen_by(ctx, [uid]))})
    res["start"], res["seen_before"] = start, seen_before
    return res


def _back_to_clear_ground(ctx, uid: str, start: tuple[float, float]) -> None:
    """Still among friends after going on beyond them: the farthest clear place on the way back."""
    u = ctx.state["units"][uid]
    end = (u["x"], u["y"])
    length = ((end[0] - start[0]) ** 2 + (end[1] - start[1]) ** 2) ** 0.5
    steps = int(length / 0.25)
    for k in range(1, steps + 1):
        t = 1.0 - k / steps if steps else 0.0
        u["x"], u["y"] = start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t
        if has_room(ctx, uid):
            return
    u["x"], u["y"] = start


def horse_holders(ctx, uid: str) -> None:
    """15 H (its result lost; designed, data/acw/tables/movement.json): dismounted cavalry
    that falls back rolls a d6 for its horse holders: 4-6 it reaches them and falls back
    mounted, 2-3 it falls back on foot, 1 the horses have bolted: on foot, and it cannot
    mount again this battle."""
    u = ctx.state["units"][uid]
    if u["arm"] != "cavalry" or u.get("mounted", True) or u.get("horses_lost"):
        return
    rule = rules_table("movement")["dismounted_fall_back"]
    d6 = ctx.dice.roll(6, ctx.label("horse holders", uid, ctx.state.get("phase_step", "")))
    if d6 in rule["remounts_on"]:
        u["mounted"], u["formation"] = True, "line"
        msg, result = N_("%(unit)s, dismounted, fell back to its horse holders: d6 %(d6)s (remounts on %(remounts)s, on foot on %(on_foot)s, horses lost on %(lost)s), it remounted and fell back mounted."), "remounts"
    elif d6 in rule["horses_lost_on"]:
        u["horses_lost"] = True
        msg, result = N_("%(unit)s, dismounted, fell back to its horse holders: d6 %(d6)s (remounts on %(remounts)s, on foot on %(on_foot)s, horses lost on %(lost)s), the horses had bolted: it went on foot and cannot mount again."), "horses_lost"
    else:
        msg, result = N_("%(unit)s, dismounted, fell back to its horse holders: d6 %(d6)s (remounts on %(remounts)s, on foot on %(on_foot)s, horses lost on %(lost)s), it fell back on foot."), "on_foot"
    ctx.emit(event("horse_holders", msg, unit=ctx.name(uid), id=uid, d6=d6, result=result,
                   **{k: ", ".join(map(str, rule[f"{k}_on" if k != "lost" else "horses_lost_on"])) for k in ("remounts", "on_foot", "lost")}))


def fall_back(ctx, uid: str, why: str, defer: bool = False) -> None:
    """The unit falls back in good order (14 A). ``defer``: a close combat's loser, whose move
    waits until all close combats are resolved (10 L)."""
    u = ctx.state["units"][uid]
    if u["status"] not in ("formed", "falling_back"):
        return
    u["status"] = "falling_back"
    u.pop("charging", None)
    if defer or uid in ctx.state.get("pending_moves", {}):
        ctx.state.setdefault("pending_moves", {}).setdefault(uid, {"kind": "fall_back", "why": why})
        return
    _fall_back_now(ctx, uid, why)


def _fall_back_now(ctx, uid: str, why: str) -> None:
    horse_holders(ctx, uid)
    res = _go_back(ctx, uid, routing=False)
    ctx.emit(event("fall_back", N_("%(unit)s fell back in good order (%(why)s) to %(at)s."),
                   unit=ctx.name(uid), id=uid, why=why, at=_where(ctx, res["at"]), track=res["track"]),
             seen_before=res["seen_before"])
    _after_retreat(ctx, uid, res, routing=False)


def rout(ctx, uid: str, why: str, defer: bool = False) -> None:
    """The unit routs (14 B): its rating drops for good the first time, it runs a double move
    and its friends near check. ``defer`` as for ``fall_back``."""
    u = ctx.state["units"][uid]
    if u["status"] not in ("formed", "falling_back", "routed"):
        return
    before = ctx.state.get("pending_moves", {}).get(uid)  # already lost a close combat this turn
    first = u["status"] != "routed" if before is None else before.get("first", True)
    u["status"], u["routed_turn"] = "routed", ctx.turn
    u.pop("charging", None)
    if first and not (before or {}).get("first"):
        morale.alter(ctx, uid, "routed")
    if defer or before is not None:
        ctx.state.setdefault("pending_moves", {})[uid] = {
            "kind": "rout", "why": before["why"] if before and before["kind"] == "rout" else why, "first": first}
        return
    _rout_now(ctx, uid, why, first)


def _rout_now(ctx, uid: str, why: str, first: bool) -> None:
    res = _go_back(ctx, uid, routing=True, turn_about=first)
    ctx.emit(event("rout", N_("%(unit)s routed (%(why)s) to %(at)s."), unit=ctx.name(uid), id=uid, why=why,
                   at=_where(ctx, res["at"]), track=res["track"]), seen_before=res["seen_before"])
    _after_retreat(ctx, uid, res, routing=True)
    panic(ctx, uid, res)  # wherever it ends, captured or off the table, its friends near its place check (14 B.2)


def move_pending(ctx) -> None:
    """10 L: when all close combats are resolved, the losers move to their new places, in the
    order they lost."""
    pending = ctx.state.pop("pending_moves", {})
    for uid, move in pending.items():
        u = ctx.state["units"][uid]
        if move["kind"] == "rout" and u["status"] == "routed":
            _rout_now(ctx, uid, move["why"], move.get("first", True))
        elif move["kind"] == "fall_back" and u["status"] == "falling_back":
            _fall_back_now(ctx, uid, move["why"])


def _where(ctx, at) -> str:
    return f"{ctx.table.grid_ref(*at)} ({at[0]:g}, {at[1]:g})"


def _after_retreat(ctx, uid: str, res: dict, routing: bool) -> None:
    u = ctx.state["units"][uid]
    officers.follow_unit(ctx, uid)
    if res["stopped"] == "edge":
        went(ctx, "unit", uid)
        u["status"] = "left"
        ctx.emit(event("left_table", N_("%(unit)s left the table."), unit=ctx.name(uid), id=uid))
        officers.follow_unit(ctx, uid)
        return
    if res["stopped"] in ("enemy", "unit") and res.get("blocked_by"):
        other = res["blocked_by"]
        if ctx.state["units"][other]["side"] == u["side"]:
            return
        if routing:
            went(ctx, "unit", uid)
            u["status"] = "captured"
            ctx.emit(event("captured", N_("%(unit)s ran into %(enemy)s and was captured."),
                           unit=ctx.name(uid), id=uid, enemy=ctx.name(other), enemy_id=other))
            officers.follow_unit(ctx, uid)
            return
        mods = [("collision", rules_table("morale")["temporary"]["collision"])]
        if morale.passes(ctx, uid, "falling back into the enemy", mods):
            # it turns to fight its way through: the close combat is fought in step H
            ctx.state.setdefault("collisions", []).append({"unit": uid, "enemy": other})
            ctx.emit(event("collision", N_("%(unit)s, falling back into %(enemy)s, turned to fight its way through."),
                           unit=ctx.name(uid), id=uid, enemy=ctx.name(other), enemy_id=other))
        else:
            went(ctx, "unit", uid)
            u["status"] = "surrendered"
            ctx.emit(event("surrender", N_("%(unit)s, falling back into %(enemy)s, surrendered."),
                           unit=ctx.name(uid), id=uid, enemy=ctx.name(other), enemy_id=other))
            officers.follow_unit(ctx, uid)


def panic(ctx, router: str, res: dict) -> None:
    """Friends within 4 inches of where the router started, or passed through, check (14 B.2)."""
    radius = scale_rules(ctx.scale)["router_panic_radius"]
    u = ctx.state["units"][router]
    start = Layout({**u, "x": res["start"][0], "y": res["start"][1]}, ctx.scale).footprint
    path = LineString(res["track"]) if len(res["track"]) > 1 else None
    done = ctx.state.setdefault("panicked", [])
    for uid in ctx.on_table(u["side"]):
        if uid == router or ctx.state["units"][uid]["status"] != "formed" or [router, uid] in done:
            continue
        fp = ctx.layout(uid).footprint
        if fp.distance(start) <= radius or (path is not None and path.intersects(fp)):
            done.append([router, uid])
            result = morale.check(ctx, uid, f"{ctx.name(router)} routs nearby", about=router)
            if result == "fall_back":
                fall_back(ctx, uid, "a router nearby")
            elif result == "rout":
                rout(ctx, uid, "a router nearby")


def after_fire_morale(ctx, lost: dict[str, int], hits: dict[str, int]) -> None:
    """Units that lost a stand check (9 C); routed units hit check to stay put (14 B.4)."""
    temp = rules_table("morale")["temporary"]
    for uid in sorted(hits):
        u = ctx.state["units"][uid]
        if u["status"] == "routed" and hits[uid]:
            if not morale.passes(ctx, uid, "a router under fire"):
                rout(ctx, uid, "fired on while routed")
            continue
        if u["status"] not in ("formed", "falling_back") or not lost.get(uid):
            continue
        mods = [("stands lost", max(temp["stands_lost_cap"], temp["per_stand_lost_this_phase"] * lost[uid]))]
        if u["status"] == "falling_back":
            mods.append(("falling back", temp["falling_back"]))
        if ctx.table.in_cover_terrain(ctx.layout(uid).footprint) >= rules_table("fire")["cover_share"]:
            mods.append(("in cover", temp["in_cover"]))
        result = morale.check(ctx, uid, "casualties from fire", mods)
        if result == "fall_back":
            fall_back(ctx, uid, "casualties")
        elif result == "rout":
            rout(ctx, uid, "casualties")


def rally_phase(ctx) -> None:
    """I. Routed units of an earlier turn rally on 6 or more or leave the table (14 B.6);
    an officer at the rout marker adds his bonus (14 B.7): one who routed with the unit, or
    one who has reached it (within an inch)."""
    for uid in ctx.on_table():
        u = ctx.state["units"][uid]
        if u["status"] != "routed" or u.get("routed_turn", ctx.turn) >= ctx.turn:
            continue
        ctx.state["phase_step"] = "I"
        mods = []
        for oid, o in sorted(ctx.state["officers"].items()):
            if o["status"] != "active" or o["side"] != u["side"]:
                continue
            # one who routed with the unit is at its marker (18: staff rout with their unit); another must reach it
            if o.get("attached") == uid or (not o.get("attached") and ctx.layout(uid).footprint.distance(_point(o)) <= 1.0):
                    bonus = officers.morale_bonus(ctx, oid)
                    if bonus:
                        mods.append((f"{ctx.scenario.officers[oid]['name']} at the rout marker", bonus))
                    o["rallying"] = ctx.turn
        if morale.passes(ctx, uid, "rally", mods, staff=False):
            u["status"] = "falling_back"
            about_face(u, ctx.scale)
            ctx.emit(event("rally", N_("%(unit)s rallied."), unit=ctx.name(uid), id=uid))
        else:
            went(ctx, "unit", uid)
            u["status"] = "left"
            ctx.emit(event("left_table", N_("%(unit)s failed to rally and left the table."), unit=ctx.name(uid), id=uid))
            officers.follow_unit(ctx, uid)


def _point(o) -> Point:
    return Point(o["x"], o["y"])
