"""Static data of a Custer scenario: its map and order of battle, with the
neighbour and hexside tables precomputed once (the rules look them up on every step).

The state only names the scenario; everything here is read-only and cached.
Tests may :func:`register` a small board fragment under a name of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.resources import load_json

from pbem.engines.hexgrid import axial, hex_id, neighbours, on_board, parse_hex
from .messages import N_

SCENARIO_NAMES = ("little_bighorn", "rosebud")
# The shipped maps' titles (data/custer/maps), which the reports show in the reader's language.
MAP_TITLES = (N_("The Little Big Horn, 25 June 1876"), N_("The Rosebud, 17 June 1876"))

MOVEMENT_POINTS = {
    "cavalry": 5, "scouts": 6, "infantry": 4, "miners": 4, "pack_train": 4,
    "us_leader": 5, "tribe_leader": 6, "warriors": 6, "village": 2,
}
LEADER_TYPES = frozenset({"us_leader", "tribe_leader"})
MOUNTABLE_TYPES = frozenset({"cavalry", "scouts", "infantry", "miners", "pack_train", "warriors"})
HEXSIDE_MOVE_COST = {"river": 2, "ford": 1, "ridge": 1, "steep_ridge": 2}
HEXSIDE_DEFENCE_BONUS = {"river": 2, "ford": 1, "ridge": 1, "steep_ridge": 2}
HEX_MOVE_COST = {"clear": 1, "woods": 2, "coulee": 1}


@dataclass(frozen=True)
class UnitInfo:
    id: str
    name: str
    side: str
    type: str
    cf: tuple[int, int]
    tribe: str | None = None
    hex: str | None = None
    mounted: bool | None = None
    enter_turn: int | None = None
    enter_hex: str | None = None
    is_leader: bool = field(init=False)
    can_mount: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_leader", self.type in LEADER_TYPES)
        object.__setattr__(self, "can_mount", self.type in MOUNTABLE_TYPES)


@dataclass(frozen=True)
class MarkerInfo:
    id: str
    name: str
    side: str
    leader: str | None = None
    units: int = 0
    tribe: str | None = None
    from_turn: int = 1
    label: str = ""  # unique name used in orders ("Custer 2" when names repeat)


@dataclass
class Board:
    """The map with its lookup tables."""

    name: str
    title: str
    columns: int
    rows: int
    terrain: dict[str, str]  # hex -> clear/woods/coulee, every on-board hex
    hexsides: dict[tuple[str, str], str]
    exits: dict[str, frozenset[str]]
    labels: list[dict]
    neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # hex -> ((neighbour, MP to enter it from hex, before any ZOC), ...): the movement
    # costs that never change, looked up on every step of every path search
    steps: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    axial: dict[str, tuple[int, int]] = field(default_factory=dict)

    def hexside_type(self, a: str, b: str) -> str | None:
        return self.hexsides.get((a, b) if a < b else (b, a))

    def contains(self, h: str) -> bool:
        return h in self.terrain


@dataclass
class Scenario:
    name: str
    title: str
    board: Board
    roles: tuple[str, ...]
    turns: int
    draws: dict[str, list[int]]
    units: dict[str, UnitInfo]
    markers: dict[str, MarkerInfo]
    cup_start: tuple[str, ...]
    victory: dict
    description: str = ""
    impulse: bool = False
    raw: dict = field(default_factory=dict, repr=False)

    def draws_for(self, side: str, turn: int) -> int:
        limits = self.draws.get(side, [])
        if not limits:
            return 0
        return int(limits[min(turn, len(limits)) - 1])

    def markers_in_play(self, turn: int) -> list[str]:
        """Markers in the cup on ``turn``: the starting ones plus those that joined by then."""
        start = set(self.cup_start)
        return [m.id for m in self.markers.values()
                if (m.id in start and m.from_turn <= turn) or (m.id not in start and 1 < m.from_turn <= turn)]

    def enemy(self, side: str) -> str:
        return self.roles[1] if side == self.roles[0] else self.roles[0]


def build_board(data: dict) -> Board:
    columns, rows = int(data["columns"]), int(data["rows"])
    terrain = {hex_id(c, r): "clear" for c in range(1, columns + 1) for r in range(1, rows + 1)}
    for kind, hexes in (data.get("hexes") or {}).items():
        for h in hexes:
            if h in terrain:
                terrain[h] = kind
    sides: dict[tuple[str, str], str] = {}
    for kind, pairs in (data.get("hexsides") or {}).items():
        for a, b in pairs:
            sides[(a, b) if a < b else (b, a)] = kind
    exits = {kind: frozenset(h for h in hexes if on_board(h, columns, rows))
             for kind, hexes in (data.get("exits") or {}).items()}
    board = Board(name=data.get("name", ""), title=data.get("title", ""), columns=columns, rows=rows,
                  terrain=terrain, hexsides=sides, exits=exits, labels=list(data.get("labels") or []))
    board.neighbours = {h: neighbours(h, columns, rows) for h in terrain}
    board.steps = {h: tuple((n, terrain_step_cost(board, h, n)) for n in board.neighbours[h]) for h in terrain}
    board.axial = {h: axial(h) for h in terrain}
    return board


def terrain_step_cost(board: Board, a: str, b: str) -> int:
    """MP to move from ``a`` into the adjacent ``b`` for the terrain alone; modifiers are cumulative."""
    cost = HEX_MOVE_COST[board.terrain[b]]
    side = board.hexside_type(a, b)
    if side:
        cost += HEXSIDE_MOVE_COST[side]
    if (board.terrain[a] == "coulee") != (board.terrain[b] == "coulee"):
        cost += 1  # entering or exiting a coulee
    return cost


def build_scenario(map_data: dict, data: dict) -> Scenario:
    units = {}
    for u in data["units"]:
        enter = u.get("enter") or {}
        units[u["id"]] = UnitInfo(
            id=u["id"], name=u.get("name", u["id"]), side=u["side"], type=u["type"],
            cf=(int(u["cf"][0]), int(u["cf"][1])), tribe=u.get("tribe"), hex=u.get("hex"),
            mounted=(bool(u.get("mounted", True)) if u["type"] in MOUNTABLE_TYPES else None),
            enter_turn=enter.get("turn"), enter_hex=enter.get("hex"))
    names: dict[str, int] = {}
    for m in data["markers"]:
        names[m.get("name", m["id"]).lower()] = names.get(m.get("name", m["id"]).lower(), 0) + 1
    seen: dict[str, int] = {}
    markers = {}
    for m in data["markers"]:
        name = m.get("name", m["id"])
        label = name
        if names[name.lower()] > 1:
            seen[name.lower()] = seen.get(name.lower(), 0) + 1
            label = f"{name} {seen[name.lower()]}"
        markers[m["id"]] = MarkerInfo(
            id=m["id"], name=name, side=m["side"], leader=m.get("leader"), units=int(m.get("units", 0)),
            tribe=m.get("tribe"), from_turn=int(m.get("from_turn", 1)), label=label)
    cup_start = tuple(data.get("cup_start") or [m for m in markers if markers[m].from_turn <= 1])
    roles = tuple(data.get("roles") or ("us", "indians"))
    return Scenario(
        name=data["name"], title=data.get("title", data["name"]), board=build_board(map_data),
        roles=roles, turns=int(data["turns"]), draws={k: list(v) for k, v in data["draws"].items()},
        units=units, markers=markers, cup_start=cup_start, victory=data.get("victory") or {},
        description=data.get("description", ""), impulse=bool(data.get("impulse", False)), raw=data)


_REGISTERED: dict[str, tuple[dict, dict]] = {}
_CACHE: dict[str, Scenario] = {}


def register(map_data: dict, scenario_data: dict) -> str:
    """Make a scenario built from in-memory data loadable by name (tests, board fragments)."""
    name = scenario_data["name"]
    _REGISTERED[name] = (map_data, scenario_data)
    _CACHE.pop(name, None)
    return name


def load(name: str) -> Scenario:
    """The scenario ``name`` (cached): a registered fragment or data/custer/scenarios/<name>.json."""
    cached = _CACHE.get(name)
    if cached is not None:
        return cached
    if name in _REGISTERED:
        map_data, data = _REGISTERED[name]
    else:
        data = load_json("custer", "scenarios", f"{name}.json")
        map_data = load_json("custer", "maps", f"{data['map']}.json")
    scenario = build_scenario(map_data, data)
    _CACHE[name] = scenario
    return scenario


def available() -> list[str]:
    """Scenario names whose data files exist (the shipped ones plus registered fragments)."""
    names = []
    for name in SCENARIO_NAMES:
        try:
            load(name)
        except FileNotFoundError:
            continue
        names.append(name)
    return names + [n for n in _REGISTERED if n not in names]


def check(scenario: Scenario) -> list[str]:
    """Data problems that would make the scenario unplayable."""
    problems = []
    board = scenario.board
    for u in scenario.units.values():
        if u.type not in MOVEMENT_POINTS:
            problems.append(f"unit {u.id}: unknown type {u.type}")
        where = u.hex or u.enter_hex
        if not where or not board.contains(where):
            problems.append(f"unit {u.id}: hex {where} not on the map")
    for m in scenario.markers.values():
        if m.leader and m.leader not in scenario.units:
            problems.append(f"marker {m.id}: unknown leader {m.leader}")
        if not m.leader and not m.tribe:
            problems.append(f"marker {m.id}: neither leader nor tribe")
    for (a, b) in board.hexsides:
        try:
            parse_hex(a), parse_hex(b)
        except ValueError:
            problems.append(f"hexside {a}-{b}: bad id")
    return problems
