"""Cards and command (sections 1, 4 A and 5): the random move cards turned one by one,
each brigade under a card moving only if its commander's response roll passes, the
unattached staff moving on their side's Staff card.

One d10 is rolled for a brigade's card and read for each of its units by the highest
officer of the unit's chain (its brigadier, its divisional general, the army's commanding
general) within his 12-inch zone of that unit (5 A, B, H.1; an officer attached to a unit
stands with it): a commanding general passes automatically, a divisional general fails on
10, a brigadier on 10-9, and with no officer near, 10-9-8 fails (section 19 table). A political officer
tries his rank on a d6 at his first use (5 H 2). An officer who helped a rally last turn
does not count (5 F).
"""

from __future__ import annotations

import math

from shapely.geometry import Point

from pbem.engines.base import event

from . import actions, fire, officers, supply
from .orders import unit_ops
from .messages import N_
from .rules import base_move, scale as scale_rules
from .visibility import spot_concealed

RANK_ORDER = {"commanding_general": 0, "divisional_general": 1, "brigadier": 2}


def deal(ctx) -> list[str]:
    """K, then A: the cards of every side shuffled into one stack for this turn."""
    ids = [c["id"] for c in ctx.scenario.cards]
    deck = ctx.dice.shuffle(ids, ctx.label("cards"))
    ctx.state["deck"] = deck
    return deck


def commanding_officer(ctx, brigade: str, uid: str) -> str | None:
    """The highest officer of the unit's chain who commands it now: active, not busy with a
    rally last turn (5 F), and within his 12-inch zone of the unit (5 A, 5 H.1: "for all units
    under their command within 12"") or attached to it. A unit in reserve is commanded by an
    officer attached to a unit of its brigade."""
    units = ctx.scenario.brigade_units(brigade)
    zone = scale_rules(ctx.scale)["staff_zone"]
    reserve = ctx.state["units"][uid]["status"] == "reserve"
    best = None
    for oid in ctx.scenario.chain(uid):
        o = ctx.state["officers"][oid]
        if o["status"] != "active" or o.get("rallying") == ctx.turn - 1:
            continue
        if reserve:
            near = o.get("attached") in units
        else:
            near = o.get("attached") == uid or ctx.layout(uid).footprint.distance(Point(*officers.position(ctx, oid))) <= zone + 1e-9
        if near and (best is None or RANK_ORDER[ctx.scenario.officers[oid]["rank"]] < RANK_ORDER[ctx.scenario.officers[best]["rank"]]):
            best = oid
    return best


def response(ctx, brigade: str, units: list[str]) -> set[str]:
    """Roll the brigade's command response: one d10 for its card, read for each unit by the
    officer who commands it (5 H.1: unit by unit); the units that may move."""
    name = ctx.scenario.brigades[brigade]["name"]
    groups: dict[str | None, list[str]] = {}
    for uid in units:
        groups.setdefault(commanding_officer(ctx, brigade, uid), []).append(uid)
    d10 = None
    passed_units: set[str] = set()
    whole = len(groups) == 1
    for oid, members in sorted(groups.items(), key=lambda g: (g[0] is None, g[0] or "")):
        who = ctx.scenario.officers[oid]["name"] if oid else "no officer near"
        part = name if whole else f"{name} ({', '.join(ctx.name(u) for u in members)})"
        if oid and not officers.proved(ctx, oid):
            ctx.emit(event("response", N_("%(brigade)s: %(officer)s, found wanting, could not move his command."), to=[ctx.scenario.brigades[brigade]["side"]],
                           brigade=part, officer=who, passed=False, brigade_id=brigade, unit_ids=members, officer_id=oid))
            continue
        fails = officers.response_fails_on(ctx, oid)
        if not fails:
            ctx.emit(event("response", N_("%(brigade)s: %(officer)s commanded, automatic response."), to=[ctx.scenario.brigades[brigade]["side"]],
                           brigade=part, officer=who, passed=True, brigade_id=brigade, unit_ids=members, officer_id=oid))
            passed_units.update(members)
            continue
        if d10 is None:
            d10 = ctx.dice.roll(10, ctx.label("response", brigade))
        passed = d10 not in fails
        ctx.emit(event("response", N_("%(brigade)s: command response by %(officer)s, d10 %(d10)s (fails on %(fails)s): %(result_text)s."),
                       to=[ctx.scenario.brigades[brigade]["side"]],
                       brigade=part, officer=who, d10=d10, fails="-".join(map(str, sorted(fails, reverse=True))),
                       result="moves" if passed else "does not move", result_text="it moved" if passed else "it did not move", passed=passed, brigade_id=brigade, unit_ids=members,
                       officer_id=oid))
        if passed:
            passed_units.update(members)
    return passed_units


def _offsets(ctx, brigade: str) -> dict:
    """Each regiment's offset from its brigade's centre, for orders given to the brigade."""
    units = [u for u in ctx.scenario.brigade_units(brigade) if ctx.state["units"][u]["status"] in ("formed", "falling_back")]
    if not units:
        return {}
    cx = sum(ctx.state["units"][u]["x"] for u in units) / len(units)
    cy = sum(ctx.state["units"][u]["y"] for u in units) / len(units)
    return {u: (ctx.state["units"][u]["x"] - cx, ctx.state["units"][u]["y"] - cy) for u in units}


