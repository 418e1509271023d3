"""What a unit does when its card comes up and its commander's response passes: the
player's orders, carried out as far as the position allows, and every shortfall told."""

from __future__ import annotations

from shapely.geometry import Point
from shapely.ops import nearest_points

from pbem.engines.base import event

from .geometry import bearing_to, direction, rounded
from .melee import is_rear_attack, strikes_flank
from .fog import unseen_charge
from .messages import N_
from .movement import Mover, base_of, guns_in_action
from .rules import scale as scale_rules, table as rules_table
from .sight import can_see
from .visibility import CONTACT_SLACK, contact_distance, reveal, visible_enemies

SECTORS = {"front": (0.0, 30.0), "left": (270.0, 60.0), "right": (90.0, 60.0), "any": (0.0, 180.0)}


def _short(ctx, uid: str, op: dict, why: str, **args) -> None:
    side = ctx.state["units"][uid]["side"]
    words = op_words(op)
    if op.get("target"):
        if op["target"] in visible_enemies(ctx.scenario, ctx.state, side):
            args.setdefault("target_id", op["target"])
        else:
            words = "charge the enemy its order names"  # out of sight now: neither named nor placed
    ctx.emit(event("order_short", N_("%(unit)s could not %(order)s: %(why)s."), to=[side],
                   unit=ctx.name(uid), id=uid, order=words, why=why, **args))


def op_words(op: dict) -> str:
    kind = op["op"]
    if kind in ("move", "road", "support"):
        return f"{kind} to {op.get('ref') or op.get('unit')}"
    if kind == "formation":
        return f"form {op['to'].replace('_', ' ')}"
    if kind == "charge":
        return f"charge {op.get('target') or 'the nearest enemy'}"
    return kind.replace("_", " ")


def run(ctx, uid: str, ops: list[dict], group_offsets: dict) -> None:
    """Carry out one unit's orders for its card."""
    u = ctx.state["units"][uid]
    if u["status"] == "reserve":
        enter = next((op for op in ops if op["op"] == "enter"), None)
        if enter is None:
            if any(op["op"] not in ("hold", "fire") for op in ops):
                _short(ctx, uid, ops[0], "it is in reserve: it must ENTER AT an entry point first (2 C)")
            return
        if not _enter(ctx, uid, enter):
            return
        ops = [op for op in ops if op["op"] != "enter"]
    elif any(op["op"] == "enter" for op in ops):
        if not ctx.scenario.units[uid].get("reserve") or u["status"] in ("formed", "falling_back"):
            _short(ctx, uid, next(op for op in ops if op["op"] == "enter"), "it is already on the table")
        ops = [op for op in ops if op["op"] != "enter"]
    if u["status"] not in ("formed", "falling_back"):
        if ops and any(op["op"] not in ("hold", "fire") for op in ops):
            _short(ctx, uid, ops[0], "it is routed: it takes no orders until it rallies (14 B.6)"
                   if u["status"] == "routed" else f"it is {u['status'].replace('_', ' ')}")
        return
    if u["status"] == "falling_back":
        u["status"] = "formed"
        ctx.emit(event("reformed", N_("%(unit)s stopped falling back and was in hand again."), unit=ctx.name(uid), id=uid))
    if not ops or all(op["op"] in ("hold", "fire") for op in ops):
        return
    mover = Mover(ctx, uid)
    for op in ops:
        if u["status"] != "formed":
            break
        _one(ctx, mover, uid, op, group_offsets)
    done = mover.finish()
    if u.get("moved"):
        reveal(ctx, uid, "moved")
        ctx.emit(event("move", N_("%(unit)s moved %(distance)s in. to %(at)s, facing %(facing)s, %(formation)s (%(used)s%% of its move)."),
                       to=[u["side"]], unit=ctx.name(uid), id=uid, distance=done["distance"],
                       at=f"{ctx.table.grid_ref(u['x'], u['y'])} ({rounded(u['x']):g}, {rounded(u['y']):g})",
                       facing=int(round(u["facing"])) % 360, formation=u["formation"].replace("_", " "),
                       used=int(round(min(mover.used, 1.0) * 100)), track=mover.track))
    elif abs(((u["facing"] - mover.start_facing + 180.0) % 360.0) - 180.0) > 1e-6:
        ctx.emit(event("move", N_("%(unit)s turned in place to face %(facing)s, %(formation)s (%(used)s%% of its move)."),
                       to=[u["side"]], unit=ctx.name(uid), id=uid, distance=0.0, facing=int(round(u["facing"])) % 360,
                       formation=u["formation"].replace("_", " "), used=int(round(min(mover.used, 1.0) * 100))))


