"""The Custer's Last Stand map as a PNG, drawn from a view (never from the state).

``draw_map(view, gettext=None) -> bytes``.  The static layer (terrain, hexsides,
hex numbers, labels, exit arrows, legend) depends only on the map and the legend's
words, so it is drawn once per map and language and kept in ``_BASE``; a turn's
picture copies it, draws the title, the counters, this turn's moves and combats, and
is quantised to a fixed palette ("P" PNG: about half the bytes of RGB, and the same
bytes on every run).

Words (title, legend) are English message ids marked ``N_`` and drawn through the
reader's ``gettext``; place names on the map and unit names are names, drawn as they are.

Pure: Pillow and in-memory buffers only (no files, clock or randomness).
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

from pbem.engines.base import format_message
from pbem.engines.fonts import font as _font
from pbem.engines.lettering import draw_text, text_length
from pbem.resources import load_json

from pbem.engines.hexgrid import center, corners, parse_hex
from .messages import N_

S = 24                      # hex circumradius in pixels
H = S * math.sqrt(3)        # hex height (flat to flat)
MARGIN = 22                 # room for exit arrows around the board
TOP = 34                    # title banner
LEGEND = 34                 # legend strip at the bottom

TITLE_TURN = N_("%(title)s - turn %(turn)s")
TITLE_TURN_OF = N_("%(title)s - turn %(turn)s of %(turns)s")

# ---------------------------------------------------------------- colours

CLEAR = (236, 230, 203)
GRID = (196, 186, 156)
HEXNUM = (150, 138, 108)
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
TRIBE_SHORT = {
    "hunkpapa": "Hun", "oglala": "Ogl", "miniconjou": "Min", "sans_arc": "SA",
    "cheyenne": "Chy", "blackfeet": "Blk", "brule": "Bru",
}

_FIXED = [
    CLEAR, GRID, HEXNUM, WOODS, TREE, COULEE, COULEE_LINE, RIVER, FORD, RIDGE, STEEP, LABEL,
    EXIT, PAPER, INK, WHITE, US_YELLOW, US_BLUE, US_TEXT_ON_YELLOW, TAN, TAN_REDUCED,
    YELLOW_REDUCED, BLUE_REDUCED, LEADER_US, LEADER_IND, MOVE_US, MOVE_IND, COMBAT, REDUCED_MARK,
    *TRIBE_COLOURS.values(),
]


def _palette_image() -> Image.Image:
    """A fixed palette: every colour drawn above, a grey ramp and a 6x6x6 cube for
    the anti-aliased edges of text and lines."""
    colours: list[tuple[int, int, int]] = []
    for c in _FIXED:
        if c not in colours:
            colours.append(c)
    for v in range(0, 256, 16):
        g = (v, v, v)
        if g not in colours:
            colours.append(g)
    for r in range(6):
        for g in range(6):
            for b in range(6):
                c = (r * 51, g * 51, b * 51)
                if c not in colours and len(colours) < 256:
                    colours.append(c)
    flat = [v for c in colours[:256] for v in c]
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


_PALETTE = _palette_image()


# -------------------------------------------------------------- geometry


def _xy(hex_id: str) -> tuple[float, float]:
    x, y = center(hex_id, S)
    return x + MARGIN, y + MARGIN + TOP


def _corners(hex_id: str) -> list[tuple[float, float]]:
    return [(x + MARGIN, y + MARGIN + TOP) for x, y in corners(hex_id, S)]


def _side_segment(a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The hexside's two end points: the corners ``a`` and ``b`` share."""
    ca, cb = _corners(a), _corners(b)
    shared = [p for p in ca if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in cb)]
    if len(shared) == 2:
        return shared[0], shared[1]
    # not neighbours (bad data): draw nothing visible
    p = _xy(a)
    return p, p


def _size(columns: int, rows: int) -> tuple[int, int]:
    w = int(S * (1.5 * (columns - 1) + 2)) + 2 * MARGIN
    h = int(H * rows + H / 2) + 2 * MARGIN + TOP + LEGEND
    return w, h


