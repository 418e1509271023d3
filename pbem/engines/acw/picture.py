"""The table from above at mail width (drawn from a view, never the state): terrain with
contour shading and crest lines, a 6-inch grid lettered and numbered as in orders, each
stand a small rectangle along its facing, unit labels, this turn's moves as tracks and
fire as lines marked with hits, close combats ringed, the viewer's own officers as yellow
discs (named when riding alone), supply wagons in sight (optional rule) as named buff boxes
edged in their side's colour."""

from __future__ import annotations

import string
from functools import lru_cache

from PIL import Image, ImageDraw

from pbem.engines.fonts import font
from pbem.engines.pictures import encode_png
from pbem.engines.accented_text import draw_text

from .formations import Layout
from .messages import N_
from .scenario import generation, load

WIDTH = 720
MARGIN = 18
COLOURS = {"union": (40, 70, 160), "confederate": (150, 150, 150)}
FILL = {"hill": (214, 196, 150), "woods": (86, 140, 78), "town": (170, 90, 70)}
SIDE_FALLBACK = [(40, 70, 160), (160, 60, 50)]
PALETTE = 64  # colours of the PNG
COMPRESS_LEVEL = 6  # libdeflate's (pbem.engines.pictures.encode_png): smaller than zlib's level 3 in the same time
INSETS = 3  # zoomed insets at most, side by side under the table
INSET_INCHES = 12.0  # each shows a square of the table this wide


def draw_table(view: dict, gettext=None) -> bytes:
    table = view["table"]
    s = (WIDTH - 2 * MARGIN) / table["width"]
    img = _terrain(view["scenario"], generation()).copy()
    height = img.height
    d = ImageDraw.Draw(img)

    def px(x, y):
        return MARGIN + x * s, MARGIN + y * s

    small, label_font = font(10), font(11)
    grid = table["grid"]
    roles = list(view["sides"])
    colour = {r: COLOURS.get(r, SIDE_FALLBACK[i % 2]) for i, r in enumerate(roles)}
    for m in view["moves"]:
        if len(m["path"]) > 1:
            d.line([px(*p) for p in m["path"]], fill=(230, 60, 60) if m.get("kind") == "rout" else (90, 90, 90), width=1)
    for f in view["fires"]:
        a, b = px(*f["from"]), px(*f["to"])
        d.line([a, b], fill=(220, 120, 0), width=1)
        draw_text(d, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), str(f["hits"]), small, (200, 40, 0), anchor="mm")
    for u in view["units"]:
        if u["status"] == "reserve":
            continue
        state = {"arm": u["arm"], "x": u["x"], "y": u["y"], "facing": u["facing"], "formation": u["formation"],
                 "mounted": u["mounted"], "stands": u["casualties"]}
        lay = Layout(state, view["scale"])
        fill = colour.get(u["side"], (0, 0, 0))
        if u["status"] == "routed":
            fill = tuple(min(255, c + 90) for c in fill)
        for shape in lay.stand_shapes():
            d.polygon([px(*p) for p in shape.exterior.coords], fill=fill, outline=(0, 0, 0))
        d.line([px(*p) for p in lay.front.coords], fill=(255, 255, 255), width=2)
        cx, cy = lay.centre
        draw_text(d, (px(cx, cy)[0], px(cx, cy)[1] + lay.total_depth * s / 2 + 8), u["name"], label_font, (0, 0, 0), anchor="mm")
    for o in view["officers"]:
        if "x" in o and not o.get("lost"):  # the viewer's own officers only carry a place
            x, y = px(o["x"], o["y"])
            d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=(250, 220, 60), outline=(0, 0, 0))
            if not o.get("attached"):
                draw_text(d, (x + 6, y - 5), o["name"], small, (60, 40, 0))
    for w in view.get("wagons", []):
        if "x" in w:  # a wagon in hand that the viewer sees
            x, y = px(w["x"], w["y"])
            d.rectangle([x - 6, y - 4, x + 6, y + 4], fill=(225, 205, 160), outline=colour.get(w["side"], (0, 0, 0)), width=2)
            draw_text(d, (x + 8, y - 5), w["name"], small, (60, 40, 0))
    for c in view["combats"]:
        x, y = px(*c["at"])
        d.ellipse([x - 14, y - 14, x + 14, y + 14], outline=(220, 0, 0), width=2)
    legend = (gettext or (lambda t: t))(N_("Turn %(turn)s of %(turns)s; grid squares of %(grid)s inches"))
    draw_text(d, (MARGIN, height - 12), legend % {"turn": view["turn"], "turns": view["turns"], "grid": int(grid)},
              small, (40, 40, 40))
    img = _with_insets(img, view, px, gettext)
    # a map has few colours: 64 in a palette keep it sharp, a third the size and quicker to encode
    return encode_png(img.quantize(colors=PALETTE, method=Image.Quantize.FASTOCTREE), COMPRESS_LEVEL)


