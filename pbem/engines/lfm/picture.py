"""The Last Full Measure map as a PNG, drawn from a view (never from the state).

``draw_map(view, gettext=None) -> bytes``: the hex map shaded by contour level, terrain,
streams, stone walls and slopes, pikes, roads and trails, objectives and breastworks; every
unit as a counter (type symbol, SP of the stack, brigade colour, D, shattered, out of
command, limbered, dismounted marks) and commanders as star badges; this player turn's moves
as arrows, artillery fire lines, charges and combats ringed; under the map, a zoomed crop
(twice the scale) of each area where fighting happened, for reading at mail width.

The static layer depends only on the map and is drawn once per map (``_BASE``). Words drawn
are English message ids marked ``N_`` through the reader's ``gettext``; names stay as they are.
Pure: Pillow and in-memory buffers only.
"""

from __future__ import annotations

import json
import math

from PIL import Image, ImageDraw

from pbem.engines.base import format_message
from pbem.engines.fonts import font
from pbem.engines.pictures import BoundedCache, encode_png
from pbem.engines.hexgrid import center, corners, distance
from pbem.engines.accented_text import draw_text

from . import scenario as scenarios
from .messages import N_

S = 18
COMPRESS_LEVEL = 6
MARGIN, TOP, ZOOM, CROP_RADIUS, MAX_CROPS = 12, 30, 2, 3, 3

TITLE = N_("%(title)s - turn %(turn)s of %(turns)s (%(time)s), %(side)s %(step)s")
STEP_WORDS = {"move": N_("movement"), "combat": N_("combat")}
CROPS = N_("Where the fighting was (twice the scale)")

LEVELS = [(226, 222, 196), (214, 204, 166), (198, 182, 136), (178, 158, 110), (156, 134, 90), (134, 112, 74)]
GRID = (150, 140, 110)
HEXNUM = (120, 110, 86)
WOODS = (104, 150, 84)
ORCHARD = (160, 190, 110)
TOWN = (120, 110, 110)
FARM = (150, 80, 60)
STREAM = (50, 110, 200)
WALL = (90, 90, 90)
SLOPE = (110, 70, 30)
ROAD = {"pike": ((60, 40, 20), 4), "road": ((90, 60, 30), 3), "trail": ((120, 90, 60), 2)}
INK, WHITE, RED, ORANGE = (20, 20, 20), (255, 255, 255), (200, 20, 20), (230, 120, 0)
SIDE = {"csa": (150, 150, 156), "usa": (64, 96, 170)}
MOVE = {"csa": (90, 90, 96), "usa": (20, 50, 140)}
BRIGADE_COLOURS = [(200, 40, 40), (240, 200, 40), (40, 150, 70), (230, 120, 20), (120, 60, 160), (40, 170, 200),
                   (250, 250, 250), (20, 20, 20)]


MAIN = ((0.0, 0.0), 1.0, (MARGIN, MARGIN + TOP))  # a frame: map-pixel origin, scale, offset in the image


def _palette() -> Image.Image:
    """A fixed palette: every colour drawn here, a grey ramp and a 6x6x6 cube for anti-aliased
    edges; mapping onto it is several times faster than an adaptive palette, and the same bytes
    on every run."""
    fixed = [*LEVELS, GRID, HEXNUM, WOODS, ORCHARD, TOWN, FARM, STREAM, WALL, SLOPE, *(c for c, _w in ROAD.values()),
             INK, WHITE, RED, ORANGE, *SIDE.values(), *MOVE.values(), *BRIGADE_COLOURS, (250, 247, 236)]
    colours: list[tuple[int, int, int]] = []
    for c in fixed + [(v, v, v) for v in range(0, 256, 16)] + [(r * 51, g * 51, b * 51)
                                                                for r in range(6) for g in range(6) for b in range(6)]:
        if c not in colours:
            colours.append(c)
    flat = [v for c in colours[:256] for v in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


_PALETTE = _palette()


def _xy(h: str, frame=MAIN) -> tuple[float, float]:
    (ox, oy), scale, (dx, dy) = frame
    x, y = center(h, S)
    return (x - ox) * scale + dx, (y - oy) * scale + dy


def _corners(h: str):
    (_o, _s, (dx, dy)) = MAIN
    return [(x + dx, y + dy) for x, y in corners(h, S)]


def _shared_side(a: str, b: str):
    ca, cb = _corners(a), _corners(b)
    shared = [p for p in ca if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in cb)]
    return shared if len(shared) == 2 else None


