"""Close combat in the turn (section 10 F-H, L; 4 H): every charge closed, answered and
fought in the order it made contact (10 I), then, when all are fought, 10 L: the losers move
to their new places, units whose staff fell check morale, and the winners take their options:
an attacker advances into the ground it won; a defender (or a unit that supported it) with the
standing order COUNTERCHARGE passes morale and falls on an enemy in its 180-degree front
(10 S), whose close combat is fought and resolved the same way; the others reform in place.
Units that fell back into the enemy and chose to fight do so last (14 A.2). How one close
combat is fought is ``melee``'s."""

from __future__ import annotations

from shapely.geometry import Point
from shapely.ops import nearest_points

from pbem.engines.base import event

from . import morale, officers
from .actions import sees_itself
from .fog import both_ends, seen_by
from .geometry import bearing_to, half_plane_front
from .melee import FIGHTING, defender_stands, fight, router_caught, standing_skipped, strikes_flank, supports
from .messages import N_
from .movement import base_of, travel
from .routs import fall_back, move_pending, rout
from .rules import scale as scale_rules, table as rules_table
from .visibility import CONTACT_SLACK, visible_enemies


def take_ground(ctx, uid: str, held: tuple[float, float]) -> None:
    """10 L, the winner's bonus (designed): a winning attacker advances up to half its move into
    the ground the beaten defender held, halting an inch from any enemy."""
    u = ctx.state["units"][uid]
    if u["status"] != "formed":
        return
    budget = base_of(ctx, uid) / 2.0
    if budget <= 0:
        return
    before, seen_before = (u["x"], u["y"]), seen_by(ctx, [uid])
    res = travel(ctx, None, [held], budget=budget, unit_id=uid)
    if (u["x"], u["y"]) != before:
        ctx.state["last"]["moves"].append({"unit": uid, "path": res["track"], **both_ends(seen_before, seen_by(ctx, [uid]))})
        ctx.emit(event("take_ground", N_("%(unit)s advanced into the ground it won, to %(at)s."), unit=ctx.name(uid), id=uid,
                       at=ctx.table.grid_ref(u["x"], u["y"]), track=res["track"]), seen_before=seen_before)
        officers.follow_unit(ctx, uid)


def close_combats(ctx) -> None:
    """F, G and H for every charge, in the order they made contact (10 I); then 10 L."""
    ctx.state["phase_step"] = "F"
    charges = list(ctx.state.get("charges", []))
    if charges:
        ctx.emit(event("combat_step", N_("F-H. Charges closed, defenders answered, close combats were fought.")))
    won = []  # (winner, beaten, held ground or None) in the order fought: the winners' options come last (10 L)
    for n, ch in enumerate(charges, start=1):
        outcome = _charge_combat(ctx, n, ch)
        if outcome:
            won.append(outcome)
    _after_combats(ctx, won, len(charges))