# ------------------------------------------------------------ static layer

_BASE: dict[tuple[str, tuple[str, ...]], tuple[Image.Image, dict]] = {}  # (map, legend words)


def _load_map(name: str) -> dict:
    return load_json("custer", "maps", f"{name}.json")


def _text_centered(d: ImageDraw.ImageDraw, xy, text, font, fill, **kw):
    d.text(xy, text, font=font, fill=fill, anchor="mm", **kw)


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
    x, y = _xy(h)
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


def _legend(d: ImageDraw.ImageDraw, width: int, height: int, us_colour, words: tuple[str, ...]):
    """The legend strip; a font a size smaller while the words would run off the map."""
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


def _us_colour(map_name: str):
    return US_BLUE if map_name == "rosebud" else US_YELLOW


def _base(map_name: str, words: tuple[str, ...]) -> tuple[Image.Image, dict]:
    cached = _BASE.get((map_name, words))
    if cached is not None:
        return cached
    data = _load_map(map_name)
    cols, rows = int(data["columns"]), int(data["rows"])
    w, h = _size(cols, rows)
    im = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(im)
    terrain = {}
    for kind, hexes in (data.get("hexes") or {}).items():
        for x in hexes:
            terrain[x] = kind
    all_hexes = [f"{c:02d}{r:02d}" for c in range(1, cols + 1) for r in range(1, rows + 1)]
    # board frame
    for hx in all_hexes:
        kind = terrain.get(hx, "clear")
        fill = {"woods": WOODS, "coulee": COULEE}.get(kind, CLEAR)
        d.polygon(_corners(hx), fill=fill)
    for hx in all_hexes:
        kind = terrain.get(hx)
        x, y = _xy(hx)
        if kind == "woods":
            for dx, dy in ((-7, 1), (0, -4), (7, 1), (-3, 7), (4, 7)):
                d.ellipse([x + dx - 3.2, y + dy - 3.2, x + dx + 3.2, y + dy + 3.2], fill=TREE)
        elif kind == "coulee":
            for k in range(-3, 4):
                ox = k * 5
                d.line([(x + ox - 3, y + 8), (x + ox + 3, y - 8)], fill=COULEE_LINE, width=1)
    for hx in all_hexes:
        d.polygon(_corners(hx), outline=GRID)
    fnum = _font(8)
    for hx in all_hexes:
        x, y = _xy(hx)
        d.text((x, y - H / 2 + 2), hx, font=fnum, fill=HEXNUM, anchor="mt")
    sides = data.get("hexsides") or {}
    for kind in ("ridge", "steep_ridge", "river", "ford"):
        for a, b in sides.get(kind, []):
            _draw_hexside(d, kind, a, b)
    for kind, hexes in (data.get("exits") or {}).items():
        for hx in hexes:
            _exit_arrow(d, hx, cols, rows)
    flab = _font(12)
    for lab in data.get("labels") or []:
        x, y = _xy(lab["hex"])
        d.text((x, y + H * 0.22), lab["text"], font=flab, fill=LABEL, anchor="mm",
               stroke_width=2, stroke_fill=PAPER)
    _legend(d, w, h, _us_colour(map_name), words)
    info = {"title": data.get("title", map_name), "columns": cols, "rows": rows, "size": (w, h)}
    _BASE[map_name, words] = (im, info)
    return im, info


# ----------------------------------------------------------------- units


def _short_name(u: dict) -> str:
    name = str(u.get("short") or u.get("name") or u.get("id") or "?")
    t = u.get("type")
    if name.lower().startswith("co. "):
        return name[4:].split()[0][:3]
    if t == "warriors":
        tribe = u.get("tribe") or ""
        if tribe not in TRIBE_SHORT:
            return name[:5]
        num = "".join(ch for ch in name if ch.isdigit())
        return (TRIBE_SHORT[tribe] + num)[:5]
    if t == "village":
        num = "".join(ch for ch in name if ch.isdigit())
        return ("V" + num)[:4]
    if t in ("us_leader", "tribe_leader"):
        words = name.split()
        if len(words) == 1:
            return name[:9]
        return ".".join(w[0] for w in words[:-1]) + "." + words[-1][:7]
    words = name.split()
    num = words[-1] if len(words) > 1 and words[-1].isdigit() else ""
    return (words[0][:4] + num)[:5]


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