# each map's static layer (two scenarios, one map each), drawn once
_BASE: BoundedCache[Image.Image] = BoundedCache(4)


def _base(board) -> Image.Image:
    return _BASE.get(board.name, lambda: _draw_base(board))


def _draw_base(board) -> Image.Image:
    w = int(S * (1.5 * (board.columns - 1) + 2)) + 2 * MARGIN
    h = int(S * math.sqrt(3) * (board.rows + 0.5)) + 2 * MARGIN + TOP
    img = Image.new("RGB", (w, h), (250, 247, 236))
    d = ImageDraw.Draw(img)
    small = font(7)
    for hx in board.terrain:
        level = max(0, min(len(LEVELS) - 1, board.elevation[hx]))
        d.polygon(_corners(hx), fill=LEVELS[level], outline=GRID)
        x, y = _xy(hx)
        kind = board.terrain[hx]
        if kind == "woods":
            for dx, dy in ((-6, -3), (0, 4), (6, -3), (-2, -8), (4, 9)):
                d.ellipse([x + dx - 3, y + dy - 3, x + dx + 3, y + dy + 3], fill=WOODS)
        elif kind == "orchard":
            for dx in (-7, 0, 7):
                for dy in (-5, 5):
                    d.ellipse([x + dx - 1.5, y + dy - 1.5, x + dx + 1.5, y + dy + 1.5], fill=ORCHARD)
        elif kind == "town":
            d.rectangle([x - 8, y - 6, x + 8, y + 6], fill=TOWN)
        elif kind == "farm":
            d.rectangle([x - 4, y - 3, x + 4, y + 3], fill=FARM)
        d.text((x, y - S * 0.62), hx, font=small, fill=HEXNUM, anchor="mm")
    for (a, b), kinds in board.hexsides.items():
        seg = _shared_side(a, b)
        if not seg:
            continue
        for kind in kinds:
            if kind == "stream":
                d.line(seg, fill=STREAM, width=4)
            elif kind == "stone_wall":
                d.line(seg, fill=WALL, width=3)
                for t in (0.25, 0.5, 0.75):
                    px, py = seg[0][0] + (seg[1][0] - seg[0][0]) * t, seg[0][1] + (seg[1][1] - seg[0][1]) * t
                    d.rectangle([px - 1.5, py - 1.5, px + 1.5, py + 1.5], fill=WALL)
            elif kind == "slope":
                d.line(seg, fill=SLOPE, width=2)
                low = a if board.elevation[a] < board.elevation[b] else b
                lx, ly = _xy(low)
                for t in (0.3, 0.7):
                    px, py = seg[0][0] + (seg[1][0] - seg[0][0]) * t, seg[0][1] + (seg[1][1] - seg[0][1]) * t
                    d.line([(px, py), (px + (lx - px) * 0.25, py + (ly - py) * 0.25)], fill=SLOPE, width=1)
    for kind in ("trail", "road", "pike"):
        colour, width = ROAD[kind]
        for (a, b), k in board.roads.items():
            if k == kind:
                d.line([_xy(a), _xy(b)], fill=colour, width=width)
    label_font = font(9)
    for lab in board.labels:
        if lab.get("hex") in board.terrain:
            x, y = _xy(lab["hex"])
            d.text((x, y + S * 0.55), lab["text"], font=label_font, fill=INK, anchor="mm")
    return img


def _brigade_colours(view: dict) -> dict[str, tuple[int, int, int]]:
    out = {}
    for side in view["roles"]:
        brigades = [c["id"] for c in view["commanders"] if c["side"] == side and c["rank"] == "brigade"]
        for i, b in enumerate(brigades):
            out[b] = BRIGADE_COLOURS[i % len(BRIGADE_COLOURS)]
    return out