def _charge_combat(ctx, n: int, ch: dict):
    """One charge closing and its combat (F, G, H); the winner's record, or None."""
    cap = rules_table("combat")["max_melees_per_turn"]
    temp = rules_table("morale")["temporary"]
    a, d = ch["attacker"], ch["target"]
    au, du = ctx.state["units"][a], ctx.state["units"][d]
    au.pop("charging", None)
    if au["status"] != "formed":
        return None
    if du["status"] not in ("formed", "falling_back", "routed"):
        ctx.emit(event("charge_no_target", N_("%(unit)s's target %(target)s was gone; it held where it stood."),
                       unit=ctx.name(a), id=a, target=ctx.name(d), target_id=d))
        return None
    if au.get("melees", 0) >= cap or du.get("melees", 0) >= cap:
        ctx.emit(event("melee_cap", N_("%(unit)s or %(target)s had fought its two close combats this turn."),
                       unit=ctx.name(a), id=a, target=ctx.name(d), target_id=d))
        return None
    if ctx.layout(a).footprint.distance(ctx.layout(d).footprint) > scale_rules(ctx.scale)["halt_short_of_enemy"] * 2 + 0.5:
        ctx.emit(event("charge_out_of_reach", N_("%(target)s was no longer within reach of %(unit)s."),
                       unit=ctx.name(a), id=a, target=ctx.name(d), target_id=d))
        return None
    if du["status"] == "routed":
        router_caught(ctx, a, d, n)
        return None
    rear = ch.get("rear", False)
    mods = []
    lost = au.get("stands_lost_turn", 0)
    if lost:
        mods.append(("stands lost this turn", max(temp["stands_lost_cap"], temp["per_stand_lost_this_phase"] * lost)))
    if not rear and not morale.passes(ctx, a, f"to close with {ctx.name(d)}", mods, about=d):
        ctx.emit(event("charge_stalls", N_("%(unit)s would not close and stopped an inch from %(target)s."),
                       unit=ctx.name(a), id=a, target=ctx.name(d), target_id=d))
        return None
    if rear:
        ctx.emit(event("rear_attack", N_("%(unit)s attacked %(target)s from outside its front: no check to close."),
                       unit=ctx.name(a), id=a, target=ctx.name(d), target_id=d))
    if not defender_stands(ctx, a, d, rear):
        return None
    helpers = supports(ctx, d, [a])
    held = (du["x"], du["y"])
    if fight(ctx, [a], [d] + helpers, n, rear=rear, flank=ch.get("flank", False)) == "attacker":
        return {"winners": [a], "beaten": [d], "held": held, "contact": n}
    return {"winners": [d] + helpers, "beaten": [a], "held": None, "contact": n}


def _after_combats(ctx, won: list[dict], contacts: int) -> None:
    """10 L: losers move, units that lost their staff check, then the winners' options; a
    countercharge is a close combat of its own, resolved the same way."""
    while won or ctx.state.get("pending_moves"):
        move_pending(ctx)
        lost_staff_checks(ctx)
        more = []
        for w in won:
            if w["held"] is not None:
                take_ground(ctx, w["winners"][0], w["held"])
            else:
                for uid in w["winners"]:
                    contacts += 1
                    outcome = countercharge(ctx, uid, w["beaten"], contacts)
                    if outcome:
                        more.append(outcome)
        won = more


def lost_staff_checks(ctx) -> None:
    """10 L: "check Morale of any Units that lost their Staff" in the close combats."""
    for uid, u in sorted(ctx.state["units"].items()):
        if not u.pop("lost_staff_in_melee", False) or u["status"] not in ("formed", "falling_back"):
            continue
        result = morale.check(ctx, uid, "lost its officer")
        if result == "fall_back":
            fall_back(ctx, uid, "lost its officer")
        elif result == "rout":
            rout(ctx, uid, "lost its officer")


def countercharge_target(ctx, uid: str, beaten: list[str]) -> str | None:
    """10 S: "countercharge a unit in a 180 degree cone": the nearest enemy the unit itself sees
    (10 P) in its 180-degree front that it can reach with a charge (its base move), or the attacker it has just
    beaten wherever it went (its pursuit, designed)."""
    u = ctx.state["units"][uid]
    front = half_plane_front(u["x"], u["y"], u["facing"])
    reach = base_of(ctx, uid) + scale_rules(ctx.scale)["halt_short_of_enemy"]
    fp = ctx.layout(uid).footprint
    best = None
    for e in sees_itself(ctx, uid, visible_enemies(ctx.scenario, ctx.state, u["side"])):
        eu = ctx.state["units"][e]
        if eu["status"] not in ("formed", "falling_back", "routed") or not front.intersects(ctx.layout(e).footprint):
            continue
        d = fp.distance(ctx.layout(e).footprint)
        if e not in beaten and d > reach:
            continue
        if best is None or (d, e) < best:
            best = (d, e)
    return best[1] if best else None


