"""Command determination (rule 20): top down from the army commander, each commander's
command roll and range, command traced around enemy ZOC, regiments passing the word along
their brigade, artillery under any commander of its corps or division, sharpshooters under any
commander of their corps, detached regiments only with a senior of their own chain.

The result is ``state["in_command"]``: unit and commander ids of the phasing side that are
in command this player turn (rule 2: it holds throughout the turn).
"""

from __future__ import annotations

from collections import deque

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .messages import N_
from .situation import ON_MAP, Context

ARMY_RANGE, CORPS_RANGE, BRIGADE_CAVALRY_RANGE, REGIMENT_RANGE = 8, 5, 8, 2


def _range_of(rank: str, cavalry: bool = False) -> int:
    """A commander's command range (20.3, 20.4, 20.6; a brigade commander over his regiments, 20.7: 2)."""
    if rank == "army":
        return ARMY_RANGE
    if rank == "brigade":
        return BRIGADE_CAVALRY_RANGE if cavalry else CORPS_RANGE
    return CORPS_RANGE


def outranks(ctx: Context, a: str, b: str) -> bool:
    """Whether commander ``a`` ranks ``b``: more stars; between corps commanders, the lower corps
    number (20.12; a scenario without numbers ranks them in its listing order)."""
    ca, cb = ctx.sc.commanders[a], ctx.sc.commanders[b]
    if ca.stars != cb.stars:
        return ca.stars > cb.stars
    order = list(ctx.sc.commanders)
    key = lambda c: (c.number if c.number is not None else 99, order.index(c.id))  # noqa: E731
    return ca.rank == "corps" and key(ca) < key(cb)


def acting_army_commander(ctx: Context, side: str) -> str | None:
    """Who commands the army (rule 20.12), kept in ``state["acting"]``. At first the army
    commander if he is on the map, else the highest-ranked commander on the map (the lowest-
    numbered corps commander among corps commanders; with no corps commander on the map, the
    highest-ranked nearest an enemy unit). An acting commander is relieved once he is within
    the command range of a commander who ranks him, or of the army commander, who takes over."""
    sc, sit = ctx.sc, ctx.sit
    on_map = [c.id for c in sc.commanders.values() if c.side == side and sit.cmds[c.id]["status"] == ON_MAP]
    if not on_map:
        return None
    where = {cid: sit.cmds[cid]["hex"] for cid in on_map}
    acting = ctx.state.setdefault("acting", {}).get(side)
    if acting not in where:
        real = next((cid for cid in on_map if sc.commanders[cid].rank == "army"), None)
        if real:
            acting = real
        else:
            top = [c for c in on_map if not any(outranks(ctx, o, c) for o in on_map)]
            foes = sit.hexes_of(sc.enemy(side))
            acting = min(top, key=lambda cid: (min((distance(where[cid], f) for f in foes), default=0), cid))
    while True:
        seniors = [c for c in on_map if outranks(ctx, c, acting)
                   and distance(where[c], where[acting]) <= _range_of(sc.commanders[c].rank)]
        if not seniors:
            break
        acting = max(seniors, key=lambda c: (sc.commanders[c].stars, not any(outranks(ctx, o, c) for o in seniors)))
    if ctx.state["acting"].get(side) != acting:
        ctx.state["acting"][side] = acting
        ctx.emit(event("acting_commander", N_("%(name)s now commands the %(side)s army."),
                       commander=acting, name=sit.commander_name(acting), side=ctx.side_name(side)))
    return acting


def traced_distance(ctx: Context, side: str, a: str, b: str, limit: int) -> int | None:
    """Hexes from ``a`` to ``b`` along a path that does not pass through an enemy ZOC hex
    unless a friendly unit holds it (it may end in one; rule 20.10); None beyond ``limit``."""
    if a == b:
        return 0
    sit = ctx.sit
    enemy = ctx.sc.enemy(side)
    zoc = sit.zoc_hexes(enemy)
    seen = {a: 0}
    queue = deque([a])
    while queue:
        h = queue.popleft()
        d = seen[h]
        if d >= limit:
            continue
        if h != a and h in zoc and sit.side_at(h) != side:
            continue  # command enters a ZOC but does not pass through it
        for n in ctx.sc.board.neighbours[h]:
            if n in seen or sit.side_at(n) == enemy:
                continue
            seen[n] = d + 1
            if n == b:
                return d + 1
            queue.append(n)
    return None


def chain(ctx: Context, cid: str | None) -> set[str]:
    """``cid`` and every commander under him."""
    out = set()
    todo = [cid] if cid else []
    while todo:
        c = todo.pop()
        out.add(c)
        todo += [x.id for x in ctx.sc.commanders.values() if x.superior == c]
    return out


