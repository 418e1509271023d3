"""The battlefield as the rules see it during a resolve: the scenario's static data plus the
units' changing state, with hex indexes kept up to date, and the queries every rule asks
(stacks, strengths, disorganization, shatter, ZOC, ZOI, stacking).

Unit state (plain JSON in ``state["units"][id]``): ``status`` on_map / waiting (not entered) /
off_map (retreated off, returns) / eliminated (recoverable) / gone (permanently eliminated);
``hex``; ``d`` (disorganized; the cavalry Charged marker counts as one); ``charged``;
``mounted`` (cavalry); ``limbered`` (artillery); ``detached``; ``build`` (building breastworks).
Commander state (``state["commanders"][id]``): ``status`` on_map / waiting / removed; ``hex``;
``replaced`` (a casualty, his replacement serves); ``moved``; ``recover``.
Brigades (``state["brigades"][commander id]``): ``basis`` (the strength shatter is measured
against) and ``shattered``.
"""

from __future__ import annotations

from .los import line_of_sight
from .scenario import MOVEMENT_POINTS, Scenario, UnitInfo
from .standing import effective
from .tables import terrain

ON_MAP, WAITING, OFF_MAP, ELIMINATED, GONE = "on_map", "waiting", "off_map", "eliminated", "gone"
STACK_SP, ARTILLERY_SP, COMBAT_SP = 16, 10, 8
ZOI_RANGE, ARTILLERY_ZOI_RANGE = 3, 5


def has_breastworks(ctx, h: str) -> bool:  # noqa: ANN001
    """Breastworks stand in ``h``: built ones (24.1-24.2), or a town or sunken road, permanent
    breastworks (24.3)."""
    if ctx.state["breastworks"].get(h) == "built":
        return True
    return bool(terrain()["hexes"][ctx.sc.board.terrain[h]].get("breastworks"))


def initial_units(sc: Scenario) -> dict:
    return {u.id: {"status": ON_MAP if u.hex else WAITING, "hex": u.hex, "d": False, "charged": False,
                   "mounted": u.mounted, "limbered": u.limbered, "detached": False, "build": False}
            for u in sc.units.values()}


def initial_commanders(sc: Scenario) -> dict:
    return {c.id: {"status": ON_MAP if c.hex else WAITING, "hex": c.hex, "replaced": False, "moved": False,
                   "recover": False}
            for c in sc.commanders.values()}


def initial_brigades(sc: Scenario) -> dict:
    return {b: {"basis": sc.brigade_sp(b), "shattered": False} for b in sc.brigades}


