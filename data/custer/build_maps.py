"""Build the two Custer's Last Stand maps (data/custer/maps/*.json).

Run from the repository root:  .venv/bin/python data/custer/build_maps.py
It draws on pbem.engines.hexgrid (ids, neighbours, distance, the straight hex line), the
geometry the engine plays on, so the built maps and play cannot disagree. It is deterministic (no randomness, sorted output): running it twice gives the
same bytes, so a review of the JSON diff is a review of this file.

How a map is described here
---------------------------
* Geometry follows docs/custer-data-format.md: flat-topped hexes, ids CCRR,
  odd columns half a hex higher.  Hex corners get exact integer keys
  (2*x, 2*y/sqrt(3) in units of the hex circumradius), so hexsides can be
  walked as a path along corners.
* A *line* (river, ridge, steep ridge) is a list of waypoint hexsides, each
  written as a pair of adjacent hex ids.  The builder walks hex edges from one
  waypoint hexside to the next (Dijkstra over the corner graph, each edge
  costing 1 plus a penalty for straying from the straight line between the two
  waypoints), so every generated hexside lies between two neighbours and the
  line is continuous.  A river's first and last waypoints touch the board edge.
* Fords are river hexsides picked by name; they are listed under "ford" only
  (a hexside has one type).
* Coulees are chains of hexes (hex "lines" between waypoint hexes); woods are
  listed hex by hex.  A hex has one terrain; coulees win over woods.
"""

from __future__ import annotations

import heapq
import json
import math
from pathlib import Path

from pbem.engines.hexgrid import distance, hex_id, hex_line, neighbours, parse_hex

HERE = Path(__file__).resolve().parent
SQ3 = math.sqrt(3)

# ---------------------------------------------------------------- geometry


def centre(h: str) -> tuple[float, float]:
    c, r = parse_hex(h)
    return 1.5 * (c - 1), SQ3 * (r - 1 + (0.5 if c % 2 == 0 else 0.0))


def corner_keys(h: str) -> list[tuple[int, int]]:
    """Integer keys of the six corners (x2 = 2*x, yk = y / (sqrt3/2)), clockwise from east."""
    c, r = parse_hex(h)
    x2 = 3 * (c - 1)
    yk = 2 * (r - 1) + (1 if c % 2 == 0 else 0)
    return [(x2 + 2, yk), (x2 + 1, yk + 1), (x2 - 1, yk + 1), (x2 - 2, yk), (x2 - 1, yk - 1), (x2 + 1, yk - 1)]


def corner_point(k: tuple[int, int]) -> tuple[float, float]:
    return k[0] / 2.0, k[1] * SQ3 / 2.0


class Grid:
    def __init__(self, cols: int, rows: int):
        self.cols, self.rows = cols, rows
        self.hexes = [hex_id(c, r) for c in range(1, cols + 1) for r in range(1, rows + 1)]
        self.edge_owners: dict[frozenset, list[str]] = {}
        self.corner_hexes: dict[tuple[int, int], set[str]] = {}
        for h in self.hexes:
            ks = corner_keys(h)
            for i in range(6):
                a, b = ks[i], ks[(i + 1) % 6]
                self.edge_owners.setdefault(frozenset((a, b)), []).append(h)
                self.corner_hexes.setdefault(a, set()).add(h)
        # the corner graph over interior edges (edges between two on-board hexes)
        self.adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.side_of_edge: dict[frozenset, tuple[str, str]] = {}
        for e, owners in self.edge_owners.items():
            if len(owners) == 2:
                a, b = sorted(e)
                self.adj.setdefault(a, []).append(b)
                self.adj.setdefault(b, []).append(a)
                self.side_of_edge[e] = tuple(sorted(owners))
        for k in self.adj:
            self.adj[k].sort()

    def on_board(self, h: str) -> bool:
        c, r = parse_hex(h)
        return 1 <= c <= self.cols and 1 <= r <= self.rows

    def is_boundary_corner(self, k) -> bool:
        return len(self.corner_hexes.get(k, ())) < 3

    def edge_of(self, a: str, b: str) -> frozenset:
        assert distance(a, b) == 1, f"{a}-{b} are not neighbours"
        shared = set(corner_keys(a)) & set(corner_keys(b))
        assert len(shared) == 2
        return frozenset(shared)

    def walk(self, waypoints: list[tuple[str, str]], *, to_edges: bool = False,
             avoid: set | None = None) -> list[tuple[str, str]]:
        """The hexsides of a continuous line through the waypoint hexsides, in order.

        ``to_edges``: the first and last waypoint must touch the board edge and the
        line is oriented to start and end there (a river crossing the whole map).
        ``avoid``: edges the line may not use between waypoints (other lines)."""
        avoid = avoid or set()
        wps = [self.edge_of(a, b) for a, b in waypoints]
        used_corners: set = set()
        edges: list[frozenset] = []
        # orientation of the first waypoint
        first = sorted(wps[0])
        if to_edges:
            start_options = [k for k in first if self.is_boundary_corner(k)]
            assert start_options, f"first waypoint {waypoints[0]} is not on the board edge"
            start = start_options[0]
        else:
            # start at the corner farther from the next waypoint
            nxt = wps[1] if len(wps) > 1 else wps[0]
            mid = _mid(nxt)
            start = max(first, key=lambda k: (_d2(corner_point(k), mid), k))
        cur = (set(first) - {start}).pop()
        used_corners.update(first)
        edges.append(wps[0])
        for i in range(1, len(wps)):
            target = wps[i]
            a0, b0 = corner_point(cur), _mid(target)
            best = None
            for entry in sorted(target):
                if entry in used_corners and entry != cur:
                    continue
                path = self._dijkstra(cur, entry, a0, b0, used_corners - {cur}, avoid)
                if path is None:
                    continue
                cost = len(path)
                if best is None or cost < best[0]:
                    best = (cost, entry, path)
            assert best is not None, f"no path to waypoint {waypoints[i]}"
            _, entry, path = best
            for p, q in zip(path, path[1:]):
                edges.append(frozenset((p, q)))
                used_corners.add(q)
            exit_ = (set(target) - {entry}).pop()
            edges.append(target)
            used_corners.add(entry)
            used_corners.add(exit_)
            cur = exit_
        if to_edges:
            assert self.is_boundary_corner(cur), f"last waypoint {waypoints[-1]} is not on the board edge"
        out = []
        for e in edges:
            pair = self.side_of_edge[e]
            if not out or out[-1] != pair:
                out.append(pair)
        assert len(out) == len(set(out)), "line crosses itself"
        return out

    def _dijkstra(self, src, dst, a, b, blocked, avoid):
        if src == dst:
            return [src]
        dist = {src: 0.0}
        prev = {}
        heap = [(0.0, src)]
        while heap:
            d, k = heapq.heappop(heap)
            if k == dst:
                path = [k]
                while k != src:
                    k = prev[k]
                    path.append(k)
                return path[::-1]
            if d > dist[k]:
                continue
            for n in self.adj.get(k, ()):
                if n in blocked:
                    continue
                e = frozenset((k, n))
                if e in avoid:
                    continue
                m = _mid(e)
                nd = d + 1.0 + 3.0 * _seg_dist(m, a, b) ** 2
                if nd < dist.get(n, float("inf")) - 1e-9:
                    dist[n] = nd
                    prev[n] = k
                    heapq.heappush(heap, (nd, n))
        return None