def _counter(d: ImageDraw.ImageDraw, x: float, y: float, units: list[dict], colours: dict, scale: float) -> None:
    side = units[0]["side"]
    w, h = 15 * scale, 12 * scale
    troops = [u for u in units if u["type"] not in ("artillery", "horse_artillery")]
    guns = [u for u in units if u["type"] in ("artillery", "horse_artillery")]
    top = troops[0] if troops else guns[0]
    d.rectangle([x - w, y - h, x + w, y + h], fill=SIDE[side], outline=INK)
    stripe = colours.get(top.get("brigade") or "", SIDE[side])
    d.rectangle([x - w, y - h, x - w + 4 * scale, y + h], fill=stripe)
    # type symbol in a box: infantry X, cavalry one slash, artillery a dot
    bx0, by0, bx1, by1 = x - 7 * scale, y - 9 * scale, x + 9 * scale, y - 1 * scale
    d.rectangle([bx0, by0, bx1, by1], outline=INK, width=1)
    if top["type"] in ("infantry", "sharpshooters"):
        d.line([(bx0, by0), (bx1, by1)], fill=INK)
        d.line([(bx0, by1), (bx1, by0)], fill=INK)
    elif top["type"] == "cavalry":
        d.line([(bx0, by1), (bx1, by0)], fill=INK, width=2 if top["mounted"] else 1)
        if not top["mounted"]:
            d.line([(bx0, by0), (bx1, by1)], fill=INK)  # dismounted: fights on foot
    else:
        cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
        d.ellipse([cx - 2 * scale, cy - 2 * scale, cx + 2 * scale, cy + 2 * scale], fill=INK)
    sp = sum(u["sp"] for u in units)
    d.text((x + 1 * scale, y + 6 * scale), str(sp), font=font(int(9 * scale)), fill=WHITE if side == "usa" else INK, anchor="mm")
    if any(u["d"] or u["charged"] for u in units):
        d.text((x + w - 3 * scale, y + 6 * scale), "D", font=font(int(8 * scale)), fill=RED, anchor="mm")
    if any(u["shattered"] for u in units):
        d.line([(x - w, y + h), (x + w, y - h)], fill=RED, width=max(1, int(2 * scale)))
    if guns and any(u["limbered"] for u in guns):
        d.text((x - w + 7 * scale, y + 6 * scale), "L", font=font(int(7 * scale)), fill=INK, anchor="mm")
    if len(units) > 1:
        d.rectangle([x + w - 1, y - h + 2, x + w + 2 * scale, y + h + 2], fill=SIDE[side], outline=INK)


def _arrow(d: ImageDraw.ImageDraw, pts: list, colour, width: int) -> None:
    if len(pts) < 2:
        return
    d.line(pts, fill=colour, width=width, joint="curve")
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    size = 4 + width * 2
    d.polygon([(x1, y1), (x1 - size * math.cos(ang - 0.45), y1 - size * math.sin(ang - 0.45)),
               (x1 - size * math.cos(ang + 0.45), y1 - size * math.sin(ang + 0.45))], fill=colour)


def _dynamic(d: ImageDraw.ImageDraw, view: dict, frame=MAIN) -> None:
    scale = frame[1]

    def at(h):
        return _xy(h, frame)

    colours = _brigade_colours(view)
    for h, st in view["breastworks"].items():
        x, y = at(h)
        d.arc([x - 14 * scale, y - 14 * scale, x + 14 * scale, y + 14 * scale], 200, 340, fill=SLOPE,
              width=max(2, int(3 * scale)) if st == "built" else 1)
    for key in view.get("burned_bridges", []):
        a, b = key.split("-")
        (ax, ay), (bx, by) = at(a), at(b)
        mx, my, r = (ax + bx) / 2, (ay + by) / 2, 5 * scale
        d.line([(mx - r, my - r), (mx + r, my + r)], fill=RED, width=max(2, int(2 * scale)))
        d.line([(mx - r, my + r), (mx + r, my - r)], fill=RED, width=max(2, int(2 * scale)))
    for obj in view["objectives"]:
        x, y = at(obj["hex"])
        held = view["control"].get(obj["hex"])
        r = 5 * scale
        d.regular_polygon((x + 11 * scale, y - 11 * scale, r), 5, fill=MOVE.get(held, WHITE), outline=INK)
    last = view["last"]
    for m in last["moves"]:
        side = next((u["side"] for u in view["units"] if u["id"] in m["units"]),
                    next((c["side"] for c in view["commanders"] if c["id"] in m["units"]), "csa"))
        _arrow(d, [at(h) for h in m["path"]], MOVE[side], max(2, int(2 * scale)))
    for r in last["retreats"]:
        _arrow(d, [at(h) for h in r["path"]], RED, 1)
    for f in last["fires"]:
        tx, ty = at(f["target"])
        for h in f["from"]:
            fx, fy = at(h)
            steps = max(1, int(math.hypot(tx - fx, ty - fy) / (6 * scale)))
            for i in range(0, steps, 2):
                a, b = i / steps, min(1.0, (i + 1) / steps)
                d.line([(fx + (tx - fx) * a, fy + (ty - fy) * a), (fx + (tx - fx) * b, fy + (ty - fy) * b)], fill=ORANGE, width=2)
    by_hex: dict[str, list[dict]] = {}
    for u in view["units"]:
        if u["status"] == "on_map":
            by_hex.setdefault(u["hex"], []).append(u)
    for h, units in sorted(by_hex.items()):
        x, y = at(h)
        _counter(d, x, y, units, colours, scale)
    for c in view["commanders"]:
        if c["status"] != "on_map":
            continue
        x, y = at(c["hex"])
        stars = {"army": 4, "corps": 3, "division": 2, "brigade": 1}[c["rank"]]
        bx, by = x - 12 * scale, y - 12 * scale
        d.ellipse([bx - 5 * scale, by - 5 * scale, bx + 5 * scale, by + 5 * scale], fill=colours.get(c["id"], SIDE[c["side"]]), outline=INK)
        d.text((bx, by), str(stars), font=font(int(7 * scale)), fill=INK, anchor="mm")
    for target in [t for c in last["combats"] for t in c.get("targets", [c["target"]])] + [ch["target"] for ch in last["charges"]]:
        x, y = at(target)
        r = S * 0.9 * scale
        d.ellipse([x - r, y - r, x + r, y + r], outline=RED, width=max(2, int(2 * scale)))