def _counter(d: ImageDraw.ImageDraw, cx: float, cy: float, u: dict, us_colour, size: int = 21):
    side = u.get("side")
    reduced = u.get("strength") == "reduced"
    half = size / 2
    box = [cx - half, cy - half, cx + half, cy + half]
    if side == "us":
        body = (BLUE_REDUCED if us_colour == US_BLUE else YELLOW_REDUCED) if reduced else us_colour
        text = WHITE if us_colour == US_BLUE and not reduced else US_TEXT_ON_YELLOW
    else:
        body = TAN_REDUCED if reduced else TAN
        text = INK
    d.rectangle(box, fill=body, outline=INK)
    bar = TRIBE_COLOURS.get(u.get("tribe") or "", None) if side != "us" else None
    if bar:
        d.rectangle([box[0] + 1, box[1] + 1, box[2] - 1, box[1] + 4], fill=bar)
    if u.get("type") == "village":
        # a tipi
        d.polygon([(cx, cy - half + 5), (cx - 5, cy + 2), (cx + 5, cy + 2)], fill=(160, 120, 70), outline=INK)
    else:
        label = _short_name(u)
        font = _fit(d, label, size - 2)
        d.text((cx, cy - 3 + (1 if bar else 0)), label, font=font, fill=text, anchor="mm")
    d.text((cx - 1 if u.get("mounted") is False else cx, cy + 6), _cf(u), font=_font(10), fill=text, anchor="mm")
    if reduced:
        d.line([(box[0] + 1, box[3] - 1), (box[0] + 6, box[3] - 6)], fill=REDUCED_MARK, width=2)
    if u.get("mounted") is False:
        d.polygon([(box[2], box[3]), (box[2] - 7, box[3]), (box[2], box[3] - 7)], fill=INK)


def _leader(d: ImageDraw.ImageDraw, cx: float, cy: float, u: dict, us_colour):
    side = u.get("side")
    hit = u.get("strength") == "reduced"
    name = _short_name(u)
    f = _font(10)
    w = d.textlength(name, font=f) + 8
    box = [cx - w / 2, cy - 6.5, cx + w / 2, cy + 6.5]
    if side == "us":
        fill = LEADER_US if not hit else (130, 130, 150)
    else:
        fill = LEADER_IND if not hit else (170, 140, 120)
    d.rounded_rectangle(box, radius=5, fill=fill, outline=us_colour if side == "us" else TAN)
    d.text((cx, cy), name, font=f, fill=WHITE, anchor="mm")


def _draw_units(d: ImageDraw.ImageDraw, units: list[dict], us_colour):
    by_hex: dict[str, list[dict]] = {}
    for u in units:
        hx = u.get("hex")
        if not hx or u.get("eliminated") or u.get("status") in ("eliminated", "exited", "captured"):
            continue
        by_hex.setdefault(hx, []).append(u)
    for hx in sorted(by_hex):
        try:
            x, y = _xy(hx)
        except ValueError:
            continue
        stack = sorted(by_hex[hx], key=lambda u: str(u.get("id")))
        leaders = [u for u in stack if u.get("type") in ("us_leader", "tribe_leader")]
        others = [u for u in stack if u.get("type") not in ("us_leader", "tribe_leader")]
        oy = 3 if leaders else 0
        if len(others) == 1:
            _counter(d, x, y + oy, others[0], us_colour)
        elif others:
            n = len(others)
            step = 22 if n == 2 else 44 / n
            x0 = x - step * (n - 1) / 2
            for i, u in enumerate(others):
                _counter(d, x0 + i * step, y + oy, u, us_colour, size=21 if n <= 2 else 15)
        for i, u in enumerate(leaders):
            ly = y - H / 2 + 7 + i * 12 if others else y + i * 12
            _leader(d, x, ly, u, us_colour)