def _mid(edge) -> tuple[float, float]:
    (p, q) = [corner_point(k) for k in sorted(edge)]
    return (p[0] + q[0]) / 2, (p[1] + q[1]) / 2


def _d2(p, q) -> float:
    return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2


def _seg_dist(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def hex_chain(points: list[str]) -> list[str]:
    out: list[str] = []
    for a, b in zip(points, points[1:]):
        for h in hex_line(a, b):
            if h not in out:
                out.append(h)
    return out


def ring(h: str, grid: Grid) -> list[tuple[str, str]]:
    """The six hexsides around ``h`` (on the board), for a hill top."""
    return [tuple(sorted((h, n))) for n in neighbours(h, grid.cols, grid.rows)]


def around(hexes: list[str], grid: Grid, *, facing: str | None = None) -> list[tuple[str, str]]:
    """The hexsides between the block ``hexes`` and everything outside it."""
    inside = set(hexes)
    out = set()
    for h in hexes:
        for n in neighbours(h, grid.cols, grid.rows):
            if n not in inside:
                out.add(tuple(sorted((h, n))))
    return sorted(out)


# ------------------------------------------------------------ map assembly


class MapBuilder:
    def __init__(self, name: str, title: str, cols: int, rows: int):
        self.name, self.title = name, title
        self.grid = Grid(cols, rows)
        self.sides: dict[tuple[str, str], str] = {}
        self.order: dict[str, list[tuple[str, str]]] = {"river": [], "ford": [], "ridge": [], "steep_ridge": []}
        self.terrain: dict[str, str] = {}
        self.labels: list[dict] = []
        self.exits: dict[str, list[str]] = {}
        self.river_path: list[tuple[str, str]] = []

    def river(self, waypoints, fords: dict[str, list[tuple[str, str]]]):
        path = self.grid.walk(waypoints, to_edges=True)
        self.river_path = path
        ford_sides = set()
        for name, pairs in fords.items():
            for a, b in pairs:
                side = tuple(sorted((a, b)))
                assert side in path, f"ford {name} {side} is not on the river"
                ford_sides.add(side)
        for side in path:
            kind = "ford" if side in ford_sides else "river"
            self.sides[side] = kind
            self.order[kind].append(side)

    def line(self, kind: str, waypoints, *, skip: set | None = None):
        avoid = {self.grid.edge_of(*s) for s in self.sides}
        path = self.grid.walk(waypoints, avoid=avoid)
        self.add_sides(kind, path, skip=skip)

    def add_sides(self, kind: str, sides, *, skip: set | None = None):
        skip = {tuple(sorted(s)) for s in (skip or ())}
        for s in sides:
            s = tuple(sorted(s))
            assert self.grid.on_board(s[0]) and self.grid.on_board(s[1]), s
            assert distance(*s) == 1, s
            if s in skip or s in self.sides:
                continue  # a hexside has one type: the first one drawn keeps it
            self.sides[s] = kind
            self.order[kind].append(s)

    def region(self, seed: str) -> set[str]:
        """The hexes reachable from ``seed`` without crossing the river."""
        seen = {seed}
        todo = [seed]
        while todo:
            h = todo.pop()
            for n in neighbours(h, self.grid.cols, self.grid.rows):
                if n not in seen and self.sides.get(tuple(sorted((h, n)))) not in ("river", "ford"):
                    seen.add(n)
                    todo.append(n)
        return seen

    def hexes(self, kind: str, hexes, *, overwrite: bool = False):
        for h in hexes:
            assert self.grid.on_board(h), h
            if overwrite or h not in self.terrain:
                self.terrain[h] = kind

    def label(self, h: str, text: str):
        assert self.grid.on_board(h), h
        self.labels.append({"hex": h, "text": text})

    def to_json(self) -> dict:
        hexes: dict[str, list[str]] = {}
        for h, kind in sorted(self.terrain.items()):
            if kind != "clear":
                hexes.setdefault(kind, []).append(h)
        sides = {k: [list(s) for s in sorted(self.order[k])] for k in ("river", "ford", "ridge", "steep_ridge")}
        return {
            "name": self.name,
            "title": self.title,
            "columns": self.grid.cols,
            "rows": self.grid.rows,
            "hexes": {k: sorted(v) for k, v in sorted(hexes.items())},
            "hexsides": sides,
            "labels": self.labels,
            "exits": {k: sorted(v) for k, v in self.exits.items()},
            "north": "up",
        }


def edge_hexes(grid: Grid, *, column: int | None = None, row: int | None = None,
               rows: range | None = None, columns: range | None = None) -> list[str]:
    if column is not None:
        return [hex_id(column, r) for r in rows]
    return [hex_id(c, row) for c in columns]


# ----------------------------------------------------------- Little Big Horn

def little_bighorn() -> dict:
    """The valley of the Little Bighorn, 25 June 1876 (about 0.25 mile a hex, north up,
    east-west distances stretched by about a half so the field fills the sheet).
    See data/custer/README.md for the sources of every feature."""
    m = MapBuilder("little_bighorn", "The Little Big Horn, 25 June 1876", 30, 28)
    g = m.grid
    # The river enters at the bottom, runs north past Reno's ford, loops east
    # round the timber, runs under the bluffs past the retreat crossing, then
    # north-west past the Medicine Tail ford and Deep Ravine and leaves by the
    # north-west.  Waypoints are hexsides the river must take.
    m.river(
        [
            ("1828", "1928"),   # enters from the south
            ("1726", "1826"),
            ("1624", "1724"),   # Reno's ford (ford A), at the mouth of Reno Creek
            ("1522", "1622"),
            ("1621", "1622"),   # the bend round the timber: east...
            ("1720", "1721"),
            ("1719", "1819"),   # ...north...
            ("1718", "1719"),   # ...and back west
            ("1617", "1717"),   # Reno's retreat crossing
            ("1615", "1715"),
            ("1513", "1613"),
            ("1311", "1411"),
            ("1109", "1209"),
            ("1008", "1108"),   # Medicine Tail (Minneconjou) ford (ford B)
            ("0806", "0906"),
            ("0604", "0704"),   # Deep Ravine ford
            ("0503", "0603"),
            ("0402", "0502"),   # the north ford (ford D)
            ("0301", "0401"),   # leaves by the north edge
        ],
        fords={
            "Reno's ford": [("1624", "1724")],
            "Retreat ford": [("1617", "1717")],
            "Medicine Tail ford": [("1008", "1108")],
            "Deep Ravine ford": [("0604", "0704")],
            "North ford": [("0402", "0502")],
        },
    )
    # The bluffs east of the river: steep from Reno Creek to the Medicine Tail
    # coulee, broken where Reno's men scrambled up the ravine from the retreat crossing.
    east = m.region("3014")
    bank = {h for h in east if any(m.sides.get(tuple(sorted((h, n)))) in ("river", "ford")
                                   for n in neighbours(h, g.cols, g.rows))}
    bluff = []
    for h in sorted(bank):
        c, r = parse_hex(h)
        if not (9 <= r <= 23):
            continue
        for n in neighbours(h, g.cols, g.rows):
            if n in east and n not in bank:
                bluff.append(tuple(sorted((h, n))))
    retreat_ravine = [s for s in bluff if "1717" in s or "1718" in s]
    m.add_sides("ridge", retreat_ravine)
    m.add_sides("steep_ridge", [s for s in bluff if s not in retreat_ravine and "1108" not in s and "1209" not in s])
    # Reno Hill: the hilltop where Reno and then Benteen entrenched
    m.add_sides("ridge", around(["1916", "1917", "2016"], g))
    # Weir Point: the high point Weir reached, looking down the valley to the Custer field
    m.add_sides("steep_ridge", [s for s in around(["1812"], g) if "1711" in s or "1712" in s])
    m.add_sides("ridge", around(["1812", "1912"], g))
    # Sharpshooter Ridge, north of Reno Hill
    m.line("ridge", [("2014", "2015"), ("2114", "2115"), ("2213", "2214")])
    # Nye-Cartwright Ridge, east of the Medicine Tail coulee
    m.line("ridge", [("1607", "1608"), ("1808", "1809"), ("2109", "2110")])
    # Battle Ridge: Calhoun Hill to Last Stand Hill, a ridge facing the river,
    # steep round the two hills
    battle_ridge = hex_chain(["1605", "1404", "1203", "1002"])
    m.add_sides("steep_ridge", [s for s in around(["1002"], g) if _west_or_south(s, "1002")])
    m.add_sides("steep_ridge", [s for s in around(["1605"], g) if _west_or_south(s, "1605")])
    m.add_sides("ridge", [s for s in around(battle_ridge, g) if _west_or_south(s, None, battle_ridge)])
    m.add_sides("ridge", around(["1605"], g))
    # Greasy Grass Ridge, west of Calhoun Hill, where warriors gathered
    m.line("ridge", [("1205", "1305"), ("1206", "1306"), ("1207", "1307")])
    # Luce Ridge, south of the Medicine Tail coulee's head, and the ridges above Reno Creek
    m.line("ridge", [("2110", "2210"), ("2411", "2511"), ("2612", "2712")])
    m.line("ridge", [("2221", "2222"), ("2521", "2522"), ("2820", "2821")])
    # The benches at the west side of the valley
    m.line("ridge", [("0428", "0528"), ("0324", "0424"), ("0220", "0320"), ("0217", "0317")])

    # Coulees (hex terrain)
    m.hexes("coulee", hex_chain(["3026", "2825", "2424", "2024", "1824"]))       # Reno Creek
    m.hexes("coulee", hex_chain(["2412", "2111", "1810", "1509", "1308", "1108"]))  # Medicine Tail
    m.hexes("coulee", hex_chain(["2115", "2112"]))                              # Cedar Coulee
    m.hexes("coulee", hex_chain(["0903", "0804", "0704"]))                      # Deep Ravine
    m.hexes("coulee", hex_chain(["1506", "1407", "1308"]))                      # Calhoun Coulee

    # Woods: the timber in the river bend where Reno made his stand, and the
    # cottonwood groves along the west bank by the camps
    m.hexes("woods", ["1620", "1621", "1720", "1719", "1619", "1522", "1625"])
    west = m.region("0101")
    wbank = [h for h in west if any(m.sides.get(tuple(sorted((h, n)))) in ("river", "ford")
                                    for n in neighbours(h, g.cols, g.rows))]
    for row in (3, 5, 7, 10, 12, 14, 17):
        m.hexes("woods", [max(h for h in wbank if parse_hex(h)[1] == row)])
    for h, text in [
        ("1825", "Reno's ford"), ("1918", "Retreat ford"), ("0909", "Medicine Tail ford"),
        ("0505", "Deep Ravine ford"), ("0302", "North ford"), ("2016", "Reno Hill"),
        ("1812", "Weir Point"), ("1705", "Calhoun Hill"), ("1001", "Last Stand Hill"),
        ("1303", "Battle Ridge"), ("1911", "Medicine Tail Coulee"), ("0704", "Deep Ravine"),
        ("2113", "Cedar Coulee"), ("2625", "Reno Creek"), ("1620", "The timber"),
        ("2014", "Sharpshooter Ridge"), ("1908", "Nye-Cartwright Ridge"), ("1207", "Greasy Grass Ridge"),
    ]:
        m.label(h, text)
    m.exits["village"] = [hex_id(1, r) for r in range(1, 17)] + ["0201", "0301"]
    return m


def _west_or_south(side, centre_hex=None, block=None) -> bool:
    """Whether a hexside of a hill or ridge faces west or south (toward the river)."""
    a, b = side
    if block is not None:
        inner, outer = (a, b) if a in block else (b, a)
    else:
        inner, outer = (a, b) if a == centre_hex else (b, a)
    (x1, y1), (x2, y2) = centre(inner), centre(outer)
    return (x2 - x1) * -1 + (y2 - y1) * 1 > 0


# ----------------------------------------------------------------- Rosebud

def rosebud() -> dict:
    """Crook's fight on the Rosebud, 17 June 1876 (about 0.25 mile a hex, north up).
    Rosebud Creek runs east along the valley where Crook's column halted, turns
    north at the big bend and leaves by the canyon at the north-east."""
    m = MapBuilder("rosebud", "The Rosebud, 17 June 1876", 32, 24)
    g = m.grid
    m.river(
        [
            ("0118", "0119"),   # enters from the west
            ("0519", "0520"),
            ("0919", "0920"),
            ("1320", "1321"),
            ("1720", "1721"),
            ("2119", "2120"),
            ("2319", "2419"),   # the big bend: the creek turns north...
            ("2417", "2517"),
            ("2514", "2614"),   # ...into the canyon
            ("2511", "2611"),
            ("2608", "2708"),
            ("2605", "2705"),
            ("2702", "2802"),
            ("2701", "2801"),   # leaves by the north edge
        ],
        fords={"Kollmar crossing": [("1320", "1321")], "Crook's crossing": [("2119", "2120")],
               "west ford": [("0519", "0520")]},
    )
    north = m.region("0101")
    south = m.region("0124")
    nbank = {h for h in north if _on_river(m, h)}
    sbank = {h for h in south if _on_river(m, h)}
    # The canyon: steep walls one hex either side of the creek, north of row 15
    walls = []
    for bank, side in ((nbank, north), (sbank, south)):
        for h in sorted(bank):
            if parse_hex(h)[1] > 15:
                continue
            for n in neighbours(h, g.cols, g.rows):
                if n in side and n not in bank:
                    walls.append(tuple(sorted((h, n))))
    m.add_sides("steep_ridge", walls)
    # the canyon floor: timber on the east bank, the trail Mills took on the west bank
    m.hexes("woods", sorted(h for h in sbank if parse_hex(h)[1] <= 15 and parse_hex(h)[1] % 3 != 1))
    # willows along the creek in the valley
    for col in (3, 7, 11, 16, 19, 22):
        for bank in (nbank, sbank):
            here = sorted(h for h in bank if parse_hex(h)[0] == col)
            if here and col % 2 == (0 if bank is nbank else 1):
                m.hexes("woods", [here[0]])
    # The rim of the valley north of the creek
    m.line("ridge", [("1316", "1317"), ("1716", "1717"), ("2115", "2116")])
    # Crook's Hill, where Crook put his headquarters after Mills's charge
    m.add_sides("ridge", around(["1813", "1913", "1814"], g))
    # Conical Hill, three quarters of a mile north-west, where the warriors regrouped
    m.add_sides("steep_ridge", around(["1510"], g))
    # The main ridge to the north, over which the warriors came
    m.line("ridge", [("0306", "0307"), ("0906", "0907"), ("1405", "1406"), ("1906", "1907"), ("2305", "2306")])
    # Royall's ridge, the long ridge from the bluffs into the valley on Crook's left,
    # with Andrews' Point at its head
    m.line("ridge", [("0410", "0510"), ("0712", "0812"), ("0914", "1014"), ("1016", "1116")])
    m.add_sides("steep_ridge", around(["0409"], g))
    # Packers' Rocks, the boulders at the gap below Crook's Hill
    m.add_sides("ridge", around(["2216"], g))
    # The hills south of the creek
    m.line("ridge", [("0322", "0323"), ("1022", "1023"), ("1722", "1723"), ("2322", "2323")])
    # Kollmar Creek, a ravine from the north into the Rosebud
    m.hexes("coulee", hex_chain(["1002", "1107", "1212", "1319"]), overwrite=True)
    for h, text in [
        ("0621", "Rosebud Creek"), ("2421", "The big bend"), ("2908", "The canyon"),
        ("1812", "Crook's Hill"), ("1509", "Conical Hill"), ("1105", "Kollmar Creek"),
        ("0613", "Royall's ridge"), ("0408", "Andrews' Point"), ("2217", "Packers' Rocks"),
        ("1922", "Crook's halt"), ("1304", "The main ridge"),
    ]:
        m.label(h, text)
    m.exits["cavalry"] = sorted(h for h in nbank | sbank if parse_hex(h)[1] == 1)
    return m


def _on_river(m: "MapBuilder", h: str) -> bool:
    return any(m.sides.get(tuple(sorted((h, n)))) in ("river", "ford")
               for n in neighbours(h, m.grid.cols, m.grid.rows))


# --------------------------------------------------------------- scenarios


def check_scenario(m: "MapBuilder", scen: dict) -> None:
    """Set-up sanity: hexes on the board, stacking, one side per hex."""
    at: dict[str, list[dict]] = {}
    ids = set()
    for u in scen["units"]:
        assert u["id"] not in ids, u["id"]
        ids.add(u["id"])
        h = u.get("hex") or u["enter"]["hex"]
        assert m.grid.on_board(h), (u["id"], h)
        if u.get("hex"):
            at.setdefault(h, []).append(u)
    for h, us in at.items():
        assert len({u["side"] for u in us}) == 1, (h, [u["id"] for u in us])
        leaders = [u for u in us if u["type"] in ("us_leader", "tribe_leader")]
        assert len(leaders) <= 1 and len(us) - len(leaders) <= 2, (h, [u["id"] for u in us])
    for d in scen["draws"].values():
        assert len(d) == scen["turns"]


def cav(uid, name, cf, hex_=None, *, enter=None, mounted=True, type_="cavalry"):
    u = {"id": uid, "name": name, "side": "us", "type": type_, "cf": [cf, cf - 2 if cf > 2 else 1]}
    if hex_:
        u["hex"] = hex_
    else:
        u["enter"] = enter
    u["mounted"] = mounted
    return u


def us_leader(uid, name, cf, hex_=None, *, enter=None):
    u = {"id": uid, "name": name, "side": "us", "type": "us_leader", "cf": [cf, 0]}
    if hex_:
        u["hex"] = hex_
    else:
        u["enter"] = enter
    return u


def tribe_leader(uid, name, tribe, cf, hex_):
    return {"id": uid, "name": name, "side": "indians", "type": "tribe_leader", "tribe": tribe,
            "cf": [cf, 0], "hex": hex_}


def warriors(uid, name, tribe, cf, hex_, mounted=True):
    return {"id": uid, "name": name, "side": "indians", "type": "warriors", "tribe": tribe,
            "cf": [cf, 2 if cf >= 3 else 1], "hex": hex_, "mounted": mounted}


def village(uid, name, tribe, hex_):
    return {"id": uid, "name": name, "side": "indians", "type": "village", "tribe": tribe,
            "cf": [1, 1], "hex": hex_}


# Little Big Horn order of battle.  Camps: (tribe, display name, warriors' CF,
# villages, leaders (id, name, CF), the hexes of the camp in set-up order).
LBH_CAMPS = [
    ("hunkpapa", "Hunkpapa", [4, 4, 3, 3], 3,
     [("sitting_bull", "Sitting Bull", 1), ("gall", "Gall", 3), ("crow_king", "Crow King", 2)],
     ["1417", "1516", "1418", "1317"]),
    ("blackfeet", "Blackfeet", [3, 3], 1, [], ["1315", "1316"]),
    ("oglala", "Oglala", [4, 4, 3, 3], 2,
     [("crazy_horse", "Crazy Horse", 3), ("low_dog", "Low Dog", 2)], ["1014", "1015", "0914"]),
    ("brule", "Brule", [3, 3], 1, [], ["0916", "1016"]),
    ("miniconjou", "Miniconjou", [4, 3, 3], 2, [("hump", "Hump", 2)], ["1212", "1213", "1112"]),
    ("sans_arc", "Sans Arc", [3, 3, 3], 2, [("spotted_eagle", "Spotted Eagle", 2)], ["1010", "1011", "0910"]),
    ("cheyenne", "Cheyenne", [4, 4, 3, 3], 2,
     [("two_moons", "Two Moons", 2), ("lame_white_man", "Lame White Man", 2)], ["0807", "0808", "0708"]),
]


def _place_camp(tribe, display, cfs, n_villages, leaders, hexes):
    """Villages first, then warriors, two to a hex; a leader on each of the first hexes."""
    units = []
    pieces = [("village", i + 1) for i in range(n_villages)] + [("warriors", i + 1) for i in range(len(cfs))]
    slots = [h for h in hexes for _ in range(2)]
    assert len(pieces) <= len(slots), f"{tribe}: not enough camp hexes"
    assert slots
    # interleave so each hex gets one village and one warrior band where possible
    order = []
    vill = [p for p in pieces if p[0] == "village"]
    warr = [p for p in pieces if p[0] == "warriors"]
    for h in hexes:
        for pool in (vill, warr):
            if pool and sum(1 for _, x in order if x == h) < 2:
                order.append((pool.pop(0), h))
    for h in hexes:
        for pool in (warr, vill):
            while pool and sum(1 for _, x in order if x == h) < 2:
                order.append((pool.pop(0), h))
    assert not vill and not warr, f"{tribe}: pieces left over"
    for (kind, i), h in order:
        if kind == "village":
            name = f"{display} village" + (f" {i}" if n_villages > 1 else "")
            units.append(village(f"{tribe}_v{i}", name, tribe, h))
        else:
            units.append(warriors(f"{tribe}_w{i}", f"{display} {i}", tribe, cfs[i - 1], h))
    for (uid, name, cf), h in zip(leaders, hexes):
        units.append(tribe_leader(uid, name, tribe, cf, h))
    return units


def little_bighorn_scenario() -> dict:
    benteen_entry = {"turn": 4, "hex": "3026"}
    pack_entry = {"turn": 6, "hex": "3026"}
    units = [
        # Reno's battalion has just crossed at Reno's ford (about 3 pm)
        us_leader("reno", "Reno", 1, "1524"),
        cav("co_a", "Co. A", 5, "1524"),
        cav("co_g", "Co. G", 4, "1524"),
        cav("co_m", "Co. M", 5, "1623"),
        cav("arikara", "Arikara scouts", 3, "1623", type_="scouts"),
        # Custer's five companies on the bluffs east of the river, riding north
        us_leader("custer", "Custer", 3, "2018"),
        cav("crow_scouts", "Crow scouts", 2, "2018", type_="scouts"),
        us_leader("tom_custer", "Tom Custer", 2, "2119"),
        cav("co_c", "Co. C", 4, "2119"),
        us_leader("yates", "Yates", 2, "2019"),
        cav("co_e", "Co. E", 5, "2019"),
        cav("co_f", "Co. F", 5, "2019"),
        us_leader("keogh", "Keogh", 2, "2120"),
        cav("co_i", "Co. I", 5, "2120"),
        cav("co_l", "Co. L", 5, "2120"),
        # Benteen's battalion, back from its scout to the left, comes down Reno Creek
        us_leader("benteen", "Benteen", 2, enter=benteen_entry),
        cav("co_h", "Co. H", 5, enter=benteen_entry),
        cav("co_k", "Co. K", 4, enter=benteen_entry),
        us_leader("weir", "Weir", 1, enter=benteen_entry),
        cav("co_d", "Co. D", 5, enter=benteen_entry),
        # The pack train with its escort
        us_leader("mcdougall", "McDougall", 1, enter=pack_entry),
        cav("co_b", "Co. B", 5, enter=pack_entry),
        cav("pack_train", "Pack train", 2, enter=pack_entry, type_="pack_train"),
    ]
    for camp in LBH_CAMPS:
        units += _place_camp(*camp)
    markers = [
        # two Custer markers, each for his whole wing: the rulebook's example turn waits for "the 2nd
        # Custer activation marker" and moves six units (C, E, F, I, L and the scouts) on one
        {"id": "m_custer", "name": "Custer", "side": "us", "leader": "custer", "units": 6},
        {"id": "m_custer_2", "name": "Custer", "side": "us", "leader": "custer", "units": 6},
        {"id": "m_reno", "name": "Reno", "side": "us", "leader": "reno", "units": 3},
        {"id": "m_keogh", "name": "Keogh", "side": "us", "leader": "keogh", "units": 2},
        {"id": "m_yates", "name": "Yates", "side": "us", "leader": "yates", "units": 2},
        {"id": "m_tom_custer", "name": "Tom Custer", "side": "us", "leader": "tom_custer", "units": 1},
        {"id": "m_benteen", "name": "Benteen", "side": "us", "leader": "benteen", "units": 3, "from_turn": 4},
        {"id": "m_weir", "name": "Weir", "side": "us", "leader": "weir", "units": 1, "from_turn": 4},
        {"id": "m_mcdougall", "name": "McDougall", "side": "us", "leader": "mcdougall", "units": 2,
         "from_turn": 6},
    ] + [{"id": f"m_{tribe}", "name": display, "side": "indians", "tribe": tribe}
         for tribe, display, *_ in LBH_CAMPS]
    return {
        "name": "little_bighorn",
        "title": "Little Big Horn",
        "description": LBH_DESCRIPTION,
        "map": "little_bighorn",
        "roles": ["us", "indians"],
        "turns": LBH_TURNS,
        "draws": LBH_DRAWS,
        "units": units,
        "markers": markers,
        "cup_start": [m["id"] for m in markers if m.get("from_turn", 1) == 1],
        "victory": LBH_VICTORY,
    }


RB_GROUPS = [
    # group, warriors' CF, leaders (id, name, CF), set-up hexes (west to east)
    ("d", [4, 3, 3, 3], [("spotted_wolf", "Spotted Wolf", 2)], ["0505", "0605"]),
    ("c", [4, 4, 3, 3, 3], [("two_moons", "Two Moons", 2), ("comes_in_sight", "Comes in Sight", 1)],
     ["0804", "0905", "1104"]),
    ("a", [4, 4, 4, 3, 3, 3], [("crazy_horse", "Crazy Horse", 3)], ["1405", "1505", "1604"]),
    ("b", [4, 3, 3, 3, 3], [("sitting_bull", "Sitting Bull", 1)], ["1904", "2005", "2104"]),
    ("e", [4, 3, 3, 3], [], ["2303", "2404"]),
]


def rosebud_scenario() -> dict:
    units = [
        # Crook's column at its halt by the big bend, about 8:30 am
        us_leader("crook", "Crook", 2, "1919"),
        cav("miners", "Miners", 3, "1919", type_="miners"),
        us_leader("chambers", "Chambers", 1, "1819"),
        cav("inf_4", "4th Infantry", 4, "1819", type_="infantry"),
        cav("inf_9", "9th Infantry", 4, "1819", type_="infantry"),
        cav("pack_train", "Pack train", 2, "1721", type_="pack_train"),
        # 3rd Cavalry: Mills's battalion (A, E, I, M), Henry's (B, D, F, L), Van Vliet's (C, G) under Royall
        us_leader("mills", "Mills", 2, "2018"),
        cav("co_a3", "Co. A/3", 5, "2018"),
        cav("co_e3", "Co. E/3", 5, "2018"),
        cav("co_i3", "Co. I/3", 5, "2118"),
        cav("co_m3", "Co. M/3", 5, "2118"),
        us_leader("royall", "Royall", 2, "1619"),
        cav("co_c3", "Co. C/3", 5, "1619"),
        cav("co_g3", "Co. G/3", 5, "1619"),
        us_leader("henry", "Henry", 2, "1520"),
        cav("co_b3", "Co. B/3", 5, "1520"),
        cav("co_d3", "Co. D/3", 5, "1520"),
        cav("co_f3", "Co. F/3", 5, "1420"),
        cav("co_l3", "Co. L/3", 5, "1420"),
        # 2nd Cavalry (Noyes): halted south of the creek, horses unsaddled
        us_leader("noyes", "Noyes", 1, "2021"),
        cav("co_a2", "Co. A/2", 5, "2021", mounted=False),
        cav("co_b2", "Co. B/2", 5, "2021", mounted=False),
        cav("co_d2", "Co. D/2", 5, "2121", mounted=False),
        cav("co_e2", "Co. E/2", 5, "2121", mounted=False),
        cav("co_i2", "Co. I/2", 5, "2221", mounted=False),
        # The Crow and Shoshone scouts, out on the hills to the north
        cav("crow_1", "Crow scouts 1", 3, "1613", type_="scouts"),
        cav("crow_2", "Crow scouts 2", 3, "1713", type_="scouts"),
        cav("shoshone", "Shoshone scouts", 3, "1913", type_="scouts"),
    ]
    for group, cfs, leaders, hexes in RB_GROUPS:
        slots = [h for h in hexes for _ in range(2)]
        assert len(cfs) <= len(slots), group
        for i, (cf, h) in enumerate(zip(cfs, slots), start=1):
            units.append(warriors(f"{group}_w{i}", f"{group.upper()}{i}", group, cf, h))
        for (uid, name, cf), h in zip(leaders, hexes):
            units.append(tribe_leader(uid, name, group, cf, h))
    markers = [
        {"id": "m_crook", "name": "Crook", "side": "us", "leader": "crook", "units": 3},
        {"id": "m_royall", "name": "Royall", "side": "us", "leader": "royall", "units": 3},
        {"id": "m_mills", "name": "Mills", "side": "us", "leader": "mills", "units": 4},
        {"id": "m_henry", "name": "Henry", "side": "us", "leader": "henry", "units": 4},
        {"id": "m_noyes", "name": "Noyes", "side": "us", "leader": "noyes", "units": 5},
        {"id": "m_chambers", "name": "Chambers", "side": "us", "leader": "chambers", "units": 2},
    ] + [{"id": f"m_{g}", "name": f"Group {g.upper()}", "side": "indians", "tribe": g} for g, *_ in RB_GROUPS]
    return {
        "name": "rosebud",
        "title": "Rosebud",
        "description": RB_DESCRIPTION,
        "map": "rosebud",
        "roles": ["us", "indians"],
        "turns": RB_TURNS,
        "draws": RB_DRAWS,
        "units": units,
        "markers": markers,
        "cup_start": [m["id"] for m in markers],
        "victory": RB_VICTORY,
    }


RB_DESCRIPTION = (
    "17 June 1876, about 8:30 am. Crook's column has halted for coffee at the big bend of Rosebud "
    "Creek; the 2nd Cavalry has unsaddled. Lakota and Cheyenne warriors under Crazy Horse and others "
    "come over the ridges from the north onto the Crow and Shoshone scouts. Both sides score for "
    "enemy units destroyed; the US also scores for each cavalry company that rides out down the "
    "canyon toward the village Crook believed lay there."
)
RB_TURNS = 12
RB_DRAWS = {
    "us":      [2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    "indians": [4, 5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 2],
}
RB_VICTORY = {
    "points": {
        "us": {"eliminate": {"tribe_leader": 3, "warriors": 2}, "exit": {"cavalry": 1}},
        "indians": {"eliminate": {"us_leader": 3, "cavalry": 3, "infantry": 2, "miners": 1, "scouts": 1,
                                  "pack_train": 2}, "exit": {}},
    },
    "win_by": 1,
    "tie": None,
}


LBH_DESCRIPTION = (
    "25 June 1876, about 3 pm. Reno's battalion has crossed the Little Bighorn at the ford and "
    "rides down the valley at the south end of the great village; Custer's five companies are on "
    "the bluffs east of the river, riding north. Benteen's battalion arrives by Reno Creek on turn 4 "
    "and the pack train on turn 6. The US scores for villages captured and for warriors and chiefs "
    "killed; the Indians for soldiers killed and for every village led off the west or north-west edge."
)
LBH_TURNS = 14
LBH_DRAWS = {
    "us":      [3, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5],
    "indians": [2, 3, 4, 5, 5, 6, 6, 6, 6, 6, 5, 5, 4, 4],
}
LBH_VICTORY = {
    "points": {
        "us": {"eliminate": {"tribe_leader": 4, "warriors": 2, "village": 3}, "exit": {}},
        "indians": {"eliminate": {"us_leader": 2, "cavalry": 2, "scouts": 1, "pack_train": 3},
                    "exit": {"village": 1}},
    },
    "win_by": 1,
    "tie": "indians",
}


def main() -> None:
    out = HERE / "maps"
    out.mkdir(exist_ok=True)
    for build in (little_bighorn, rosebud):
        m = build()
        scen = {"little_bighorn": little_bighorn_scenario, "rosebud": rosebud_scenario}[m.name]()
        check_scenario(m, scen)
        (HERE / "scenarios").mkdir(exist_ok=True)
        (HERE / "scenarios" / f"{m.name}.json").write_text(json.dumps(scen, indent=1) + "\n", encoding="utf-8")
        data = m.to_json()
        text = json.dumps(data, indent=1, sort_keys=False) + "\n"
        (out / f"{m.name}.json").write_text(text, encoding="utf-8")
        print(f"wrote maps/{m.name}.json: {len(data['hexsides']['river'])} river, "
              f"{len(data['hexsides']['ford'])} ford, {len(data['hexsides']['ridge'])} ridge, "
              f"{len(data['hexsides']['steep_ridge'])} steep ridge hexsides")


if __name__ == "__main__":
    main()
