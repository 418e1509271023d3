"""The layers of a Last Full Measure picture, drawn at any scale: the terrain (drawn once per map
and scale), hex numbers, and what a view holds (works, objectives, moves, fire, counters,
commanders, fights). Every word drawn goes into the picture's ``Layout`` (pbem.engines.labels).

A counter sits in the lower part of its hex, under the hex number, never over it: hex numbers
stay readable whatever stands there. It carries the short names of its units (as the positions
list of the report writes them), the type, the stack's SP and its marks (D, L, commanders);
a name too long for the counter is placed beside it with a leader line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from pbem.engines.accented_text import draw_text
from pbem.engines.fonts import font
from pbem.engines.hexgrid import center, corners
from pbem.engines.labels import Layout, text_box
from pbem.engines.pictures import BoundedCache

LEVELS = [(226, 222, 196), (214, 204, 166), (198, 182, 136), (178, 158, 110), (156, 134, 90), (134, 112, 74)]
PAPER = (250, 247, 236)
LABEL_PAPER = (255, 252, 240)
GRID = (150, 140, 110)
HEXNUM = (92, 84, 64)
WOODS = (104, 150, 84)
ORCHARD = (160, 190, 110)
TOWN = (120, 110, 110)
FARM = (150, 80, 60)
CUT = (120, 100, 70)
STREAM = (50, 110, 200)
WALL = (90, 90, 90)
SLOPE = (110, 70, 30)
ROAD = {"pike": ((60, 40, 20), 4), "road": ((90, 60, 30), 3), "trail": ((120, 90, 60), 2)}
INK, WHITE, RED, ORANGE, GOLD = (20, 20, 20), (255, 255, 255), (200, 20, 20), (230, 120, 0), (235, 180, 0)
SIDE = {"csa": (150, 150, 156), "usa": (64, 96, 170)}
SIDE_INK = {"csa": INK, "usa": WHITE}
MOVE = {"csa": (90, 90, 96), "usa": (20, 50, 140)}
BRIGADE_COLOURS = [(200, 40, 40), (240, 200, 40), (40, 150, 70), (230, 120, 20), (120, 60, 160), (40, 170, 200),
                   (250, 250, 250), (20, 20, 20)]
COLOURS = [*LEVELS, PAPER, LABEL_PAPER, GRID, HEXNUM, WOODS, ORCHARD, TOWN, FARM, CUT, STREAM, WALL, SLOPE,
           *(c for c, _w in ROAD.values()), INK, WHITE, RED, ORANGE, GOLD, *SIDE.values(), *MOVE.values(), *BRIGADE_COLOURS]
ARTILLERY = ("artillery", "horse_artillery")
STARS = {"army": 4, "corps": 3, "division": 2, "brigade": 1}


@dataclass(frozen=True)
class Style:
    """The sizes of one scale: ``s`` the hex's size (centre to corner) and each kind of word's
    font size in pixels."""

    s: int
    hexnum: int
    name: int
    name_min: int
    sp: int
    place: int
    commander: int


OVERVIEW = Style(s=18, hexnum=7, name=7, name_min=6, sp=8, place=7, commander=7)
# A close-up is drawn twice the scale, every word at least 10 px: about 370 px wide, it shows at
# its own size on a phone's 420 px screen, so no word there reads smaller than 9 CSS px (docs/games/lfm.md).
CLOSE_UP = Style(s=36, hexnum=11, name=11, name_min=10, sp=12, place=11, commander=10)


@dataclass(frozen=True)
class Frame:
    """Where a map hex lands in a picture: its centre at ``s``, shifted by ``dx, dy``."""

    style: Style
    dx: float
    dy: float

    def xy(self, h: str) -> tuple[float, float]:
        x, y = _center(h, self.style.s)
        return x + self.dx, y + self.dy

    def corners(self, h: str) -> list[tuple[float, float]]:
        return [(x + self.dx, y + self.dy) for x, y in _corners(h, self.style.s)]


@lru_cache(maxsize=8192)
def _center(h: str, s: int) -> tuple[float, float]:
    """A hex's centre at a scale: the same every picture (a map's hexes at two scales)."""
    return center(h, s)


@lru_cache(maxsize=8192)
def _corners(h: str, s: int) -> tuple[tuple[float, float], ...]:
    return tuple(corners(h, s))


def map_size(board, s: int) -> tuple[int, int]:
    return int(s * (1.5 * (board.columns - 1) + 2)) + 1, int(s * math.sqrt(3) * (board.rows + 0.5)) + 1


# --- the terrain: drawn once per map and scale ------------------------------------------------
_TERRAIN: BoundedCache[Image.Image] = BoundedCache(4)


def terrain(board, style: Style) -> Image.Image:
    """The map's terrain at ``style``'s scale, its top left corner at pixel (0, 0); no words."""
    return _TERRAIN.get((board.name, style.s), lambda: _draw_terrain(board, style))


def _draw_terrain(board, style: Style) -> Image.Image:
    s, frame = style.s, Frame(style, 0.0, 0.0)
    img = Image.new("RGB", map_size(board, s), PAPER)
    d = ImageDraw.Draw(img)
    k = s / 18
    for hx in board.terrain:
        level = max(0, min(len(LEVELS) - 1, board.elevation[hx]))
        d.polygon(frame.corners(hx), fill=LEVELS[level], outline=GRID)
        x, y = frame.xy(hx)
        y += 0.2 * s  # the symbols in the hex's lower part, clear of its number
        kind = board.terrain[hx]
        if kind == "woods":
            for dx, dy in ((-6, -3), (0, 4), (6, -3), (-2, -8), (4, 9), (-9, 6), (10, 5)):
                d.ellipse([x + (dx - 3) * k, y + (dy - 3) * k, x + (dx + 3) * k, y + (dy + 3) * k], fill=WOODS)
        elif kind == "orchard":
            for dx in (-7, 0, 7):
                for dy in (-5, 5):
                    d.ellipse([x + (dx - 1.5) * k, y + (dy - 1.5) * k, x + (dx + 1.5) * k, y + (dy + 1.5) * k], fill=ORCHARD)
        elif kind == "town":
            d.rectangle([x - 10 * k, y - 6 * k, x + 10 * k, y + 7 * k], fill=TOWN)
        elif kind == "farm":
            d.rectangle([x - 5 * k, y - 3 * k, x + 5 * k, y + 4 * k], fill=FARM)
        elif kind == "cut":
            d.line([(x - 12 * k, y), (x + 12 * k, y)], fill=CUT, width=max(2, int(3 * k)))
    for (a, b), kinds in board.hexsides.items():
        seg = _shared_side(frame, a, b)
        if not seg:
            continue
        for kind in kinds:
            if kind == "stream":
                d.line(seg, fill=STREAM, width=max(3, int(4 * k)))
            elif kind == "stone_wall":
                d.line(seg, fill=WALL, width=max(2, int(3 * k)))
            elif kind == "slope":
                d.line(seg, fill=SLOPE, width=max(1, int(2 * k)))
                low = a if board.elevation[a] < board.elevation[b] else b
                lx, ly = frame.xy(low)
                for t in (0.3, 0.7):
                    px, py = seg[0][0] + (seg[1][0] - seg[0][0]) * t, seg[0][1] + (seg[1][1] - seg[0][1]) * t
                    d.line([(px, py), (px + (lx - px) * 0.25, py + (ly - py) * 0.25)], fill=SLOPE, width=1)
    for kind in ("trail", "road", "pike"):
        colour, width = ROAD[kind]
        for (a, b), road in board.roads.items():
            if road == kind:
                d.line([frame.xy(a), frame.xy(b)], fill=colour, width=max(1, int(width * k)))
    # the hex numbers, where no counter reaches: drawn once with the terrain
    for h in board.terrain:
        x, y = frame.xy(h)
        draw_text(d, (x, y - 0.62 * s), h, font(style.hexnum), HEXNUM, anchor="mm")
    return img


def _shared_side(frame: Frame, a: str, b: str):
    ca, cb = frame.corners(a), frame.corners(b)
    shared = [p for p in ca if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in cb)]
    return shared if len(shared) == 2 else None


def hex_numbers(layout: Layout, frame: Frame, hexes) -> None:
    """Each hex's number (drawn with the terrain, at the top of the hex where no counter
    reaches) recorded in the layout, for the hexes shown whole."""
    s = frame.style.s
    for h in hexes:
        x, y = frame.xy(h)
        box = text_box(h, frame.style.hexnum, x, y - 0.62 * s, "mm")
        if box[0] >= 0 and box[1] >= 0 and box[2] <= layout.width and box[3] <= layout.height:
            layout.fixed(h, box, frame.style.hexnum, "hex")


# --- what the view holds -------------------------------------------------------------------------
def brigade_colours(view: dict) -> dict[str, tuple[int, int, int]]:
    out = {}
    for side in view["roles"]:
        brigades = [c["id"] for c in view["commanders"] if c["side"] == side and c["rank"] == "brigade"]
        for i, b in enumerate(brigades):
            out[b] = BRIGADE_COLOURS[i % len(BRIGADE_COLOURS)]
    return out


def stacks(view: dict) -> dict[str, list[dict]]:
    """Hex -> the units on it, troops before guns."""
    out: dict[str, list[dict]] = {}
    for u in view["units"]:
        if u["status"] == "on_map":
            out.setdefault(u["hex"], []).append(u)
    for units in out.values():
        units.sort(key=lambda u: u["type"] in ARTILLERY)
    return out


def commanders_at(view: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for c in view["commanders"]:
        if c["status"] == "on_map":
            out.setdefault(c["hex"], []).append(c)
    for here in out.values():
        here.sort(key=lambda c: -STARS[c["rank"]])
    return out


_WHERE: list = []  # the view being drawn, and its brigade colours, stacks and commanders


def new_view() -> None:
    """Forget the last view's units: called as a view's pictures start (the caller may have
    changed a view it drew before)."""
    _WHERE.clear()


def _who_is_where(view: dict) -> tuple[dict, dict, dict]:
    """Brigade colours, stacks and commanders by hex of ``view``, worked out once for the map and
    every close-up of it (kept by identity while its pictures are drawn: see ``new_view``)."""
    if not _WHERE or _WHERE[0] is not view:
        _WHERE[:] = [view, (brigade_colours(view), stacks(view), commanders_at(view))]
    return _WHERE[1]


def arrow(d: ImageDraw.ImageDraw, pts: list, colour, width: int) -> None:
    if len(pts) < 2:
        return
    d.line(pts, fill=colour, width=width, joint="curve")
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    size = 4 + width * 2
    d.polygon([(x1, y1), (x1 - size * math.cos(ang - 0.45), y1 - size * math.sin(ang - 0.45)),
               (x1 - size * math.cos(ang + 0.45), y1 - size * math.sin(ang + 0.45))], fill=colour)


def under_counters(d: ImageDraw.ImageDraw, view: dict, frame: Frame) -> None:
    """Works, burned bridges, objectives' outlines, moves, retreats and artillery fire."""
    s, k = frame.style.s, frame.style.s / 18
    for h, st in view["breastworks"].items():
        x, y = frame.xy(h)
        r = 0.8 * s
        d.arc([x - r, y - r, x + r, y + r], 20, 160, fill=SLOPE, width=max(2, int(3 * k)) if st == "built" else 1)
    for key in view.get("burned_bridges", []):
        a, b = key.split("-")
        (ax, ay), (bx, by) = frame.xy(a), frame.xy(b)
        mx, my, r = (ax + bx) / 2, (ay + by) / 2, 5 * k
        d.line([(mx - r, my - r), (mx + r, my + r)], fill=RED, width=max(2, int(2 * k)))
        d.line([(mx - r, my + r), (mx + r, my - r)], fill=RED, width=max(2, int(2 * k)))
    for obj in view["objectives"]:
        held = view["control"].get(obj["hex"])
        pts = frame.corners(obj["hex"])
        d.line(pts + pts[:1], fill=GOLD, width=max(3, int(3 * k)))
        inner = [(x + (frame.xy(obj["hex"])[0] - x) * 0.14, y + (frame.xy(obj["hex"])[1] - y) * 0.14) for x, y in pts]
        d.line(inner + inner[:1], fill=MOVE.get(held, WHITE), width=max(2, int(2 * k)))
    last = view["last"]
    sides = {u["id"]: u["side"] for u in view["units"]} | {c["id"]: c["side"] for c in view["commanders"]}
    for m in last["moves"]:
        side = next((sides[x] for x in m["units"] if x in sides), "csa")
        arrow(d, [frame.xy(h) for h in m["path"]], MOVE[side], max(2, int(2 * k)))
    for r in last["retreats"]:
        arrow(d, [frame.xy(h) for h in r["path"]], RED, max(1, int(k)))
    for f in last["fires"]:
        tx, ty = frame.xy(f["target"])
        for h in f["from"]:
            fx, fy = frame.xy(h)
            steps = max(1, int(math.hypot(tx - fx, ty - fy) / (6 * k)))
            for i in range(0, steps, 2):
                a, b = i / steps, min(1.0, (i + 1) / steps)
                d.line([(fx + (tx - fx) * a, fy + (ty - fy) * a), (fx + (tx - fx) * b, fy + (ty - fy) * b)],
                       fill=ORANGE, width=max(2, int(2 * k)))


