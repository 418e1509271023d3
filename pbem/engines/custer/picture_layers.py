"""The Custer map's layers, each drawn once: the terrain of a map with its legend in
one language (a palette image), and the tiles pasted on it (a counter, a leader's
marker, a place name), each cached by what it shows.

The colours are a fixed palette, so every layer and tile quantised to it pastes into
the map by index, and a turn's picture is never quantised as a whole.

Pure: Pillow and in-memory images only (no files, clock or randomness).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from pbem.engines.fonts import font as _font
from pbem.engines.hexgrid import center, corners, parse_hex
from pbem.engines.accented_text import draw_text, text_length
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


def hex_xy(hex_id: str) -> tuple[float, float]:
    x, y = center(hex_id, S)
    return x + MARGIN, y + MARGIN + TOP


def hex_corners(hex_id: str) -> list[tuple[float, float]]:
    return [(x + MARGIN, y + MARGIN + TOP) for x, y in corners(hex_id, S)]


def _side_segment(a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The hexside's two end points: the corners ``a`` and ``b`` share."""
    ca, cb = hex_corners(a), hex_corners(b)
    shared = [p for p in ca if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in cb)]
    if len(shared) == 2:
        return shared[0], shared[1]
    # not neighbours (bad data): draw nothing visible
    p = hex_xy(a)
    return p, p


def map_size(columns: int, rows: int) -> tuple[int, int]:
    w = int(S * (1.5 * (columns - 1) + 2)) + 2 * MARGIN
    h = int(H * rows + H / 2) + 2 * MARGIN + TOP + LEGEND
    return w, h



# ------------------------------------------------------------ static layer


def load_map(name: str) -> dict:
    return load_json("custer", "maps", f"{name}.json")


def _draw_hexside(d: ImageDraw.ImageDraw, kind: str, a: str, b: str):
    p, q = _side_segment(a, b)
    if kind == "river":
        d.line([p, q], fill=RIVER, width=6)
        for pt in (p, q):
            d.ellipse([pt[0] - 2.6, pt[1] - 2.6, pt[0] + 2.6, pt[1] + 2.6], fill=RIVER)
    elif kind == "ford":
        d.line([p, q], fill=FORD, width=6)
        for pt in (p, q):
            d.ellipse([pt[0] - 2.6, pt[1] - 2.6, pt[0] + 2.6, pt[1] + 2.6], fill=FORD)
        # stepping stones across the ford
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        dx, dy = q[0] - p[0], q[1] - p[1]
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        for t in (-5, 0, 5):
            cx, cy = mx + ux * t, my + uy * t
            d.ellipse([cx - 1.3, cy - 1.3, cx + 1.3, cy + 1.3], fill=RIVER)
    elif kind == "ridge":
        d.line([p, q], fill=RIDGE, width=3)
    elif kind == "steep_ridge":
        dx, dy = q[0] - p[0], q[1] - p[1]
        n = math.hypot(dx, dy) or 1.0
        ox, oy = -dy / n * 2.2, dx / n * 2.2
        for sgn in (1, -1):
            d.line([(p[0] + sgn * ox, p[1] + sgn * oy), (q[0] + sgn * ox, q[1] + sgn * oy)], fill=STEEP, width=2)


def _exit_arrow(d: ImageDraw.ImageDraw, h: str, columns: int, rows: int):
    c, r = parse_hex(h)
    x, y = hex_xy(h)
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
    base = S * 0.55
    tip = S * 1.35
    px, py = -vy, vx
    bx, by = x + vx * base, y + vy * base
    tx, ty = x + vx * tip, y + vy * tip
    w = 6
    shaft_end = (x + vx * (tip - 7), y + vy * (tip - 7))
    d.line([(bx, by), shaft_end], fill=EXIT, width=4)
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
    (N_("dismounted"), _key_dismounted, 20, 0),
)


def _legend(d: ImageDraw.ImageDraw, width: int, height: int, us_colour, words: tuple[str, ...]) -> int:
    """The legend strip; a font a size smaller while the words would run off the map.
    Returns the width it takes from the left edge (a picture cut narrower keeps it whole)."""
    y = height - LEGEND / 2
    for size in (11, 10, 9, 8):
        f = _font(size)
        need = sum(key_w + int(text_length(d, word, f)) + gap for word, (_, _, key_w, gap) in zip(words, LEGEND_KEYS))
        if MARGIN + need <= width - MARGIN:
            break
    x = MARGIN
    for word, (_, key, key_w, gap) in zip(words, LEGEND_KEYS):
        key(d, x, y, us_colour)
        x += key_w
        draw_text(d, (x, y), word, f, INK, anchor="lm")
        x += int(text_length(d, word, f)) + gap
    return x + MARGIN


