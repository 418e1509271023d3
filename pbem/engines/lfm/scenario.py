"""Static data of a Last Full Measure scenario: the map (terrain, contour levels, hexsides,
road connections) and the order of battle (commanders, regiments, batteries), with lookup
tables precomputed once. The state only names the scenario. Format: data/lfm/README.md.
Tests may :func:`register` a map fragment under a name of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engines.hexgrid import distance, hex_id, neighbours, parse_hex
from pbem.engines.scenario_files import ScenarioFiles

SCENARIO_NAMES = ("east_cavalry_field", "gettysburg_july1")
RANKS = {"army": 4, "corps": 3, "division": 2, "brigade": 1}
ROAD_TYPES = ("pike", "road", "trail")  # best first
ARTILLERY_TYPES = frozenset({"artillery", "horse_artillery"})
EVADERS = frozenset({"cavalry", "sharpshooters"})  # retreat before combat (5.3, 11.1: cavalry and the USSS)
MOVEMENT_POINTS = {"infantry": 5, "sharpshooters": 5, "dismounted": 5, "artillery": 5,
                   "cavalry": 8, "horse_artillery": 8, "commander": 8}


@dataclass(frozen=True)
class UnitInfo:
    id: str
    name: str
    side: str
    type: str  # infantry, sharpshooters, cavalry, artillery, horse_artillery
    sp: int
    cr: int
    brigade: str | None = None  # a regiment's brigade commander
    formation: str | None = None  # a battery's commander (division, corps or army)
    sp_limbered: int = 0
    hex: str | None = None
    mounted: bool | None = None
    limbered: bool | None = None
    enter: dict | None = None
    evades: bool = False  # may retreat before combat (cavalry and sharpshooters always; rule 11)

    @property
    def is_artillery(self) -> bool:
        return self.type in ARTILLERY_TYPES

    @property
    def is_cavalry(self) -> bool:
        return self.type == "cavalry"


@dataclass(frozen=True)
class CommanderInfo:
    id: str
    name: str
    side: str
    rank: str
    cv: int | None
    superior: str | None
    cavalry: bool
    replacement_name: str
    replacement_cv: int | None
    hex: str | None = None
    enter: dict | None = None
    brigade_name: str = ""  # how wargamers name a brigade commander's brigade: "Iron Brigade"
    number: int | None = None  # a corps commander's corps number: the lower ranks higher (20.12)

    @property
    def stars(self) -> int:
        return RANKS[self.rank]


@dataclass
class Board:
    name: str
    title: str
    columns: int
    rows: int
    terrain: dict[str, str]
    elevation: dict[str, int]
    hexsides: dict[tuple[str, str], tuple[str, ...]]
    roads: dict[tuple[str, str], str]
    labels: list[dict]
    raw: dict = field(default_factory=dict, repr=False)
    neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # lookups that depend on the map alone, filled as the rules ask: (hex, radius) -> hexes
    _within: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict, repr=False)
    sight: dict[tuple[str, int], frozenset[str]] = field(default_factory=dict, repr=False)
    steps: dict[str, dict] = field(default_factory=dict, repr=False)  # movement mode -> hex -> ((next, cost, road), ...)

    def contains(self, h: str) -> bool:
        return h in self.terrain

    def sides(self, a: str, b: str) -> tuple[str, ...]:
        return self.hexsides.get((a, b) if a < b else (b, a), ())

    def road(self, a: str, b: str) -> str | None:
        return self.roads.get((a, b) if a < b else (b, a))

    def has_road(self, h: str) -> bool:
        return any(self.road(h, n) for n in self.neighbours[h])

    def within(self, h: str, radius: int) -> tuple[str, ...]:
        """Every map hex within ``radius`` hexes of ``h`` (``h`` excluded)."""
        cached = self._within.get((h, radius))
        if cached is not None:
            return cached
        c, r = parse_hex(h)
        out = []
        for dc in range(-radius, radius + 1):
            for dr in range(-radius - 1, radius + 2):
                t = hex_id(c + dc, r + dr) if 0 < c + dc < 100 and 0 < r + dr < 100 else None
                if t and t != h and t in self.terrain and distance(h, t) <= radius:
                    out.append(t)
        self._within[(h, radius)] = found = tuple(out)
        return found

    def on_edge(self, h: str) -> bool:
        return len(self.neighbours[h]) < 6


@dataclass
class Scenario:
    name: str
    title: str
    board: Board
    roles: tuple[str, ...]
    side_names: dict[str, str]
    turns: list[dict]
    first_turn_order: tuple[str, ...]
    mails: int
    commanders: dict[str, CommanderInfo]
    units: dict[str, UnitInfo]
    victory: dict
    description: str = ""
    brigades: dict[str, list[str]] = field(default_factory=dict)  # brigade commander -> regiments

    def enemy(self, side: str) -> str:
        return self.roles[1] if side == self.roles[0] else self.roles[0]

    def turn_info(self, turn: int) -> dict:
        return self.turns[turn - 1]

    def is_night(self, turn: int) -> bool:
        return bool(self.turn_info(turn).get("night"))

    def brigade_sp(self, brigade: str) -> int:
        return sum(self.units[u].sp for u in self.brigades.get(brigade, []))


def build_board(data: dict) -> Board:
    columns, rows = int(data["columns"]), int(data["rows"])
    terrain = {hex_id(c, r): "clear" for c in range(1, columns + 1) for r in range(1, rows + 1)}
    for kind, hexes in (data.get("hexes") or {}).items():
        for h in hexes:
            if h in terrain:
                terrain[h] = kind
    base = int(data.get("default_elevation", 0))
    elevation = {h: base for h in terrain}
    for level, hexes in (data.get("elevation") or {}).items():
        for h in hexes:
            if h in terrain:
                elevation[h] = int(level)
    sides: dict[tuple[str, str], tuple[str, ...]] = {}
    for kind, pairs in (data.get("hexsides") or {}).items():
        for a, b in pairs:
            key = (a, b) if a < b else (b, a)
            sides[key] = tuple(sorted(set(sides.get(key, ())) | {kind}))
    roads: dict[tuple[str, str], str] = {}
    for kind in reversed(ROAD_TYPES):  # better roads overwrite lesser ones on a shared hexside
        for path in (data.get("roads") or {}).get(kind, []):
            for a, b in zip(path, path[1:]):
                roads[(a, b) if a < b else (b, a)] = kind
    board = Board(name=data.get("name", ""), title=data.get("title", ""), columns=columns, rows=rows,
                  terrain=terrain, elevation=elevation, hexsides=sides, roads=roads,
                  labels=list(data.get("labels") or []), raw=data)
    board.neighbours = {h: neighbours(h, columns, rows) for h in terrain}
    return board


def build_scenario(map_data: dict, data: dict) -> Scenario:
    units = {}
    for u in data["units"]:
        art = u["type"] in ARTILLERY_TYPES
        units[u["id"]] = UnitInfo(
            id=u["id"], name=u.get("name", u["id"]), side=u["side"], type=u["type"], sp=int(u["sp"]), cr=int(u["cr"]),
            brigade=u.get("brigade"), formation=u.get("formation"),
            sp_limbered=int(u.get("sp_limbered", max(1, int(u["sp"]) // 2))) if art else 0,
            hex=u.get("hex"), mounted=(bool(u.get("mounted", True)) if u["type"] == "cavalry" else None),
            limbered=(bool(u.get("limbered", False)) if art else None), enter=u.get("enter"),
            evades=u["type"] in EVADERS or bool(u.get("evades", False)))
    commanders = {}
    for c in data["commanders"]:
        rep = c.get("replacement") or {}
        commanders[c["id"]] = CommanderInfo(
            id=c["id"], name=c.get("name", c["id"]), side=c["side"], rank=c["rank"], cv=c.get("cv"),
            superior=c.get("superior"), cavalry=bool(c.get("cavalry", False)),
            replacement_name=rep.get("name", c.get("name", c["id"]) + " (replacement)"),
            replacement_cv=rep.get("cv"), hex=c.get("hex"), enter=c.get("enter"),
            brigade_name=c.get("brigade_name") or (f"{c.get('name', c['id'])}'s Brigade" if c["rank"] == "brigade" else ""),
            number=int(c["number"]) if c.get("number") is not None else None)
    brigades: dict[str, list[str]] = {}
    for u in units.values():
        if u.brigade:
            brigades.setdefault(u.brigade, []).append(u.id)
    roles = tuple(data.get("roles") or ("csa", "usa"))
    return Scenario(
        name=data["name"], title=data.get("title", data["name"]), board=build_board(map_data), roles=roles,
        side_names=dict(data.get("side_names") or {r: r for r in roles}),
        turns=[dict(t) for t in data["turns"]], first_turn_order=tuple(data.get("first_turn_order") or roles),
        mails=int(data.get("mails_per_player_turn", 2)), commanders=commanders, units=units,
        victory=data.get("victory") or {}, description=data.get("description", ""), brigades=brigades)


FILES = ScenarioFiles("lfm", SCENARIO_NAMES, build_scenario)
register, load, available = FILES.register, FILES.load, FILES.available


def check(scenario: Scenario) -> list[str]:
    """Data problems that would make the scenario unplayable."""
    problems = []
    board = scenario.board
    for u in scenario.units.values():
        where = u.hex or (u.enter or {}).get("hex")
        if not where or not board.contains(where):
            problems.append(f"unit {u.id}: hex {where} not on the map")
        if u.brigade and u.brigade not in scenario.commanders:
            problems.append(f"unit {u.id}: unknown brigade {u.brigade}")
        if u.is_artillery and u.formation not in scenario.commanders:
            problems.append(f"battery {u.id}: unknown formation {u.formation}")
    for c in scenario.commanders.values():
        if c.superior and c.superior not in scenario.commanders:
            problems.append(f"commander {c.id}: unknown superior {c.superior}")
        where = c.hex or (c.enter or {}).get("hex")
        if not where or not board.contains(where):
            problems.append(f"commander {c.id}: hex {where} not on the map")
    for (a, b) in list(board.hexsides) + list(board.roads):
        if b not in board.neighbours.get(a, ()):
            problems.append(f"hexside {a}-{b}: not neighbours on the map")
    return problems