ENTRY_SPACING = 0.5  # inches between regiments of a brigade coming on side by side


def _enter(ctx, uid: str, op: dict) -> bool:
    """A reserve unit comes on at its side's entry point, in road column (limbered), the whole
    column on the table; the regiments of a brigade entering together (2 C: by brigades) come
    on side by side along the edge when the entry itself is taken."""
    u = ctx.state["units"][uid]
    entry = ctx.scenario.entries.get(op["at"])
    if entry is None or entry["side"] != u["side"]:
        _short(ctx, uid, op, "no such entry point for this side")
        return False
    u["facing"] = entry["facing"]
    u["formation"] = "limbered" if u["arm"] == "artillery" else "road_column"
    fx, fy = direction(u["facing"])
    ex, ey = entry["at"]
    u["x"], u["y"] = ex, ey
    depth = ctx.layout(uid).total_depth
    step = ctx.layout(uid).frontage + ENTRY_SPACING
    others = ctx.footprints(exclude=(uid,))
    for k in (0, 1, -1, 2, -2, 3, -3, 4, -4):
        side = k * step  # along the edge, to the right of the way in
        u["x"], u["y"] = ex + fx * depth - fy * side, ey + fy * depth + fx * side
        shape = ctx.layout(uid).footprint
        if ctx.table.bounds.contains(shape) and not any(shape.intersects(fp) for fp in others):
            break
    else:
        u["x"], u["y"] = ex, ey
        _short(ctx, uid, op, "the entry point and the ground beside it are taken")
        return False
    u["status"] = "formed"
    ctx.emit(event("enter", N_("%(unit)s entered the table at %(entry)s%(beside)s."), unit=ctx.name(uid), id=uid, entry=op["at"],
                   beside="" if k == 0 else f", {abs(side):g} in. to the {'right' if side > 0 else 'left'} of it"))
    return True


def _destination(ctx, uid: str, op: dict, group_offsets: dict) -> tuple[float, float]:
    x, y = op["to"]
    if op.get("group") and uid in group_offsets:
        dx, dy = group_offsets[uid]
        x, y = x + dx, y + dy
    return x, y


def _one(ctx, mover: Mover, uid: str, op: dict, group_offsets: dict) -> None:
    u = ctx.state["units"][uid]
    kind = op["op"]
    if kind == "formation":
        why = mover.change_formation(op["to"])
        if why:
            _short(ctx, uid, op, why)
    elif kind in ("limber", "unlimber"):
        if u["arm"] != "artillery":
            _short(ctx, uid, op, "only a battery limbers")
        else:
            why = mover.change_formation("limbered" if kind == "limber" else "unlimbered")
            if why:
                _short(ctx, uid, op, why)
    elif kind in ("mount", "dismount"):
        if ctx.state.get("response_failed", {}).get(uid):
            _short(ctx, uid, op, "its command response failed")
        else:
            why = mover.mount(kind == "mount")
            if why:
                _short(ctx, uid, op, why)
    elif kind == "face":
        bearing = op["bearing"] if op.get("bearing") is not None else bearing_to(u["x"], u["y"], *op["toward"])
        why = mover.turn_to(bearing)
        if why:
            _short(ctx, uid, op, why)
    elif kind == "wheel":
        _wheel(ctx, mover, uid, op)
    elif kind in ("move", "road", "bearing", "advance", "retire", "support"):
        _movement(ctx, mover, uid, op, group_offsets)
    elif kind == "charge":
        _charge(ctx, mover, uid, op)


