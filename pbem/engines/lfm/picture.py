"""The Last Full Measure pictures, drawn from a view (never from the state).

``draw_pictures(view, gettext=None) -> {name: PNG}``:
- ``map``: the whole map, its title naming the phase just resolved, the sector grid in its
  margins, every counter with its short name, and a legend under it;
- ``sectorB2``...: the map's sectors (6 columns by 6 rows) holding the reader's own troops
  (an observer's: every sector with troops), at twice the scale, at most ``MAX_SECTORS``;
- ``fight1``...: a close-up of each place where fighting happened this player turn.
A close-up is about 370 px wide with no word under 10 px, so it reads on a phone as drawn.
Every picture carries its layout data (each word's box and font size, pbem.engines.labels) in
its PNG; no two of its words overlap.

Words drawn are English message ids marked ``N_`` through the reader's ``gettext``; names stay
as they are. Pure: Pillow and in-memory buffers only.
"""

from __future__ import annotations

import json
import math
import string

from PIL import Image, ImageDraw

from pbem.engines.accented_text import draw_text
from pbem.engines.base import format_message
from pbem.engines.fonts import font
from pbem.engines.hexgrid import center, distance, hex_id, parse_hex
from pbem.engines.labels import Layout, draw_placed, text_box
from pbem.engines.pictures import BoundedCache, encode_png, palette_image, quantize

from . import scenario as scenarios
from .messages import N_
from .picture_layers import (CLOSE_UP, COLOURS, GOLD, HEXNUM, INK, LABEL_PAPER, MOVE, ORANGE, OVERVIEW, PAPER, RED,
                             SIDE, SIDE_INK, Frame, Style, counters, fights, hex_numbers, map_size, new_view, terrain,
                             under_counters)

COMPRESS_LEVEL = 6
SECTOR = 6  # a sector is 6 columns by 6 rows of hexes
MAX_SECTORS, MAX_FIGHTS, FIGHT_RADIUS = 6, 3, 3
PAD = 6  # pixels round a picture's map

AFTER = N_("%(title)s - after %(label)s: turn %(turn)s of %(turns)s (%(time)s), %(side)s %(step)s")
BEFORE = N_("%(title)s - turn %(turn)s of %(turns)s (%(time)s), before %(side)s %(step)s")
STEP_WORDS = {"move": N_("movement"), "combat": N_("combat")}
SECTOR_TITLE = N_("Sector %(sector)s, after %(label)s")
FIGHT_TITLE = N_("Fighting at %(hex)s, after %(label)s")
START = N_("the start")
LEGEND = [
    ("counter_csa", N_("Confederate counter: short names (as in the positions list), type, SP")),
    ("counter_usa", N_("Union counter; its stripe is its brigade's colour")),
    ("types", N_("type: X infantry, / cavalry, X on cavalry dismounted, a dot artillery")),
    ("marks", N_("D disorganized, L limbered, red bar shattered")),
    ("badge", N_("commander: 4 army, 3 corps, 2 division, 1 brigade")),
    ("objective", N_("objective: VP; the inner line is who holds it")),
    ("move", N_("moves this player turn; red: retreats")),
    ("fire", N_("artillery fire")),
    ("fight", N_("hexes attacked or charged")),
    ("sectors", N_("sectors: the close-ups sent with this map")),
]
TITLE_SIZE, CROP_TITLE_SIZE, LEGEND_SIZE, SECTOR_SIZE = 13, 12, 10, 10

_PALETTE = palette_image(COLOURS)


def _english(msgid: str) -> str:
    return msgid


# --- titles -----------------------------------------------------------------------------------------
def phase_words(view: dict, _) -> dict:
    """What the titles say of the phase just resolved (or, before any, of the one to come)."""
    done = view.get("resolved")
    if done:
        return {"label": done["label"], "turn": done["turn"], "time": done.get("time", ""),
                "side": view["side_names"].get(done["side"], done["side"]), "step": _(STEP_WORDS[done["step"]])}
    return {"label": _(START), "turn": view["turn"], "time": view["time"],
            "side": view["side_names"].get(view["phasing"], view["phasing"]), "step": _(STEP_WORDS[view["step"]])}


def title(view: dict, _) -> str:
    words = phase_words(view, _)
    return format_message(AFTER if view.get("resolved") else BEFORE,
                          dict(words, title=view["title"], turns=view["turns"]), _)


# --- sectors ----------------------------------------------------------------------------------------
def sector_of(h: str) -> str:
    """``B3``: the sector's column letter and row number."""
    c, r = parse_hex(h)
    return f"{string.ascii_uppercase[(c - 1) // SECTOR]}{(r - 1) // SECTOR + 1}"


