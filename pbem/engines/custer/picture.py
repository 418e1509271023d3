"""The Custer's Last Stand map as PNGs, drawn from a view (never from the state).

``draw_pictures(view, gettext=None) -> {"map": png, "fighting": png}``: the part of the
board around the units and this turn's moves and combats (a report's map); and, when the
turn had combats and that map is wider than a mail column, a close-up of where they were,
cut from the same drawing at full scale. A mail column shows a map as wide as the board
shrunk to about two thirds; the close-up is narrow enough to be shown as drawn, hex
numbers readable. ``draw_map`` is the whole board (the web pages, the welcome mail).

A picture is composed from layers drawn once (``picture_layers``): the map's terrain and
legend in the reader's language, copied; the title; this turn's moves, drawn by palette
index; counters, leaders' markers and place names pasted as cached tiles; the combats.
Place names go where they cover no counter and no other name (the nearest free spot
around their hex), or are left out for the turn when none is free. Everything is on one
fixed palette, so the picture is a "P" PNG and is never quantised as a whole.

Both sides see the same map: the finished PNGs are kept, bounded, by everything drawn,
so the second reader of a turn gets the first one's.

Words (title, legend) are English message ids marked ``N_`` and drawn through the
reader's ``gettext``; place names on the map and unit names are names, drawn as they are.

Pure: Pillow and in-memory buffers only (no files, clock or randomness).
"""

from __future__ import annotations

import json
import math

from PIL import Image, ImageDraw

from pbem.engines.base import format_message
from pbem.engines.pictures import BoundedCache, encode_png

from .messages import N_
from .picture_layers import (
    COMBAT, H, INK_INDEX, LEGEND, LEGEND_KEYS, MARGIN, MOVE_IND, MOVE_US, PAPER, S, TOP, base, counter_tile,
    hex_xy, label_tile, leader_tile, map_size, title_strip, us_colour,
)

__all__ = ["draw_map", "draw_pictures", "LEGEND", "LEGEND_KEYS", "PAPER", "map_size"]

TITLE_TURN = N_("%(title)s - turn %(turn)s")
TITLE_TURN_OF = N_("%(title)s - turn %(turn)s of %(turns)s")

FIGHTING = "fighting"       # the close-up's name (its Content-ID in a mail)
FIGHTING_MAX = (720, 520)   # the close-up at most: a mail column's width
MAIL_COLUMN = 760           # a mail's column (templates/mail/_style.html.j2): a wider map is shown shrunk
FIGHTING_MIN = (360, 240)

Rect = tuple[float, float, float, float]


# ----------------------------------------------------------------- units


def _on_board(u: dict) -> bool:
    return bool(u.get("hex")) and not u.get("eliminated") and u.get("status") not in ("eliminated", "exited", "captured")


def _place_units(units: list[dict], us) -> list[tuple[Image.Image, Image.Image | None, tuple[int, int]]]:
    """Each counter and leader marker as (tile, mask, top-left corner): a stack's
    counters side by side (smaller from three on), then each leader's marker at the first
    of its hex's free spots (above the counters, below them, a row further in), free
    meaning it covers no counter and no marker already placed, even a neighbour's; where
    none is free, the spot covering the fewest."""
    by_hex: dict[str, list[dict]] = {}
    for u in units:
        if _on_board(u):
            by_hex.setdefault(u["hex"], []).append(u)
    counters, markers, taken = [], [], []
    waiting: list[tuple[float, float, bool, list[dict]]] = []
    for hx in sorted(by_hex):
        try:
            x, y = hex_xy(hx)
        except ValueError:
            continue
        stack = sorted(by_hex[hx], key=lambda u: str(u.get("id")))
        leaders = [u for u in stack if u.get("type") in ("us_leader", "tribe_leader")]
        others = [u for u in stack if u.get("type") not in ("us_leader", "tribe_leader")]
        n = len(others)
        two_rows = len(leaders) >= 2 and n > 0  # markers above and below: smaller counters between them
        oy = 3 if leaders and n and not two_rows else 0
        size = 21 if n <= 2 and not two_rows else 15
        step = size + 1 if n == 2 else 44 / max(n, 1)
        x0 = x - step * (n - 1) / 2
        for i, u in enumerate(others):
            at = (round(x0 + i * step - size / 2), round(y + oy - size / 2))
            tile = counter_tile(u, us, size)
            counters.append((tile, None, at))
            taken.append(_footprint(tile, at))
        waiting.append((x, y, bool(others), leaders))
    for x, y, stacked, leaders in waiting:
        rows = [-H / 2 + 7, H / 2 - 7, -H / 2 + 20, H / 2 - 20] if stacked else [0, -13, 13, -26, 26]
        # only pieces of this hex and its neighbours can meet a marker placed here (a marker
        # is at most a hex wide and its spots stay inside the hex)
        near = [r for r in taken if abs((r[0] + r[2]) / 2 - x) < 3 * S and abs((r[1] + r[3]) / 2 - y) < 2 * H]
        for u in leaders:
            tile, mask = leader_tile(u, us)
            boxes = [_inner(_footprint(tile, (round(x - (tile.width - 1) / 2), round(y + dy - 6.5)))) for dy in rows]
            # the first free spot, else the one covering the fewest pieces (the first of equals)
            box = min(boxes, key=lambda b: sum(_overlaps(b, r) for r in near))
            markers.append((tile, mask, (box[0] - 1, box[1] - 1)))
            near.append(box)
            taken.append(box)
    return counters + markers