def _wheel(ctx, mover: Mover, uid: str, op: dict) -> None:
    """A wheel pivots on a flank; guns in action have no flank to wheel on and turn on their
    centre by the same degrees instead, which the report says."""
    u = ctx.state["units"][uid]
    if guns_in_action(u):
        why = mover.turn_to(u["facing"] + op["degrees"])
        if why:
            _short(ctx, uid, op, why)
        else:
            ctx.emit(event("order_short", N_("%(unit)s did not wheel: guns in action turn on their centre; it now faced %(facing)s."),
                           to=[u["side"]], unit=ctx.name(uid), id=uid, order=op_words(op), facing=int(round(u["facing"])) % 360))
        return
    why = mover.turn_to(u["facing"] + op["degrees"], pivot="left" if op["degrees"] > 0 else "right")
    if why:
        _short(ctx, uid, op, why)


def _movement(ctx, mover: Mover, uid: str, op: dict, group_offsets: dict) -> None:
    u = ctx.state["units"][uid]
    if mover.rate() <= 0:
        _short(ctx, uid, op, f"a unit in {u['formation'].replace('_', ' ')} cannot move")
        return
    kind = op["op"]
    if kind == "road":
        x, y = _destination(ctx, uid, op, group_offsets)
        path = ctx.table.road_path(u["x"], u["y"], x, y)
        if path is None:
            _short(ctx, uid, op, "no road within 3 inches")
            return
        if u["formation"] not in ("road_column", "limbered"):
            why = mover.change_formation("road_column") if u["arm"] != "artillery" else mover.change_formation("limbered")
            if why:
                _short(ctx, uid, op, why)
                return
        res = None
        for wx, wy in path:
            res = mover.move_to(wx, wy)
            if res["stopped"] != "arrived":
                break
        _report_stop(ctx, uid, op, res)
        return
    if kind == "support":
        friend = ctx.state["units"].get(op["unit"])
        if friend is None or friend["status"] not in ("formed", "falling_back"):
            _short(ctx, uid, op, "that unit is no longer on the table")
            return
        fx, fy = direction(friend["facing"])
        back = scale_rules(ctx.scale)["support_radius"] - 1.0 + ctx.layout(op["unit"]).total_depth
        res = mover.move_to(friend["x"] - fx * back, friend["y"] - fy * back)
        if res["stopped"] == "arrived":
            mover.turn_to(friend["facing"])
        _report_stop(ctx, uid, op, res)
        return
    if kind == "bearing":
        fx, fy = direction(op["bearing"])
        res = mover.move_to(u["x"] + fx * op["distance"], u["y"] + fy * op["distance"])
    elif kind == "advance":
        fx, fy = direction(u["facing"])
        d = op.get("distance") or 1000.0
        res = mover.move_to(u["x"] + fx * d, u["y"] + fy * d, keep_facing=True)
        if res["stopped"] == "allowance" and not op.get("distance"):
            return
    elif kind == "retire":
        fx, fy = direction(u["facing"])
        d = op["distance"]
        mv = rules_table("movement")
        res = mover.move_to(u["x"] - fx * d, u["y"] - fy * d, keep_facing=True,
                            cost_factor=mv["guns_in_action"]["backward_cost"] if mover.by_hand() else mv["retire_cost"])
    else:
        x, y = _destination(ctx, uid, op, group_offsets)
        if not ctx.table.contains(x, y):
            _short(ctx, uid, op, "that point is off the table")
            return
        res = mover.move_to(x, y)
    _report_stop(ctx, uid, op, res)


def _report_stop(ctx, uid: str, op: dict, res: dict | None) -> None:
    if res is None or res["stopped"] == "arrived":
        return
    u = ctx.state["units"][uid]
    ran_out = ("its guns go only %g in. by hand (LIMBER to go farther)" % base_of(ctx, uid)
               if guns_in_action(u) else "its move ran out")
    why = {"allowance": ran_out, "edge": "the table edge", "terrain": "the ground is closed to it",
           "enemy": "an enemy unit within an inch", "unit": "another unit is in the way",
           "no move left to turn": "no move left to turn", "no room to turn": "no room to turn"}[res["stopped"]]
    blocked = ctx.name(res["blocked_by"]) if res.get("blocked_by") and res["blocked_by"] in ctx.state["units"] and (
        ctx.state["units"][res["blocked_by"]]["side"] == ctx.state["units"][uid]["side"]) else ""
    ctx.emit(event("move_stopped", N_("%(unit)s stopped short: %(why)s%(by)s."), to=[ctx.state["units"][uid]["side"]],
                   unit=ctx.name(uid), id=uid, why=why, by=f" ({blocked})" if blocked else "", stopped=res["stopped"]))