def us_colour(map_name: str):
    return US_BLUE if map_name == "rosebud" else US_YELLOW


def _draw_base(map_name: str, words: tuple[str, ...]) -> tuple[Image.Image, dict]:
    data = load_map(map_name)
    cols, rows = int(data["columns"]), int(data["rows"])
    w, h = map_size(cols, rows)
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
        d.polygon(hex_corners(hx), fill=fill)
    for hx in all_hexes:
        kind = terrain.get(hx)
        x, y = hex_xy(hx)
        if kind == "woods":
            for dx, dy in ((-7, 1), (0, -4), (7, 1), (-3, 7), (4, 7)):
                d.ellipse([x + dx - 3.2, y + dy - 3.2, x + dx + 3.2, y + dy + 3.2], fill=TREE)
        elif kind == "coulee":
            for k in range(-3, 4):
                ox = k * 5
                d.line([(x + ox - 3, y + 8), (x + ox + 3, y - 8)], fill=COULEE_LINE, width=1)
    for hx in all_hexes:
        d.polygon(hex_corners(hx), outline=GRID)
    fnum = _font(HEXNUM_SIZE)
    d.fontmode = "1"  # hex numbers without anti-aliasing: crisper digits, and 13 % fewer bytes for the map
    for hx in all_hexes:
        x, y = hex_xy(hx)
        d.text((x, y - H / 2 + 2), hx, font=fnum, fill=HEXNUM, anchor="mt")
    d.fontmode = "L"
    sides = data.get("hexsides") or {}
    for kind in ("ridge", "steep_ridge", "river", "ford"):
        for a, b in sides.get(kind, []):
            _draw_hexside(d, kind, a, b)
    for kind, hexes in (data.get("exits") or {}).items():
        for hx in hexes:
            _exit_arrow(d, hx, cols, rows)
    legend_width = _legend(d, w, h, us_colour(map_name), words)
    info = {"title": data.get("title", map_name), "columns": cols, "rows": rows, "size": (w, h), "legend_width": legend_width,
            "labels": [(str(lab["hex"]), str(lab["text"])) for lab in data.get("labels") or []]}
    return quantize(im, PALETTE), info


# (map, the legend's words): two maps in a language or two; the place names are not in
# it, because where they fit depends on the counters
_BASE: BoundedCache[tuple[Image.Image, dict]] = BoundedCache(8)


def base(map_name: str, words: tuple[str, ...]) -> tuple[Image.Image, dict]:
    """The map's terrain, hexsides, hex numbers, exits and legend, as a palette image
    (copy it before drawing on it), and what the picture needs to know of the map."""
    return _BASE.get((map_name, words), lambda: _draw_base(map_name, words))


# ----------------------------------------------------------------- tiles

def _cf(u: dict) -> str:
    cf = u.get("cf")
    reduced = u.get("strength") == "reduced"
    if isinstance(cf, (list, tuple)) and cf:
        return str(cf[1] if reduced and len(cf) > 1 else cf[0])
    if cf is None:
        return ""
    return str(cf)


def _fit(d: ImageDraw.ImageDraw, text: str, width: float):
    """The largest of the counter fonts in which ``text`` fits ``width`` pixels."""
    for size in (10, 9, 8):
        if d.textlength(text, font=_font(size)) <= width:
            return _font(size)
    return _font(7)


def _counter_colours(u: dict, us: tuple[int, int, int]):
    reduced = u.get("strength") == "reduced"
    if u.get("side") == "us":
        body = (BLUE_REDUCED if us == US_BLUE else YELLOW_REDUCED) if reduced else us
        text = WHITE if us == US_BLUE and not reduced else US_TEXT_ON_YELLOW
        return body, text
    return (TAN_REDUCED if reduced else TAN), INK