def _inner(r: Rect) -> Rect:
    """A piece's box less its outline: outlines may touch."""
    return (r[0] + 1, r[1] + 1, r[2] - 1, r[3] - 1)


def _footprint(tile: Image.Image, at: tuple[int, int]) -> Rect:
    return (at[0], at[1], at[0] + tile.width, at[1] + tile.height)


# ------------------------------------------------------------ place names

# Where a name may go around its hex's centre, nearest first: under the middle (where it
# stood when the hex is empty), above it, then further out and to the sides.
_OFFSETS = sorted(
    ((dx * S, dy * H) for dy in (0.22, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0, -1.0) for dx in (0, -1, 1, -2, 2)),
    key=lambda o: abs(o[0]) / S + abs(o[1] - 0.22 * H) / H,
)


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _place_labels(labels: list[tuple[str, str]], taken: list[Rect], board: Rect) -> list[tuple[Image.Image, Image.Image, tuple[int, int]]]:
    """Each place name at the first spot around its hex that stays on the board and
    covers no counter, marker or name already placed; a name with no free spot is left
    out (it comes back when the counters move on)."""
    out, placed = [], []
    for hx, text in labels:
        try:
            x, y = hex_xy(hx)
        except ValueError:
            continue
        tile, mask = label_tile(text)
        w, h = tile.size
        near = [r for r in taken if abs((r[0] + r[2]) / 2 - x) < 3 * S + w / 2 and abs((r[1] + r[3]) / 2 - y) < 2 * H]
        for dx, dy in _OFFSETS:
            at = (round(x + dx - w / 2), round(y + dy - h / 2))
            rect = (at[0], at[1], at[0] + w, at[1] + h)
            if rect[0] < board[0] or rect[1] < board[1] or rect[2] > board[2] or rect[3] > board[3]:
                continue
            if any(_overlaps(rect, r) for r in near) or any(_overlaps(rect, r) for r in placed):
                continue
            out.append((tile, mask, at))
            placed.append(rect)
            break
    return out


# ------------------------------------------------------- moves and combats


def _arrow(d: ImageDraw.ImageDraw, pts, colour: int):
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
            pts = [hex_xy(h) for h in path]
        except ValueError:
            continue
        colour = INK_INDEX[MOVE_US if sides.get(mv.get("unit")) == "us" else MOVE_IND]
        # stop the arrow short of the last centre so the counter stays readable
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        k = 0.55
        pts[-1] = (x1 + (x2 - x1) * k, y1 + (y2 - y1) * k)
        _arrow(d, pts, colour)


def _combat_hexes(combats: list[dict]) -> list[list[tuple[float, float]]]:
    """Each combat's hex centre first, then its attackers' (the ones on the map)."""
    out = []
    for cb in combats or []:
        hx = cb.get("hex")
        if not isinstance(hx, str):
            continue
        try:
            pts = [hex_xy(hx)]
        except ValueError:
            continue
        for a in cb.get("attackers") or []:
            try:
                pts.append(hex_xy(a))
            except (ValueError, TypeError):
                continue
        out.append(pts)
    return out