def seniors_of(ctx: Context, cid: str | None) -> list[str]:
    """The commanders above ``cid`` in the chain of command, nearest first."""
    out = []
    c = ctx.sc.commanders[cid].superior if cid else None
    while c and c not in out:
        out.append(c)
        c = ctx.sc.commanders[c].superior
    return out


def corps_of(ctx: Context, cid: str | None) -> str | None:
    """The corps commander ``cid`` serves under (or is), if any."""
    for c in ([cid] if cid else []) + seniors_of(ctx, cid):
        if ctx.sc.commanders[c].rank == "corps":
            return c
    return None


class Command:
    """One command determination (phase 2) for the phasing side."""

    def __init__(self, ctx: Context, side: str):
        self.ctx, self.side = ctx, side
        self.sc, self.sit = ctx.sc, ctx.sit
        self.where = {cid: self.sit.cmds[cid]["hex"] for cid in self.sit.cmds
                      if self.sit.cmds[cid]["status"] == ON_MAP and self.sc.commanders[cid].side == side}
        self.in_command: set[str] = set()
        self.army: str | None = None

    def reach(self, cid: str) -> int:
        """A commander's command range; the acting army commander has the army commander's (20.12)."""
        return ARMY_RANGE if cid == self.army else _range_of(self.sc.commanders[cid].rank)

    def traced(self, a: str, b: str, limit: int) -> int | None:
        return traced_distance(self.ctx, self.side, a, b, limit)

    def superior(self, cid: str) -> str | None:
        """The commander a subordinate answers to: his superior on the map, else the acting army
        commander."""
        sup = self.sc.commanders[cid].superior
        return sup if sup in self.where else self.army

    def stacked_senior(self, cid: str) -> str | None:
        """An in-command commander of higher rank in his hex (20.9), if any."""
        h = self.where[cid]
        return next((x for x in self.sit.commanders_at(h) if x in self.in_command and x != cid
                     and self.sc.commanders[x].stars > self.sc.commanders[cid].stars), None)

    def run(self) -> set[str]:
        ctx, sc, sit = self.ctx, self.sc, self.sit
        self.army = army = acting_army_commander(ctx, self.side)
        if army is None:
            ctx.emit(event("command_none", N_("%(side)s have no commander on the map: nothing is in command."),
                           side=ctx.side_name(self.side)))
            return self.in_command
        roll = ctx.roll(f"command {army}")
        cv = sit.commander_cv(army)
        ok = roll <= cv
        ctx.emit(event("command_roll", N_("%(name)s (army, CV %(cv)s) rolls %(roll)s for command: %(result)s."),
                       commander=army, name=sit.commander_name(army), rank="army", cv=cv, roll=roll, drm=0, modified=roll,
                       ok=ok, result="in command" if ok else "not in command"))
        if ok:
            self.in_command.add(army)
        for rank in ("corps", "division"):
            for c in sc.commanders.values():
                if c.side == self.side and c.rank == rank and c.id in self.where and c.id != army:
                    self.roll_for(c.id)
        for c in sc.commanders.values():
            if c.side == self.side and c.rank == "brigade" and c.id in self.where:
                self.brigade(c.id)
        self.units()
        return self.in_command

    def roll_for(self, cid: str) -> None:
        """Rules 20.4, 20.5, 20.9: a corps or division commander stacked with an in-command senior
        is in command without a roll; else he rolls his CV or less, -1 when his superior is in
        command and has him in range, +1 for each brigade of his division shattered or out of range."""
        ctx, sc, sit = self.ctx, self.sc, self.sit
        info = sc.commanders[cid]
        senior = self.stacked_senior(cid)
        if senior:
            self.in_command.add(cid)
            ctx.emit(event("command_stacked", N_("%(name)s is stacked with %(by)s, in command: in command without a roll."),
                           commander=cid, name=sit.commander_name(cid), by=sit.commander_name(senior)))
            return
        sup = self.superior(cid)
        drm, reasons = 0, []
        if sup and sup in self.in_command and self.traced(self.where[sup], self.where[cid], self.reach(sup)) is not None:
            drm -= 1
            reasons.append("superior in command and in range")
        if info.rank == "division":
            for b in (x for x in sc.commanders.values() if x.superior == cid and x.rank == "brigade"):
                if ctx.state["brigades"].get(b.id, {}).get("shattered"):
                    drm += 1
                    reasons.append(f"{b.name} shattered")
                elif b.id not in self.where or self.traced(self.where[cid], self.where[b.id], CORPS_RANGE) is None:
                    drm += 1
                    reasons.append(f"{b.name} out of range")
        roll = ctx.roll(f"command {cid}")
        cv = sit.commander_cv(cid)
        ok = roll + drm <= cv
        ctx.emit(event("command_roll", N_("%(name)s (%(rank)s, CV %(cv)s) rolls %(roll)s %(drm_text)s= %(modified)s for command (%(reasons)s): %(result)s."),
                       commander=cid, name=sit.commander_name(cid), rank=info.rank, cv=cv, roll=roll, drm=drm,
                       drm_text=f"{drm:+d} " if drm else "", modified=roll + drm,
                       reasons="; ".join(reasons) or "no modifier", ok=ok,
                       result="in command" if ok else "not in command"))
        if ok:
            self.in_command.add(cid)

    def brigade(self, cid: str) -> None:
        """Rules 20.6, 20.9: in command within 5 hexes (cavalry 8) of his in-command superior, or
        stacked with an in-command senior; brigade commanders do not roll."""
        ctx, sc, sit = self.ctx, self.sc, self.sit
        if self.stacked_senior(cid):
            self.in_command.add(cid)
            return
        sup = self.superior(cid)
        if sup is None:
            return
        reach = BRIGADE_CAVALRY_RANGE if sc.commanders[cid].cavalry else CORPS_RANGE
        if sup in self.in_command and self.traced(self.where[sup], self.where[cid], reach) is not None:
            self.in_command.add(cid)
            return
        if sup not in self.in_command:
            why = "superior not in command"
        elif distance(self.where[sup], self.where[cid]) <= reach:
            why = f"command cannot be traced from {sit.commander_name(sup)} within {reach} hexes around the enemy's ZOC (rule 20.10)"
        else:
            why = f"more than {reach} hexes from {sit.commander_name(sup)}"
        ctx.emit(event("command_out", N_("%(name)s is not in command: %(why)s."),
                       commander=cid, name=sit.commander_name(cid), why=why))

    def commands_unit(self, cid: str, uid: str) -> bool:
        """Whether in-command commander ``cid`` may put this unit in command from within his range."""
        sc = self.sc
        c, u = sc.commanders[cid], sc.units[uid]
        if self.sit.units[uid]["detached"]:
            return False
        if u.is_artillery:
            # 20.7: any commander of its corps or division, or the army commander; a brigade
            # commander of its division or corps
            home = corps_of(self.ctx, u.formation) or u.formation
            return cid == self.army or c.rank == "army" or cid in chain(self.ctx, home)
        if u.type == "sharpshooters":
            home = corps_of(self.ctx, u.brigade)
            if home and cid in chain(self.ctx, home):
                return True  # 20.7: any commander of their corps
        return cid == u.brigade

    def units(self) -> None:
        """Regiments and batteries (20.7, 20.9, 22.3), then the word passed along each brigade."""
        ctx, sc, sit = self.ctx, self.sc, self.sit
        leaders = sorted(c for c in self.in_command if c in sc.commanders)
        ours = [u for u in sc.units.values() if u.side == self.side and sit.units[u.id]["status"] == ON_MAP]
        for u in ours:
            h = sit.units[u.id]["hex"]
            if any(self.stacked_commands(cid, u.id) for cid in leaders if self.where[cid] == h):
                self.in_command.add(u.id)
                continue
            for cid in leaders:
                if not self.commands_unit(cid, u.id):
                    continue
                rank = sc.commanders[cid].rank
                reach = self.reach(cid) if rank != "brigade" else REGIMENT_RANGE
                if self.traced(self.where[cid], h, reach) is not None:
                    self.in_command.add(u.id)
                    break
        # the word passes from regiment to adjacent regiment of the same brigade (rule 20.7)
        queue = deque(u.id for u in ours if u.id in self.in_command and u.brigade and not sit.units[u.id]["detached"])
        while queue:
            uid = queue.popleft()
            h = sit.units[uid]["hex"]
            for n in [h] + list(ctx.sc.board.neighbours[h]):
                for other in sit.units_at(n):
                    info = sc.units[other]
                    if other not in self.in_command and info.brigade == sc.units[uid].brigade and not sit.units[other]["detached"]:
                        self.in_command.add(other)
                        queue.append(other)
        out = [u for u in ours if u.id not in self.in_command]
        if out:
            ctx.emit(event("out_of_command", N_("Out of command (may not enter an enemy ZOC): %(names)s."),
                           units=[u.id for u in out], names=", ".join(u.name for u in out)))

    def stacked_commands(self, cid: str, uid: str) -> bool:
        """Rule 20.9: an in-command commander puts the units he is stacked with in command; a
        brigade commander only his own brigade's regiments and his division's or corps's artillery
        (20.7); a detached regiment only an army, corps or division commander of its chain (22.3)."""
        sc = self.sc
        c, u = sc.commanders[cid], sc.units[uid]
        if self.sit.units[uid]["detached"]:
            return c.rank != "brigade" and (cid in seniors_of(self.ctx, u.brigade) or cid == self.army)
        if c.rank == "brigade":
            return self.commands_unit(cid, uid)
        return True


def determine(ctx: Context, side: str) -> set[str]:
    return Command(ctx, side).run()
