"""The Custer map's layers, each drawn once: the terrain of a map, at the map's scale with its
legend in one language or at a close-up's (a palette image), and the counters pasted on it,
each cached by what it shows with its words' boxes (for the picture's layout data).

The colours are a fixed palette, so every layer and tile quantised to it pastes into
the map by index, and a turn's picture is never quantised as a whole.

Pure: Pillow and in-memory images only (no files, clock or randomness).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from pbem.engines.fonts import font as _font
from pbem.engines.accented_text import draw_text, text_length
from pbem.engines.hexgrid import center, corners, parse_hex
from pbem.engines.labels import text_box
from pbem.engines.pictures import BoundedCache, palette_image, palette_index, quantize
from pbem.resources import load_json

from .messages import N_
from .names import short_name as _short_name

S = 24                      # hex circumradius in pixels
H = S * math.sqrt(3)        # hex height (flat to flat)
MARGIN = 22                 # room for exit arrows around the board
TOP = 34                    # title banner
LEGEND = 34                 # legend strip at the bottom
HEXNUM_SIZE = 9             # the hex numbers' font (8 was unreadable once a mail shrank the map)
#: the words on counters, markers, place names and the title drawn without anti-aliasing
#: (Pillow's "1" mode): as crisp at this size, and a tenth fewer bytes for the whole map,
#: since every grey edge pixel was a colour zlib had to spell out (77 to 69 KB, the map and
#: its close-up at Custer's busiest turn)
TEXT_MODE = "1"

# ---------------------------------------------------------------- colours

CLEAR = (236, 230, 203)
GRID = (196, 186, 156)
HEXNUM = (118, 106, 78)
WOODS = (150, 186, 118)
TREE = (86, 130, 66)
COULEE = (214, 188, 142)
COULEE_LINE = (176, 142, 96)
RIVER = (52, 112, 190)
FORD = (150, 196, 236)
RIDGE = (150, 100, 52)
STEEP = (92, 56, 26)
LABEL = (60, 44, 30)
EXIT = (140, 86, 40)
PAPER = (250, 247, 236)
INK = (30, 30, 30)
WHITE = (255, 255, 255)
US_YELLOW = (244, 206, 62)
US_BLUE = (58, 92, 168)
US_TEXT_ON_YELLOW = (24, 40, 96)
TAN = (222, 196, 150)
TAN_REDUCED = (240, 226, 198)
YELLOW_REDUCED = (250, 236, 170)
BLUE_REDUCED = (150, 170, 214)
LEADER_US = (24, 40, 96)
LEADER_IND = (120, 52, 30)
MOVE_US = (20, 60, 160)
MOVE_IND = (170, 40, 30)
COMBAT = (214, 30, 30)
REDUCED_MARK = (200, 30, 30)

TRIBE_COLOURS = {
    "hunkpapa": (196, 40, 40),
    "oglala": (40, 90, 180),
    "miniconjou": (40, 140, 70),
    "sans_arc": (230, 130, 20),
    "cheyenne": (130, 60, 160),
    "blackfeet": (30, 30, 30),
    "brule": (150, 110, 20),
    "a": (196, 40, 40),
    "b": (40, 90, 180),
    "c": (40, 140, 70),
    "d": (130, 60, 160),
    "e": (230, 130, 20),
    "f": (30, 30, 30),
}

_FIXED = [
    CLEAR, GRID, HEXNUM, WOODS, TREE, COULEE, COULEE_LINE, RIVER, FORD, RIDGE, STEEP, LABEL,
    EXIT, PAPER, INK, WHITE, US_YELLOW, US_BLUE, US_TEXT_ON_YELLOW, TAN, TAN_REDUCED,
    YELLOW_REDUCED, BLUE_REDUCED, LEADER_US, LEADER_IND, MOVE_US, MOVE_IND, COMBAT, REDUCED_MARK,
    *TRIBE_COLOURS.values(),
]


LEADER_US_HIT = (130, 130, 150)
LEADER_IND_HIT = (170, 140, 120)
TIPI = (160, 120, 70)

PALETTE = palette_image([*_FIXED, LEADER_US_HIT, LEADER_IND_HIT, TIPI])
INK_INDEX = palette_index(PALETTE)  # colour -> palette index, to draw on the map itself


# -------------------------------------------------------------- geometry


@lru_cache(maxsize=8192)
def hex_xy(hex_id: str, k: float = 1.0) -> tuple[float, float]:
    """The hex's centre on the map drawn at ``k`` times the usual scale (1.5: a close-up's)."""
    x, y = center(hex_id, S * k)
    return x + MARGIN * k, y + (MARGIN + TOP) * k


def hex_corners(hex_id: str, k: float = 1.0) -> list[tuple[float, float]]:
    return [(x + MARGIN * k, y + (MARGIN + TOP) * k) for x, y in corners(hex_id, S * k)]


def _side_segment(a: str, b: str, k: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """The hexside's two end points: the corners ``a`` and ``b`` share."""
    ca, cb = hex_corners(a, k), hex_corners(b, k)
    shared = [p for p in ca if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in cb)]
    if len(shared) == 2:
        return shared[0], shared[1]
    # not neighbours (bad data): draw nothing visible
    p = hex_xy(a, k)
    return p, p


