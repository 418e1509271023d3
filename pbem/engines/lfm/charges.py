"""Cavalry charges during movement (rule 3): a mounted stack that began the phase together
moves (no road rate, ZOC does not stop it) next to an enemy hex it has the MP to enter,
compares cohesion on the Cavalry Charge Table, and follows into a vacated hex."""

from __future__ import annotations

from pbem.engines.base import event

from .losses import commander_casualties, lose_one
from .messages import N_
from .movement import Field, mover_for, path_to, search, terrain_cost
from .retreat import hit_and_retreat, retreat
from .situation import Context, has_breastworks
from .tables import charge as charge_table, charge_column, needs, table


def charge_drms(ctx: Context, frm: str, target: str, chargers_d: bool) -> list[dict]:
    sit, board = ctx.sit, ctx.sc.board
    spec = table("charge")["drm"]
    out = []
    if sit.disorganized(target):  # 3.10.a; by default a shattered target is disorganized too (16.5)
        out.append({"why": "target disorganized", "drm": spec["target_disorganized"]})
    if any(sit.shattered(u) for u in sit.units_at(target)):
        out.append({"why": "target shattered", "drm": spec["target_shattered"]})
    if chargers_d:
        out.append({"why": "charging cavalry disorganized", "drm": spec["charger_disorganized"]})
    sides = board.sides(frm, target)
    if "slope" in sides and board.elevation[target] > board.elevation[frm]:
        out.append({"why": "up a steep slope", "drm": spec["steep_slope"]})
    if has_breastworks(ctx, target):  # built, or a town or sunken road (24.3)
        out.append({"why": "into breastworks", "drm": spec["breastworks"]})
    if "stone_wall" in sides:
        out.append({"why": "across a stone wall", "drm": spec["stone_wall"]})
    if "stream" in sides:
        out.append({"why": "across a creek", "drm": spec["stream"]})
    if board.terrain[target] in ("town", "woods"):
        out.append({"why": "into town or woods", "drm": spec["town_or_woods"]})
    return out