def movement_phase(ctx, orders: dict) -> None:
    """A. Turn the cards one by one."""
    ctx.state["phase_step"] = "A"
    for cid in deal(ctx):
        card = next(c for c in ctx.scenario.cards if c["id"] == cid)
        side = card["side"]
        # a battery's card bears its name: the enemy is told it only while it sees the battery
        ctx.emit(event("card", N_("Card: %(card)s (%(side)s)."), card=card["name"], card_id=cid,
                       side=ctx.scenario.side_names[side],
                       about_ids=[uid for uid, info in ctx.scenario.units.items() if info["name"] == card["name"]]))
        mine = orders.get(side) or {}
        if card.get("staff"):
            _staff_card(ctx, side, mine.get("staff", {}))
            supply.move_wagons(ctx, side, mine.get("wagons") or {})
            continue
        movers = []
        for brigade in card.get("brigades", []):
            units = [u for u in ctx.scenario.brigade_units(brigade)
                     if ctx.state["units"][u]["status"] in ("formed", "falling_back", "reserve")]
            if not units:
                continue
            may_move = response(ctx, brigade, units)
            for u in units:
                if u not in may_move:
                    ctx.state.setdefault("response_failed", {})[u] = True
            offsets = _offsets(ctx, brigade)
            for uid in [u for u in units if u in may_move]:
                before = (ctx.state["units"][uid]["x"], ctx.state["units"][uid]["y"])
                actions.run(ctx, uid, unit_ops(ctx.scenario, mine, uid), offsets)
                officers.follow_unit(ctx, uid)
                u = ctx.state["units"][uid]
                if (u["x"], u["y"]) != before and u["status"] == "formed":
                    movers.append(uid)
        spot_concealed(ctx)
        fire.opportunity_fire(ctx, movers)


def _staff_card(ctx, side: str, staff_orders: dict) -> None:
    """G. Unattached staff move; staff attach to or leave units."""
    reach = base_move(ctx.scale, "staff", "mounted")
    for oid, ops in sorted(staff_orders.items()):
        o = ctx.state["officers"].get(oid)
        if o is None or o["status"] != "active" or o["side"] != side:
            continue
        for op in ops:
            if op["op"] == "detach" and o.get("attached"):
                ctx.emit(event("detach", N_("%(officer)s left %(unit)s."), to=[side], officer=ctx.scenario.officers[oid]["name"],
                               officer_id=oid, unit=ctx.name(o["attached"]), unit_id=o["attached"]))
                o["attached"] = None
            elif op["op"] == "attach":
                target = ctx.state["units"].get(op["unit"])
                if target is None or target["status"] not in ("formed", "falling_back", "routed"):
                    ctx.emit(event("staff_short", N_("%(officer)s could not join %(unit)s: it was not on the table."), to=[side],
                                   officer=ctx.scenario.officers[oid]["name"], officer_id=oid, unit=ctx.name(op["unit"])))
                    continue
                x, y = officers.position(ctx, oid)
                d = math.hypot(target["x"] - x, target["y"] - y)
                if d <= reach:
                    o["attached"], o["in_rank"] = op["unit"], op.get("rank", "front")
                    o["x"], o["y"] = officers.place_with(target, ctx.scale, o["in_rank"])
                    ctx.emit(event("attach", N_("%(officer)s joined %(unit)s in its %(rank)s rank."), to=[side],
                                   officer=ctx.scenario.officers[oid]["name"], officer_id=oid, unit=ctx.name(op["unit"]),
                                   unit_id=op["unit"], rank=o["in_rank"]))
                else:
                    _ride(o, target["x"], target["y"], reach)
                    ctx.emit(event("staff_short", N_("%(officer)s rode toward %(unit)s but was %(left)s in. short."), to=[side],
                                   officer=ctx.scenario.officers[oid]["name"], officer_id=oid, unit=ctx.name(op["unit"]),
                                   unit_id=op["unit"], left=round(d - reach, 1)))
            elif op["op"] == "move" and o.get("attached"):
                ctx.emit(event("staff_short", N_("%(officer)s rode with %(unit)s and stayed with it: DETACH first to ride elsewhere."),
                               to=[side], officer=ctx.scenario.officers[oid]["name"], officer_id=oid, unit=ctx.name(o["attached"]),
                               unit_id=o["attached"]))
            elif op["op"] == "move":
                _ride(o, op["to"][0], op["to"][1], reach)
                ctx.emit(event("staff_move", N_("%(officer)s rode to %(at)s."), to=[side], officer=ctx.scenario.officers[oid]["name"],
                               officer_id=oid,
                               at=ctx.table.grid_ref(o["x"], o["y"])))


def _ride(o: dict, x: float, y: float, reach: float) -> None:
    d = math.hypot(x - o["x"], y - o["y"])
    if d <= reach:
        o["x"], o["y"] = x, y
    else:
        o["x"] += (x - o["x"]) / d * reach
        o["y"] += (y - o["y"]) / d * reach
    o["x"], o["y"] = round(o["x"], 2), round(o["y"], 2)
