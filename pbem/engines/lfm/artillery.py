"""The artillery phase (rules 4, 7): unlimbered batteries not in a ZOC fire 2 to 8 hexes at
targets in their line of sight, the phasing side first, then the other side by its standing
orders; results are cohesion checks of one unit of the target hex."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .cohesion import checks
from .los import BLOCKED, PARTIAL, line_of_sight
from .messages import N_
from .situation import ON_MAP, Context, has_breastworks
from .tables import artillery as artillery_table, artillery_column, needs, table, terrain

CHECKS = {0: "no check", 1: "1 check", 2: "2 checks", 3: "3 checks"}  # the artillery table's results, as a report reads them

MIN_RANGE, MAX_RANGE, FULL_RANGE = 2, 8, 4


def ready_batteries(ctx: Context, side: str, h: str) -> list[str]:
    sit = ctx.sit
    return [u for u in sit.units_at(h) if ctx.sc.units[u].is_artillery and ctx.sc.units[u].side == side
            and not sit.units[u]["limbered"] and not sit.units[u].get("fired") and not sit.units[u].get("build")]


def fire_line(ctx: Context, side: str, frm: str, target: str) -> str:
    friendly = frozenset(ctx.sit.hexes_of(side))
    return line_of_sight(ctx.sc.board, frm, target, friendly)


def best_target(ctx: Context, side: str, frm: str) -> str | None:
    """Standing fire: the nearest enemy hex in range and sight, clearer line first, then most SP."""
    sit = ctx.sit
    options = []
    for t in sit.hexes_of(ctx.sc.enemy(side)):
        d = distance(frm, t)
        if MIN_RANGE <= d <= MAX_RANGE:
            los = fire_line(ctx, side, frm, t)
            if los != BLOCKED:
                options.append(((d > FULL_RANGE, los == PARTIAL, d, -sum(sit.sp(u) for u in sit.units_at(t)), t), t))
    return min(options)[1] if options else None


def choose_target_unit(ctx: Context, target: str, named: str | None) -> str | None:
    units = ctx.sit.units_at(target)
    if named in units:
        return named
    # the firing player's default: the least steady unit, the larger if equal
    return min(units, key=lambda u: (ctx.sc.units[u].cr, -ctx.sit.sp(u), u)) if units else None


def fire_problem(ctx: Context, side: str, uid: str, target: str) -> str | None:
    """Why battery ``uid`` may not fire at ``target`` now (rules 7.1-7.4, 24.1.a), or None."""
    sit = ctx.sit
    info, st = ctx.sc.units[uid], sit.units[uid]
    name = info.name
    if not info.is_artillery:
        return f"{name} is not artillery"
    if st["status"] != ON_MAP:
        return f"{name} is not on the map"
    if st["limbered"]:
        return f"{name} is limbered and may not fire (rule 7.3)"
    if st.get("build"):
        return f"{name} is building breastworks and may not bombard (rule 24.1.a)"
    if st.get("fired"):
        return f"{name} has fired this phase"
    h = st["hex"]
    if sit.in_enemy_zoc(h, side):
        return f"{name} is in an enemy ZOC and may not bombard (rule 7.6)"
    d = distance(h, target)
    if d > MAX_RANGE:
        return f"{target} is {d} hexes from {name}, beyond {MAX_RANGE} (rule 7.1)"
    if d < MIN_RANGE:
        return f"{target} is {d} hex from {name}: artillery fires at {MIN_RANGE} hexes or more (rule 7.1)"
    if fire_line(ctx, side, h, target) == BLOCKED:
        return f"{name} has no line of sight to {target} (rules 7.4, 27)"
    return None


def fire(ctx: Context, side: str, groups: list[tuple[str, list[str]]], target: str, named: str | None = None) -> bool:
    """Fire ``groups`` (one hex's batteries, or two adjacent hexes', each able) at ``target``."""
    sit = ctx.sit
    parts, sp, los_partial = [], 0, False
    for h, here in groups:
        d = distance(h, target)
        los = fire_line(ctx, side, h, target)
        los_partial = los_partial or los == PARTIAL
        raw = sum(sit.sp(u) for u in here)
        used = raw if d <= FULL_RANGE else raw // 2
        sp += used
        parts.append({"hex": h, "units": here, "names": ", ".join(ctx.name(u) for u in here), "sp": raw,
                      "range": d, "used": used, "los": los})
        for u in here:
            sit.units[u]["fired"] = True
    column = artillery_column(sp)
    drms = []
    spec = table("artillery")["drm"]
    if los_partial:
        drms.append({"why": "line of sight partially obstructed", "drm": spec["partial_los"]})
    if terrain()["hexes"][ctx.sc.board.terrain[target]]["cover"] or has_breastworks(ctx, target):
        drms.append({"why": "target in cover", "drm": spec["target_in_cover"]})
    if sum(sit.sp(u) for u in sit.units_at(target)) >= spec["dense_sp"]:
        drms.append({"why": "dense target", "drm": spec["target_dense"]})
    label = f"fire {target} from {'+'.join(p['hex'] for p in parts)}"
    roll = ctx.roll(label)
    total = sum(x["drm"] for x in drms)
    unit = choose_target_unit(ctx, target, named)
    if column is None:
        n, row = 0, roll + total
    else:
        row, n = artillery_table(column, roll + total)
    ctx.state["last"]["fires"].append({"from": [p["hex"] for p in parts], "target": target, "checks": n})
    ctx.emit(event("artillery_fire",
                   N_("%(firers)s fired at %(target)s (%(target_name)s): %(sp)s SP, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(n)s cohesion check(s)%(needs)s."),
                   side=side, firers="; ".join(f"{p['names']} at {p['hex']} ({p['sp']} SP, range {p['range']}, counts {p['used']})" for p in parts),
                   parts=parts, target=target, target_unit=unit, target_name=ctx.name(unit) if unit else "",
                   sp=sp, column=column or "-", roll=roll, drms=drms,
                   drm_text="".join(f" {d['drm']:+d} ({d['why']})" for d in drms), modified=roll + total, row=row, n=n,
                   **needs("artillery", column, CHECKS)))
    if n and unit:
        checks(ctx, unit, n, parts[0]["hex"], label)
    return True


class ArtilleryPhase:
    """Phase 4 for the phasing ``side``: its FIRE orders, then its other batteries by standing
    order, then the other side's by its standing order; then the limbering it ordered. A battery
    named in a FIRE order or a LIMBER order never fires by the standing order instead."""

    def __init__(self, ctx: Context, side: str, limber: list[str]):
        self.ctx, self.side = ctx, side
        self.sit = ctx.sit
        self.limber = set(limber)
        self.ordered: set[str] = set()
        self.aimed: dict[str, str] = {}  # hex -> the target its guns fired at

    def skip(self, text: str, why: str) -> None:
        self.ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why,
                            side=self.side, to=[self.side]))

    def order(self, op: dict) -> None:
        """One FIRE order: the batteries it names (a hex names all of that hex's batteries not
        limbering), from at most two adjacent hexes; all the guns of a hex fire at one target (7.1)."""
        ctx, sit = self.ctx, self.sit
        target, text = op["target"], op["text"]
        batteries: list[str] = []
        for ref in op["from"]:
            if ref in ctx.sc.units:
                batteries.append(ref)
            else:
                batteries += [u for u in sit.units_at(ref) if ctx.sc.units[u].is_artillery
                              and ctx.sc.units[u].side == self.side and u not in self.limber]
                if not any(ctx.sc.units[u].is_artillery for u in sit.units_at(ref)):
                    return self.skip(text, f"no battery of yours at {ref}")
        batteries = list(dict.fromkeys(batteries))
        self.ordered.update(batteries)
        where = {u: sit.units[u]["hex"] for u in batteries if sit.units[u]["status"] == ON_MAP}
        hexes = list(dict.fromkeys(where.values()))
        if len(hexes) > 2:
            return self.skip(text, "at most two adjacent hexes may combine their fire (rule 7.1)")
        if len(hexes) == 2 and distance(*hexes) != 1:
            return self.skip(text, f"{hexes[0]} and {hexes[1]} are not adjacent and may not combine their fire (rule 7.1)")
        if sit.side_at(target) != ctx.sc.enemy(self.side):
            return self.skip(text, f"no enemy at {target}")
        for h in hexes:
            aimed = self.aimed.get(h)
            if aimed and aimed != target:
                return self.skip(text, f"all artillery in {h} must fire at the same target (rule 7.1)")
        able = []
        for u in batteries:
            why = fire_problem(ctx, self.side, u, target)
            if why:
                self.skip(text, why)
            else:
                able.append(u)
        groups = [(h, [u for u in able if where.get(u) == h]) for h in hexes]
        groups = [g for g in groups if g[1]]
        if groups:
            fire(ctx, self.side, groups, target, op.get("unit"))
            self.aimed.update({h: target for h, _ in groups})

    def standing(self, who: str) -> None:
        """Batteries of ``who`` given no order fire by the standing order: at the target their hex
        already fired at (7.1), else the best one they can see."""
        ctx, sit = self.ctx, self.sit
        if ctx.standing(who)["artillery"] != "auto":
            return
        for h in sorted(sit.hexes_of(who)):
            free = [u for u in ready_batteries(ctx, who, h) if u not in self.ordered and u not in self.limber]
            if not free or sit.in_enemy_zoc(h, who):
                continue
            t = self.aimed.get(h) or best_target(ctx, who, h)
            if not t or sit.side_at(t) != ctx.sc.enemy(who):
                continue
            able = [u for u in free if fire_problem(ctx, who, u, t) is None]
            if able:
                fire(ctx, who, [(h, able)], t)
                self.aimed[h] = t

    def limber_ordered(self) -> None:
        ctx, sit = self.ctx, self.sit
        for uid in sorted(self.limber):
            u = sit.units[uid]
            if u["status"] != ON_MAP or not ctx.sc.units[uid].is_artillery or u["limbered"]:
                continue
            if u.get("fired"):
                self.skip(f"{ctx.name(uid)} LIMBER", "it fired this phase: only a battery that did not fire limbers (SoP 4)")
                continue
            u["limbered"] = True
            ctx.emit(event("limber", N_("%(name)s limbers at %(hex)s."), unit=uid, name=ctx.name(uid), hex=u["hex"]))


def artillery_phase(ctx: Context, side: str, orders: list[dict], limber: list[str]) -> None:
    """Phase 4: the phasing side's FIRE orders, then its other batteries by standing order,
    then the other side's; the phasing side limbers the batteries it names that did not fire."""
    sit = ctx.sit
    for u in sit.units.values():
        u.pop("fired", None)
        u.pop("fire_retreated", None)
    phase = ArtilleryPhase(ctx, side, limber)
    for op in orders:
        phase.order(op)
    phase.standing(side)
    phase.standing(ctx.sc.enemy(side))
    phase.limber_ordered()
    for u in sit.units.values():  # the phase's own bookkeeping does not outlive it
        u.pop("fired", None)
        u.pop("fire_retreated", None)
