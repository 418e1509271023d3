"""The board as the rules see it during a resolve: the scenario's static data
plus the units' changing state, with a hex -> units index kept up to date.

Unit state (plain JSON in ``state["units"][id]``):
``status`` on_board / waiting (not entered yet) / eliminated / exited;
``hex``; ``reduced`` (flipped; a hit leader is reduced); ``mounted`` (None for
leaders and villages); ``activated`` and ``attacked`` this turn.
"""

from __future__ import annotations

from pbem.engines.base import event

from .options import option
from .scenario import MOVEMENT_POINTS, Scenario, UnitInfo

ON_BOARD, WAITING, ELIMINATED, EXITED = "on_board", "waiting", "eliminated", "exited"


def initial_units(scenario: Scenario) -> dict[str, dict]:
    units = {}
    for u in scenario.units.values():
        units[u.id] = {
            "status": ON_BOARD if u.hex else WAITING,
            "hex": u.hex,
            "reduced": False,
            "mounted": u.mounted,
            "activated": False,
            "attacked": False,
        }
    return units


class Situation:
    """Queries over one state's units; mutate only through its methods so the index stays right."""

    def __init__(self, scenario: Scenario, state: dict):
        self.scenario = scenario
        self.board = scenario.board
        self.state = state
        self.units: dict[str, dict] = state["units"]
        self.info: dict[str, UnitInfo] = scenario.units
        self.at: dict[str, list[str]] = {}
        # side -> hexes it may not move through; dropped when an enemy of that side moves
        self.blocked_cache: dict[str, set[str]] = {}
        for uid, u in self.units.items():
            if u["status"] == ON_BOARD:
                self.at.setdefault(u["hex"], []).append(uid)

    # --- who is where ---------------------------------------------------
    def on_board(self, uid: str) -> bool:
        return self.units[uid]["status"] == ON_BOARD

    def hex_of(self, uid: str) -> str | None:
        u = self.units[uid]
        return u["hex"] if u["status"] == ON_BOARD else None

    def units_at(self, h: str) -> list[str]:
        return self.at.get(h, [])

    def _enemy_moved(self, uid: str) -> None:
        side = self.info[uid].side
        for other in [k for k in self.blocked_cache if k != side]:
            del self.blocked_cache[other]

    def place(self, uid: str, h: str) -> None:
        self.remove(uid)
        self._enemy_moved(uid)
        u = self.units[uid]
        u["hex"], u["status"] = h, ON_BOARD
        self.at.setdefault(h, []).append(uid)

    def remove(self, uid: str, status: str | None = None) -> None:
        u = self.units[uid]
        if u["status"] == ON_BOARD:
            self._enemy_moved(uid)
            lst = self.at.get(u["hex"], [])
            if uid in lst:
                lst.remove(uid)
                if not lst:
                    del self.at[u["hex"]]
        if status is not None:
            u["status"] = status
            u["hex"] = None

    # --- strengths and rates ---------------------------------------------
    def cf(self, uid: str) -> int:
        info = self.info[uid]
        return info.cf[1] if self.units[uid]["reduced"] else info.cf[0]

    def is_dismounted(self, uid: str) -> bool:
        """Dismounted for combat: a dismounted unit, or a village (always "considered dismounted")."""
        info = self.info[uid]
        if info.type == "village":
            return True
        return info.can_mount and self.units[uid]["mounted"] is False

    def movement_points(self, uid: str, mounted: bool | None = None) -> int:
        info = self.info[uid]
        mp = MOVEMENT_POINTS[info.type]
        if mounted is None:
            mounted = self.units[uid]["mounted"]
        if info.can_mount and mounted is False:
            mp -= 2 if info.side == "us" else 3
        return mp

    # --- zones of control and stacking -----------------------------------
    def exerts_zoc(self, uid: str) -> bool:
        return not self.info[uid].is_leader

    def zoc_hexes(self, side: str) -> set[str]:
        """Hexes in the zone of control of ``side``'s units (every non-leader unit's six neighbours)."""
        out: set[str] = set()
        nb = self.board.neighbours
        for h, here in self.at.items():
            if any(self.info[x].side == side and not self.info[x].is_leader for x in here):
                out.update(nb[h])
        return out

    def is_lone_leader_hex(self, h: str) -> bool:
        here = self.at.get(h)
        return bool(here) and all(self.info[x].is_leader for x in here)

    def can_stack(self, uids: list[str], h: str, ignore: tuple[str, ...] = ()) -> bool:
        """Whether ``uids`` may all end in ``h`` beside the friendly units already there."""
        here = [x for x in self.at.get(h, []) if x not in ignore and x not in uids]
        if not uids:
            return True
        side = self.info[uids[0]].side
        if any(self.info[x].side != side for x in here):
            return False
        everyone = here + list(uids)
        leaders = sum(1 for x in everyone if self.info[x].is_leader)
        return leaders <= 1 and len(everyone) - leaders <= 2


class Context:
    """Everything one resolve threads through the rules: the board, the dice, the
    events so far, both sides' standing orders, and what the picture will draw."""

    def __init__(self, scenario: Scenario, state: dict, dice, events: list[dict]):
        self.scenario = scenario
        self.state = state
        self.sit = Situation(scenario, state)
        self.dice = dice
        self.events = events

    @property
    def turn(self) -> int:
        return self.state["turn"]

    def option(self, name: str) -> bool:
        return option(self.state, name)

    def standing(self, side: str) -> dict:
        return self.state["standing"].get(side) or {}

    def emit(self, ev: dict) -> None:
        self.events.append(ev)


def skip(ctx: Context, label: str, msg: str, **args) -> None:
    """Report an order the situation no longer allows (``msg`` says why)."""
    ctx.emit(event("skipped", msg, activation=label, **args))
