"""The square board: terrain, squares' names, contiguity, line of fire and range.

Squares are named like a spreadsheet cell: column letter (A at the left) then row
number (1 at the top), e.g. ``E7``. Internally a square is an int ``row * cols + col``.
"""

from __future__ import annotations

import re
from fractions import Fraction

from pbem.resources import load_json

OPEN, WOODS, ROCKS, PARAPET, RIVER, FORD = "open", "woods", "rocks", "parapet", "river", "ford"
TERRAIN_CHARS = {".": OPEN, "w": WOODS, "r": ROCKS, "p": PARAPET, "~": RIVER, "=": FORD}
COVER = frozenset({WOODS, ROCKS, PARAPET})  # +1 for foot standing there
BLOCKING = frozenset({WOODS, ROCKS})  # block a line of fire passing through
WATER = frozenset({RIVER, FORD})  # a line of fire crossing it counts one extra square
NO_RIDERS = frozenset({WOODS, ROCKS, RIVER})
NO_FOOT = frozenset({RIVER})

SQUARE_RE = re.compile(r"^([A-Z])([0-9]{1,2})$")


class Board:
    def __init__(self, data: dict):
        self.name = data["name"]
        self.cols = int(data["columns"])
        self.rows = int(data["rows"])
        grid = data["terrain"]
        if len(grid) != self.rows or any(len(line) != self.cols for line in grid):
            raise ValueError("board terrain does not match its size")
        self.terrain = [TERRAIN_CHARS[ch] for line in grid for ch in line]
        self.size = self.cols * self.rows
        self.arrows = frozenset(self.index(s) for s in data["arrows"])
        self.village = tuple(self.index(s) for s in data.get("village", []))
        self.start = {code: self.index(sq) for code, sq in data["start"].items()}
        self.flag_start = self.index(data["flag"])
        self.labels = [dict(x) for x in data.get("labels", [])]
        self.turn_limit = int(data["turn_limit"])
        self.neighbours = [tuple(self._neighbours(i)) for i in range(self.size)]
        self._x = [i % self.cols for i in range(self.size)]
        self._y = [i // self.cols for i in range(self.size)]
        self.dist = [[max(abs(self._x[a] - self._x[b]), abs(self._y[a] - self._y[b])) for b in range(self.size)]
                     for a in range(self.size)]
        self._between: dict[tuple[int, int], tuple[int, ...]] = {}
        self._fire: list[dict[int, int] | None] = [None] * self.size

    # names ---------------------------------------------------------------
    def name_of(self, sq: int) -> str:
        return f"{chr(65 + sq % self.cols)}{sq // self.cols + 1}"

    def index(self, name: str) -> int:
        sq = self.parse(name)
        if sq is None:
            raise ValueError(f"no square {name!r} on this board")
        return sq

    def parse(self, name: str) -> int | None:
        m = SQUARE_RE.match(name.strip().upper())
        if not m:
            return None
        col = ord(m.group(1)) - 65
        row = int(m.group(2)) - 1
        if 0 <= col < self.cols and 0 <= row < self.rows:
            return row * self.cols + col
        return None

    def xy(self, sq: int) -> tuple[int, int]:
        return sq % self.cols, sq // self.cols

    # geometry ---------------------------------------------------------------
    def _neighbours(self, sq: int):
        x, y = self.xy(sq)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dx == dy == 0:
                    continue
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.cols and 0 <= ny < self.rows:
                    yield ny * self.cols + nx

    def distance(self, a: int, b: int) -> int:
        """Squares counted the way pieces move: diagonals are contiguous."""
        return self.dist[a][b]

    def between(self, a: int, b: int) -> tuple[int, ...]:
        """The squares a line from a's centre to b's centre passes through
        (their inside, not just a corner), a and b excluded. Symmetric."""
        key = (a, b) if a < b else (b, a)
        got = self._between.get(key)
        if got is None:
            got = self._between[key] = tuple(_crossed(self, *key))
        return got

    def line_blocked(self, a: int, b: int) -> bool:
        return any(self.terrain[s] in BLOCKING for s in self.between(a, b))

    def crosses_river(self, a: int, b: int) -> bool:
        return any(self.terrain[s] in WATER for s in self.between(a, b))

    def fire_distance(self, a: int, b: int) -> int:
        """The range a shot from a to b counts: the squares, plus one when it crosses the river."""
        d = self.distance(a, b)
        if d >= 2 and self.crosses_river(a, b):
            d += 1
        return d

    def fire_targets(self, a: int) -> dict[int, int]:
        """Every square a firearm in ``a`` can hit at range (2 or 3, the river
        counting one more, line of fire clear) -> the range counted."""
        got = self._fire[a]
        if got is None:
            got = {}
            ax, ay = self._x[a], self._y[a]
            for y in range(max(0, ay - 3), min(self.rows, ay + 4)):
                for x in range(max(0, ax - 3), min(self.cols, ax + 4)):
                    b = y * self.cols + x
                    if self.distance(a, b) < 2:
                        continue
                    fd = self.fire_distance(a, b)
                    if fd <= 3 and not self.line_blocked(a, b):
                        got[b] = fd
            self._fire[a] = got
        return got

    def passable(self, sq: int, mounted: bool) -> bool:
        return self.terrain[sq] not in (NO_RIDERS if mounted else NO_FOOT)


def _crossed(board: Board, a: int, b: int):
    ax, ay = board.xy(a)
    bx, by = board.xy(b)
    # Work in half-squares: centres at 2x+1, square x spans [2x, 2x+2].
    x0, y0 = 2 * ax + 1, 2 * ay + 1
    dx, dy = 2 * (bx - ax), 2 * (by - ay)
    for y in range(min(ay, by), max(ay, by) + 1):
        for x in range(min(ax, bx), max(ax, bx) + 1):
            sq = y * board.cols + x
            if sq in (a, b):
                continue
            lo, hi = Fraction(0), Fraction(1)
            inside = True
            for p0, d, low, high in ((x0, dx, 2 * x, 2 * x + 2), (y0, dy, 2 * y, 2 * y + 2)):
                if d == 0:
                    if not (low < p0 < high):
                        inside = False
                        break
                    continue
                t1, t2 = Fraction(low - p0, d), Fraction(high - p0, d)
                if t1 > t2:
                    t1, t2 = t2, t1
                lo, hi = max(lo, t1), min(hi, t2)
                if lo >= hi:
                    inside = False
                    break
            if inside and lo < hi:
                yield sq


_BOARDS: dict[str, Board] = {}


def board_data() -> dict:
    return load_json("peaux_rouges", "board.json")


def board_for(scenario: str) -> Board:
    """The board a scenario is played on (read once; every scenario shares board.json)."""
    board = _BOARDS.get(scenario)
    if board is None:
        data = board_data()
        if scenario not in data["scenarios"]:
            raise KeyError(scenario)
        data["turn_limit"] = data["scenarios"][scenario]["turn_limit"]
        board = _BOARDS[scenario] = Board(data)
    return board