def map_size(columns: int, rows: int, k: float = 1.0) -> tuple[int, int]:
    """The whole map's picture at ``k`` times the scale: at 1, title and legend included."""
    w = int(S * k * (1.5 * (columns - 1) + 2)) + round(2 * MARGIN * k)
    h = int(H * k * rows + H * k / 2) + round((2 * MARGIN + TOP) * k) + (LEGEND if k == 1.0 else 0)
    return w, h



# ------------------------------------------------------------ static layer


def load_map(name: str) -> dict:
    return load_json("custer", "maps", f"{name}.json")


def _draw_hexside(d: ImageDraw.ImageDraw, kind: str, a: str, b: str, k: float = 1.0):
    p, q = _side_segment(a, b, k)
    r = 2.6 * k
    if kind == "river":
        d.line([p, q], fill=RIVER, width=round(6 * k))
        for pt in (p, q):
            d.ellipse([pt[0] - r, pt[1] - r, pt[0] + r, pt[1] + r], fill=RIVER)
    elif kind == "ford":
        d.line([p, q], fill=FORD, width=round(6 * k))
        for pt in (p, q):
            d.ellipse([pt[0] - r, pt[1] - r, pt[0] + r, pt[1] + r], fill=FORD)
        # stepping stones across the ford
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        dx, dy = q[0] - p[0], q[1] - p[1]
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        for t in (-5 * k, 0, 5 * k):
            cx, cy = mx + ux * t, my + uy * t
            d.ellipse([cx - 1.3 * k, cy - 1.3 * k, cx + 1.3 * k, cy + 1.3 * k], fill=RIVER)
    elif kind == "ridge":
        d.line([p, q], fill=RIDGE, width=round(3 * k))
    elif kind == "steep_ridge":
        dx, dy = q[0] - p[0], q[1] - p[1]
        n = math.hypot(dx, dy) or 1.0
        ox, oy = -dy / n * 2.2 * k, dx / n * 2.2 * k
        for sgn in (1, -1):
            d.line([(p[0] + sgn * ox, p[1] + sgn * oy), (q[0] + sgn * ox, q[1] + sgn * oy)], fill=STEEP, width=round(2 * k))


def _exit_arrow(d: ImageDraw.ImageDraw, h: str, columns: int, rows: int, k: float = 1.0):
    c, r = parse_hex(h)
    x, y = hex_xy(h, k)
    if c == 1:
        vx, vy = -1.0, 0.0
    elif c == columns:
        vx, vy = 1.0, 0.0
    elif r == 1:
        vx, vy = 0.0, -1.0
    elif r == rows:
        vx, vy = 0.0, 1.0
    else:
        vx, vy = 0.0, -1.0
    # the arrow sits across the board edge, pointing off the map
    base = S * k * 0.55
    tip = S * k * 1.35
    px, py = -vy, vx
    bx, by = x + vx * base, y + vy * base
    tx, ty = x + vx * tip, y + vy * tip
    w = 6 * k
    shaft_end = (x + vx * (tip - 7 * k), y + vy * (tip - 7 * k))
    d.line([(bx, by), shaft_end], fill=EXIT, width=round(4 * k))
    d.polygon([(tx, ty), (shaft_end[0] + px * w, shaft_end[1] + py * w),
               (shaft_end[0] - px * w, shaft_end[1] - py * w)], fill=EXIT)