def sees_itself(ctx, uid: str, enemies) -> list[str]:
    """The enemies the unit itself has a line of sight to (10 P: "All units must have a
    line-of-sight to see the target unit"), of those its side sees."""
    lay = ctx.layout(uid)
    return [e for e in sorted(enemies)
            if can_see(ctx.table, ctx.scale, lay, ctx.layout(e), ctx.footprints(exclude=(uid, e)))
            or lay.footprint.distance(ctx.layout(e).footprint) <= contact_distance(ctx.scale)]


def charge_target(ctx, uid: str, op: dict) -> str | None:
    u = ctx.state["units"][uid]
    seen = sees_itself(ctx, uid, visible_enemies(ctx.scenario, ctx.state, u["side"]))
    if op.get("target"):
        return op["target"] if op["target"] in seen else None
    centre, half = SECTORS[op.get("sector") or "any"]
    best = None
    for e in sorted(seen):
        eu = ctx.state["units"][e]
        off = (bearing_to(u["x"], u["y"], eu["x"], eu["y"]) - u["facing"] - centre + 180.0) % 360.0 - 180.0
        if abs(off) > half:
            continue
        d = ctx.layout(uid).footprint.distance(ctx.layout(e).footprint)
        if best is None or (d, e) < best:
            best = (d, e)
    return best[1] if best else None


def _charge(ctx, mover: Mover, uid: str, op: dict) -> None:
    u = ctx.state["units"][uid]
    if u["arm"] == "artillery":
        _short(ctx, uid, op, "guns do not charge")
        return
    target = charge_target(ctx, uid, op)
    if target is None:
        _short(ctx, uid, op, "it cannot see its target (10 P: a charge needs sight of it)" if op.get("target") else
               f"it sees no enemy {'in its ' + op['sector'] + ' sector' if op.get('sector') not in (None, 'any') else ''}".rstrip()
               + " to charge (10 P)")
        return
    if mover.rate() <= 0:
        _short(ctx, uid, op, f"a unit in {u['formation'].replace('_', ' ')} cannot charge")
        return
    rear = is_rear_attack(ctx, (u["x"], u["y"]), target)
    tl = ctx.layout(target)
    tfp = tl.footprint
    halt = scale_rules(ctx.scale)["halt_short_of_enemy"]
    near = nearest_points(tfp, Point(u["x"], u["y"]))[0]
    want = bearing_to(u["x"], u["y"], near.x, near.y)
    why = mover.turn_to(want)
    if why:
        _short(ctx, uid, op, why)
        return
    res = mover.move_to(near.x, near.y, keep_facing=True, halt_at=halt, target=target)
    other = res.get("blocked_by")
    if res["stopped"] == "enemy" and other and other != target and ctx.state["units"][other]["side"] != u["side"]:
        # another enemy stood in the way: the charge falls on it (designed)
        ctx.emit(event("charge_redirected", N_("%(unit)s met %(other)s on its way to %(target)s and charged it instead."),
                       unit=ctx.name(uid), id=uid, other=ctx.name(other), other_id=other, target=ctx.name(target),
                       target_id=target))
        rear = is_rear_attack(ctx, (u["x"], u["y"]), other)
        target, tfp = other, ctx.layout(other).footprint
    gap = ctx.layout(uid).footprint.distance(tfp)
    if gap <= halt + CONTACT_SLACK:
        u["charging"] = target
        flank = not rear and strikes_flank(u, ctx.state["units"][target])
        ctx.state.setdefault("charges", []).append({"attacker": uid, "target": target, "rear": rear, "flank": flank})
        ctx.emit(event("charge", N_("%(unit)s charged %(target)s%(rear)s and halted an inch away."),
                       unit=ctx.name(uid), id=uid, target=ctx.name(target), target_id=target,
                       rear=" from outside its front" if rear else ""), fallback=unseen_charge(ctx, uid, target))
    else:
        ctx.emit(event("charge_short", N_("%(unit)s charged toward %(target)s but fell %(gap)s in. short."),
                       to=[u["side"]], unit=ctx.name(uid), id=uid, target=ctx.name(target), target_id=target,
                       gap=rounded(gap - halt)))
        _report_stop(ctx, uid, op, res)

