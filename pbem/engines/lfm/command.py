"""Command determination (rule 20): top down from the army commander, each commander's
command roll and range, command traced around enemy ZOC, regiments passing the word along
their brigade, artillery under any commander of its formation, detached regiments.

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


def acting_army_commander(ctx: Context, side: str) -> str | None:
    """Who commands the army (rule 20.12): the army commander once he is on the map and has the
    acting commander in his range; until then the acting commander, relieved only when a
    higher-ranked commander (or, between corps commanders, the lower-numbered corps, listed
    first) has him within 8 hexes. The first acting commander is the highest-ranked on the map,
    the one nearest an enemy unit if several. Kept in ``state["acting"]``."""
    sc, sit = ctx.sc, ctx.sit
    on_map = [c for c in sc.commanders.values() if c.side == side and sit.cmds[c.id]["status"] == ON_MAP]
    if not on_map:
        return None
    order = {c.id: i for i, c in enumerate(sc.commanders.values())}
    where = {c.id: sit.cmds[c.id]["hex"] for c in on_map}
    acting = ctx.state.setdefault("acting", {}).get(side)
    if acting not in where:
        best = max(c.stars for c in on_map)
        top = [c.id for c in on_map if c.stars == best]
        foes = sit.hexes_of(sc.enemy(side))
        acting = min(top, key=lambda cid: (min((distance(where[cid], f) for f in foes), default=0), order[cid]))
    for c in sorted(on_map, key=lambda c: (-c.stars, order[c.id])):
        senior = c.stars > sc.commanders[acting].stars or (
            c.stars == sc.commanders[acting].stars and order[c.id] < order[acting])
        if senior and distance(where[c.id], where[acting]) <= ARMY_RANGE:
            acting = c.id
            break
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


def _range_of(rank: str, cavalry: bool) -> int:
    if rank == "army":
        return ARMY_RANGE
    if rank == "brigade":
        return BRIGADE_CAVALRY_RANGE if cavalry else CORPS_RANGE
    return CORPS_RANGE


def determine(ctx: Context, side: str) -> set[str]:
    sc, sit = ctx.sc, ctx.sit
    in_command: set[str] = set()
    army = acting_army_commander(ctx, side)
    where = {cid: sit.cmds[cid]["hex"] for cid in sit.cmds if sit.cmds[cid]["status"] == ON_MAP
             and sc.commanders[cid].side == side}
    if army is None:
        ctx.emit(event("command_none", N_("%(side)s have no commander on the map: nothing is in command."),
                       side=ctx.side_name(side)))
        return in_command
    roll = ctx.roll(f"command {army}")
    cv = sit.commander_cv(army)
    ok = roll <= cv
    ctx.emit(event("command_roll", N_("%(name)s (army, CV %(cv)s) rolls %(roll)s for command: %(result)s."),
                   commander=army, name=sit.commander_name(army), rank="army", cv=cv, roll=roll, drm=0, modified=roll,
                   ok=ok, result="in command" if ok else "not in command"))
    if ok:
        in_command.add(army)
    # corps, then divisions, each rolling; then brigades by range.
    for rank in ("corps", "division"):
        for c in sc.commanders.values():
            if c.side != side or c.rank != rank or c.id not in where or c.id == army:
                continue
            sup = c.superior if c.superior in where else army
            reach = _range_of(sc.commanders[sup].rank, False) if sup else 0
            dist = traced_distance(ctx, side, where[sup], where[c.id], reach) if sup else None
            drm, reasons = 0, []
            if sup in in_command and dist is not None:
                drm -= 1
                reasons.append("superior in command and in range")
            if rank == "division":
                for b in (x for x in sc.commanders.values() if x.superior == c.id and x.rank == "brigade"):
                    if ctx.state["brigades"].get(b.id, {}).get("shattered"):
                        drm += 1
                        reasons.append(f"{b.name} shattered")
                    elif b.id not in where or traced_distance(ctx, side, where[c.id], where[b.id], CORPS_RANGE) is None:
                        drm += 1
                        reasons.append(f"{b.name} out of range")
            if sup in in_command and where.get(sup) == where[c.id]:
                in_command.add(c.id)  # rule 20.9: stacked with an in-command superior
                ctx.emit(event("command_stacked", N_("%(name)s is stacked with %(by)s, in command: in command without a roll."),
                               commander=c.id, name=sit.commander_name(c.id), by=sit.commander_name(sup)))
                continue
            roll = ctx.roll(f"command {c.id}")
            cv = sit.commander_cv(c.id)
            ok = roll + drm <= cv
            ctx.emit(event("command_roll", N_("%(name)s (%(rank)s, CV %(cv)s) rolls %(roll)s %(drm_text)s= %(modified)s for command (%(reasons)s): %(result)s."),
                           commander=c.id, name=sit.commander_name(c.id), rank=rank, cv=cv, roll=roll, drm=drm,
                           drm_text=f"{drm:+d} " if drm else "", modified=roll + drm,
                           reasons="; ".join(reasons) or "no modifier", ok=ok,
                           result="in command" if ok else "not in command"))
            if ok:
                in_command.add(c.id)
    for c in sc.commanders.values():
        if c.side != side or c.rank != "brigade" or c.id not in where:
            continue
        sup = c.superior if c.superior in where else army
        if sup is None:
            continue
        if where.get(sup) == where[c.id] and sup in in_command:
            in_command.add(c.id)
            continue
        stacked = [x for x in sit.commanders_at(where[c.id]) if x in in_command and sc.commanders[x].stars > 1]
        if stacked:
            in_command.add(c.id)
            continue
        reach = BRIGADE_CAVALRY_RANGE if c.cavalry else CORPS_RANGE
        dist = traced_distance(ctx, side, where[sup], where[c.id], reach)
        if sup in in_command and dist is not None:
            in_command.add(c.id)
        else:
            why = "superior not in command" if sup not in in_command else f"more than {reach} hexes from {sit.commander_name(sup)}"
            ctx.emit(event("command_out", N_("%(name)s is not in command: %(why)s."),
                           commander=c.id, name=sit.commander_name(c.id), why=why))
    _regiments(ctx, side, in_command, where)
    return in_command


def _regiments(ctx: Context, side: str, in_command: set[str], where: dict[str, str]) -> None:
    sc, sit = ctx.sc, ctx.sit
    leaders = sorted(c for c in in_command if c in sc.commanders)
    senior_here: dict[str, list[str]] = {}
    for cid in leaders:
        senior_here.setdefault(where[cid], []).append(cid)
    ours = [u for u in sc.units.values() if u.side == side and sit.units[u.id]["status"] == ON_MAP]
    for u in ours:  # rule 22.3: a DETACHED marker comes off in its brigade commander's range
        st = sit.units[u.id]
        if st["detached"] and u.brigade in where and traced_distance(ctx, side, where[u.brigade], st["hex"], REGIMENT_RANGE) is not None:
            st["detached"] = False
            ctx.emit(event("attach", N_("%(names)s: %(what)s."), units=[u.id], names=u.name,
                           what="back in its brigade commander's range, no longer detached"))
    for u in ours:
        h = sit.units[u.id]["hex"]
        if senior_here.get(h):
            in_command.add(u.id)  # rule 20.9: stacked with an in-command commander
            continue
        if u.is_artillery:
            chain = _chain(ctx, u.formation)
            for cid in leaders:
                if cid in chain or sc.commanders[cid].rank == "army" or (
                        sc.commanders[cid].rank == "brigade" and sc.commanders[cid].superior in chain):
                    reach = REGIMENT_RANGE if sc.commanders[cid].rank == "brigade" else _range_of(sc.commanders[cid].rank, False)
                    if traced_distance(ctx, side, where[cid], h, reach) is not None:
                        in_command.add(u.id)
                        break
            continue
        if sit.units[u.id]["detached"]:
            continue
        if u.brigade in in_command and traced_distance(ctx, side, where[u.brigade], h, REGIMENT_RANGE) is not None:
            in_command.add(u.id)
    # the word passes from regiment to adjacent regiment of the same brigade (rule 20.7)
    queue = deque(u.id for u in ours if u.id in in_command and u.brigade)
    while queue:
        uid = queue.popleft()
        h = sit.units[uid]["hex"]
        for n in [h] + list(ctx.sc.board.neighbours[h]):
            for other in sit.units_at(n):
                info = sc.units[other]
                if other not in in_command and info.brigade == sc.units[uid].brigade and not sit.units[other]["detached"]:
                    in_command.add(other)
                    queue.append(other)
    out = [u for u in ours if u.id not in in_command]
    if out:
        ctx.emit(event("out_of_command", N_("Out of command (may not enter an enemy ZOC): %(names)s."),
                       units=[u.id for u in out], names=", ".join(u.name for u in out)))


def _chain(ctx: Context, cid: str | None) -> set[str]:
    """``cid`` and every commander under him."""
    out = set()
    if not cid:
        return out
    todo = [cid]
    while todo:
        c = todo.pop()
        out.add(c)
        todo += [x.id for x in ctx.sc.commanders.values() if x.superior == c]
    return out