def _key_woods(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    d.rectangle([x, y - 7, x + 18, y + 7], fill=WOODS, outline=GRID)
    d.ellipse([x + 6, y - 3, x + 12, y + 3], fill=TREE)


def _key_coulee(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    d.rectangle([x, y - 7, x + 18, y + 7], fill=COULEE, outline=GRID)
    for k in range(0, 18, 5):
        d.line([(x + k, y + 7), (x + k + 5, y - 7)], fill=COULEE_LINE, width=1)


def _key_line(colour, width: int, stones: bool = False):
    def key(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
        d.line([(x, y), (x + 22, y)], fill=colour, width=width)
        if stones:
            for t in (6, 11, 16):
                d.ellipse([x + t - 1.3, y - 1.3, x + t + 1.3, y + 1.3], fill=RIVER)
    return key


def _key_steep_ridge(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    d.line([(x, y - 2.2), (x + 22, y - 2.2)], fill=STEEP, width=2)
    d.line([(x, y + 2.2), (x + 22, y + 2.2)], fill=STEEP, width=2)


def _key_exit(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    d.line([(x, y), (x + 10, y)], fill=EXIT, width=4)
    d.polygon([(x + 18, y), (x + 10, y - 6), (x + 10, y + 6)], fill=EXIT)


def _key_counter(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    d.rectangle([x, y - 8, x + 16, y + 8], fill=us_colour, outline=INK)


def _key_reduced(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    _key_counter(d, x, y, us_colour)
    d.line([(x + 1, y + 7), (x + 15, y - 7)], fill=REDUCED_MARK, width=2)


def _key_dismounted(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    _key_counter(d, x, y, us_colour)
    d.polygon([(x + 16, y + 8), (x + 7, y + 8), (x + 16, y - 1)], fill=INK)


def _key_leader(d: ImageDraw.ImageDraw, x: float, y: float, us_colour):
    d.rounded_rectangle([x, y - 6, x + 20, y + 6], radius=4, fill=LEADER_US)
    d.line([(x + 4, y), (x + 16, y)], fill=WHITE, width=2)


# The legend, left to right: (word, its key, the key's width, the gap after the word).
LEGEND_KEYS = (
    (N_("woods"), _key_woods, 22, 14),
    (N_("coulee"), _key_coulee, 22, 14),
    (N_("river"), _key_line(RIVER, 6), 26, 14),
    (N_("ford"), _key_line(FORD, 6, stones=True), 26, 14),
    (N_("ridge"), _key_line(RIDGE, 3), 26, 14),
    (N_("steep ridge"), _key_steep_ridge, 26, 14),
    (N_("exit"), _key_exit, 22, 14),
    (N_("full"), _key_counter, 20, 8),
    (N_("reduced"), _key_reduced, 20, 8),
    (N_("dismounted"), _key_dismounted, 20, 14),
    (N_("leader"), _key_leader, 24, 0),
)


def _legend(d: ImageDraw.ImageDraw, width: int, height: int, us_colour, words: tuple[str, ...]) -> tuple[int, list]:
    """The legend strip; a font a size smaller while the words would run off the map.
    Returns the width it takes from the left edge (a picture cut narrower keeps it whole)
    and its words as (text, box, font size)."""
    y = height - LEGEND / 2
    for size in (11, 10, 9, 8):
        f = _font(size)
        need = sum(key_w + int(text_length(d, word, f)) + gap for word, (_, _, key_w, gap) in zip(words, LEGEND_KEYS))
        if MARGIN + need <= width - MARGIN:
            break
    x = MARGIN
    placed = []
    for word, (_, key, key_w, gap) in zip(words, LEGEND_KEYS):
        key(d, x, y, us_colour)
        x += key_w
        draw_text(d, (x, y), word, f, INK, anchor="lm")
        placed.append((word, text_box(word, size, x, y, "lm"), size))
        x += int(text_length(d, word, f)) + gap
    return x + MARGIN, placed


def us_colour(map_name: str):
    return US_BLUE if map_name == "rosebud" else US_YELLOW


def hexnum_size(k: float) -> int:
    return round(HEXNUM_SIZE * k)


@lru_cache(maxsize=8192)
def hexnum_box(hx: str, k: float) -> tuple[float, float, float, float]:
    """Where the hex's number is drawn, at the top of the hex (counters stay below it)."""
    x, y = hex_xy(hx, k)
    return text_box(hx, hexnum_size(k), x, y - H * k / 2 + 2 * k, "mt")


def _draw_base(map_name: str, words: tuple[str, ...], k: float) -> tuple[Image.Image, dict]:
    data = load_map(map_name)
    cols, rows = int(data["columns"]), int(data["rows"])
    w, h = map_size(cols, rows, k)
    im = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(im)
    terrain = {}
    for kind, hexes in (data.get("hexes") or {}).items():
        for x in hexes:
            terrain[x] = kind
    all_hexes = [f"{c:02d}{r:02d}" for c in range(1, cols + 1) for r in range(1, rows + 1)]
    for hx in all_hexes:
        kind = terrain.get(hx, "clear")
        fill = {"woods": WOODS, "coulee": COULEE}.get(kind, CLEAR)
        d.polygon(hex_corners(hx, k), fill=fill)
    for hx in all_hexes:
        kind = terrain.get(hx)
        x, y = hex_xy(hx, k)
        y += 4 * k  # the symbols in the hex's lower part, under its number
        if kind == "woods":
            r = 3.2 * k
            for dx, dy in ((-7, 1), (0, -4), (7, 1), (-3, 7), (4, 7)):
                d.ellipse([x + dx * k - r, y + dy * k - r, x + dx * k + r, y + dy * k + r], fill=TREE)
        elif kind == "coulee":
            for i in range(-3, 4):
                ox = i * 5 * k
                d.line([(x + ox - 3 * k, y + 8 * k), (x + ox + 3 * k, y - 8 * k)], fill=COULEE_LINE, width=1)
    for hx in all_hexes:
        d.polygon(hex_corners(hx, k), outline=GRID)
    fnum = _font(hexnum_size(k))
    d.fontmode = "1"  # hex numbers without anti-aliasing: crisper digits, and 13 % fewer bytes for the map
    for hx in all_hexes:
        x, y = hex_xy(hx, k)
        d.text((x, y - H * k / 2 + 2 * k), hx, font=fnum, fill=HEXNUM, anchor="mt")
    d.fontmode = "L"
    sides = data.get("hexsides") or {}
    for kind in ("ridge", "steep_ridge", "river", "ford"):
        for a, b in sides.get(kind, []):
            _draw_hexside(d, kind, a, b, k)
    for kind, hexes in (data.get("exits") or {}).items():
        for hx in hexes:
            _exit_arrow(d, hx, cols, rows, k)
    legend_width, legend_words = _legend(d, w, h, us_colour(map_name), words) if k == 1.0 else (0, [])
    info = {"title": data.get("title", map_name), "columns": cols, "rows": rows, "size": (w, h), "legend_width": legend_width,
            "legend_words": legend_words, "hexes": all_hexes,
            "labels": [(str(lab["hex"]), str(lab["text"])) for lab in data.get("labels") or []]}
    return quantize(im, PALETTE), info


# (map, the legend's words, scale): two maps in a language or two, at the map's scale and a
# close-up's; the place names are not in it, because where they fit depends on the counters
_BASE: BoundedCache[tuple[Image.Image, dict]] = BoundedCache(8)


def base(map_name: str, words: tuple[str, ...], k: float = 1.0) -> tuple[Image.Image, dict]:
    """The map's terrain, hexsides, hex numbers, exits and (at the map's own scale) legend, at
    ``k`` times the scale, as a palette image (copy it before drawing on it), and what the
    picture needs to know of the map."""
    return _BASE.get((map_name, words if k == 1.0 else (), k), lambda: _draw_base(map_name, words, k))


# ----------------------------------------------------------------- counters

def _cf(u: dict) -> str:
    cf = u.get("cf")
    reduced = u.get("strength") == "reduced"
    if isinstance(cf, (list, tuple)) and cf:
        return str(cf[1] if reduced and len(cf) > 1 else cf[0])
    if cf is None:
        return ""
    return str(cf)


def _counter_colours(u: dict, us: tuple[int, int, int]):
    reduced = u.get("strength") == "reduced"
    if u.get("side") == "us":
        body = (BLUE_REDUCED if us == US_BLUE else YELLOW_REDUCED) if reduced else us
        text = WHITE if us == US_BLUE and not reduced else US_TEXT_ON_YELLOW
        return body, text
    return (TAN_REDUCED if reduced else TAN), INK


def counter_size(k: float) -> tuple[int, int]:
    """A counter's width and height at ``k`` times the scale: it fits under the hex number."""
    return round(21 * k), round(24 * k)


Words = tuple[tuple[str, tuple[float, float, float, float], int, str], ...]  # (text, box in the tile, size, kind)


def _counter_words(u: dict, w: int, h: int, k: float) -> Words:
    """The counter's name (or none, for a village: its tipi) over its CF, each at the largest
    size that fits, never overlapping; boxes in the tile's pixels."""
    cf, bar = _cf(u), round(4 * k) + 1
    cf_size = round(10 * k)
    cf_box = text_box(cf, cf_size, w / 2, h - 1, "mb") if cf else None
    if u.get("type") == "village":
        return ((cf, cf_box, cf_size, "sp"),) if cf else ()
    name = _short_name(u)
    floor = cf_box[1] if cf_box else h - 1
    for size in range(round(10 * k), 5, -1):
        box = text_box(name, size, w / 2, bar, "mt")
        if box[2] - box[0] <= w - 2 and box[3] <= floor:
            break
    out = ((name, box, size, "name"),)
    return out + (((cf, cf_box, cf_size, "sp"),) if cf else ())


def _draw_counter(u: dict, us: tuple[int, int, int], k: float) -> tuple[Image.Image, Words]:
    """A counter: body, tribe bar, name (a tipi for a village) over its CF, the reduced slash
    and the dismounted corner; and its words' boxes."""
    w, h = counter_size(k)
    im = Image.new("RGB", (w + 1, h + 1), PAPER)
    d = ImageDraw.Draw(im)
    d.fontmode = TEXT_MODE
    reduced = u.get("strength") == "reduced"
    body, text = _counter_colours(u, us)
    d.rectangle([0, 0, w, h], fill=body, outline=INK)
    bar = TRIBE_COLOURS.get(u.get("tribe") or "", None) if u.get("side") != "us" else None
    if bar:
        d.rectangle([1, 1, w - 1, round(4 * k)], fill=bar)
    words = _counter_words(u, w, h, k)
    if u.get("type") == "village":
        cx, cy = w / 2, h * 0.4
        d.polygon([(cx, cy - 6 * k), (cx - 5 * k, cy + 3 * k), (cx + 5 * k, cy + 3 * k)], fill=TIPI, outline=INK)
    for word, box, size, kind in words:
        x0, y0 = box[0], box[1]
        left, top, _r, _b = text_box(word, size, 0, 0)
        d.text((x0 - left, y0 - top), word, font=_font(size), fill=text)
    if reduced:
        d.line([(1, h - 1), (6 * k, h - 6 * k)], fill=REDUCED_MARK, width=2)
    if u.get("mounted") is False:
        d.polygon([(w, h), (w - 7 * k, h), (w, h - 7 * k)], fill=INK)
    return quantize(im, PALETTE), words


# what a unit looks like at a scale; a few hundred at most over a game's units
_TILES: BoundedCache = BoundedCache(1024)


def counter_tile(u: dict, us, k: float) -> tuple[Image.Image, Words]:
    key = (u.get("side"), u.get("type"), u.get("tribe"), _short_name(u), _cf(u), u.get("strength"), u.get("mounted"), us, k)
    return _TILES.get(key, lambda: _draw_counter(u, us, k))


def title_strip(width: int, title: str, size: int = 16, height: int = TOP) -> tuple[Image.Image, tuple]:
    """The banner above the map with its title, and the title's box (drawn once for a title:
    both readers' pictures of a turn have it)."""
    return _STRIPS.get((width, title, size, height), lambda: _draw_title_strip(width, title, size, height))


_STRIPS: BoundedCache[tuple[Image.Image, tuple]] = BoundedCache(32)


def _draw_title_strip(width: int, title: str, size: int, height: int) -> tuple[Image.Image, tuple]:
    im = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(im)
    d.fontmode = TEXT_MODE
    x = round(MARGIN * 0.5) if height < TOP else MARGIN
    draw_text(d, (x, height / 2 + 1), title, _font(size), INK, anchor="lm")
    return quantize(im, PALETTE), text_box(title, size, x, height / 2 + 1, "lm")