def _fights(view: dict) -> list[str]:
    """The centres of the areas where fighting happened, merged when close."""
    spots = [c["target"] for c in view["last"]["combats"]] + [c["target"] for c in view["last"]["charges"]]
    out: list[str] = []
    for s in spots:
        if all(distance(s, o) > CROP_RADIUS for o in out):
            out.append(s)
    return out[:MAX_CROPS]


_RECENT: BoundedCache[bytes] = BoundedCache(4)  # the last pictures drawn: every role's report of a phase shows the same map


def draw_map(view: dict, gettext=None) -> bytes:
    """The PNG of ``view``; the same bytes for every view that differs only in standing orders."""
    _ = gettext or (lambda m: m)
    key = json.dumps([_(TITLE), {k: v for k, v in view.items() if k != "standing"}], sort_keys=True)
    return _RECENT.get(key, lambda: _draw(view, _))


def _draw(view: dict, _) -> bytes:
    board = scenarios.load(view["scenario"]).board
    base = _base(board)
    img = base.copy()
    d = ImageDraw.Draw(img)
    side = view["side_names"].get(view["phasing"], view["phasing"])
    title = format_message(TITLE, {"title": view["title"], "turn": view["turn"], "turns": view["turns"], "time": view["time"],
                                   "side": side, "step": _(STEP_WORDS[view["step"]])}, _)
    draw_text(d, (MARGIN, 8), title, font(14), INK)
    _dynamic(d, view)
    crops = []
    for spot in _fights(view):
        cx, cy = center(spot, S)
        half_w, half_h = S * (CROP_RADIUS + 1.2), S * (CROP_RADIUS + 1.2) * 0.9
        box = (int(cx - half_w + MARGIN), int(cy - half_h + MARGIN + TOP), int(cx + half_w + MARGIN), int(cy + half_h + MARGIN + TOP))
        crop = base.crop(box).resize(((box[2] - box[0]) * ZOOM, (box[3] - box[1]) * ZOOM))
        frame = ((box[0] - MARGIN, box[1] - MARGIN - TOP), float(ZOOM), (0.0, 0.0))
        _dynamic(ImageDraw.Draw(crop), view, frame)
        crops.append(crop)
    if crops:
        width = max(img.width, sum(c.width for c in crops) + 8 * (len(crops) + 1))
        height = img.height + 24 + max(c.height for c in crops) + 8
        sheet = Image.new("RGB", (width, height), (250, 247, 236))
        sheet.paste(img, (0, 0))
        sd = ImageDraw.Draw(sheet)
        draw_text(sd, (MARGIN, img.height + 4), _(CROPS), font(12), INK)
        x = 8
        for c in crops:
            sheet.paste(c, (x, img.height + 22))
            sd.rectangle([x, img.height + 22, x + c.width - 1, img.height + 22 + c.height - 1], outline=INK)
            x += c.width + 8
        img = sheet
    # libdeflate's level 6: at Gettysburg about 71 KB at most in 4 ms, where zlib's level 3 gave 91 KB in the same time
    return encode_png(img.quantize(palette=_PALETTE, dither=Image.Dither.NONE), COMPRESS_LEVEL)