def fights(d: ImageDraw.ImageDraw, view: dict, frame: Frame) -> None:
    """A red ring round each hex attacked or charged this player turn."""
    s, k = frame.style.s, frame.style.s / 18
    last = view["last"]
    for target in [t for c in last["combats"] for t in c.get("targets", [c["target"]])] + [ch["target"] for ch in last["charges"]]:
        pts = frame.corners(target)
        d.line(pts + pts[:1], fill=RED, width=max(2, int(2 * k)))


def _fits(text: str, size: int, width: float) -> bool:
    box = text_box(text, size, 0, 0)
    return box[2] - box[0] <= width


def _names_line(units: list[dict], style: Style, width: float) -> tuple[str, int] | None:
    """The counter's first line: every name if they fit, else the first and how many more; the
    largest font from ``name`` down to ``name_min`` that fits; None when nothing fits."""
    names = [u["short"] for u in units]
    tries = ["/".join(names)] + ([f"{names[0]} +{len(names) - 1}"] if len(names) > 1 else [])
    for size in range(style.name, style.name_min - 1, -1):
        for text in tries:
            if _fits(text, size, width):
                return text, size
    return None


def counters(d: ImageDraw.ImageDraw, view: dict, frame: Frame, layout: Layout, close_up: bool,
             shown: set[str] | None = None) -> list[tuple[str, tuple[float, float]]]:
    """Every stack's counter and every commander's badge (on the hexes ``shown``, when given);
    returns the labels still to place beside them (names too long for a counter; commanders'
    names on a close-up)."""
    style, s = frame.style, frame.style.s
    colours, by_hex, cmds = _who_is_where(view)
    to_place: list[tuple[str, tuple[float, float]]] = []
    top, bottom, pad = -0.28 * s, 0.56 * s, max(1.0, 0.06 * s)
    stripe = 0.16 * s
    for h in sorted(set(by_hex) | set(cmds)):
        if shown is not None and h not in shown:
            continue
        x, y = frame.xy(h)
        units, here = by_hex.get(h, []), cmds.get(h, [])
        if not units:  # commanders alone: a badge each, two by two in the hex's lower half
            for i, c in enumerate(here[:4]):
                bx = x + (0.22 * s if i % 2 else -0.22 * s if len(here) > 1 else 0.0)
                by = y + (0.1 + 0.38 * (i // 2)) * s
                _badge(d, layout, bx, by, c, colours, style)
                layout.block((bx - 0.2 * s, by - 0.2 * s, bx + 0.2 * s, by + 0.2 * s))
                if close_up:
                    to_place.append((c["name"], (bx + 0.2 * s, by)))
            continue
        side = units[0]["side"]
        ink = SIDE_INK[side]
        # the second line: type symbol, SP, marks, commanders' badges (their widths first)
        sp = sum(u["sp"] for u in units)
        marks = (["D"] if any(u["d"] or u["charged"] for u in units) else []) + \
                (["L"] if any(u["type"] in ARTILLERY and u["limbered"] for u in units) else [])
        sym_w, sym_h = 0.5 * s, 0.3 * s
        sp_box = text_box(str(sp), style.sp, 0, 0)
        mark_w = sum(text_box(m, style.sp, 0, 0)[2] + 2 for m in marks)
        max_w, min_w = 2.0 * s, 1.6 * s
        inner = max_w - stripe - 2 * pad
        line2 = sym_w + 3 + (sp_box[2] - sp_box[0]) + 3 + mark_w
        here = here[:max(0, int((inner - line2) / (0.34 * s)))]  # the highest ranks, as many as fit
        line2 += len(here) * 0.34 * s
        named = _names_line(units, style, inner)
        w = max(min_w, min(max_w, max(line2, text_box(named[0], named[1], 0, 0)[2] if named else 0) + stripe + 2 * pad))
        x0, x1, y0, y1 = x - w / 2, x + w / 2, y + top, y + bottom
        d.rectangle([x0, y0, x1, y1], fill=SIDE[side], outline=INK)
        d.rectangle([x0, y0, x0 + stripe, y1], fill=colours.get(units[0].get("brigade") or "", SIDE[side]))
        if any(u["shattered"] for u in units):
            d.line([(x0, y1), (x1, y0)], fill=RED, width=max(1, int(s / 9)))
        if len(units) > 1:  # a stack: a second counter's edge behind it
            d.line([(x1 + 1, y0 + 2), (x1 + 1, y1 + 1), (x0 + 2, y1 + 1)], fill=INK)
        layout.block((x0, y0, x1 + 1, y1 + 1))
        left = x0 + stripe + pad
        mid1 = y0 + (y1 - y0) * 0.3
        mid2 = y0 + (y1 - y0) * 0.74
        if named:
            layout.fixed_text(d, (left, mid1), named[0], named[1], ink, "name", anchor="lm", inside=True)
        else:
            to_place.append((units[0]["short"] + (f" +{len(units) - 1}" if len(units) > 1 else ""), (x1, mid1)))
        # the type symbol
        bx0, by0 = left, mid2 - sym_h / 2
        bx1, by1 = bx0 + sym_w, by0 + sym_h
        top_unit = units[0]
        d.rectangle([bx0, by0, bx1, by1], outline=ink, width=1)
        if top_unit["type"] in ("infantry", "sharpshooters") or (top_unit["type"] == "cavalry" and not top_unit["mounted"]):
            d.line([(bx0, by0), (bx1, by1)], fill=ink)
        if top_unit["type"] in ("infantry", "sharpshooters", "cavalry"):
            d.line([(bx0, by1), (bx1, by0)], fill=ink)
        if top_unit["type"] in ARTILLERY:
            cx, cy, r = (bx0 + bx1) / 2, (by0 + by1) / 2, sym_h * 0.3
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ink)
        cursor = bx1 + 3
        label = layout.fixed_text(d, (cursor, mid2), str(sp), style.sp, ink, "sp", anchor="lm", inside=True)
        cursor = label.box[2] + 3
        for m in marks:
            label = layout.fixed_text(d, (cursor, mid2), m, style.sp, RED if m == "D" else ink, "mark", anchor="lm", inside=True)
            cursor = label.box[2] + 2
        for c in here:
            _badge(d, layout, cursor + 0.15 * s, mid2, c, colours, style)
            if close_up:
                to_place.append((c["name"], (cursor + 0.3 * s, mid2)))
            cursor += 0.34 * s
    return to_place


def _badge(d: ImageDraw.ImageDraw, layout: Layout, x: float, y: float, c: dict, colours: dict, style: Style) -> None:
    """A commander: a disc in his brigade's colour (his side's above brigade), his stars as a number."""
    r = 0.15 * style.s + 1
    d.ellipse([x - r, y - r, x + r, y + r], fill=colours.get(c["id"], SIDE[c["side"]]), outline=INK)
    fill = INK if sum(colours.get(c["id"], SIDE[c["side"]])) > 360 or c["side"] == "csa" else WHITE
    layout.fixed_text(d, (x, y), str(STARS[c["rank"]]), style.commander, fill, "commander", anchor="mm")