class Situation:
    """Queries over one state; mutate positions only through ``place``/``remove``."""

    def __init__(self, scenario: Scenario, state: dict):
        self.sc = scenario
        self.board = scenario.board
        self.state = state
        self.units: dict[str, dict] = state["units"]
        self.cmds: dict[str, dict] = state["commanders"]
        self.info: dict[str, UnitInfo] = scenario.units
        self.at: dict[str, list[str]] = {}
        self.cmd_at: dict[str, list[str]] = {}
        # side -> its ZOC / ZOI hexes, dropped when one of that side's units moves
        self._zoi: dict[str, set[str]] = {}
        self._zoc: dict[str, set[str]] = {}
        for uid, u in self.units.items():
            if u["status"] == ON_MAP:
                self.at.setdefault(u["hex"], []).append(uid)
        for cid, c in self.cmds.items():
            if c["status"] == ON_MAP:
                self.cmd_at.setdefault(c["hex"], []).append(cid)

    # --- who is where ----------------------------------------------------
    def units_at(self, h: str) -> list[str]:
        return self.at.get(h, [])

    def commanders_at(self, h: str) -> list[str]:
        return self.cmd_at.get(h, [])

    def side_at(self, h: str) -> str | None:
        here = self.at.get(h)
        return self.info[here[0]].side if here else None

    def hexes_of(self, side: str) -> list[str]:
        return [h for h, here in self.at.items() if here and self.info[here[0]].side == side]

    def place(self, uid: str, h: str) -> None:
        self.remove(uid)
        u = self.units[uid]
        u["hex"], u["status"] = h, ON_MAP
        self.at.setdefault(h, []).append(uid)
        self._moved(uid)

    def remove(self, uid: str, status: str | None = None) -> None:
        u = self.units[uid]
        if u["status"] == ON_MAP:
            here = self.at.get(u["hex"], [])
            if uid in here:
                here.remove(uid)
                if not here:
                    del self.at[u["hex"]]
            self._moved(uid)
        if status is not None:
            u["status"] = status
            u["hex"] = None

    def _moved(self, uid: str) -> None:
        side = self.info[uid].side
        self._zoi.pop(side, None)
        self._zoc.pop(side, None)

    def place_commander(self, cid: str, h: str) -> None:
        c = self.cmds[cid]
        if c["status"] == ON_MAP and cid in self.cmd_at.get(c["hex"], []):
            self.cmd_at[c["hex"]].remove(cid)
            if not self.cmd_at[c["hex"]]:
                del self.cmd_at[c["hex"]]
        c["hex"], c["status"] = h, ON_MAP
        self.cmd_at.setdefault(h, []).append(cid)

    def remove_commander(self, cid: str) -> None:
        c = self.cmds[cid]
        if c["status"] == ON_MAP and cid in self.cmd_at.get(c["hex"], []):
            self.cmd_at[c["hex"]].remove(cid)
            if not self.cmd_at[c["hex"]]:
                del self.cmd_at[c["hex"]]
        c["status"], c["hex"] = "removed", None

    # --- strengths and states ----------------------------------------------
    def sp(self, uid: str) -> int:
        info = self.info[uid]
        if info.is_artillery and self.units[uid]["limbered"]:
            return info.sp_limbered
        return info.sp

    def shattered(self, uid: str) -> bool:
        b = self.info[uid].brigade
        return bool(b and self.state["brigades"][b]["shattered"])

    def marked(self, h: str) -> bool:
        """Whether a D marker is on the stack (one marks the whole stack, rule 14.2)."""
        return any(self.units[x]["d"] for x in self.at.get(h, []))

    def disorganized(self, h: str) -> bool:
        """A D marker on the stack (14.2), or, by default, a shattered unit in it: "Shattered units
        are already disorganized" (16.5); option ``shattered_is_disorganized: no`` reads them apart."""
        here = self.at.get(h, [])
        if any(self.units[x]["d"] for x in here):
            return True
        return self.shattered_counts_as_d() and any(self.shattered(x) for x in here)

    def shattered_counts_as_d(self) -> bool:
        return self.state.get("rules", {}).get("shattered_is_disorganized", "yes") == "yes"

    def disorganize(self, h: str) -> None:
        for x in self.at.get(h, []):
            if not self.shattered(x):  # shattered units are already disorganized (rule 16.5)
                self.units[x]["d"] = True

    def mounted(self, uid: str) -> bool:
        return bool(self.units[uid]["mounted"])

    def movement_points(self, uid: str) -> int:
        info = self.info[uid]
        if info.is_cavalry:
            return MOVEMENT_POINTS["cavalry" if self.mounted(uid) else "dismounted"]
        return MOVEMENT_POINTS.get(info.type, 5)

    def commander_cv(self, cid: str) -> int:
        info = self.sc.commanders[cid]
        cv = info.replacement_cv if self.cmds[cid]["replaced"] else info.cv
        return int(cv or 0)

    def commander_name(self, cid: str) -> str:
        info = self.sc.commanders[cid]
        return info.replacement_name if self.cmds[cid]["replaced"] else info.name

    def combat_units(self, h: str) -> list[str]:
        return list(self.at.get(h, []))

    def cr_of_stack(self, h: str) -> int:
        return max((self.info[x].cr for x in self.at.get(h, [])), default=0)

    # --- zones -----------------------------------------------------------------
    def zoc_hexes(self, side: str) -> set[str]:
        """The hexes in ``side``'s ZOC: each combat unit's hex and its six neighbours (rule 5.1)."""
        cached = self._zoc.get(side)
        if cached is not None:
            return cached
        out: set[str] = set()
        nb = self.board.neighbours
        for h in self.hexes_of(side):
            out.add(h)
            out.update(nb[h])
        self._zoc[side] = out
        return out

    def in_enemy_zoc(self, h: str, side: str) -> bool:
        if self.side_at(h) not in (None, side):
            return True
        return any(self.side_at(n) not in (None, side) for n in self.board.neighbours[h])

    def zoi_hexes(self, side: str) -> set[str]:
        """The hexes in ``side``'s ZOI: 3 hexes from combat units, 5 from artillery, each in
        the unit's line of sight (units do not block it; rule 6.1). None at night (rule 23.5)."""
        if self.sc.is_night(self.state["turn"]):
            return set()
        cached = self._zoi.get(side)
        if cached is not None:
            return cached
        out: set[str] = set()
        for h in self.hexes_of(side):
            reach = ARTILLERY_ZOI_RANGE if any(self.info[x].is_artillery for x in self.at[h]) else ZOI_RANGE
            out |= self.seen_from(h, reach)
        self._zoi[side] = out
        return out

    def seen_from(self, h: str, reach: int) -> frozenset[str]:
        """The hexes within ``reach`` of ``h`` that ``h`` can see (the map alone decides: units
        do not block a ZOI), kept on the board once computed."""
        key = (h, reach)
        seen = self.board.sight.get(key)
        if seen is None:
            seen = self.board.sight[key] = frozenset(
                t for t in self.board.within(h, reach) if line_of_sight(self.board, h, t) != "blocked")
        return seen

    # --- stacking ---------------------------------------------------------------
    def mixes_modes(self, h: str, arriving: list[str], leaving: tuple[str, ...] = ()) -> bool:
        """Whether ``arriving`` in ``h`` would mix mounted and dismounted cavalry (rule 4.3)."""
        here = [x for x in self.at.get(h, []) if x not in leaving and x not in arriving] + list(arriving)
        return len({bool(self.units[x]["mounted"]) for x in here if self.info[x].is_cavalry}) > 1

    def stacking_problem(self, h: str, arriving: list[str], leaving: tuple[str, ...] = ()) -> str | None:
        """Why ``arriving`` may not end in ``h`` beside what is there (rule 4), or None."""
        here = [x for x in self.at.get(h, []) if x not in leaving and x not in arriving] + list(arriving)
        if not here:
            return None
        sides = {self.info[x].side for x in here}
        if len(sides) > 1:
            return "enemy"
        troops = [x for x in here if not self.info[x].is_artillery]
        guns = [x for x in here if self.info[x].is_artillery]
        brigades = {self.info[x].brigade for x in troops}
        if len(brigades) > 1 and self.state.get("rules", {}).get("stacking", "one_brigade") == "one_brigade":
            return "brigades"
        if sum(self.sp(x) for x in troops) > STACK_SP:
            return "sp"
        if len(guns) > 1 and sum(self.sp(x) for x in guns) > ARTILLERY_SP:
            return "artillery"
        modes = {self.units[x]["mounted"] for x in troops if self.info[x].is_cavalry}
        if len(modes) > 1:
            return "mounted"
        return None


class Context:
    """Everything one resolve threads through the rules: the board, the dice, the events,
    the phase label for dice and what the picture will draw."""

    def __init__(self, scenario: Scenario, state: dict, dice, events: list[dict]):
        self.sc = scenario
        self.state = state
        self.sit = Situation(scenario, state)
        self.dice = dice
        self.events = events
        self.label = ""

    def emit(self, ev: dict) -> None:
        self.events.append(ev)

    def roll(self, what: str) -> int:
        return self.dice.roll(6, f"{self.label} {what}")

    def standing(self, side: str) -> dict:
        return effective(self.state["standing"].get(side) or {})

    def name(self, uid: str) -> str:
        return self.sc.units[uid].name

    def side_name(self, side: str) -> str:
        return self.sc.side_names.get(side, side)