def countercharge(ctx, uid: str, beaten: list[str], contact) -> dict | None:
    """A winning defender (or a unit that supported it) with the standing order COUNTERCHARGE
    passes morale and falls on an enemy in its 180-degree front (10 S); without the order, or
    failing, it reforms in place."""
    u = ctx.state["units"][uid]
    cap = rules_table("combat")["max_melees_per_turn"]
    if not ctx.state["standing"].get(u["side"], {}).get(uid, {}).get("countercharge") or u["status"] != "formed":
        return None
    target = countercharge_target(ctx, uid, beaten)
    if target is None:
        standing_skipped(ctx, uid, "countercharge", "after winning its close combat",
                          "no enemy it can see in its 180-degree front within a charge's reach")
        return None
    tu = ctx.state["units"][target]
    if max(u.get("melees", 0), tu.get("melees", 0)) >= cap:
        standing_skipped(ctx, uid, "countercharge", f"against {ctx.name(target)}",
                          "one of them has fought its two close combats this turn (10 K)")
        return None
    if not morale.passes(ctx, uid, f"to countercharge {ctx.name(target)}", about=target):
        return None
    ctx.emit(event("countercharge", N_("%(unit)s countercharged %(target)s."), unit=ctx.name(uid), other_id=uid,
                   target=ctx.name(target), id=target))
    if tu["status"] == "routed":
        router_caught(ctx, uid, target, contact)
        return None
    if target not in beaten:
        # a fresh enemy: the countercharge is a charge, halting an inch short and answered as one (10 A, C)
        if not _close_in(ctx, uid, target) or not defender_stands(ctx, uid, target, False):
            return None
    held = (tu["x"], tu["y"])
    flank = target not in beaten and strikes_flank(u, tu)
    if fight(ctx, [uid], [target], f"{contact}c", flank=flank) == "attacker":
        return {"winners": [uid], "beaten": [target], "held": held, "contact": contact}
    return {"winners": [target], "beaten": [uid], "held": None, "contact": contact}


def _close_in(ctx, uid: str, target: str) -> bool:
    """The countercharger turns to the target and goes at it, up to its base move (a bonus move:
    no D20, designed), halting an inch short (10 A); True when it got there."""
    u = ctx.state["units"][uid]
    halt = scale_rules(ctx.scale)["halt_short_of_enemy"]
    near = nearest_points(ctx.layout(target).footprint, Point(u["x"], u["y"]))[0]
    seen_before = seen_by(ctx, [uid])
    u["facing"] = bearing_to(u["x"], u["y"], near.x, near.y)
    res = travel(ctx, None, [(near.x, near.y)], budget=base_of(ctx, uid), halt_at=halt, unit_id=uid)
    ctx.state["last"]["moves"].append({"unit": uid, "path": res["track"], **both_ends(seen_before, seen_by(ctx, [uid]))})
    officers.follow_unit(ctx, uid)
    gap = ctx.layout(uid).footprint.distance(ctx.layout(target).footprint)
    if gap <= halt + CONTACT_SLACK:
        return True
    ctx.emit(event("charge_short", N_("%(unit)s countercharged toward %(target)s but fell %(gap)s in. short."),
                   to=[u["side"]], unit=ctx.name(uid), id=uid, target=ctx.name(target), target_id=target,
                   gap=round(gap - halt, 2)))
    return False


def collision_combats(ctx) -> None:
    """H. Units that fell back into the enemy and chose to fight do so now (14 A.2)."""
    for n, c in enumerate(ctx.state.pop("collisions", []), start=1):
        uid, enemy = c["unit"], c["enemy"]
        if ctx.state["units"][uid]["status"] in FIGHTING and ctx.state["units"][enemy]["status"] in FIGHTING:
            fight(ctx, [uid], [enemy], f"collision {n}", collision=True)
    move_pending(ctx)
    lost_staff_checks(ctx)