def _draw_counter(u: dict, us: tuple[int, int, int], size: int) -> Image.Image:
    """A counter ``size`` pixels square (plus its outline): body, tribe bar, name or tipi,
    CF, the reduced slash and the dismounted corner."""
    im = Image.new("RGB", (size + 1, size + 1), PAPER)
    d = ImageDraw.Draw(im)
    d.fontmode = TEXT_MODE
    half = size / 2
    cx = cy = half
    reduced = u.get("strength") == "reduced"
    body, text = _counter_colours(u, us)
    d.rectangle([0, 0, size, size], fill=body, outline=INK)
    bar = TRIBE_COLOURS.get(u.get("tribe") or "", None) if u.get("side") != "us" else None
    if bar:
        d.rectangle([1, 1, size - 1, 4], fill=bar)
    if u.get("type") == "village":
        d.polygon([(cx, cy - half + 5), (cx - 5, cy + 2), (cx + 5, cy + 2)], fill=TIPI, outline=INK)
    else:
        label = _short_name(u)
        d.text((cx, cy - 3 + (1 if bar else 0)), label, font=_fit(d, label, size - 2), fill=text, anchor="mm")
    dismounted = u.get("mounted") is False
    d.text((cx - 1 if dismounted else cx, cy + 6), _cf(u), font=_font(10), fill=text, anchor="mm")
    if reduced:
        d.line([(1, size - 1), (6, size - 6)], fill=REDUCED_MARK, width=2)
    if dismounted:
        d.polygon([(size, size), (size - 7, size), (size, size - 7)], fill=INK)
    return quantize(im, PALETTE)


def _counter_key(u: dict, us, size: int) -> tuple:
    return (u.get("side"), u.get("type"), u.get("tribe"), _short_name(u), _cf(u), u.get("strength"),
            u.get("mounted"), us, size)


LEADER_MAX_WIDTH = 2 * S - 6  # a leader's marker stays within its hex's width (it covered the next hex's counters)


def _leader_font(name: str):
    """The largest of the marker fonts in which ``name`` fits ``LEADER_MAX_WIDTH``."""
    for size in (10, 9, 8):
        if _font(size).getlength(name) + 6 <= LEADER_MAX_WIDTH:
            return _font(size)
    return _font(7)


def _draw_leader(u: dict, us: tuple[int, int, int]) -> tuple[Image.Image, Image.Image]:
    """A leader's rounded marker and its mask (the corners show the map)."""
    name = _short_name(u)
    f = _leader_font(name)
    w = int(math.ceil(f.getlength(name) + 6))
    h = 13
    hit = u.get("strength") == "reduced"
    if u.get("side") == "us":
        fill = LEADER_US_HIT if hit else LEADER_US
    else:
        fill = LEADER_IND_HIT if hit else LEADER_IND
    im = Image.new("RGB", (w + 1, h + 1), PAPER)
    mask = Image.new("L", im.size, 0)
    box = [0, 0, w, h]
    ImageDraw.Draw(mask).rounded_rectangle(box, radius=5, fill=255)
    d = ImageDraw.Draw(im)
    d.fontmode = TEXT_MODE
    d.rounded_rectangle(box, radius=5, fill=fill, outline=us if u.get("side") == "us" else TAN)
    d.text((w / 2, h / 2), name, font=f, fill=WHITE, anchor="mm")
    return quantize(im, PALETTE), mask


def _draw_label(text: str) -> tuple[Image.Image, Image.Image]:
    """A place name with a paper-coloured halo, and its mask (the halo's outer edge)."""
    f = _font(12)
    left, top, right, bottom = f.getbbox(text, mode=TEXT_MODE, stroke_width=2, anchor="lt")
    im = Image.new("RGBA", (right - left + 2, bottom - top + 2), PAPER + (0,))
    d = ImageDraw.Draw(im)
    d.fontmode = TEXT_MODE
    d.text((1 - left, 1 - top), text, font=f, fill=LABEL, anchor="lt", stroke_width=2, stroke_fill=PAPER)
    mask = im.getchannel("A").point(lambda a: 255 if a >= 96 else 0)
    return quantize(im, PALETTE), mask


# what a unit or a place name looks like; a few hundred at most over a game's units
_TILES: BoundedCache = BoundedCache(1024)


def counter_tile(u: dict, us, size: int) -> Image.Image:
    return _TILES.get(("counter", *_counter_key(u, us, size)), lambda: _draw_counter(u, us, size))


def leader_tile(u: dict, us) -> tuple[Image.Image, Image.Image]:
    key = ("leader", u.get("side"), _short_name(u), u.get("strength") == "reduced", us)
    return _TILES.get(key, lambda: _draw_leader(u, us))


def label_tile(text: str) -> tuple[Image.Image, Image.Image]:
    return _TILES.get(("label", text), lambda: _draw_label(text))


def title_strip(width: int, title: str) -> Image.Image:
    """The banner above the map with its title (drawn for each turn: the title changes)."""
    im = Image.new("RGB", (width, TOP), PAPER)
    d = ImageDraw.Draw(im)
    d.fontmode = TEXT_MODE
    draw_text(d, (MARGIN, TOP / 2 + 4), title, _font(16), INK, anchor="lm")
    return quantize(im, PALETTE)