def charge(ctx: Context, side: str, units: list[str], target: str, frm: str | None, in_command: set[str],
           spent: dict[str, int], text: str) -> str | None:
    """Carry out one CHARGE order: "won" (the target gave way), "thrown back", or None (reported
    to the side) when it no longer fits the position."""
    sit = ctx.sit

    def skip(why: str) -> None:
        ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why, side=side, to=[side]))

    hexes = {sit.units[u]["hex"] for u in units if sit.units[u]["status"] == "on_map"}
    if len(hexes) != 1 or any(sit.units[u]["status"] != "on_map" for u in units):
        return skip("the charging regiments are not together on the map")
    start = hexes.pop()
    if not all(ctx.sc.units[u].is_cavalry and sit.mounted(u) for u in units):
        return skip("only mounted cavalry charges (rule 3.1)")
    if any(sit.units[u].get("charge_group") not in (None, sorted(units)) for u in units):
        return skip("a charging stack may not pick up or drop off regiments (rule 3.4)")
    if any(sit.units[u].get("started") != sit.units[units[0]].get("started") for u in units):
        return skip("the charging stack must have begun the movement phase stacked together (rule 3.4)")
    left = [x for x in sit.units_at(start) if x not in units and ctx.sc.units[x].is_cavalry
            and sit.units[x].get("started") == sit.units[units[0]].get("started")]
    if left:
        return skip("a charging stack may not drop off regiments (rule 3.4)")
    if sit.side_at(target) != ctx.sc.enemy(side):
        return skip("no enemy in the target hex")
    mover = mover_for(ctx, units, [], side, in_command, charging=True)
    budget = min(sit.movement_points(u) * 12 - spent.get(u, 0) for u in units)
    field = Field(ctx, side)
    best = search(ctx, mover, start, budget, field)
    board = ctx.sc.board
    options = []
    for n in board.neighbours[target]:
        if frm and n != frm:
            continue
        found = path_to(best, n)
        if not found or (sit.units_at(n) and n != start and sit.stacking_problem(n, units, leaving=tuple(units))):
            continue
        path, cost, _ = found
        enter = terrain_cost(board, n, target, "mounted")
        if cost + enter <= budget:
            options.append((cost, n, path, enter))
    if not options:
        return skip("not enough movement points to reach and enter the target hex (rule 3.3)")
    cost, launch, path, enter = min(options)
    for u in units:
        sit.place(u, launch)
        spent[u] = spent.get(u, 0) + cost
        sit.units[u]["charge_group"] = sorted(units)
        sit.units[u]["charged"] = True
    for cid in [c for c in sit.commanders_at(start) if c in units]:
        sit.place_commander(cid, launch)
    if len(path) > 1:
        ctx.state["last"]["moves"].append({"units": list(units), "path": path})
    chargers_d = any(sit.units[u]["d"] for u in units)
    att_cr = max(ctx.sc.units[u].cr for u in units)
    def_cr = sit.cr_of_stack(target)
    column = charge_column(att_cr - def_cr)
    drms = charge_drms(ctx, launch, target, chargers_d)
    roll = ctx.roll(f"charge {target} from {launch}")
    total = sum(d["drm"] for d in drms)
    row, result = charge_table(column, roll + total)
    names = ", ".join(ctx.name(u) for u in units)
    defenders = list(sit.units_at(target))
    ctx.state["last"]["charges"].append({"from": launch, "target": target, "result": result})
    ctx.emit(event("charge", N_("%(names)s charged %(target)s from %(frm)s: cohesion %(att_cr)s against %(def_cr)s, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(result)s%(needs)s."),
                   side=side, units=list(units), names=names, target=target, frm=launch, path=path,
                   defenders=defenders, defender_names=", ".join(ctx.name(u) for u in defenders),
                   att_cr=att_cr, def_cr=def_cr, column=column, roll=roll, drms=drms,
                   drm_text="".join(f" {d['drm']:+d} ({d['why']})" for d in drms), modified=roll + total,
                   row=row, result=result, result_text=table("charge")["results"][result], **needs("charge", column)))
    if result in ("DE", "DR"):
        if result == "DE":
            commander_casualties(ctx, target, "charged")
            lose_one(ctx, [target], def_cr, "loss to a cavalry charge")
        if sit.units_at(target):
            hit_and_retreat(ctx, target, [launch], "charged by cavalry", nr_may_stand=False, after_charge=True,
                            casualty=result != "DE", loss_cr=def_cr)
        if not sit.units_at(target):
            enter_cost = terrain_cost(board, launch, target, "mounted")
            for u in units:
                if sit.units[u]["status"] == "on_map":
                    sit.place(u, target)
                    spent[u] = spent.get(u, 0) + enter_cost
            for cid in [c for c in sit.commanders_at(launch) if c in units]:
                sit.place_commander(cid, target)
            ctx.state["last"]["moves"].append({"units": list(units), "path": [launch, target]})
            ctx.emit(event("charge_follow", N_("%(names)s rode into %(hex)s."), units=list(units), names=names, hex=target))
        return "won"
    if result == "AE":
        commander_casualties(ctx, launch, "charge repulsed")
        lose_one(ctx, [launch], att_cr, "charge repulsed with loss")
    else:
        commander_casualties(ctx, launch, "charge repulsed")
    if sit.units_at(launch):
        movers = [u for u in units if sit.units[u]["status"] == "on_map"]
        whole = not [x for x in sit.units_at(launch) if x not in movers]
        retreat(ctx, launch, [target], forced=True, why="charge thrown back", units=None if whole else movers,
                after_charge=True, loss_cr=att_cr)
    return "thrown back"


def mark_charged(ctx: Context) -> None:
    """Rule 3.11: at the end of its move a stack that charged is disorganized (the Charged marker)."""
    sit = ctx.sit
    for uid, u in sit.units.items():
        if u.get("charged") and u["status"] == "on_map":
            sit.disorganize(u["hex"])
        u.pop("charge_group", None)
