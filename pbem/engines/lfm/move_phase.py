"""The movement phase (rule phase 5): reinforcements and returning units, moves by
destination or by path, mounting and dismounting, unlimbering, charges, build and recover
markers; then the end-of-movement checks (over-stacking, brigade commanders with their
regiments, the Charged markers).

Every order that cannot be carried out is skipped with the rule that forbids it, in a report
to its own side only (``order_skipped`` events go ``to`` the side: the other side learns what
happened on the map, never what was intended)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from pbem.engines.base import event

from .charges import charge, mark_charged
from .command import traced_distance, REGIMENT_RANGE
from .integrity import bound, cut_off, move_breaks_it, rejoin_hex, with_brigade
from .losses import eliminate, nearest_home
from .messages import N_
from .movement import Field, mover_for, path_to, search, why_not
from .construction import works_to_hold
from .reinforcements import Entry, arrivals, enter_the_rest, entry_for, entry_of, move_entry, mp_text
from .situation import ON_MAP, Context

RETREAT_HEXES = 2  # rule 9: leaving a ZOC is a retreat of one or two hexes


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


def skipped(ctx: Context, side: str, text: str, why: str) -> None:
    """An order not carried out, and why: for its own side's eyes only."""
    ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why, side=side, to=[side]))


class MovementPhase:
    def __init__(self, ctx: Context, side: str, in_command: set[str]):
        self.ctx, self.side, self.in_command = ctx, side, in_command
        self.sit = ctx.sit
        self.spent: dict[str, int] = {}
        self.used_road: set[str] = set()
        self.moved: set[str] = set()  # units that moved (or charged) this phase
        self.mode_changed: set[str] = set()
        self.mode_after_move: set[str] = set()  # rule 1.5: they move no further
        self.stopped: dict[str, str] = {}  # unit -> why it may move no further this phase (5.2, 3.7)
        self.in_zoc: dict[str, str] = {}  # unit -> why: it entered an enemy ZOC (5.2; it may still charge)
        self.retreated: dict[str, int] = {}  # hexes moved by units that started in an enemy ZOC (rule 9)
        self.unlimbered: set[str] = set()
        self.entered_at: dict[tuple[str, int], int] = {}
        self.start_zoc: dict[str, bool] = {}
        self.due = set(arrivals(ctx, side))
        self.was_cut_off = set(cut_off(ctx, side))  # rule 22.1: these must rejoin their brigades
        self.promised: dict[str, str] = {}  # unit -> hex a later move order of this mail sends it
        self.later_mode: set[str] = set()  # units a later MOUNT or DISMOUNT order of this mail names
        self.hold = works_to_hold(ctx)
        enemy_zoc = self.sit.zoc_hexes(ctx.sc.enemy(side))
        for uid, u in self.sit.units.items():
            if u["status"] == ON_MAP and ctx.sc.units[uid].side == side:
                self.start_zoc[uid] = u["hex"] in enemy_zoc
                u["started"] = u["hex"]

    def skip(self, text: str, why: str) -> None:
        skipped(self.ctx, self.side, text, why)

    def name(self, ref: str) -> str:
        return self.sit.commander_name(ref) if ref in self.ctx.sc.commanders else self.ctx.name(ref)

    # --- the orders ----------------------------------------------------------
    def run(self, ops: list[dict]) -> None:
        waiting: set[str] = set()
        for op in ops:
            if op["op"] == "enter_at":
                refs = [r for r in op["units"] if not r.startswith("@")]
                waiting.update(move_entry(self.ctx, self.side, refs, op["hex"], op["text"]))
        self.due = set(arrivals(self.ctx, self.side)) - waiting
        plans = [(i, expand(self.ctx, op["units"])[0], op["to"] if op["op"] == "move" else op["path"][-1])
                 for i, op in enumerate(ops) if op["op"] in ("move", "via")]
        modes = [(i, expand(self.ctx, op["units"])[0]) for i, op in enumerate(ops) if op["op"] in ("mount", "dismount")]
        for i, op in enumerate(ops):
            kind = op["op"]
            if kind in ("move", "via"):
                self.promised = {u: dest for j, units, dest in plans if j > i for u in units}
                self.later_mode = {u for j, units in modes if j > i for u in units}
                self.move(op)
            elif kind in ("mount", "dismount"):
                self.mount(op, kind == "mount")
            elif kind == "unlimber":
                self.unlimber(op)
            elif kind == "charge":
                self.charge(op)
            elif kind == "recover":
                self.recover(op)
        enter_the_rest(self.ctx, self.side, self.due, self.join_brigade)
        self.rejoin_the_cut_off()
        self.finish()
        for op in ops:
            if op["op"] == "remove_works":
                self.remove_works(op)
        self.check_integrity()

    def recover(self, op: dict) -> None:
        cid = op["commander"]
        c = self.sit.cmds[cid]
        if c["status"] != ON_MAP:
            return self.skip(op["text"], f"{self.name(cid)} is not on the map")
        if c["moved"]:
            return self.skip(op["text"], f"{self.name(cid)} has moved this turn: no recovery (rule 17)")
        c["recover"] = True
        self.ctx.emit(event("recover_marker", N_("%(name)s stays put to recover an eliminated regiment."),
                            commander=cid, name=self.sit.commander_name(cid)))

    def charge(self, op: dict) -> None:
        units, _ = expand(self.ctx, op["units"])
        why = self.held(units, charging=True)
        if why:
            return self.skip(op["text"], why)
        if self.used_road.intersection(units):
            return self.skip(op["text"], "charging cavalry may not have used road movement this phase (rule 3.1)")
        result = charge(self.ctx, self.side, units, op["target"], op.get("from"), self.in_command, self.spent, op["text"])
        if result is None:
            return
        self.moved.update(units)
        if result == "thrown back":
            for u in units:
                self.stopped[u] = f"{self.ctx.name(u)} was thrown back and may move no further (rule 3.7)"

    def held(self, units: list[str], charging: bool = False) -> str | None:
        """Why these units may not move now, or None: building, unlimbered, stopped this phase."""
        ctx, sit = self.ctx, self.sit
        for u in units:
            info, st = ctx.sc.units[u], sit.units[u]
            if st.get("build"):
                return f"{info.name} is building breastworks and may not move this turn (rule 24.1.a)"
            if u in self.stopped:
                return self.stopped[u]
            if u in self.in_zoc and not charging:
                return self.in_zoc[u]
            if u in self.mode_after_move:
                return f"{info.name} changed mode after moving and may move no further (rule 1.5)"
            if info.is_artillery and u in self.unlimbered:
                return f"{info.name} has unlimbered and may not move on (rule 1.4)"
            if info.is_artillery and not st["limbered"] and st["status"] == ON_MAP:
                return f"{info.name} is unlimbered and may not move (rule 1.4)"
            if not charging and self.start_zoc.get(u) and self.retreated.get(u, 0) >= RETREAT_HEXES:
                return f"{info.name} has left an enemy ZOC by {RETREAT_HEXES} hexes: a retreat goes no further (rule 9)"
        return None

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
                return self.skip(op["text"], f"{ctx.name(u)} is not on the map")
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
        why = self.held(units)
        if why:
            return self.skip(op["text"], why)
        mover = mover_for(ctx, units, cmds, self.side, self.in_command)
        refs = units + cmds
        field = Field(ctx, self.side)
        entry: Entry | None = None
        steps = None
        if where.startswith("entry:"):
            start = where[6:]
            if start in field.enemy_hexes:
                return self.skip(op["text"], f"the entry hex {start} is held by the enemy")
            mp = min(entry_of(ctx, r)[1] for r in refs)
            entry = entry_for(ctx, refs, start, mover.mode, field.zoi, self.entered_at.get((start, mp), 0))
            if entry.zoi_covered:
                mover = replace(mover, no_road_rate=True)
            starts = entry.starts()
        else:
            start = where
            budget = min((sit.movement_points(u) * 12 - self.spent.get(u, 0)) for u in units) if units else \
                min(8 * 12 - self.spent.get(c, 0) for c in cmds)
            starts = [(budget, any(u in self.used_road for u in units), 0)]
            leaving = [u for u in units if self.start_zoc.get(u)]
            if leaving:
                steps = RETREAT_HEXES - max(self.retreated.get(u, 0) for u in leaving)
        targets = [op["to"]] if op["op"] == "move" else [h for h in op["path"] if h != start]
        attempts = [self.route(mover, start, targets, budget, road_used, field, steps) + (first,)
                    for budget, road_used, first in starts]
        path, cost, used, stop, cut, first = min(attempts, key=lambda a: (a[3] is not None, -len(a[0]), a[1] + a[5]))
        if stop is not None and (op["op"] == "move" or len(path) == 1):
            return self.skip(op["text"], self.why_not(mover, stop[0], stop[1], field, stop[2], stop[3], stop[4], entry))
        if stop is not None:  # a path stops at the last hex it could reach
            ctx.emit(event("path_stopped", N_("%(names)s stopped at %(hex)s: %(why)s."), units=refs,
                           names=", ".join(self.name(r) for r in refs), hex=path[-1], to=[self.side],
                           why=self.why_not(mover, stop[0], stop[1], field, stop[2], stop[3], stop[4], entry)))
        if cut:
            ctx.emit(event("path_stopped", N_("%(names)s stopped at %(hex)s: %(why)s."), units=refs,
                           names=", ".join(self.name(r) for r in refs), hex=path[-1], to=[self.side],
                           why="they entered an enemy ZOC there, and a move stops in one (rule 5.2)"))
        end = path[-1]
        problem = self.end_problem(units, cmds, start, end, entry is not None)
        if problem:
            return self.skip(op["text"], problem)
        self.apply(refs, units, cmds, path, cost + first, used, entry, field)

    def route(self, mover, start, targets, budget, road_used, field, steps):  # noqa: ANN001
        """Follow ``targets`` from ``start``: (path, cost, road rate used, None, cut short by a ZOC
        before the last target) when the move ends well, else the path so far and (from, target,
        MP left, road used, steps left) where it could go no further."""
        ctx = self.ctx
        path, cost, used = [start], 0, road_used
        for target in targets:
            left = None if steps is None else steps - (len(path) - 1)
            best = search(ctx, mover, path[-1], budget - cost, field, road_used=used, target=target, max_steps=left)
            found = path_to(best, target)
            if found is None:
                return path, cost, used, (path[-1], target, budget - cost, used, left), False
            seg, seg_cost, used = found
            path += seg[1:]
            cost += seg_cost
            if path[-1] in field.zoc and not mover.commander_only:
                return path, cost, used, None, target != targets[-1]
        return path, cost, used, None, False

    def why_not(self, mover, start, target, field, budget, used, steps, entry: Entry | None) -> str:  # noqa: ANN001
        """Why a move stops short, naming the rule; a stack coming on the map adds the column on
        its road (26.4), the ZOI on its entry hex (26.5) and its part allowance (26.6)."""
        ctx = self.ctx
        road_rule = None
        if entry is not None and entry.partial and not (entry.road and not entry.zoi_covered):
            road_rule = "entering with part of its allowance counts as road movement: no ZOC may be entered (rule 26.6)"
        why = why_not(ctx, mover, start, target, field, budget, used, steps, **({"road_into_zoc": road_rule} if road_rule else {}))
        if entry is None or not why.endswith("beyond the movement points left") and not why.startswith("no legal path"):
            return why
        if entry.zoi_covered and entry.road:
            relaxed = replace(mover, no_road_rate=False)
            full = replace(entry, zoi_covered=False)
            for budget2, used2, _ in full.starts():
                if path_to(search(ctx, relaxed, start, budget2, field, road_used=used2, target=target), target):
                    return "an enemy ZOI covers the entry hex: no road movement on entering (rule 26.5)"
        if entry.ahead and entry.road:
            first = replace(entry, ahead=0)
            for budget2, used2, _ in first.starts():
                if path_to(search(ctx, mover, start, budget2, field, road_used=used2, target=target), target):
                    return f"{target} is beyond {entry.column_text()}"
        return why

    def end_problem(self, units: list[str], cmds: list[str], start: str, end: str, entering: bool) -> str | None:
        """Why the move may not end in ``end`` (4.3, 20.8, 22.1, 24.1.b), or None. Over-stacking is
        not one: the excess is lost at the end of the movement phase (4.5)."""
        ctx, sit = self.ctx, self.sit
        if units and sit.mixes_modes(end, units, leaving=tuple(units)):
            changing = self.later_mode.intersection(units + [x for x in sit.units_at(end) if ctx.sc.units[x].is_cavalry])
            if not changing:
                return "a stack may not mix mounted and dismounted cavalry (rule 4.3)"
        for c in cmds:
            info = ctx.sc.commanders[c]
            if info.rank != "brigade" or end == start:
                continue
            regiments = [u for u in ctx.sc.brigades.get(c, []) if sit.units[u]["status"] == ON_MAP or u in units]
            if regiments and not any(u in units or sit.units[u]["hex"] == end or self.promised.get(u) == end
                                     for u in regiments):
                return "a brigade commander must stay stacked with a regiment of his brigade (rule 20.8)"
        if not entering and start in self.hold and units:
            staying = [x for x in sit.units_at(start) if x not in units]
            if not staying and not any(dest == start for dest in self.promised.values()):
                return f"a unit must stay in {start} while its breastworks are emplaced this turn (rule 24.1.b)"
        return move_breaks_it(ctx, units, start, end, self.was_cut_off | (set(units) if entering else set()), self.promised)

    def apply(self, refs, units, cmds, path, cost, used, entry: Entry | None, field) -> None:  # noqa: ANN001
        ctx, sit = self.ctx, self.sit
        end = path[-1]
        outside = [u for u in units if sit.units[u]["detached"] and not self.in_brigade_range(u)]
        for u in units:
            sit.place(u, end)
            self.spent[u] = self.spent.get(u, 0) + cost
            if used:
                self.used_road.add(u)
            if len(path) > 1:
                self.moved.add(u)
            if self.start_zoc.get(u):
                self.retreated[u] = self.retreated.get(u, 0) + len(path) - 1
            if end in field.zoc and len(path) > 1:
                self.in_zoc[u] = f"{ctx.name(u)} entered an enemy ZOC and may move no further (rule 5.2)"
            sit.units[u].pop("return", None)
        for c in cmds:
            sit.place_commander(c, end)
            sit.cmds[c]["moved"] = True
            self.spent[c] = self.spent.get(c, 0) + cost
        if entry is not None:
            key = (entry.hex, entry.mp)
            self.entered_at[key] = self.entered_at.get(key, 0) + 1
            self.due.difference_update(refs)
        night = ctx.sc.is_night(ctx.state["turn"])
        why = ""
        if any(self.start_zoc.get(u) for u in units) and len(path) > 1 and not night:
            sit.disorganize(end)
            why = ", disorganized: it left an enemy ZOC (rule 5.3)"
        if sit.disorganized(end):
            sit.disorganize(end)  # rule 14.3: joining a disorganized stack, or bringing a D in
        if units and len(path) > 1 and end in field.zoc:
            why += ", stopping in an enemy ZOC (rule 5.2)"
        ctx.state["last"]["moves"].append({"units": refs, "path": path})
        ctx.emit(event("move", N_("%(names)s %(done)s %(path)s (%(mp)s MP%(road)s)%(why)s."),
                       units=refs, names=", ".join(self.name(r) for r in refs), path=" -> ".join(path), hexes=path,
                       verb="enter at" if entry is not None else "move", done="entered at" if entry is not None else "moved", mp=mp_text(cost),
                       road=", road movement" if used else "", why=why, dest=end, into_zoc=end in field.zoc))
        for u in outside:
            if self.in_brigade_range(u):  # rule 22.3: entering its brigade commander's range
                sit.units[u]["detached"] = False  # it stays out of command this turn (SoP 2)
                ctx.emit(event("attach", N_("%(names)s: %(what)s."), units=[u], names=ctx.name(u),
                               what="back in its brigade commander's range, no longer detached (rule 22.3)"))

    def in_brigade_range(self, uid: str) -> bool:
        """Whether a regiment is within its brigade commander's 2-hex command range (20.7)."""
        ctx, sit = self.ctx, self.sit
        boss = sit.cmds.get(ctx.sc.units[uid].brigade or "")
        return bool(boss and boss["status"] == ON_MAP and sit.units[uid]["status"] == ON_MAP and
                    traced_distance(ctx, self.side, boss["hex"], sit.units[uid]["hex"], REGIMENT_RANGE) is not None)

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
        for h in {self.sit.units[u]["hex"] for u in units}:
            others = [x for x in self.sit.units_at(h) if x not in units and self.ctx.sc.units[x].is_cavalry]
            if any(bool(self.sit.units[x]["mounted"]) != mount for x in others):
                return self.skip(op["text"], "a stack may not mix mounted and dismounted cavalry (rule 4.3)")
        for u in units:
            self.sit.units[u]["mounted"] = mount
            self.mode_changed.add(u)
            if u in self.moved:
                self.mode_after_move.add(u)  # rule 1.5: move, then change mode; never move on
            else:
                self.spent[u] = 0  # it moves at its new mode's rate
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

    def join_brigade(self, uid: str) -> bool:
        """Rule 22.2: a regiment entering apart from its brigade, given no order, moves to join it by
        the fastest way it can; False when it has no brigade on the map to join."""
        ctx, sit = self.ctx, self.sit
        if not bound(ctx, uid, ()) or not ctx.sc.units[uid].enter or sit.units[uid]["status"] != "waiting":
            return False
        field = Field(ctx, self.side)
        start = entry_of(ctx, uid)[0]
        if start in field.enemy_hexes:
            return False
        mover = mover_for(ctx, [uid], [], self.side, self.in_command)
        mp = entry_of(ctx, uid)[1]
        entry = entry_for(ctx, [uid], start, mover.mode, field.zoi, self.entered_at.get((start, mp), 0))
        if entry.zoi_covered:
            mover = replace(mover, no_road_rate=True)
        reachable: dict = {}
        for budget, used, first in entry.starts():
            for key, (cost, prev) in search(ctx, mover, start, budget, field, road_used=used).items():
                if key not in reachable or cost + first < reachable[key][0]:
                    reachable[key] = (cost + first, prev)
        sit.place(uid, start)  # for the search of hexes by its brigade; taken back if none fits
        dest = rejoin_hex(ctx, uid, reachable, lambda h: not sit.stacking_problem(h, [uid], leaving=(uid,)))
        if dest is None and not sit.stacking_problem(start, [uid], leaving=(uid,)):
            dest = start
        if dest is None:
            sit.remove(uid, "waiting")
            sit.units[uid]["hex"] = None
            return False
        path, cost, used = path_to(reachable, dest)
        ctx.emit(event("rejoin", N_("%(name)s, entering apart from its brigade, moves by itself to join it (rule 22.2)."),
                       unit=uid, name=ctx.name(uid), hex=dest))
        self.apply([uid], [uid], [], path, cost, used, entry, field)
        return True

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
            self.apply([u], [u], [], path, cost, used, None, field)

    def check_integrity(self) -> None:
        """Rule 22.1: a regiment still cut off from its brigade at the end of movement is named,
        to rejoin at its earliest opportunity."""
        for u in cut_off(self.ctx, self.side):
            self.ctx.emit(event("integrity", N_("%(name)s at %(hex)s is cut off from its brigade and must rejoin it (rule 22.1)."),
                                unit=u, name=self.ctx.name(u), hex=self.sit.units[u]["hex"]))

    def finish(self) -> None:
        """End of movement: over-stacked stacks lose the excess (rule 4.5); brigade commanders
        rejoin a regiment (20.8); stacks that charged are disorganized (3.11)."""
        ctx, sit = self.ctx, self.sit
        for h in sorted({sit.units[u]["hex"] for u in sit.units if sit.units[u]["status"] == ON_MAP
                         and ctx.sc.units[u].side == self.side}):
            if sit.stacking_problem(h, []) not in (None, "enemy") or sit.mixes_modes(h, []):
                for victim in excess(ctx, h, self.moved):
                    eliminate(ctx, victim, "over-stacked at the end of movement (rule 4.5)")
        for cid, c in sit.cmds.items():
            info = ctx.sc.commanders[cid]
            if info.side != self.side or info.rank != "brigade" or c["status"] != ON_MAP:
                continue
            if not any(ctx.sc.units[u].brigade == cid for u in sit.units_at(c["hex"])):
                dest = nearest_home(ctx, cid, c["hex"])
                if dest and dest != c["hex"]:
                    sit.place_commander(cid, dest)
                    ctx.emit(event("commander_moves", N_("%(name)s, left alone, goes to %(hex)s."),
                                   commander=cid, name=sit.commander_name(cid), hex=dest, frm=c["hex"]))
        mark_charged(ctx)
        for u in sit.units.values():
            u.pop("started", None)


def excess(ctx: Context, h: str, newcomers: set[str]) -> list[str]:
    """The units an over-stacked stack gives up (rule 4.5: "eliminate SPs in excess of the
    limits"): the fewest SP that end every violation; among equal losses, units that moved in
    this phase first, then the fewest units."""
    sit = ctx.sit
    here = sorted(sit.units_at(h))
    best = None
    for n in range(1, len(here) + 1):
        for group in combinations(here, n):
            rest = [u for u in here if u not in group]
            if rest and (sit.stacking_problem(h, [], leaving=group) not in (None, "enemy")
                         or sit.mixes_modes(h, [], leaving=group)):
                continue
            key = (sum(sit.sp(u) for u in group), -sum(u in newcomers for u in group), n, group)
            if best is None or key < best:
                best = key
    return list(best[3]) if best else []