def engagements(view: dict) -> list[tuple[float, float]]:
    """Where this turn's close combats were, else where fire struck, one per grid square, at most
    ``INSETS``."""
    grid = view["table"]["grid"]
    points = [tuple(c["at"]) for c in view["combats"]] + [tuple(f["to"]) for f in view["fires"] if f["hits"]]
    out, seen = [], set()
    for x, y in points:
        square = (int(x // grid), int(y // grid))
        if square not in seen:
            seen.add(square)
            out.append((x, y))
    return out[:INSETS]


def _with_insets(img: Image.Image, view: dict, px, gettext) -> Image.Image:
    """The table with a strip of zoomed insets below it, one per engagement."""
    spots = engagements(view)
    if not spots:
        return img
    half = INSET_INCHES / 2.0
    size = (WIDTH - MARGIN * (INSETS + 1)) // INSETS
    strip = Image.new("RGB", (WIDTH, size + 24), (236, 232, 214))
    d = ImageDraw.Draw(strip)
    table = view["table"]
    for i, (x, y) in enumerate(spots):
        x = min(max(x, half), table["width"] - half)
        y = min(max(y, half), table["height"] - half)
        (x0, y0), (x1, y1) = px(x - half, y - half), px(x + half, y + half)
        crop = img.crop((int(x0), int(y0), int(x1), int(y1))).resize((size, size), Image.BILINEAR)
        left = MARGIN + i * (size + MARGIN)
        strip.paste(crop, (left, 18))
        d.rectangle([left - 1, 17, left + size, 18 + size], outline=(90, 80, 60))
        words = (gettext or (lambda t: t))(N_("Inset %(n)s: around %(square)s"))
        draw_text(d, (left, 4), words % {"n": i + 1, "square": _square(table, x, y)}, font(10), (40, 40, 40))
    out = Image.new("RGB", (WIDTH, img.height + strip.height), (236, 232, 214))
    out.paste(img, (0, 0))
    out.paste(strip, (0, img.height))
    return out


def _square(table: dict, x: float, y: float) -> str:
    grid = table["grid"]
    columns, rows = int(table["width"] // grid), int(table["height"] // grid)
    col, row = min(int(x // grid), columns - 1), min(int(y // grid), rows - 1)
    return f"{string.ascii_uppercase[col]}{row + 1}"


@lru_cache(maxsize=8)
def _terrain(name: str, registration: int) -> Image.Image:
    """The table without troops (the same every turn): terrain, contours, crest lines, the
    lettered grid and the landmarks."""
    sc = load(name)
    t = sc.table
    s = (WIDTH - 2 * MARGIN) / t.width
    height = int(t.height * s) + 2 * MARGIN + 16
    img = Image.new("RGB", (WIDTH, height), (236, 232, 214))
    d = ImageDraw.Draw(img)

    def px(x, y):
        return MARGIN + x * s, MARGIN + y * s

    small = font(10)
    for f in t.hills:
        for level in range(1, f.level + 1):
            shade = tuple(max(0, c - 18 * (level - 1)) for c in FILL["hill"])
            d.polygon([px(*p) for p in f.shape.exterior.coords], fill=shade, outline=(170, 150, 110))
    for f in t.features:
        if f.kind in ("woods", "town"):
            d.polygon([px(*p) for p in f.shape.exterior.coords], fill=FILL[f.kind], outline=(50, 60, 40))
    for f in t.features:
        if f.kind == "road":
            d.line([px(*p) for p in f.shape.coords], fill=(150, 120, 80), width=4)
        elif f.kind == "stream":
            d.line([px(*p) for p in f.shape.coords], fill=(70, 120, 200), width=3)
            for p in f.fords:
                d.ellipse([px(p.x - 0.6, p.y - 0.6), px(p.x + 0.6, p.y + 0.6)], outline=(70, 120, 200), width=2)
            for p in f.bridges:
                d.rectangle([px(p.x - 0.8, p.y - 0.5), px(p.x + 0.8, p.y + 0.5)], fill=(120, 90, 60))
        elif f.kind in ("fence", "wall", "hedge", "breastworks"):
            d.line([px(*p) for p in f.shape.coords], fill=(90, 70, 40), width=2)
    for f in t.hills:
        if f.crest is not None:
            pts = [px(*p) for p in f.crest.coords]
            for a, b in zip(pts, pts[1:]):
                _dashed(d, a, b, (120, 80, 30))
    for i in range(t.columns + 1):
        d.line([px(i * t.grid, 0), px(i * t.grid, t.height)], fill=(200, 195, 175))
    for j in range(t.rows + 1):
        d.line([px(0, j * t.grid), px(t.width, j * t.grid)], fill=(200, 195, 175))
    for i in range(t.columns):
        draw_text(d, (px((i + 0.5) * t.grid, 0)[0], 8), string.ascii_uppercase[i], small, (60, 60, 60), anchor="mm")
    for j in range(t.rows):
        draw_text(d, (8, px(0, (j + 0.5) * t.grid)[1]), str(j + 1), small, (60, 60, 60), anchor="mm")
    for name_, (x, y) in t.landmarks.items():
        draw_text(d, px(x, y), name_, small, (40, 40, 40), anchor="mm")
    return img


def _dashed(d, a, b, fill, dash: float = 6.0) -> None:
    (x0, y0), (x1, y1) = a, b
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    if length == 0:
        return
    n = int(length // dash)
    for i in range(0, n, 2):
        t0, t1 = i * dash / length, min(1.0, (i + 1) * dash / length)
        d.line([(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0), (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)], fill=fill, width=2)