def _draw_combats(d: ImageDraw.ImageDraw, combats: list[list[tuple[float, float]]]):
    red = INK_INDEX[COMBAT]
    for (x, y), *attackers in combats:
        for ax, ay in attackers:
            mx, my = (ax + x) / 2, (ay + y) / 2
            # a short red dart from the attacker's side of the hexside into the defender
            sx, sy = ax + (x - ax) * 0.3, ay + (y - ay) * 0.3
            _arrow(d, [(sx, sy), (mx + (x - mx) * 0.4, my + (y - my) * 0.4)], red)
        d.ellipse([x - S * 0.92, y - S * 0.92, x + S * 0.92, y + S * 0.92], outline=red, width=3)


# --------------------------------------------------------------- close-up


def _around(points: list[tuple[float, float]]) -> Rect:
    """The hexes at ``points`` and one hex all round."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) - 2.5 * S, min(ys) - 1.5 * H, max(xs) + 2.5 * S, max(ys) + 1.5 * H)


def _union(rects: list[Rect]) -> Rect:
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))


def _fighting_window(combats: list[list[tuple[float, float]]], board: Rect) -> tuple[int, int, int, int]:
    """Where the close-up is cut: around every combat of the turn when they fit in
    ``FIGHTING_MAX``; else the window of that size, centred on one combat, that holds
    the most combats whole (the first such combat in the turn's order)."""
    areas = [_around(pts) for pts in combats]
    whole = _union(areas)
    max_w, max_h = FIGHTING_MAX
    if whole[2] - whole[0] > max_w or whole[3] - whole[1] > max_h:
        def window(a: Rect) -> Rect:
            cx, cy = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
            return (cx - max_w / 2, cy - max_h / 2, cx + max_w / 2, cy + max_h / 2)

        def held(w: Rect) -> int:
            return sum(1 for a in areas if a[0] >= w[0] and a[1] >= w[1] and a[2] <= w[2] and a[3] <= w[3])

        whole = max((window(a) for a in areas), key=held)  # max keeps the first of equals
    w = min(max(whole[2] - whole[0], FIGHTING_MIN[0]), max_w, board[2] - board[0])
    h = min(max(whole[3] - whole[1], FIGHTING_MIN[1]), max_h, board[3] - board[1])
    cx, cy = (whole[0] + whole[2]) / 2, (whole[1] + whole[3]) / 2
    left = min(max(cx - w / 2, board[0]), board[2] - w)
    top = min(max(cy - h / 2, board[1]), board[3] - h)
    return round(left), round(top), round(left + w), round(top + h)


# ------------------------------------------------------------------- pictures

_FINISHED: BoundedCache[dict[str, bytes]] = BoundedCache(16)
_DRAWN_UNIT_FIELDS = ("id", "name", "short", "side", "type", "tribe", "hex", "status", "strength", "cf", "mounted", "eliminated")


def _title(view: dict, map_title: str, gettext) -> str:
    title = gettext(map_title)  # marked in scenario.MAP_TITLES (a literal inside gettext() would be extracted)
    turn, turns = view.get("turn"), view.get("turns")
    if turn is not None:
        title = format_message(TITLE_TURN_OF if turns else TITLE_TURN, {"title": title, "turn": turn, "turns": turns}, gettext)
    return title


def draw_pictures(view: dict, gettext=None, close_up: bool = True, whole: bool = False) -> dict[str, bytes]:
    """The map (``"map"``) and, when this turn had combats and ``close_up`` is asked, the
    close-up of where (``"fighting"``), as PNGs with their words in the reader's language
    (``gettext``; None: English). The map is the part of the board around the pieces and
    this turn's moves and combats (:func:`_board_window`), or with ``whole`` all of it; the
    close-up comes only with a map wider than a mail column (one as narrow is shown as
    drawn: the close-up would repeat it)."""
    gettext = gettext or N_  # N_ returns the English id as it is
    map_name = _map_name(view)
    words = tuple(gettext(word) for word, *_ in LEGEND_KEYS)
    layer, info = base(map_name, words)
    title = _title(view, info["title"], gettext)
    units = [{k: u.get(k) for k in _DRAWN_UNIT_FIELDS} for u in (view.get("units") or []) if isinstance(u, dict)]
    moves, combats = view.get("last_moves") or [], view.get("last_combats") or []
    key = json.dumps([map_name, words, title, units, moves, [(c.get("hex"), c.get("attackers")) for c in combats if isinstance(c, dict)],
                      close_up, whole], sort_keys=True, default=str)
    return dict(_FINISHED.get(key, lambda: _compose(map_name, layer, info, title, units, moves, combats, close_up, whole)))


def _compose(map_name: str, layer: Image.Image, info: dict, title: str, units: list[dict], moves: list, combats: list,
             close_up: bool, whole: bool) -> dict[str, bytes]:
    im = layer.copy()
    w, h = im.size
    fights = _combat_hexes([c for c in combats if isinstance(c, dict)])
    full = (0, TOP, w, h - LEGEND)
    window = full if whole else _board_window(units, moves, fights, full, info["legend_width"])
    if window == full:  # a cut map gets a title strip of its own width
        im.paste(title_strip(w, title), (0, 0))
    d = ImageDraw.Draw(im)
    _draw_moves(d, moves, {u.get("id"): u.get("side") for u in units})
    pieces = _place_units(units, us_colour(map_name))
    for tile, mask, at in pieces:
        im.paste(tile, at, mask)
    board = (2, TOP + 2, w - 2, h - LEGEND - 2)
    for tile, mask, at in _place_labels(info["labels"], [_footprint(t, at) for t, _, at in pieces], board):
        im.paste(tile, at, mask)
    _draw_combats(d, fights)
    # one drawing of the whole board: the pages show it, a report and its close-up cut from it
    out = {"map": encode_png(im if window == full else _cut(im, window, title))}
    if fights and close_up and window[2] - window[0] > MAIL_COLUMN:  # a map the mail shows as drawn needs none
        out[FIGHTING] = encode_png(im.crop(_fighting_window(fights, full)))
    return out


#: hexes of board kept around the outermost pieces, moves and combats in a report's map:
#: their own hexes whole and half of the next (a whole hex more cost 2-3 KB of PNG)
BOARD_MARGIN = 0.5


def _board_window(units: list[dict], moves: list, fights: list[list[tuple[float, float]]], full: Rect,
                  legend_width: int) -> tuple[int, int, int, int]:
    """The part of the board a report's map shows: every piece on the board, this turn's
    moves and combats, and ``BOARD_MARGIN`` hexes around them; to the board's edge (its exit
    arrows included) when that is nearer than a hex, and at least as wide as the legend.
    The whole board when there is nothing on it."""
    points = [pt for pts in fights for pt in pts]
    for u in units:
        if _on_board(u):
            try:
                points.append(hex_xy(u["hex"]))
            except ValueError:
                continue
    for mv in moves:
        for hx in (mv.get("path") or []) if isinstance(mv, dict) else []:
            try:
                points.append(hex_xy(hx))
            except (ValueError, TypeError):
                continue
    if not points:
        return tuple(int(v) for v in full)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    left, right = min(xs) - (1.5 * BOARD_MARGIN + 1) * S, max(xs) + (1.5 * BOARD_MARGIN + 1) * S
    top, bottom = min(ys) - (BOARD_MARGIN + 0.5) * H, max(ys) + (BOARD_MARGIN + 0.5) * H
    left = full[0] if left < MARGIN + 1.5 * S else left
    right = full[2] if right > full[2] - MARGIN - 1.5 * S else right
    top = full[1] if top < full[1] + MARGIN + H else top
    bottom = full[3] if bottom > full[3] - MARGIN - H else bottom
    if right - left < legend_width:
        grow = legend_width - (right - left)
        left = max(full[0], left - grow / 2)
        right = min(full[2], left + legend_width)
        left = max(full[0], right - legend_width)
    return round(left), round(top), round(right), round(bottom)


def _cut(im: Image.Image, window: tuple[int, int, int, int], title: str) -> Image.Image:
    """The map cut to ``window`` of its board, under a title strip of that width and over the
    legend (which starts at the left edge, so it stays whole)."""
    x0, y0, x1, y1 = window
    w, h = im.size
    out = im.crop((0, 0, x1 - x0, TOP + (y1 - y0) + LEGEND))  # the palette, and the legend's left part below
    out.paste(title_strip(x1 - x0, title), (0, 0))
    out.paste(im.crop(window), (0, TOP))
    out.paste(im.crop((0, h - LEGEND, x1 - x0, h)), (0, TOP + y1 - y0))
    return out


def draw_map(view: dict, gettext=None) -> bytes:
    """The PNG of the whole map with the units and this turn's moves and combats."""
    return draw_pictures(view, gettext, close_up=False, whole=True)["map"]


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