def sector_hexes(board, name: str) -> list[str]:
    col = string.ascii_uppercase.index(name[0])
    row = int(name[1:]) - 1
    return [hex_id(c, r) for c in range(col * SECTOR + 1, col * SECTOR + SECTOR + 1)
            for r in range(row * SECTOR + 1, row * SECTOR + SECTOR + 1) if hex_id(c, r) in board.terrain]


def reader_sectors(view: dict, role: str | None) -> list[str]:
    """The sectors holding the reader's troops (an observer's: anyone's), most troops first."""
    count: dict[str, int] = {}
    for u in view["units"]:
        if u["status"] == "on_map" and (role is None or u["side"] == role):
            s = sector_of(u["hex"])
            count[s] = count.get(s, 0) + 1
    return sorted(count, key=lambda s: (-count[s], s))[:MAX_SECTORS]


def fight_spots(view: dict) -> list[str]:
    """The centres of the areas where fighting happened, merged when close."""
    spots = [c["target"] for c in view["last"]["combats"]] + [c["target"] for c in view["last"]["charges"]]
    out: list[str] = []
    for s in spots:
        if all(distance(s, o) > FIGHT_RADIUS for o in out):
            out.append(s)
    return out[:MAX_FIGHTS]


def fight_hexes(board, spot: str) -> list[str]:
    c, r = parse_hex(spot)
    c0 = max(1, min(board.columns - SECTOR + 1, c - SECTOR // 2 + 1))
    r0 = max(1, min(board.rows - SECTOR + 1, r - SECTOR // 2))
    return [hex_id(cc, rr) for cc in range(c0, c0 + SECTOR) for rr in range(r0, r0 + SECTOR) if hex_id(cc, rr) in board.terrain]


# --- drawing ----------------------------------------------------------------------------------------
def _labels_on_top(d: ImageDraw.ImageDraw, view: dict, frame: Frame, layout: Layout, board, hexes: set[str],
                   to_place: list, _) -> None:
    """The words that may move: objectives' VP, place names, then the names placed beside counters."""
    style = frame.style
    for obj in view["objectives"]:
        if obj["hex"] in hexes:
            x, y = frame.xy(obj["hex"])
            label = layout.place(f"{obj['vp']} VP", style.place, (x + 0.5 * style.s, y - 0.45 * style.s), "objective")
            if label:
                draw_placed(d, label, INK, GOLD)
    for place in board.labels:
        if place.get("hex") in hexes:
            x, y = frame.xy(place["hex"])
            label = layout.place(place["text"], style.place, (x, y + 0.62 * style.s), "place", clear=2.0, pad=0.5)
            if label:
                draw_placed(d, label, INK, LABEL_PAPER)
    for text, (ax, ay) in to_place:
        if not (0 <= ax <= layout.width and 0 <= ay <= layout.height):
            continue  # a counter outside a close-up
        anchor = (ax, ay)
        label = layout.place(text, max(style.name, style.commander), anchor, "name", pad=0.5)
        if label:
            draw_placed(d, label, INK, LABEL_PAPER)


def _draw_view(img: Image.Image, view: dict, frame: Frame, layout: Layout, board, hexes: set[str], close_up: bool, _,
               near: set[str] | None = None) -> None:
    """The view drawn on ``img``: the numbers of ``hexes`` recorded, counters on ``near`` (every
    hex when None: a close-up draws only those it shows, whole or in part)."""
    d = ImageDraw.Draw(img)
    under_counters(d, view, frame)
    hex_numbers(layout, frame, sorted(hexes))
    to_place = counters(d, view, frame, layout, close_up, near)
    fights(d, view, frame)
    _labels_on_top(d, view, frame, layout, board, hexes, to_place, _)


def _legend_sample(d: ImageDraw.ImageDraw, kind: str, x: float, y: float) -> None:
    """The little drawing before each legend line, in a 26 x 14 box from (x, y)."""
    if kind.startswith("counter"):
        side = kind[-3:]
        d.rectangle([x, y, x + 24, y + 13], fill=SIDE[side], outline=INK)
        d.rectangle([x, y, x + 3, y + 13], fill=(200, 40, 40))
        d.rectangle([x + 6, y + 4, x + 14, y + 10], outline=SIDE_INK[side])
        d.line([(x + 6, y + 4), (x + 14, y + 10)], fill=SIDE_INK[side])
        d.line([(x + 6, y + 10), (x + 14, y + 4)], fill=SIDE_INK[side])
    elif kind == "types":
        d.rectangle([x, y + 3, x + 10, y + 10], outline=INK)
        d.line([(x, y + 10), (x + 10, y + 3)], fill=INK)
        d.ellipse([x + 15, y + 4, x + 21, y + 10], fill=INK)
    elif kind == "marks":
        d.rectangle([x, y, x + 24, y + 13], fill=SIDE["csa"], outline=INK)
        d.line([(x, y + 13), (x + 24, y)], fill=RED, width=2)
    elif kind == "badge":
        d.ellipse([x + 6, y + 1, x + 18, y + 13], fill=SIDE["usa"], outline=INK)
    elif kind == "objective":
        d.rectangle([x + 2, y + 1, x + 22, y + 13], outline=GOLD, width=3)
        d.rectangle([x + 6, y + 4, x + 18, y + 10], outline=MOVE["usa"], width=2)
    elif kind == "move":
        d.line([(x, y + 4), (x + 20, y + 4)], fill=MOVE["usa"], width=2)
        d.polygon([(x + 24, y + 4), (x + 18, y + 1), (x + 18, y + 7)], fill=MOVE["usa"])
        d.line([(x, y + 11), (x + 20, y + 11)], fill=RED, width=1)
        d.polygon([(x + 24, y + 11), (x + 19, y + 8), (x + 19, y + 14)], fill=RED)
    elif kind == "fire":
        for i in range(0, 24, 8):
            d.line([(x + i, y + 7), (x + i + 4, y + 7)], fill=ORANGE, width=2)
    elif kind == "fight":
        d.rectangle([x + 4, y + 1, x + 20, y + 13], outline=RED, width=2)
    elif kind == "sectors":
        d.line([(x + 12, y), (x + 12, y + 14)], fill=HEXNUM, width=1)


def _legend(width: int, _) -> tuple[Image.Image, list[tuple[str, tuple[float, float, float, float]]]]:
    """The legend as a strip ``width`` wide: two columns when they fit, else one (drawn once
    for a width and a language)."""
    rows = [(kind, _(text)) for kind, text in LEGEND]
    return _LEGENDS.get((width, tuple(rows)), lambda: _draw_legend(width, rows))


_LEGENDS: BoundedCache[tuple[Image.Image, list]] = BoundedCache(8)


def _draw_legend(width: int, rows: list[tuple[str, str]]) -> tuple[Image.Image, list[tuple[str, tuple[float, float, float, float]]]]:
    widest = max(text_box(t, LEGEND_SIZE, 0, 0)[2] for _k, t in rows) + 34
    columns = 2 if 2 * widest + 12 <= width - 2 * PAD else 1
    line = 18
    height = PAD + math.ceil(len(rows) / columns) * line + PAD
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    words = []
    for i, (kind, text) in enumerate(rows):
        col, row = (i % columns, i // columns) if columns == 2 else (0, i)
        x, y = PAD + col * (widest + 12), PAD + row * line
        _legend_sample(d, kind, x, y + 1)
        box = text_box(text, LEGEND_SIZE, x + 32, y + 8, "lm")
        draw_text(d, (x + 32, y + 8), text, font(LEGEND_SIZE), INK, anchor="lm")
        words.append((text, box))
    return img, words


def draw_overview(view: dict, _) -> bytes:
    board = scenarios.load(view["scenario"]).board
    style = OVERVIEW
    mw, mh = map_size(board, style.s)
    head = title(view, _)
    title_h = 20
    band = 14  # the sector letters over the map, numbers on its left
    left = PAD + 14
    top = title_h + band
    legend_img, legend_words = _legend(max(mw + left + PAD, 420), _)
    width = max(mw + left + PAD, legend_img.width)
    height = top + mh + PAD + legend_img.height
    img = Image.new("RGB", (width, height), PAPER)
    img.paste(terrain(board, style), (left, top))
    layout = Layout(width, height)
    d = ImageDraw.Draw(img)
    layout.fixed_text(d, (PAD, 4), head, TITLE_SIZE, INK, "title")
    # the sector grid: lines between sectors, letters above, numbers on the left
    s = style.s
    for i in range(0, math.ceil(board.columns / SECTOR)):
        x0 = left + s * (1.5 * i * SECTOR)
        letter = string.ascii_uppercase[i]
        if i:
            d.line([(x0 + 0.25 * s, top), (x0 + 0.25 * s, top + mh)], fill=HEXNUM, width=1)
        cols = min(SECTOR, board.columns - i * SECTOR)
        layout.fixed_text(d, (x0 + s * (1.5 * cols + 0.5) / 2, title_h + band / 2), letter, SECTOR_SIZE, HEXNUM, "sector", anchor="mm")
    for j in range(0, math.ceil(board.rows / SECTOR)):
        y0 = top + s * math.sqrt(3) * j * SECTOR
        if j:
            d.line([(left, y0 + 0.43 * s), (left + mw, y0 + 0.43 * s)], fill=HEXNUM, width=1)
        rows = min(SECTOR, board.rows - j * SECTOR)
        layout.fixed_text(d, (PAD + 6, y0 + s * math.sqrt(3) * rows / 2), str(j + 1), SECTOR_SIZE, HEXNUM, "sector", anchor="mm")
    layout.block((0, top + mh + PAD, width, height))  # the legend's strip: no word is placed there
    for text, (x0, y0, x1, y1) in legend_words:
        layout.fixed(text, (x0, y0 + top + mh + PAD, x1, y1 + top + mh + PAD), LEGEND_SIZE, "legend")
    frame = Frame(style, float(left), float(top))
    _draw_view(img, view, frame, layout, board, set(board.terrain), False, _)
    img.paste(legend_img, (0, top + mh + PAD))  # over the counters of the last row, where they reach below the map
    return encode_png(quantize(img, _PALETTE), COMPRESS_LEVEL, layout)


def draw_close_up(view: dict, hexes: list[str], heading: str, _) -> bytes:
    """A close-up of ``hexes`` at twice the scale, under its title."""
    board = scenarios.load(view["scenario"]).board
    style: Style = CLOSE_UP
    s = style.s
    xs = [center(h, s)[0] for h in hexes]
    ys = [center(h, s)[1] for h in hexes]
    x0, x1 = min(xs) - s, max(xs) + s
    y0, y1 = min(ys) - s * math.sqrt(3) / 2, max(ys) + s * math.sqrt(3) / 2
    title_h = CROP_TITLE_SIZE + 10
    width = int(x1 - x0) + 2 * PAD
    height = int(y1 - y0) + 2 * PAD + title_h
    img = Image.new("RGB", (width, height), PAPER)
    base = terrain(board, style)
    img.paste(base.crop((int(x0) - PAD, int(y0) - PAD, int(x1) + PAD, int(y1) + PAD)), (0, title_h))
    layout = Layout(width, height)
    frame = Frame(style, -(int(x0) - PAD), -(int(y0) - PAD) + title_h)
    # the hexes shown whole get their numbers; words stay below the title
    inside = set(hexes)  # the window is their bounding box: each shown whole
    near = inside | {n for h in hexes for n in board.neighbours[h]}  # and the counters cut by its edges
    layout.block((0, 0, width, title_h))
    _draw_view(img, view, frame, layout, board, inside, True, _, near)
    layout.keep_within((0, title_h, width, height))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, width, title_h - 1], fill=PAPER)  # over the counters of the hexes above
    d.line([(0, title_h - 1), (width, title_h - 1)], fill=HEXNUM)
    layout.fixed_text(d, (PAD, 4), heading, CROP_TITLE_SIZE, INK, "title")
    return encode_png(quantize(img, _PALETTE), COMPRESS_LEVEL, layout)


def draw_pictures(view: dict, role: str | None, gettext=None) -> dict[str, bytes]:
    """Every picture of a report: the whole map, the reader's sectors, the fights."""
    _ = gettext or _english
    new_view()
    shared = _shared(view)  # the view's JSON made once: the key of every picture of it
    return _RECENT.get((_(AFTER), role, view.get("reader"), shared), lambda: _draw_all(view, role, _, shared))


_RECENT: BoundedCache[dict[str, bytes]] = BoundedCache(4)  # every role's report of a phase shows the same map


def _shared(view: dict) -> str:
    """What every reader's pictures of a phase are drawn from (not the reader, nor his standing orders)."""
    return json.dumps({k: v for k, v in view.items() if k not in ("standing", "reader")}, sort_keys=True)


def _draw_all(view: dict, role: str | None, _, shared: str) -> dict[str, bytes]:
    board = scenarios.load(view["scenario"]).board
    label = phase_words(view, _)["label"]
    out = {"map": _MAPS.get((shared, _(AFTER)), lambda: draw_overview(view, _))}
    close_ups = [(f"sector{name}", sector_hexes(board, name), format_message(SECTOR_TITLE, {"sector": name, "label": label}, _))
                 for name in reader_sectors(view, role)]
    close_ups += [(f"fight{i}", fight_hexes(board, spot), format_message(FIGHT_TITLE, {"hex": spot, "label": label}, _))
                  for i, spot in enumerate(fight_spots(view), 1)]
    for name, hexes, heading in close_ups:  # a sector both sides hold, and every fight, drawn once for both
        out[name] = _CLOSE_UPS.get((shared, tuple(hexes), heading), lambda: draw_close_up(view, hexes, heading, _))
    return out


_MAPS: BoundedCache[bytes] = BoundedCache(4)
_CLOSE_UPS: BoundedCache[bytes] = BoundedCache(24)


def draw_map(view: dict, gettext=None) -> bytes:
    """The whole map alone (``Engine.picture``): the same bytes for views that differ only in
    standing orders and reader."""
    _ = gettext or _english
    new_view()
    return _MAPS.get((_shared(view), _(AFTER)), lambda: draw_overview(view, _))
