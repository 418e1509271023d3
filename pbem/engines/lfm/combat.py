"""The combat phase (rules 8-13): mandatory attacks, stacks attacking and defending as one,
8 SP of infantry or cavalry plus 10 of artillery counted, odds, DRMs, the CRT, losses by
cohesion rating, retreats, advances, retreat before combat, voluntary retreats, and rounds
until nobody able to attack is in contact.

Who may attack (8.6, 16.4, 20.11, 3.1): a unit in command this turn, or one the enemy put in
its ZOC during this combat phase (a retreat or an advance ending next to it); never a unit of
a shattered brigade, never cavalry that charged this turn."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .advance import Advance
from .losses import commander_casualties, lose_at_least, lose_one
from .messages import N_
from .construction import works_to_hold
from .retreat import OFF, first_hex_choices, hit_and_retreat, retreat
from .situation import ARTILLERY_SP, COMBAT_SP, Context, has_breastworks
from .tables import crt, drm as drm_table, needs, odds_column, table, terrain

MAX_ROUNDS = 30  # a guard only: every round the CRT moves someone, so real combats end long before


def attack_ban(ctx: Context, uid: str, freed: frozenset | set = frozenset()) -> str | None:
    """Why this unit may not attack now, or None (rules 3.1, 16.4, 20.11 with 8.6)."""
    sit = ctx.sit
    if sit.units[uid].get("charged"):
        return f"{ctx.name(uid)} charged this turn and may not attack (rule 3.1)"
    if sit.shattered(uid):
        return "a shattered brigade may not attack (rule 16.4)"
    if uid not in (ctx.state.get("in_command") or ()) and uid not in freed:
        return f"{ctx.name(uid)} is not in command: it may not attack (rule 20.11)"
    return None


def counted(ctx: Context, h: str, attacking: bool, freed: frozenset | set = frozenset()) -> tuple[int, list[str], dict]:
    """The SP a stack fights with (rule 8.3) and the units counted: attacking, only those that
    may attack."""
    sit = ctx.sit
    units = [u for u in sit.units_at(h) if not (attacking and attack_ban(ctx, u, freed))]
    troops = [u for u in units if not ctx.sc.units[u].is_artillery]
    guns = [u for u in units if ctx.sc.units[u].is_artillery]
    t_sp, g_sp = sum(sit.sp(u) for u in troops), sum(sit.sp(u) for u in guns)
    return (min(COMBAT_SP, t_sp) + min(ARTILLERY_SP, g_sp), units,
            {"troops": t_sp, "troops_counted": min(COMBAT_SP, t_sp), "guns": g_sp, "guns_counted": min(ARTILLERY_SP, g_sp)})


def can_attack_from(ctx: Context, h: str, side: str, freed: frozenset | set = frozenset()) -> bool:
    return ctx.sit.side_at(h) == side and bool(counted(ctx, h, True, freed)[1])


def required_targets(ctx: Context, side: str, freed: frozenset | set = frozenset()) -> dict[str, list[str]]:
    """Enemy hexes next to stacks able to attack, each with those stacks (rules 8.1, 8.2)."""
    sit = ctx.sit
    out: dict[str, list[str]] = {}
    for h in sorted(sit.hexes_of(side)):
        if not can_attack_from(ctx, h, side, freed):
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
    """The DRMs against one defending hex, from the attacking hexes next to it."""
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
    kind = board.terrain[target]
    works = has_breastworks(ctx, target)
    tdrm = terrain()["hexes"][kind]["combat_drm"]
    if not all_mounted:
        if works:
            why = "breastworks" if ctx.state["breastworks"].get(target) == "built" else \
                f"defending in {kind.replace('_', ' ')} (permanent breastworks)"
            out.append({"why": why, "drm": spec["defender"]["breastworks"]})
        elif tdrm:
            out.append({"why": f"defending in {kind.replace('_', ' ')}", "drm": tdrm})
        if not works and all("stone_wall" in board.sides(a, target) for a in attackers):
            out.append({"why": "behind a stone wall", "drm": spec["defender"]["stone_wall"]})
    if all("stream" in board.sides(a, target) for a in attackers):
        out.append({"why": "attacked across a stream", "drm": spec["defender"]["stream"]})
    return out


@dataclass
class Combat:
    """One combat: defending hexes attacked together, the attacking hexes, and the attacker's
    advance choice (None: the standing order) or named advance (rule 10.4)."""

    targets: list[str]
    attackers: list[str]
    advance: bool | str | None = None
    advance_to: list[dict] | None = None
    texts: list[str] = field(default_factory=list)


class CombatPhase:
    def __init__(self, ctx: Context, side: str):
        self.ctx, self.side = ctx, side
        self.enemy = ctx.sc.enemy(side)
        self.sit = ctx.sit
        self.freed: set[str] = set()  # put in an enemy ZOC by the enemy this phase: may attack (8.6)
        self.evaded_from: dict[str, set[str]] = {}  # unit -> hexes it left by retreat before combat
        self.moves_seen = (len(ctx.state["last"]["moves"]), len(ctx.state["last"]["retreats"]))

    def skip(self, text: str, why: str) -> None:
        self.ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why,
                            side=self.side, to=[self.side]))

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
            self.note_enemy_moves()
            targets = required_targets(ctx, self.side, self.freed)
            if not targets:
                for op in ops if rnd == 1 else []:
                    self.skip(op["text"], self.line_problem(op, targets) or "no enemy in contact")
                return
            ctx.label = f"{base} R{rnd}"
            ctx.emit(event("combat_round", N_("Combat round %(round)s: %(n)s enemy hex(es) must be attacked."),
                           round=rnd, n=len(targets), targets=sorted(targets)))
            for combat in self.assign(targets, ops if rnd == 1 else []):
                self.resolve_one(combat)
            self.voluntary_retreats()
        self.note_enemy_moves()
        if required_targets(ctx, self.side, self.freed):
            ctx.emit(event("combat_guard", N_("Combat stops after %(n)s rounds."), n=limit))

    def note_enemy_moves(self) -> None:
        """Rule 8.6: the enemy's retreats and advances this phase put our units next to their end
        hexes "in command for this combat phase"."""
        ctx, sit = self.ctx, self.sit
        last = ctx.state["last"]
        ends = [m["path"][-1] for m in last["moves"][self.moves_seen[0]:] + last["retreats"][self.moves_seen[1]:]
                if m["units"] and m["units"][0] in ctx.sc.units and ctx.sc.units[m["units"][0]].side == self.enemy]
        self.moves_seen = (len(last["moves"]), len(last["retreats"]))
        for end in ends:
            for n in ctx.sc.board.neighbours.get(end, ()):
                if sit.side_at(n) == self.side:
                    self.freed.update(sit.units_at(n))

    def charged_must_retreat(self) -> None:
        """Rule 3.8: cavalry that charged and is still in a ZOC retreats before combat."""
        sit = self.sit
        for h in sorted(sit.hexes_of(self.side)):
            here = [u for u in sit.units_at(h) if sit.units[u].get("charged")]
            if here and sit.in_enemy_zoc(h, self.side):
                foes = [n for n in self.ctx.sc.board.neighbours[h] if sit.side_at(n) == self.enemy]
                retreat(self.ctx, h, foes, forced=False, why="charged cavalry still in a ZOC", units=here)

    # --- who attacks what ------------------------------------------------------
    def line_problem(self, op: dict, targets: dict[str, list[str]]) -> str | None:
        """Why an ATTACK line cannot be carried out as written, or None."""
        ctx, sit = self.ctx, self.sit
        hexes = op.get("targets") or [op["target"]]
        for t in hexes:
            if sit.side_at(t) != self.enemy:
                return f"no enemy at {t}"
        for h in op.get("from") or []:
            if sit.side_at(h) != self.side:
                return f"none of your units at {h}"
            if not any(distance(h, t) == 1 for t in hexes):
                return f"{h} is not next to {', '.join(hexes)}"
            if not can_attack_from(ctx, h, self.side, self.freed):
                return next(attack_ban(ctx, u, self.freed) for u in sit.units_at(h))
        for t in hexes:
            if t not in targets:
                stacks = [n for n in ctx.sc.board.neighbours[t] if sit.side_at(n) == self.side]
                if stacks:
                    return next(attack_ban(ctx, u, self.freed) for u in sit.units_at(stacks[0]))
                return f"no stack of yours is next to {t}"
        return None

    def assign(self, targets: dict[str, list[str]], ops: list[dict]) -> list[Combat]:
        """The combats of a round (rules 8.2, 8.4, 8.5). Each ATTACK line is one combat of the
        stacks it names (all able stacks next to its hexes if it names none) and no other; lines
        sharing a stack or a defending hex are one combat, as a stack attacks and defends once.
        Then every enemy hex in contact that nobody attacks is attacked by the standing order: by
        the free stacks next to it, or, when every stack next to it already attacks, as part of
        that stack's combat."""
        ctx = self.ctx
        combats: list[Combat] = []
        for op in ops:
            why = self.line_problem(op, targets)
            if why:
                self.skip(op["text"], why)
                continue
            hexes = list(op.get("targets") or [op["target"]])
            frm = list(op.get("from") or sorted({h for t in hexes for h in targets[t]}))
            combats.append(Combat(hexes, frm, op.get("advance"), op.get("advance_to"), [op["text"]]))
        combats = merged(combats)
        strongest = ctx.standing(self.side)["attack"] == "strongest"
        order = sorted(targets, key=lambda t: (counted(ctx, t, False)[0] * (-1 if strongest else 1), t))
        for target in order:
            if any(target in c.targets for c in combats):
                continue
            used = {h for c in combats for h in c.attackers}
            free = [h for h in targets[target] if h not in used]
            if free:
                combats.append(Combat([target], free))
                continue
            joined = next(c for c in combats if set(c.attackers) & set(targets[target]))
            joined.targets.append(target)
        return combats

    # --- one combat ------------------------------------------------------------
    def resolve_one(self, combat: Combat) -> None:
        ctx, sit = self.ctx, self.sit
        hexes = [t for t in combat.targets if sit.side_at(t) == self.enemy]
        attackers = [a for a in combat.attackers if can_attack_from(ctx, a, self.side, self.freed)
                     and any(distance(a, t) == 1 for t in hexes)]
        if not hexes or not attackers:
            return
        # a hex emptied by retreat before combat was not vacated "as a result of combat" (rule
        # 10.1): nobody advances into it
        hexes = [t for t in hexes if not self.evades(t, attackers)]
        attackers = [a for a in attackers if any(distance(a, t) == 1 for t in hexes)]
        if not hexes or not attackers:
            return
        a_sp, a_parts, a_units = 0, [], []
        for a in attackers:
            sp, units, detail = counted(ctx, a, True, self.freed)
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
        drms = combined_drms([combat_drms(ctx, t, [a for a in attackers if distance(a, t) == 1], att_cr, def_cr)
                              for t in hexes])
        if below:
            drms.append({"why": "odds below the lowest column", "drm": below})
        roll = ctx.roll(f"combat {'+'.join(hexes)}")
        total = sum(d["drm"] for d in drms)
        row, result = crt(column, roll + total)
        ctx.state["last"]["combats"].append({"target": hexes[0], "targets": list(hexes), "attackers": attackers, "result": result})
        defender = d_parts[0] if len(d_parts) == 1 else {
            "hex": ", ".join(hexes), "sp": d_sp, **{k: sum(p[k] for p in d_parts) for k in ("troops", "troops_counted", "guns", "guns_counted")}}
        ctx.emit(event("combat", N_("Attack on %(target)s (%(defender_names)s) from %(frm)s: %(a_sp)s SP against %(d_sp)s, odds %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(result)s%(needs)s."),
                       side=self.side, target=", ".join(hexes), targets=list(hexes), frm=", ".join(attackers), attackers=a_parts,
                       defender=defender, defenders=d_parts, defender_names=", ".join(ctx.name(u) for u in d_units),
                       a_sp=a_sp, d_sp=d_sp, ratio=f"{a_sp}:{d_sp}", column=column, att_cr=att_cr, def_cr=def_cr,
                       drms=drms, drm_text="".join(f" {d['drm']:+d} ({d['why']})" for d in drms), roll=roll,
                       modified=roll + total, row=row, result=result, result_text=table("crt")["results"][result],
                       **needs("crt", column)))
        if result == "NE":
            return
        if result in ("AR", "AE"):
            return self.repulsed(result, hexes, attackers, att_cr)
        keyhex = [t for t in hexes if any(ctx.sc.units[u].cr == def_cr for u in sit.units_at(t))][:1] or list(hexes[:1])
        if result == "EX":
            for t in hexes:
                commander_casualties(ctx, t, "exchange")
            lost = lose_one(ctx, keyhex, def_cr, "exchange")
            for a in attackers:
                commander_casualties(ctx, a, "exchange")
            lose_at_least(ctx, attackers, lost, att_cr, "exchange")
            return
        if result == "DE":
            commander_casualties(ctx, keyhex[0], "defenders broken")
            lose_one(ctx, keyhex, def_cr, "defenders broken")
        for t in hexes:
            # DE: the rest retreats; DR: the stack retreats; in NR terrain either may stand (9.1.d)
            hit_and_retreat(ctx, t, attackers, "defenders broken" if result == "DE" else "defenders driven back",
                            nr_may_stand=True, casualty=not (result == "DE" and t == keyhex[0]), loss_cr=def_cr,
                            odds=column)
        vacated = [t for t in hexes if not sit.units_at(t)]
        if vacated:
            Advance(ctx, self.side).after_combat(vacated[0], [a for a in attackers if sit.units_at(a)],
                                                 combat.advance, combat.advance_to, combat.texts)

    def repulsed(self, result: str, hexes: list[str], attackers: list[str], att_cr: int) -> None:
        """AE: the attacking stack whose cohesion was used loses a regiment; AR and AE: every
        attacking stack retreats; then the defenders may advance into a hex left (10.1.b)."""
        ctx, sit = self.ctx, self.sit
        if result == "AE":
            holder = [a for a in attackers if any(ctx.sc.units[u].cr == att_cr for u in sit.units_at(a))][:1] or attackers[:1]
            commander_casualties(ctx, holder[0], "attack repulsed with loss")
            lose_one(ctx, holder, att_cr, "attack repulsed with loss")
        for a in attackers:
            if sit.units_at(a):
                if result == "AR":
                    commander_casualties(ctx, a, "attack repulsed")
                retreat(ctx, a, list(hexes), forced=True, why="attack repulsed", loss_cr=att_cr)
        vacated = [a for a in attackers if not sit.units_at(a)]
        if vacated and ctx.standing(self.enemy)["pursue"] == "yes":
            Advance(ctx, self.enemy).after_combat(vacated[0], [t for t in hexes if sit.units_at(t)], True, None, [])

    def evades(self, target: str, attackers: list[str]) -> bool:
        """Rule 11: cavalry (or sharpshooters, or units the scenario names) alone, attacked by no
        mounted cavalry, may retreat before combat, by the owner's standing order."""
        ctx, sit = self.ctx, self.sit
        defenders = sit.units_at(target)
        if not defenders or not all(ctx.sc.units[u].evades for u in defenders):
            return False
        if any(sit.units[u].get("build") for u in defenders):
            return False  # a builder does not move that turn, retreats included (24.1.a)
        once = ctx.state.get("rules", {}).get("retreat_before_combat", "every_round") == "once_a_phase"
        if once and any(self.evaded_from.get(u) for u in defenders):
            return False  # option: once a combat phase
        if any(ctx.sc.units[u].is_cavalry and sit.mounted(u) for a in attackers for u in sit.units_at(a)):
            return False
        choice = ctx.standing(self.enemy)["evade"]
        if choice == "never":
            return False
        if choice == "auto":
            a_sp = sum(counted(ctx, a, True, self.freed)[0] for a in attackers)
            d_sp = counted(ctx, target, False)[0]
            if a_sp < 2 * d_sp:
                return False
        if not self.evasion_open(target, attackers, defenders):
            return False
        ctx.emit(event("evade", N_("%(names)s at %(hex)s retreated before combat."), hex=target, units=list(defenders),
                       names=", ".join(ctx.name(u) for u in defenders)))
        for u in defenders:
            self.evaded_from.setdefault(u, set()).add(target)
        retreat(ctx, target, attackers, forced=False, why="retreat before combat")
        return True

    def evasion_open(self, target: str, attackers: list[str], defenders: list[str]) -> bool:
        """Whether a retreat before combat has somewhere to go: a hex the stack has not already left
        by retreating before combat this phase (so it cannot step to and fro for ever), or off the map."""
        choices = first_hex_choices(self.ctx, self.enemy, target, attackers)
        if not choices:
            return False
        first = choices[0][1]
        return first == OFF or not any(first in self.evaded_from.get(u, ()) for u in defenders)

    def voluntary_retreats(self) -> None:
        """Rule 12: after a round the attacker, then the defender, may fall back by standing order;
        the attacker may then advance from one adjacent hex into a hex the defender left (12.3)."""
        ctx, sit = self.ctx, self.sit
        hold = works_to_hold(ctx)
        for who in (self.side, self.enemy):
            mode = ctx.standing(who)["withdraw"]
            if mode == "none":
                continue
            # the stacks that fall back are chosen as the step begins: each falls back once
            going = [(h, list(sit.units_at(h))) for h in sorted(sit.hexes_of(who))
                     if mode == "all" or sit.disorganized(h)]
            for h, units in going:
                units = [u for u in units if sit.units[u]["hex"] == h and sit.units[u]["status"] == "on_map"]
                foes = [n for n in ctx.sc.board.neighbours[h] if sit.side_at(n) == ctx.sc.enemy(who)]
                if not units or not foes:
                    continue
                if any(sit.units[u].get("build") for u in units) or h in hold:
                    continue  # a builder, or the last men in new works, do not retreat that turn (24.1)
                whole = len(units) == len(sit.units_at(h))
                retreat(ctx, h, foes, forced=False, why="voluntary retreat", units=None if whole else units)
                if who == self.enemy and not sit.units_at(h):
                    Advance(ctx, self.side).after_withdrawal(h)


def merged(combats: list[Combat]) -> list[Combat]:
    """Combats sharing an attacking stack or a defending hex made one (rule 8.4)."""
    out: list[Combat] = []
    for c in combats:
        joined = [o for o in out if set(o.attackers) & set(c.attackers) or set(o.targets) & set(c.targets)]
        for o in joined:
            out.remove(o)
        for o in joined:
            c = Combat(list(dict.fromkeys(o.targets + c.targets)), list(dict.fromkeys(o.attackers + c.attackers)),
                       o.advance if o.advance is not None else c.advance, o.advance_to or c.advance_to, o.texts + c.texts)
        out.append(c)
    return out


def in_contact(ctx: Context, side: str) -> bool:
    return bool(required_targets(ctx, side))
