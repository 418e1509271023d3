"""The combat phase (rules 8-13): mandatory attacks, stacks attacking and defending as one,
8 SP of infantry or cavalry plus 10 of artillery counted, odds, DRMs, the CRT, losses by
cohesion rating, retreats, advances, retreat before combat, voluntary retreats, and rounds
until nobody is in contact."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .losses import commander_casualties, lose_at_least, lose_one
from .messages import N_
from .retreat import hit_and_retreat, retreat
from .situation import ARTILLERY_SP, COMBAT_SP, Context
from .tables import crt, drm as drm_table, odds_column, table, terrain

MAX_ROUNDS = 30  # a guard only: every round the CRT moves someone, so real combats end long before


def counted(ctx: Context, h: str, attacking: bool) -> tuple[int, list[str], dict]:
    """The SP a stack fights with (rule 8.3) and the units counted."""
    sit = ctx.sit
    units = [u for u in sit.units_at(h) if not (attacking and (sit.shattered(u) or sit.units[u].get("charged")))]
    troops = [u for u in units if not ctx.sc.units[u].is_artillery]
    guns = [u for u in units if ctx.sc.units[u].is_artillery]
    t_sp, g_sp = sum(sit.sp(u) for u in troops), sum(sit.sp(u) for u in guns)
    return (min(COMBAT_SP, t_sp) + min(ARTILLERY_SP, g_sp), units,
            {"troops": t_sp, "troops_counted": min(COMBAT_SP, t_sp), "guns": g_sp, "guns_counted": min(ARTILLERY_SP, g_sp)})


def can_attack_from(ctx: Context, h: str, side: str) -> bool:
    return ctx.sit.side_at(h) == side and bool(counted(ctx, h, True)[1])


def required_targets(ctx: Context, side: str) -> dict[str, list[str]]:
    """Enemy hexes in the ZOC of stacks able to attack, each with those stacks (rule 8.2)."""
    sit = ctx.sit
    out: dict[str, list[str]] = {}
    for h in sorted(sit.hexes_of(side)):
        if not can_attack_from(ctx, h, side):
            continue
        for n in ctx.sc.board.neighbours[h]:
            if sit.side_at(n) == ctx.sc.enemy(side):
                out.setdefault(n, []).append(h)
    return out


def combined_drms(per_hex: list[list[dict]]) -> list[dict]:
    """The DRMs of an attack on several hexes (rule 8.4): a DRM for the attacker counts when it
    holds against every defending hex, one for the defender when it holds for any of them; the
    -1 for disorganized or shattered defenders counts once for each such hex (rule 16.2)."""
    if len(per_hex) == 1:
        return per_hex[0]
    out: list[dict] = []
    whys = []
    for drms in per_hex:
        for d in drms:
            if d["why"] not in whys:
                whys.append(d["why"])
    for why in whys:
        found = [next((d for d in drms if d["why"] == why), None) for drms in per_hex]
        sample = next(d for d in found if d)
        if why == "defenders disorganized or shattered":
            out += [dict(sample) for d in found if d]
        elif sample["drm"] < 0 and all(found):
            out.append(dict(sample))
        elif sample["drm"] > 0:
            out.append(dict(sample))
    return out


def flanked(attackers: list[str]) -> bool:
    """Rule 8.7: attacked from 3 or more hexes, or from two that are not adjacent."""
    if len(attackers) >= 3:
        return True
    return len(attackers) == 2 and distance(attackers[0], attackers[1]) != 1


def combat_drms(ctx: Context, target: str, attackers: list[str], att_cr: int, def_cr: int) -> list[dict]:
    sit, board = ctx.sit, ctx.sc.board
    spec = drm_table()
    out = []
    if flanked(attackers):
        out.append({"why": "flank attack", "drm": spec["attacker"]["flank"]})
    te = board.elevation[target]
    if all(board.elevation[a] > te for a in attackers):
        out.append({"why": "attackers on higher ground", "drm": spec["attacker"]["higher_ground"]})
    elif all(board.elevation[a] < te for a in attackers):
        out.append({"why": "defender on higher ground", "drm": spec["defender"]["higher_ground"]})
    senior = set(spec["commander_ranks"])
    if any(ctx.sc.commanders[c].rank in senior for a in attackers for c in sit.commanders_at(a)):
        out.append({"why": "commander with the attackers", "drm": spec["attacker"]["commander"]})
    if any(ctx.sc.commanders[c].rank in senior for c in sit.commanders_at(target)):
        out.append({"why": "commander with the defenders", "drm": spec["defender"]["commander"]})
    margin = spec["cohesion_margin"]
    if att_cr - def_cr >= margin:
        out.append({"why": "attackers steadier (cohesion)", "drm": spec["attacker"]["better_cohesion"]})
    elif def_cr - att_cr >= margin:
        out.append({"why": "defenders steadier (cohesion)", "drm": spec["defender"]["better_cohesion"]})
    for a in attackers:
        if sit.disorganized(a):
            out.append({"why": f"attacking hex {a} disorganized", "drm": spec["attacker"]["disorganized_hex"]})
    defenders = sit.units_at(target)
    if sit.disorganized(target) or any(sit.shattered(u) for u in defenders):
        out.append({"why": "defenders disorganized or shattered", "drm": spec["defender"]["disorganized_or_shattered"]})
    all_mounted = all(ctx.sc.units[u].is_cavalry and sit.mounted(u) for u in defenders if not ctx.sc.units[u].is_artillery)
    works = ctx.state["breastworks"].get(target) == "built"
    tdrm = terrain()["hexes"][board.terrain[target]]["combat_drm"]
    if not all_mounted:
        if works:
            out.append({"why": "breastworks", "drm": spec["defender"]["breastworks"]})
        elif tdrm:
            out.append({"why": f"defending in {board.terrain[target]} (permanent breastworks)", "drm": tdrm})
        if not works and all("stone_wall" in board.sides(a, target) for a in attackers):
            out.append({"why": "behind a stone wall", "drm": spec["defender"]["stone_wall"]})
    if all("stream" in board.sides(a, target) for a in attackers):
        out.append({"why": "attacked across a stream", "drm": spec["defender"]["stream"]})
    return out


class CombatPhase:
    def __init__(self, ctx: Context, side: str):
        self.ctx, self.side = ctx, side
        self.enemy = ctx.sc.enemy(side)
        self.sit = ctx.sit
        self.evaded: set[str] = set()  # units that retreated before combat this phase

    def skip(self, text: str, why: str) -> None:
        self.ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why, side=self.side))

    def run(self, ops: list[dict]) -> None:
        """Rounds until no stack able to attack is next to the enemy (rule 13)."""
        ctx = self.ctx
        base = ctx.label
        try:
            self.rounds(ops, base)
        finally:
            ctx.label = base

    def rounds(self, ops: list[dict], base: str) -> None:
        ctx = self.ctx
        limit = ctx.state.get("rules", {}).get("combat_rounds") or MAX_ROUNDS
        for rnd in range(1, limit + 1):
            targets = required_targets(ctx, self.side)
            if not targets:
                return
            ctx.label = f"{base} R{rnd}"
            ctx.emit(event("combat_round", N_("Combat round %(round)s: %(n)s enemy hex(es) must be attacked."),
                           round=rnd, n=len(targets), targets=sorted(targets)))
            plan = self.assign(targets, ops if rnd == 1 else [])
            for hexes, attackers, advance in plan:
                self.resolve_one(hexes, attackers, advance)
            self.voluntary_retreats()
        if required_targets(ctx, self.side):
            ctx.emit(event("combat_guard", N_("Combat stops after %(n)s rounds."), n=limit))

    def charged_must_retreat(self) -> None:
        """Rule 3.8: cavalry that charged and is still in a ZOC retreats before combat."""
        sit = self.sit
        for h in sorted(sit.hexes_of(self.side)):
            here = [u for u in sit.units_at(h) if sit.units[u].get("charged")]
            if here and sit.in_enemy_zoc(h, self.side):
                foes = [n for n in self.ctx.sc.board.neighbours[h] if sit.side_at(n) == self.enemy]
                retreat(self.ctx, h, foes, forced=False, why="charged cavalry still in a ZOC", units=here)

    def assign(self, targets: dict[str, list[str]], ops: list[dict]) -> list[tuple[tuple[str, ...], list[str], bool | None]]:
        """The attacker's orders that still fit, then the standing order for every required
        target nobody attacks (and, by default, every idle stack in a ZOC). An attack may take
        several enemy hexes at once (rule 8.4); its stacks must then be next to each of them."""
        ctx = self.ctx
        used: set[str] = set()
        attacked: set[str] = set()
        plan: list[tuple[tuple[str, ...], list[str], bool | None]] = []
        for op in ops:
            hexes = tuple(op.get("targets") or [op["target"]])
            missing = [t for t in hexes if t not in targets]
            if missing:
                self.skip(op["text"], f"no enemy at {', '.join(missing)} next to a stack able to attack")
                continue
            if attacked.intersection(hexes):
                self.skip(op["text"], f"{', '.join(sorted(attacked.intersection(hexes)))} already attacked")
                continue
            able = [h for h in targets[hexes[0]] if all(h in targets[t] for t in hexes)]
            frm = op.get("from") or [h for h in able if h not in used]
            bad = [h for h in frm if h not in able or h in used]
            if bad:
                self.skip(op["text"], f"{', '.join(bad)} cannot attack {', '.join(hexes)} (not adjacent to each, not able, or already attacking)")
                continue
            if not frm:
                self.skip(op["text"], f"no free stack next to {', '.join(hexes)}")
                continue
            used.update(frm)
            attacked.update(hexes)
            plan.append((hexes, list(frm), op.get("advance")))
        strongest = ctx.standing(self.side)["attack"] == "strongest"
        order = sorted(targets, key=lambda t: (counted(ctx, t, False)[0] * (-1 if strongest else 1), t))
        for target in order:
            if target in attacked:
                continue
            frm = [h for h in targets[target] if h not in used]
            if not frm:  # take a stack from a one-hex attack that has more than one
                for i, (t, att, adv) in enumerate(plan):
                    spare = [h for h in att if h in targets[target]]
                    if len(att) > 1 and len(t) == 1 and spare:
                        plan[i] = (t, [h for h in att if h != spare[0]], adv)
                        frm = [spare[0]]
                        break
            if frm:
                used.update(frm)
                attacked.add(target)
                plan.append(((target,), frm, None))
        # the standing order: idle stacks in a ZOC join the attack on their weakest neighbour
        for h in sorted({h for att in targets.values() for h in att} - used):
            mine = [t for t in order if h in targets[t]]
            for i, (t, att, adv) in enumerate(plan):
                if mine and t == (mine[0],):
                    plan[i] = (t, att + [h], adv)
                    used.add(h)
                    break
        return plan

    def resolve_one(self, hexes: tuple[str, ...], attackers: list[str], advance: bool | None) -> None:
        ctx, sit = self.ctx, self.sit
        attackers = [a for a in attackers if can_attack_from(ctx, a, self.side) and all(distance(a, t) == 1 for t in hexes)]
        hexes = tuple(t for t in hexes if sit.side_at(t) == self.enemy)
        if not hexes or not attackers:
            return
        # a hex emptied by retreat before combat was not vacated "as a result of combat" (rule
        # 10.1): nobody advances into it (else attackers would chase evading cavalry round after round)
        hexes = tuple(t for t in hexes if not self.evades(t, attackers))
        if not hexes:
            return
        a_sp, a_parts = 0, []
        a_units: list[str] = []
        for a in attackers:
            sp, units, detail = counted(ctx, a, True)
            a_sp += sp
            a_units += units
            a_parts.append(dict(detail, hex=a, sp=sp, names=", ".join(ctx.name(u) for u in units)))
        d_sp, d_units, d_parts = 0, [], []
        for t in hexes:
            sp, units, detail = counted(ctx, t, False)
            d_sp += sp
            d_units += units
            d_parts.append(dict(detail, hex=t, sp=sp))
        att_cr = max(ctx.sc.units[u].cr for u in a_units)
        def_cr = max(ctx.sc.units[u].cr for u in d_units)
        column, below = odds_column(a_sp, d_sp)
        drms = combined_drms([combat_drms(ctx, t, attackers, att_cr, def_cr) for t in hexes])
        if below:
            drms.append({"why": "odds below the lowest column", "drm": below})
        label = "+".join(hexes)
        roll = ctx.roll(f"combat {label}")
        total = sum(d["drm"] for d in drms)
        row, result = crt(column, roll + total)
        ctx.state["last"]["combats"].append({"target": hexes[0], "targets": list(hexes), "attackers": attackers, "result": result})
        defender = d_parts[0] if len(d_parts) == 1 else {
            "hex": ", ".join(hexes), "sp": d_sp, **{k: sum(p[k] for p in d_parts) for k in ("troops", "troops_counted", "guns", "guns_counted")}}
        ctx.emit(event("combat", N_("Attack on %(target)s (%(defender_names)s) from %(frm)s: %(a_sp)s SP against %(d_sp)s, odds %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(result)s."),
                       side=self.side, target=", ".join(hexes), targets=list(hexes), frm=", ".join(attackers), attackers=a_parts,
                       defender=defender, defenders=d_parts, defender_names=", ".join(ctx.name(u) for u in d_units),
                       a_sp=a_sp, d_sp=d_sp, ratio=f"{a_sp}:{d_sp}", column=column, att_cr=att_cr, def_cr=def_cr,
                       drms=drms, drm_text="".join(f" {d['drm']:+d} ({d['why']})" for d in drms), roll=roll,
                       modified=roll + total, row=row, result=result, result_text=table("crt")["results"][result]))
        if result == "NE":
            return
        if result in ("AR", "AE"):
            if result == "AE":
                holder = [a for a in attackers if any(ctx.sc.units[u].cr == att_cr for u in sit.units_at(a))][:1] or attackers[:1]
                commander_casualties(ctx, holder[0], "attack repulsed with loss")
                lose_one(ctx, holder, att_cr, "attack repulsed with loss")
            for a in attackers:
                if sit.units_at(a):
                    if result == "AR":
                        commander_casualties(ctx, a, "attack repulsed")
                    retreat(ctx, a, list(hexes), forced=True, why="attack repulsed")
            return
        keyhex = [t for t in hexes if any(ctx.sc.units[u].cr == def_cr for u in sit.units_at(t))][:1] or list(hexes[:1])
        if result == "EX":
            for t in hexes:
                commander_casualties(ctx, t, "exchange")
            lost = lose_one(ctx, keyhex, def_cr, "exchange")
            for a in attackers:
                commander_casualties(ctx, a, "exchange")
            lose_at_least(ctx, attackers, lost, att_cr, "exchange")
        elif result == "DE":
            commander_casualties(ctx, keyhex[0], "defenders broken")
            lose_one(ctx, keyhex, def_cr, "defenders broken")
            for t in hexes:
                if t != keyhex[0]:
                    commander_casualties(ctx, t, "defenders broken")
                if sit.units_at(t):
                    retreat(ctx, t, attackers, forced=True, why="defenders broken")
        else:
            for t in hexes:
                hit_and_retreat(ctx, t, attackers, "defenders driven back", nr_may_stand=True)
        for t in hexes:
            if not sit.units_at(t):
                self.advance(t, [a for a in attackers if sit.units_at(a)], advance)
                break

    def evades(self, target: str, attackers: list[str]) -> bool:
        """Rule 11: cavalry alone, attacked by no mounted cavalry, may retreat before combat."""
        ctx, sit = self.ctx, self.sit
        defenders = sit.units_at(target)
        if not defenders or not all(ctx.sc.units[u].evades for u in defenders):
            return False
        if self.evaded.intersection(defenders):
            return False  # once a combat phase: caught again in a later round, they fight (design, 11.1)
        if any(ctx.sc.units[u].is_cavalry and sit.mounted(u) for a in attackers for u in sit.units_at(a)):
            return False
        choice = ctx.standing(self.enemy)["evade"]
        if choice == "never":
            return False
        if choice == "auto":
            a_sp = sum(counted(ctx, a, True)[0] for a in attackers)
            d_sp = counted(ctx, target, False)[0]
            if a_sp < 2 * d_sp:
                return False
        ctx.emit(event("evade", N_("%(names)s at %(hex)s retreated before combat."), hex=target, units=list(defenders),
                       names=", ".join(ctx.name(u) for u in defenders)))
        self.evaded.update(defenders)
        retreat(ctx, target, attackers, forced=False, why="retreat before combat")
        return True

    def advance(self, vacated: str, attackers: list[str], wanted: bool | str | None) -> None:
        """Rule 10: infantry and cavalry that took part may advance into the vacated hex at once
        (``wanted``: True the largest stack, "all" every stack, 10.3-10.4; None: the standing order)."""
        ctx, sit = self.ctx, self.sit
        if sit.units_at(vacated):
            return
        if wanted is None:
            wanted = {"yes": True, "all": "all", "no": False}[ctx.standing(self.side)["advance"]]
        if not wanted:
            return
        best = None
        for a in attackers:
            movers = self.may_advance(a)
            if movers and not sit.stacking_problem(vacated, movers, leaving=tuple(movers)):
                sp = sum(sit.sp(u) for u in movers)
                if best is None or sp > best[0]:
                    best = (sp, a, movers)
        if not best:
            return
        _, frm, movers = best
        self.advance_stack(movers, frm, vacated, beside=False)
        if wanted == "all":
            for other in [a for a in attackers if a != frm]:
                self.advance_beside(vacated, other)

    def may_advance(self, h: str) -> list[str]:
        """The units of a stack that may advance after combat (rule 10.3: not artillery; 16: not shattered)."""
        return [u for u in self.sit.units_at(h) if not self.ctx.sc.units[u].is_artillery and not self.sit.shattered(u)]

    def advance_beside(self, vacated: str, frm: str) -> None:
        """Rule 10.3-10.4: once a stack has advanced into the vacated hex, every other stack that
        took part may advance one hex too: into the vacated hex while stacking allows, else into
        an empty hex next to both it and the vacated hex (the one nearest the enemy)."""
        sit, board = self.sit, self.ctx.sc.board
        movers = self.may_advance(frm)
        if not movers:
            return
        foes = sit.hexes_of(self.enemy)
        beside = set(board.neighbours[vacated]) & set(board.neighbours[frm])
        choices = [vacated] + sorted(beside, key=lambda h: (min((distance(h, f) for f in foes), default=0), h))
        dest = next((h for h in choices if (h == vacated or not sit.units_at(h))
                     and not sit.stacking_problem(h, movers, leaving=tuple(movers))), None)
        if dest is not None:
            self.advance_stack(movers, frm, dest, beside=dest != vacated)

    def advance_stack(self, movers: list[str], frm: str, dest: str, beside: bool) -> None:
        ctx, sit = self.ctx, self.sit
        d = any(sit.units[u]["d"] for u in movers)
        for u in movers:
            sit.place(u, dest)
        if d or sit.disorganized(dest):
            sit.disorganize(dest)  # rule 14.3: a D marker spreads to the stack
        if not sit.units_at(frm):
            for cid in list(sit.commanders_at(frm)):
                sit.place_commander(cid, dest)
        ctx.state["last"]["moves"].append({"units": movers, "path": [frm, dest]})
        ctx.emit(event("advance", N_("%(names)s advanced from %(frm)s into %(hex)s."), units=movers,
                       names=", ".join(ctx.name(u) for u in movers), frm=frm, hex=dest, beside=beside))

    def voluntary_retreats(self) -> None:
        """Rule 12: after a round the attacker, then the defender, may fall back by standing order."""
        ctx, sit = self.ctx, self.sit
        for who in (self.side, self.enemy):
            mode = ctx.standing(who)["withdraw"]
            if mode == "none":
                continue
            for h in sorted(sit.hexes_of(who)):
                foes = [n for n in ctx.sc.board.neighbours[h] if sit.side_at(n) == ctx.sc.enemy(who)]
                if not foes or (mode == "disorganized" and not sit.disorganized(h)):
                    continue
                end = retreat(ctx, h, foes, forced=False, why="voluntary retreat")
                if who == self.enemy and end is not None:
                    # 10.1.a: any stack next to a hex vacated by voluntary retreat may advance
                    self.advance(h, [n for n in ctx.sc.board.neighbours[h] if sit.side_at(n) == self.side], None)


def in_contact(ctx: Context, side: str) -> bool:
    return bool(required_targets(ctx, side))