def _arrow(d: ImageDraw.ImageDraw, pts, colour):
    if len(pts) < 2:
        return
    d.line(pts, fill=colour, width=3, joint="curve")
    (x1, y1), (x2, y2) = pts[-2], pts[-1]
    ang = math.atan2(y2 - y1, x2 - x1)
    tip = (x2, y2)
    left = (x2 - 9 * math.cos(ang - 0.45), y2 - 9 * math.sin(ang - 0.45))
    right = (x2 - 9 * math.cos(ang + 0.45), y2 - 9 * math.sin(ang + 0.45))
    d.polygon([tip, left, right], fill=colour)


def _draw_moves(d: ImageDraw.ImageDraw, moves: list[dict], sides: dict[str, str]):
    for mv in moves or []:
        path = [h for h in (mv.get("path") or []) if isinstance(h, str)]
        if len(path) < 2:
            continue
        try:
            pts = [_xy(h) for h in path]
        except ValueError:
            continue
        colour = MOVE_US if sides.get(mv.get("unit")) == "us" else MOVE_IND
        # stop the arrow short of the last centre so the counter stays readable
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        k = 0.55
        pts[-1] = (x1 + (x2 - x1) * k, y1 + (y2 - y1) * k)
        _arrow(d, pts, colour)


def _draw_combats(d: ImageDraw.ImageDraw, combats: list[dict]):
    for cb in combats or []:
        hx = cb.get("hex")
        if not isinstance(hx, str):
            continue
        try:
            x, y = _xy(hx)
        except ValueError:
            continue
        for a in cb.get("attackers") or []:
            try:
                ax, ay = _xy(a)
            except (ValueError, TypeError):
                continue
            mx, my = (ax + x) / 2, (ay + y) / 2
            # a short red dart from the attacker's side of the hexside into the defender
            sx, sy = ax + (x - ax) * 0.3, ay + (y - ay) * 0.3
            _arrow(d, [(sx, sy), (mx + (x - mx) * 0.4, my + (y - my) * 0.4)], COMBAT)
        d.ellipse([x - S * 0.92, y - S * 0.92, x + S * 0.92, y + S * 0.92], outline=COMBAT, width=3)


def draw_map(view: dict, gettext=None) -> bytes:
    """The PNG of the map with the units and this turn's moves and combats, its words
    in the reader's language (``gettext``; None: English)."""
    gettext = gettext or N_  # N_ returns the English id as it is
    map_name = _map_name(view)
    base, info = _base(map_name, tuple(gettext(word) for word, *_ in LEGEND_KEYS))
    im = base.copy()
    d = ImageDraw.Draw(im)
    us_colour = _us_colour(map_name)
    title = info["title"]
    title = gettext(title)  # marked in scenario.MAP_TITLES (a literal inside gettext() would be extracted)
    turn = view.get("turn")
    turns = view.get("turns")
    if turn is not None:
        title = format_message(TITLE_TURN_OF if turns else TITLE_TURN, {"title": title, "turn": turn, "turns": turns}, gettext)
    draw_text(d, (MARGIN, TOP / 2 + 4), title, _font(16), INK, anchor="lm")
    units = [u for u in (view.get("units") or []) if isinstance(u, dict)]
    sides = {u.get("id"): u.get("side") for u in units}
    _draw_moves(d, view.get("last_moves") or [], sides)
    _draw_units(d, units, us_colour)
    _draw_combats(d, view.get("last_combats") or [])
    out = im.quantize(palette=_PALETTE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    out.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def _map_name(view: dict) -> str:
    for key in ("map", "map_name"):
        v = view.get(key)
        if isinstance(v, str) and v:
            return v
        if isinstance(v, dict) and v.get("name"):
            return str(v["name"])
    scen = view.get("scenario")
    if isinstance(scen, dict):
        return str(scen.get("map") or scen.get("name"))
    if isinstance(scen, str) and scen:
        return "rosebud" if scen.startswith("rosebud") else "little_bighorn"
    return "little_bighorn"
