"""Hex geometry shared by the hex-map engines (Custer, Last Full Measure): ids, neighbours, distance, hexsides.

Flat-topped hexes in vertical columns; id ``CCRR`` (two-digit column, two-digit
row), ``0101`` top left; odd columns sit half a hex higher than even columns
(see docs/custer-data-format.md). Pure functions of ids, shared by the rules
and the picture.
"""

from __future__ import annotations

from functools import lru_cache


def parse_hex(hex_id: str) -> tuple[int, int]:
    """``"1412"`` -> ``(14, 12)``; raises ValueError on anything but four digits."""
    if not isinstance(hex_id, str) or len(hex_id) != 4 or not hex_id.isdigit():
        raise ValueError(f"not a hex id: {hex_id!r}")
    return int(hex_id[:2]), int(hex_id[2:])


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def on_board(hex_id_: str, columns: int, rows: int) -> bool:
    try:
        c, r = parse_hex(hex_id_)
    except ValueError:
        return False
    return 1 <= c <= columns and 1 <= r <= rows


def neighbour_coords(col: int, row: int) -> list[tuple[int, int]]:
    """The six neighbours, clockwise from north: N, NE, SE, S, SW, NW."""
    if col % 2:  # odd columns sit higher: their side neighbours are a row up
        return [(col, row - 1), (col + 1, row - 1), (col + 1, row),
                (col, row + 1), (col - 1, row), (col - 1, row - 1)]
    return [(col, row - 1), (col + 1, row), (col + 1, row + 1),
            (col, row + 1), (col - 1, row + 1), (col - 1, row)]


@lru_cache(maxsize=65536)
def neighbours(hex_id_: str, columns: int, rows: int) -> tuple[str, ...]:
    """Neighbour ids on a ``columns`` x ``rows`` board, clockwise from north."""
    c, r = parse_hex(hex_id_)
    return tuple(hex_id(nc, nr) for nc, nr in neighbour_coords(c, r)
                 if 1 <= nc <= columns and 1 <= nr <= rows)


def _axial(col: int, row: int) -> tuple[int, int]:
    # Column c is shifted up by (c - 1) // 2 rows relative to column 1.
    return col, row - (col - 1) // 2


def axial(hex_id_: str) -> tuple[int, int]:
    """Axial coordinates (q, r) of a hex: the hex distance is ``axial_distance`` of two of them."""
    return _axial(*parse_hex(hex_id_))


def axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@lru_cache(maxsize=262144)
def distance(a: str, b: str) -> int:
    """Hexes between ``a`` and ``b`` (0 for the same hex)."""
    return axial_distance(axial(a), axial(b))


def adjacent(a: str, b: str) -> bool:
    return distance(a, b) == 1


def hexside(a: str, b: str) -> tuple[str, str]:
    """The hexside between two adjacent hexes, smaller id first."""
    if distance(a, b) != 1:
        raise ValueError(f"{a} and {b} are not adjacent")
    return (a, b) if a < b else (b, a)


def center(hex_id_: str, size: float = 1.0) -> tuple[float, float]:
    """Pixel centre of a hex of circumradius ``size``, with ``0101`` at (size, size*sqrt(3)/2)
    (flat-topped; odd columns higher). For the picture."""
    c, r = parse_hex(hex_id_)
    h = size * 3 ** 0.5
    x = size + (c - 1) * 1.5 * size
    y = h / 2 + (r - 1) * h + (0 if c % 2 else h / 2)
    return x, y


def corners(hex_id_: str, size: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex, clockwise from the east corner."""
    x, y = center(hex_id_, size)
    h = size * 3 ** 0.5 / 2
    return [(x + size, y), (x + size / 2, y + h), (x - size / 2, y + h),
            (x - size, y), (x - size / 2, y - h), (x + size / 2, y - h)]


def hexside_segment(a: str, b: str, size: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two end points of the hexside between adjacent ``a`` and ``b`` (for drawing rivers, ridges)."""
    hexside(a, b)
    ca = corners(a, size)
    (xa, ya), (xb, yb) = center(a, size), center(b, size)
    mx, my = (xa + xb) / 2, (ya + yb) / 2
    ranked = sorted(ca, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
    return ranked[0], ranked[1]


def toward(a: str, b: str, steps: int) -> str:
    """The hex ``steps`` hexes from ``a`` on the straight line to ``b`` (``b`` itself if nearer)."""
    n = distance(a, b)
    if n <= steps:
        return b
    (q1, r1), (q2, r2) = axial(a), axial(b)
    t = steps / n
    return nearest_hex(q1 + (q2 - q1) * t, r1 + (r2 - r1) * t)


def nearest_hex(q: float, r: float) -> str:
    """The id of the hex containing the fractional axial point (q, r) (cube rounding); the id
    may lie off any board (a column or row below 1 gives a non-id string, on no board)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    col = rq
    return hex_id(col, rr + (col - 1) // 2)


def hex_line(a: str, b: str, nudge: float = 1e-6) -> tuple[str, ...]:
    """The hexes on the straight line from ``a`` to ``b``, both ends included, one per step of
    distance: the line's point at each step, rounded to its hex (``nearest_hex``). Where the
    line runs exactly along hexsides, ``nudge`` moves it off them to one side (q + nudge,
    r + 2 nudge); ``-nudge`` gives the hexes on the other side. Map building and line of
    sight both use this one line, so they cannot disagree."""
    n = distance(a, b)
    (q1, r1), (q2, r2) = axial(a), axial(b)
    steps = [i / n for i in range(n + 1)] if n else [0.0]
    return tuple(nearest_hex(q1 + (q2 - q1) * t + nudge, r1 + (r2 - r1) * t + 2 * nudge) for t in steps)
