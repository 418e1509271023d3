"""The movement phase (rule phase 5): reinforcements and returning units, moves by
destination or by path, mounting and dismounting, unlimbering, charges, detaching, build
and recover markers; then the end-of-movement checks (over-stacking, brigade commanders
with their regiments, the Charged markers)."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .charges import charge, mark_charged
from .integrity import bound, cut_off, move_breaks_it, rejoin_hex, with_brigade
from .losses import eliminate, nearest_home
from .messages import N_
from .movement import Field, Mover, mover_for, path_to, search
from .situation import ON_MAP, OFF_MAP, WAITING, Context
from .tables import terrain


def expand(ctx: Context, refs: list[str]) -> tuple[list[str], list[str]]:
    """Unit ids and commander ids named by ``refs`` (ids, or ``@hex`` for a whole stack)."""
    sit = ctx.sit
    units, cmds = [], []
    for ref in refs:
        if ref.startswith("@"):
            units += [u for u in sit.units_at(ref[1:]) if u not in units]
            cmds += [c for c in sit.commanders_at(ref[1:]) if c not in cmds]
        elif ref in ctx.sc.commanders:
            cmds.append(ref)
        elif ref not in units:
            units.append(ref)
    return units, cmds


def arrivals(ctx: Context, side: str) -> list[str]:
    """Units and commanders of ``side`` due this turn (reinforcements, units returning)."""
    turn = ctx.state["turn"]
    out = []
    for uid, u in ctx.sit.units.items():
        info = ctx.sc.units[uid]
        if info.side != side:
            continue
        if u["status"] == WAITING and info.enter and (u.get("entry") or info.enter)["turn"] <= turn:
            out.append(uid)
        elif u["status"] == OFF_MAP and u.get("return", {}).get("turn", 99) <= turn:
            out.append(uid)
    for cid, c in ctx.sit.cmds.items():
        info = ctx.sc.commanders[cid]
        if info.side == side and c["status"] == WAITING and info.enter and (c.get("entry") or info.enter)["turn"] <= turn:
            out.append(cid)
    return out


def scheduled(ctx: Context, ref: str) -> dict | None:
    """Where and when ``ref`` (waiting or off the map) is to enter: {"hex", "turn"}, or None."""
    if ref in ctx.sc.commanders:
        c = ctx.sit.cmds[ref]
        return (c.get("entry") or ctx.sc.commanders[ref].enter) if c["status"] == WAITING else None
    u = ctx.sit.units[ref]
    if u["status"] == OFF_MAP:
        return u.get("return")
    return (u.get("entry") or ctx.sc.units[ref].enter) if u["status"] == WAITING else None


def move_entry(ctx: Context, side: str, refs: list[str], hex_: str, text: str) -> None:
    """Rules 26.7 and 9.1.e: units not yet on the map may come on elsewhere along the edge, a
    turn later for every 5 hexes (or part) from their own entry hex."""
    board = ctx.sc.board
    if not board.on_edge(hex_):
        ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=f"{hex_} is not on the map edge", side=side))
        return
    for ref in refs:
        when = scheduled(ctx, ref)
        if when is None:
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text,
                           why=f"{ref} is not waiting to enter", side=side))
            continue
        delay = -(-distance(when["hex"], hex_) // 5)
        new = {"hex": hex_, "turn": max(when["turn"], ctx.state["turn"]) + delay}
        if ref in ctx.sc.commanders:
            ctx.sit.cmds[ref]["entry"] = new
        elif ctx.sit.units[ref]["status"] == OFF_MAP:
            ctx.sit.units[ref]["return"] = new
        else:
            ctx.sit.units[ref]["entry"] = new
        name = ctx.sit.commander_name(ref) if ref in ctx.sc.commanders else ctx.name(ref)
        ctx.emit(event("entry_moved", N_("%(name)s will enter at %(hex)s on turn %(turn)s (%(delay)s turn(s) later for %(distance)s hexes along the edge)."),
                       unit=ref, name=name, hex=hex_, turn=new["turn"], delay=delay, distance=distance(when["hex"], hex_)))


def entry_of(ctx: Context, ref: str) -> tuple[str, int]:
    """Entry hex and MP this turn of an arriving unit or commander."""
    if ref in ctx.sc.commanders:
        e = ctx.sc.commanders[ref].enter
        return (ctx.sit.cmds[ref].get("entry") or e)["hex"], int(e.get("mp", 8))
    u = ctx.sit.units[ref]
    if u["status"] == OFF_MAP:
        return u["return"]["hex"], ctx.sit.movement_points(ref)
    e = ctx.sc.units[ref].enter
    return (u.get("entry") or e)["hex"], int(e.get("mp", ctx.sit.movement_points(ref)))


class MovementPhase:
    def __init__(self, ctx: Context, side: str, in_command: set[str]):
        self.ctx, self.side, self.in_command = ctx, side, in_command
        self.sit = ctx.sit
        self.spent: dict[str, int] = {}
        self.used_road: set[str] = set()
        self.mode_changed: set[str] = set()
        self.unlimbered: set[str] = set()
        self.entered_at: dict[str, int] = {}
        self.start_zoc: dict[str, bool] = {}
        self.due = set(arrivals(ctx, side))
        self.was_cut_off = set(cut_off(ctx, side))  # rule 22.1: these must rejoin their brigades
        self.promised: dict[str, str] = {}  # unit -> hex a later move order of this mail sends it
        enemy_zoc = self.sit.zoc_hexes(ctx.sc.enemy(side))
        for uid, u in self.sit.units.items():
            if u["status"] == ON_MAP and ctx.sc.units[uid].side == side:
                self.start_zoc[uid] = u["hex"] in enemy_zoc
                u["started"] = u["hex"]

    def skip(self, text: str, why: str) -> None:
        self.ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why, side=self.side))

    # --- the orders ----------------------------------------------------------
    def run(self, ops: list[dict]) -> None:
        for op in ops:
            if op["op"] == "enter_at":
                refs = [r for r in op["units"] if not r.startswith("@")]
                move_entry(self.ctx, self.side, refs, op["hex"], op["text"])
        self.due = set(arrivals(self.ctx, self.side))
        plans = [(i, expand(self.ctx, op["units"])[0], op["to"] if op["op"] == "move" else op["path"][-1])
                 for i, op in enumerate(ops) if op["op"] in ("move", "via")]
        for i, op in enumerate(ops):
            kind = op["op"]
            if kind in ("move", "via"):
                self.promised = {u: dest for j, units, dest in plans if j > i for u in units}
                self.move(op)
            elif kind in ("mount", "dismount"):
                self.mount(op, kind == "mount")
            elif kind == "unlimber":
                self.unlimber(op)
            elif kind == "charge":
                units, _ = expand(self.ctx, op["units"])
                if self.used_road.intersection(units):
                    self.skip(op["text"], "charging cavalry may not have used road movement this phase (rule 3.1)")
                else:
                    charge(self.ctx, self.side, units, op["target"], op.get("from"), self.in_command, self.spent, op["text"])
            elif kind in ("detach", "attach"):
                units, _ = expand(self.ctx, op["units"])
                for u in units:
                    self.sit.units[u]["detached"] = kind == "detach"
                self.ctx.emit(event(kind, N_("%(names)s: %(what)s."), units=units, names=", ".join(self.ctx.name(u) for u in units),
                                    what="detached from the brigade" if kind == "detach" else "rejoin the brigade"))
            elif kind == "recover":
                cid = op["commander"]
                if self.sit.cmds[cid]["status"] == ON_MAP and not self.sit.cmds[cid]["moved"]:
                    self.sit.cmds[cid]["recover"] = True
                    self.ctx.emit(event("recover_marker", N_("%(name)s stays put to recover an eliminated regiment."),
                                        commander=cid, name=self.sit.commander_name(cid)))
                else:
                    self.skip(op["text"], "he has moved or is not on the map")
        self.rejoin_the_cut_off()
        self.enter_the_rest()
        self.finish()
        for op in ops:
            if op["op"] == "remove_works":
                self.remove_works(op)
        self.check_integrity()

    def move(self, op: dict) -> None:
        ctx, sit = self.ctx, self.sit
        units, cmds = expand(ctx, op["units"])
        if not units and not cmds:
            return self.skip(op["text"], "nothing there to move")
        groups: dict[str, tuple[list[str], list[str]]] = {}
        for u in units:
            st = sit.units[u]
            if st["status"] == ON_MAP:
                groups.setdefault(st["hex"], ([], []))[0].append(u)
            elif u in self.due:
                groups.setdefault("entry:" + entry_of(ctx, u)[0], ([], []))[0].append(u)
            else:
                self.skip(op["text"], f"{ctx.name(u)} is not on the map")
                return
        for c in cmds:
            st = sit.cmds[c]
            if st["status"] == ON_MAP:
                groups.setdefault(st["hex"], ([], []))[1].append(c)
            elif c in self.due:
                groups.setdefault("entry:" + entry_of(ctx, c)[0], ([], []))[1].append(c)
        for where, (gu, gc) in groups.items():
            self.move_group(op, where, gu, gc)

    def move_group(self, op: dict, where: str, units: list[str], cmds: list[str]) -> None:
        ctx, sit = self.ctx, self.sit
        board = ctx.sc.board
        for u in units:
            info = ctx.sc.units[u]
            if sit.units[u].get("build"):
                return self.skip(op["text"], f"{info.name} is building breastworks")
            if info.is_artillery and not sit.units[u]["limbered"]:
                return self.skip(op["text"], f"{info.name} is unlimbered")
            if u in self.unlimbered:
                return self.skip(op["text"], f"{info.name} has unlimbered")
        mover = mover_for(ctx, units, cmds, self.side, self.in_command)
        refs = units + cmds
        entering = where.startswith("entry:")
        field = Field(ctx, self.side)
        if entering:
            start = where[6:]
            if start in field.enemy_hexes:
                return self.skip(op["text"], f"the entry hex {start} is held by the enemy")
            mp = min(entry_of(ctx, r)[1] for r in refs)
            column = self.entered_at.get(start, 0)
            road = board.has_road(start) and start not in field.zoi
            rate = terrain()["roads"]["road"]["rate"]
            first = rate if road else terrain()["hexes"][board.terrain[start]]["cost"]
            budget = mp * 12 - first - column * rate
            if budget < 0:
                return self.skip(op["text"], "no movement points left to enter")
            partial = any(entry_of(ctx, r)[1] < (sit.movement_points(r) if r in ctx.sc.units else 8) for r in refs)
            road_used = road or partial  # rule 26.6
            start_in_zoc = False
        else:
            start = where
            budget = min((sit.movement_points(u) * 12 - self.spent.get(u, 0)) for u in units) if units else \
                min(8 * 12 - self.spent.get(c, 0) for c in cmds)
            road_used = any(u in self.used_road for u in units)
            start_in_zoc = start in field.zoc
        if op["op"] == "move":
            targets = [op["to"]]
        else:
            targets = [h for h in op["path"] if h != start]
        path, cost, used = [start], 0, road_used
        for target in targets:
            best = search(ctx, mover, path[-1], budget - cost, field, road_used=used,
                          start_in_zoc=start_in_zoc if len(path) == 1 else path[-1] in field.zoc, target=target)
            found = path_to(best, target)
            if found is None:
                if op["op"] == "move":
                    return self.skip(op["text"], why_not(ctx, mover, path[-1], target, field))
                # a path stops at the last hex it could reach
                ctx.emit(event("path_stopped", N_("%(names)s stopped at %(hex)s: %(why)s."), units=refs,
                               names=", ".join(self.name(r) for r in refs), hex=path[-1],
                               why=why_not(ctx, mover, path[-1], target, field)))
                break
            seg, seg_cost, used = found
            path += seg[1:]
            cost += seg_cost
            if path[-1] in field.zoc and not mover.commander_only:
                break
        # stacking at the end (moving through is free, ending over the limits is not)
        while len(path) > 1 and units and sit.stacking_problem(path[-1], units, leaving=tuple(units)):
            if op["op"] == "move":
                return self.skip(op["text"], f"{path[-1]} would be over-stacked ({sit.stacking_problem(path[-1], units, leaving=tuple(units))})")
            path.pop()
        if entering and units and sit.stacking_problem(path[-1], units):
            return self.skip(op["text"], f"{path[-1]} would be over-stacked")
        broken = move_breaks_it(ctx, units, start, path[-1], self.was_cut_off | (set(units) if entering else set()), self.promised)
        if broken:
            return self.skip(op["text"], broken)
        self.apply(refs, units, cmds, path, cost, used, entering, start_in_zoc, field)

    def name(self, ref: str) -> str:
        return self.sit.commander_name(ref) if ref in self.ctx.sc.commanders else self.ctx.name(ref)

    def apply(self, refs, units, cmds, path, cost, used, entering, start_in_zoc, field) -> None:
        ctx, sit = self.ctx, self.sit
        end = path[-1]
        for u in units:
            sit.place(u, end)
            self.spent[u] = self.spent.get(u, 0) + cost
            if used:
                self.used_road.add(u)
            sit.units[u].pop("return", None)
        for c in cmds:
            sit.place_commander(c, end)
            sit.cmds[c]["moved"] = True
            self.spent[c] = self.spent.get(c, 0) + cost
        if entering:
            self.entered_at[path[0]] = self.entered_at.get(path[0], 0) + 1
            self.due.difference_update(refs)
        night = ctx.sc.is_night(ctx.state["turn"])
        why = ""
        if units and len(path) > 1 and start_in_zoc and not night:
            sit.disorganize(end)
            why = ", disorganized: it left an enemy ZOC (rule 5.3)"
        if sit.disorganized(end):
            sit.disorganize(end)  # rule 14.3: joining a disorganized stack, or bringing a D in
        ctx.state["last"]["moves"].append({"units": refs, "path": path})
        ctx.emit(event("move", N_("%(names)s %(done)s %(path)s (%(mp)s MP%(road)s)%(why)s."),
                       units=refs, names=", ".join(self.name(r) for r in refs), path=" -> ".join(path), hexes=path,
                       verb="enter at" if entering else "move", done="entered at" if entering else "moved", mp=_mp(cost), road=", road movement" if used else "",
                       why=why, dest=end, into_zoc=end in field.zoc))

    def mount(self, op: dict, mount: bool) -> None:
        units, _ = expand(self.ctx, op["units"])
        for u in units:
            info, st = self.ctx.sc.units[u], self.sit.units[u]
            if not info.is_cavalry or st["status"] != ON_MAP:
                return self.skip(op["text"], f"{info.name} is not cavalry on the map")
            if u in self.mode_changed:
                return self.skip(op["text"], f"{info.name} already changed mode this phase (rule 1.5)")
            if bool(st["mounted"]) == mount:
                return self.skip(op["text"], f"{info.name} is already {'mounted' if mount else 'dismounted'}")
        hexes = {self.sit.units[u]["hex"] for u in units}
        for h in hexes:
            others = [x for x in self.sit.units_at(h) if x not in units and self.ctx.sc.units[x].is_cavalry]
            if any(bool(self.sit.units[x]["mounted"]) != mount for x in others):
                return self.skip(op["text"], "a stack may not mix mounted and dismounted cavalry (rule 4.3)")
        for u in units:
            self.sit.units[u]["mounted"] = mount
            self.mode_changed.add(u)
        self.ctx.emit(event("mount" if mount else "dismount", N_("%(names)s %(done)s."), units=units,
                            names=", ".join(self.ctx.name(u) for u in units), verb="mount" if mount else "dismount",
                            done="mounted" if mount else "dismounted"))

    def unlimber(self, op: dict) -> None:
        units, _ = expand(self.ctx, op["units"])
        for u in units:
            info, st = self.ctx.sc.units[u], self.sit.units[u]
            if not info.is_artillery or st["status"] != ON_MAP or not st["limbered"]:
                self.skip(op["text"], f"{info.name} is not limbered artillery on the map")
                continue
            others = [x for x in self.sit.units_at(st["hex"]) if x != u and self.ctx.sc.units[x].is_artillery]
            if others and sum(self.sit.sp(x) for x in others) + info.sp > 10:
                self.skip(op["text"], f"unlimbered, {info.name} would over-stack its hex (rule 4.2)")
                continue
            st["limbered"] = False
            self.unlimbered.add(u)
            self.ctx.emit(event("unlimber", N_("%(name)s unlimbers at %(hex)s."), unit=u, name=info.name, hex=st["hex"]))

    def remove_works(self, op: dict) -> None:
        """Rule 24.5-24.6: a unit ending its movement in a hex with breastworks may remove them."""
        units, _ = expand(self.ctx, op["units"])
        hexes = {self.sit.units[u]["hex"] for u in units if self.sit.units[u]["status"] == ON_MAP}
        for h in sorted(hexes):
            if self.ctx.state["breastworks"].pop(h, None):
                self.ctx.state["works_side"].pop(h, None)
                self.ctx.emit(event("works_removed", N_("The breastworks at %(hex)s are removed."), hex=h))
            else:
                self.skip(op["text"], f"no breastworks at {h}")

    def rejoin_the_cut_off(self) -> None:
        """Rule 22.1: a regiment cut off when the phase began and given no move order moves by
        itself to the reachable hex nearest its brigade (one in an enemy ZOC stays: the rule
        does not make it break contact)."""
        ctx, sit = self.ctx, self.sit
        for u in sorted(self.was_cut_off):
            st = sit.units[u]
            if (st["status"] != ON_MAP or u in self.spent or self.start_zoc.get(u) or st.get("build")
                    or not bound(ctx, u) or with_brigade(ctx, u, st["hex"])):
                continue
            field = Field(ctx, self.side)
            reachable = search(ctx, mover_for(ctx, [u], [], self.side, self.in_command), st["hex"],
                               sit.movement_points(u) * 12, field)
            dest = rejoin_hex(ctx, u, reachable, lambda h: not sit.stacking_problem(h, [u], leaving=(u,)))
            if dest is None:
                continue
            path, cost, used = path_to(reachable, dest)
            ctx.emit(event("rejoin", N_("%(name)s, cut off from its brigade, moves by itself to rejoin it (rule 22.1)."),
                           unit=u, name=ctx.name(u), hex=dest))
            self.apply([u], [u], [], path, cost, used, False, False, field)

    def check_integrity(self) -> None:
        """Rule 22.1: a regiment still cut off from its brigade at the end of movement is named,
        to rejoin at its earliest opportunity."""
        for u in cut_off(self.ctx, self.side):
            self.ctx.emit(event("integrity", N_("%(name)s at %(hex)s is cut off from its brigade and must rejoin it (rule 22.1)."),
                                unit=u, name=self.ctx.name(u), hex=self.sit.units[u]["hex"]))

    def enter_the_rest(self) -> None:
        """Arrivals nobody ordered enter and stop on their entry hex, each while the hex is
        free of the enemy and within the stacking limits; the others wait for the next turn."""
        ctx, sit = self.ctx, self.sit
        by_hex: dict[str, list[str]] = {}
        for ref in sorted(self.due, key=lambda r: (r not in ctx.sc.units, r)):
            by_hex.setdefault(entry_of(ctx, ref)[0], []).append(ref)
        for h, refs in by_hex.items():
            placed, delayed = [], []
            for ref in refs:
                if ref in ctx.sc.commanders:
                    if sit.side_at(h) in (None, self.side) and (placed or not any(r in ctx.sc.units for r in refs)):
                        sit.place_commander(ref, h)
                    continue
                if sit.side_at(h) not in (None, self.side) or sit.stacking_problem(h, [ref]):
                    delayed.append(ref)
                    continue
                sit.place(ref, h)
                sit.units[ref].pop("return", None)
                placed.append(ref)
            if placed:
                ctx.emit(event("move", N_("%(names)s %(done)s %(path)s (%(mp)s MP%(road)s)%(why)s."), units=placed,
                               names=", ".join(ctx.name(u) for u in placed), path=h, hexes=[h], verb="enter at", done="entered at",
                               mp=_mp(terrain()["hexes"][ctx.sc.board.terrain[h]]["cost"]), road="", why="", dest=h, into_zoc=False))
            if delayed:
                ctx.emit(event("entry_delayed", N_("%(names)s cannot enter at %(hex)s this turn (blocked or full)."),
                               units=delayed, names=", ".join(ctx.name(u) for u in delayed), hex=h))

    def finish(self) -> None:
        """End of movement: over-stacked stacks lose the excess (rule 4.5); brigade commanders
        rejoin a regiment (20.8); stacks that charged are disorganized (3.11)."""
        ctx, sit = self.ctx, self.sit
        for h in sorted({sit.units[u]["hex"] for u in sit.units if sit.units[u]["status"] == ON_MAP
                         and ctx.sc.units[u].side == self.side}):
            while sit.stacking_problem(h, []) not in (None, "enemy"):
                here = sit.units_at(h)
                problem = sit.stacking_problem(h, [])
                if problem == "brigades":
                    brigades = {}
                    for u in here:
                        if not ctx.sc.units[u].is_artillery:
                            brigades.setdefault(ctx.sc.units[u].brigade, []).append(u)
                    victim = min(brigades.values(), key=lambda g: sum(sit.sp(x) for x in g))[0]
                elif problem == "artillery":
                    victim = min((u for u in here if ctx.sc.units[u].is_artillery), key=sit.sp)
                else:
                    victim = min((u for u in here if not ctx.sc.units[u].is_artillery), key=sit.sp)
                eliminate(ctx, victim, "over-stacked at the end of movement (rule 4.5)")
        for cid, c in sit.cmds.items():
            info = ctx.sc.commanders[cid]
            if info.side != self.side or info.rank != "brigade" or c["status"] != ON_MAP:
                continue
            if not any(ctx.sc.units[u].brigade == cid for u in sit.units_at(c["hex"])):
                dest = nearest_home(ctx, cid, c["hex"])
                if dest and dest != c["hex"] and any(ctx.sc.units[u].brigade == cid for u in sit.units_at(dest)):
                    sit.place_commander(cid, dest)
                    ctx.emit(event("commander_moves", N_("%(name)s, left alone, goes to %(hex)s."),
                                   commander=cid, name=sit.commander_name(cid), hex=dest, frm=c["hex"]))
        mark_charged(ctx)
        for u in sit.units.values():
            u.pop("started", None)


def _mp(twelfths: int) -> str:
    whole, rest = divmod(twelfths, 12)
    frac = {0: "", 3: "1/4", 4: "1/3", 6: "1/2", 8: "2/3", 9: "3/4"}.get(rest, f"{rest}/12")
    return f"{whole} {frac}".strip() if whole and frac else (frac or str(whole))


def why_not(ctx: Context, mover: Mover, start: str, target: str, field: Field) -> str:
    """Why ``target`` cannot be reached from ``start`` this phase, in a player's words."""
    if target in field.enemy_hexes:
        return f"{target} is held by the enemy"
    if target in field.zoc and not mover.may_enter_zoc:
        return f"{target} is in an enemy ZOC and the units may not enter one (out of command, shattered, detached, charged or night)"
    unlimited = search(ctx, mover, start, 10 ** 6, field, target=target)
    if path_to(unlimited, target) is None:
        return f"no legal path to {target}"
    return f"{target} is beyond the movement points left"
