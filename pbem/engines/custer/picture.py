"""The Custer's Last Stand map as PNGs, drawn from a view (never from the state).

``draw_pictures(view, gettext=None) -> {name: PNG}``:
- ``map``: the part of the board around the pieces and this turn's moves and combats, its
  title naming the phase just resolved, its legend under it (``draw_map``: the whole board,
  for the web pages and the welcome mail);
- ``sectorB3``...: close-ups at one and a half times the scale of the sectors (6 columns by
  6 rows) holding the reader's own units (an observer's: anyone's), at most ``MAX_SECTORS``;
- ``fight1``...: a close-up of each place where combats were this turn, at most ``MAX_FIGHTS``.
A close-up is about 370 px wide with no word under 10 px: on a phone it shows as drawn.

Every word drawn is in the picture's layout data (pbem.engines.labels: each word's box and
size, carried in the PNG): hex numbers sit at the top of each hex, counters below them (a
counter never hides a number); each counter carries its unit's short name (as the report's
positions list writes it) over its CF; leaders' names and place names are placed where they
cover no counter, number or other word, with a leader line when they had to move away.

The terrain at each scale is drawn once (``picture_layers``); a picture copies the part it
shows, draws this turn's moves, pastes counters as cached tiles, places the names and draws
the combats, all by palette index: a "P" PNG, never quantised as a whole. Both sides see the
same map: the finished PNGs are kept, bounded, by everything drawn.

Words (title, legend) are English message ids marked ``N_`` and drawn through the reader's
``gettext``; place and unit names are names, drawn as they are.

Pure: Pillow and in-memory buffers only (no files, clock or randomness).
"""

from __future__ import annotations

import json
import math
import string
from dataclasses import dataclass

from PIL import Image, ImageDraw

from pbem.engines.base import format_message
from pbem.engines.hexgrid import distance, parse_hex
from pbem.engines.labels import Label, Layout, draw_placed, draw_words, text_box
from pbem.engines.pictures import BoundedCache, encode_png

from .messages import N_
from .names import short_name
from .picture_layers import (
    COMBAT, H, INK, INK_INDEX, LEADER_IND, LEADER_IND_HIT, LEADER_US, LEADER_US_HIT, LEGEND, LEGEND_KEYS, MARGIN,
    MOVE_IND, MOVE_US, PAPER, S, TOP, WHITE, base, counter_size, counter_tile, hex_xy, hexnum_box, hexnum_size,
    map_size, title_strip, us_colour,
)

__all__ = ["draw_map", "draw_pictures", "LEGEND", "LEGEND_KEYS", "PAPER", "map_size"]

TITLE_AFTER = N_("%(title)s - after %(label)s, turn %(turn)s of %(turns)s")
TITLE_BEFORE = N_("%(title)s - turn %(turn)s of %(turns)s")
SECTOR_TITLE = N_("Sector %(sector)s, after %(label)s")
START = N_("the start")
FIGHT_TITLE = N_("Fighting at %(hex)s, after %(label)s")

CLOSE_UP = 1.5  # a close-up's scale: hex numbers 13 px, names and CF at least 10
SECTOR = 6      # a sector: 6 columns by 6 rows of hexes
MAX_SECTORS, MAX_FIGHTS, FIGHT_RADIUS = 4, 2, 3
CROP_TITLE, CROP_TITLE_SIZE = 22, 12
PAD = 6         # pixels round a close-up's hexes
PLACE_SIZE = 8        # a place name, at the map's scale: one fits between the rows of hex numbers
LEADER_SIZE = 9       # a leader's name on his marker, at the map's scale
MAIL_COLUMN = 760     # a mail's column (templates/mail/_style.html.j2): a wider map is shown shrunk
COMPRESS_LEVEL = 6    # libdeflate's: a close draws up to a dozen pictures (7 took half as long again for 5 % fewer bytes)

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Frame:
    """Where a hex lands in a picture: the map drawn at ``k`` times the scale, shifted."""

    k: float
    dx: float
    dy: float

    def xy(self, hx: str) -> tuple[float, float]:
        x, y = hex_xy(hx, self.k)
        return x + self.dx, y + self.dy


# ----------------------------------------------------------------- units


def _on_board(u: dict) -> bool:
    return bool(u.get("hex")) and not u.get("eliminated") and u.get("status") not in ("eliminated", "exited", "captured")


def _is_leader(u: dict) -> bool:
    return u.get("type") in ("us_leader", "tribe_leader")


def _stacks(units: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for u in units:
        if _on_board(u):
            try:
                hex_xy(u["hex"])
            except (ValueError, TypeError):
                continue
            out.setdefault(u["hex"], []).append(u)
    for stack in out.values():
        stack.sort(key=lambda u: str(u.get("id")))
    return out


def _counters(img: Image.Image, layout: Layout, frame: Frame, stacks: dict[str, list[dict]], us) -> None:
    """Each hex's counters side by side in the hex's lower part, under its number; their words
    recorded, each counter blocked (placed names keep off it)."""
    w, h = counter_size(frame.k)
    for hx, stack in stacks.items():
        others = [u for u in stack if not _is_leader(u)]
        if not others:
            continue
        x, y = frame.xy(hx)
        top = round(y - 8 * frame.k)
        n = len(others)
        for i, u in enumerate(others):
            left = round(x - (n * (w + 1) - 1) / 2 + i * (w + 1))
            tile, words = counter_tile(u, us, frame.k)
            img.paste(tile, (left, top))
            layout.block((left, top, left + w + 1, top + h + 1))
            for text, (x0, y0, x1, y1), size, kind in words:
                layout.fixed(text, (x0 + left, y0 + top, x1 + left, y1 + top), size, kind, inside=True)


def _leaders(d: ImageDraw.ImageDraw, layout: Layout, frame: Frame, stacks: dict[str, list[dict]]) -> None:
    """Each leader's marker (his short name, white on his side's colour) placed where it covers
    no counter, number or word: on his hex's centre when free, else beside it with a line."""
    for hx, stack in stacks.items():
        x, y = frame.xy(hx)
        for u in (u for u in stack if _is_leader(u)):
            hit = u.get("strength") == "reduced"
            colour = (LEADER_US_HIT if hit else LEADER_US) if u.get("side") == "us" else (LEADER_IND_HIT if hit else LEADER_IND)
            pad = round(frame.k)
            label = layout.place(short_name(u), round(LEADER_SIZE * frame.k), (x, y + 4 * frame.k), "leader",
                                 clear=0.0, pad=pad, reach=60 * frame.k)
            if label:
                _draw_marker(d, label, INK_INDEX[colour], pad)


def _draw_marker(d: ImageDraw.ImageDraw, label: Label, colour: int, pad: int) -> None:
    x0, y0, x1, y1 = label.box
    if label.leader:
        cx, cy = min(max(label.leader[0], x0), x1), min(max(label.leader[1], y0), y1)
        d.line([(cx, cy), label.leader], fill=colour, width=2)
        d.ellipse([label.leader[0] - 2, label.leader[1] - 2, label.leader[0] + 2, label.leader[1] + 2], fill=colour)
    d.rounded_rectangle([x0, y0, x1 - 1, y1 - 1], radius=4, fill=colour)
    left, top, _r, _b = text_box(label.text, label.size, 0, 0)
    draw_words(d, (x0 + pad - left, y0 + pad - top), label.text, label.size, INK_INDEX[WHITE])


def _place_names(d: ImageDraw.ImageDraw, layout: Layout, frame: Frame, places: list[tuple[str, str]], hexes: set[str]) -> None:
    """Each place name of the hexes shown, nearest its hex where it covers nothing."""
    for hx, text in places:
        if hx not in hexes:
            continue
        x, y = frame.xy(hx)
        label = layout.place(text, round(PLACE_SIZE * frame.k), (x, y + 0.22 * H * frame.k), "place", clear=0.0, pad=1)
        if label:
            draw_placed(d, label, INK_INDEX[INK], INK_INDEX[PAPER])


# ------------------------------------------------------- moves and combats


def _arrow(d: ImageDraw.ImageDraw, pts, colour: int, k: float):
    if len(pts) < 2:
        return
    d.line(pts, fill=colour, width=round(3 * k), joint="curve")
    (x1, y1), (x2, y2) = pts[-2], pts[-1]
    ang = math.atan2(y2 - y1, x2 - x1)
    size = 9 * k
    d.polygon([(x2, y2), (x2 - size * math.cos(ang - 0.45), y2 - size * math.sin(ang - 0.45)),
               (x2 - size * math.cos(ang + 0.45), y2 - size * math.sin(ang + 0.45))], fill=colour)


def _hex_path(path) -> list[str]:
    out = []
    for hx in path or []:
        try:
            hex_xy(hx)
        except (ValueError, TypeError):
            return []
        out.append(hx)
    return out


def _draw_moves(d: ImageDraw.ImageDraw, frame: Frame, moves: list, sides: dict[str, str]):
    for mv in moves:
        path = _hex_path(mv.get("path")) if isinstance(mv, dict) else []
        if len(path) < 2:
            continue
        pts = [frame.xy(h) for h in path]
        colour = INK_INDEX[MOVE_US if sides.get(mv.get("unit")) == "us" else MOVE_IND]
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        pts[-1] = (x1 + (x2 - x1) * 0.55, y1 + (y2 - y1) * 0.55)  # short of the last centre: the counter stays readable
        _arrow(d, pts, colour, frame.k)


def _combats(combats: list) -> list[tuple[str, list[str]]]:
    """Each combat's hex and its attackers' hexes (those on the map)."""
    out = []
    for cb in combats:
        if not isinstance(cb, dict) or not _hex_path([cb.get("hex")]):
            continue
        out.append((cb["hex"], [a for a in cb.get("attackers") or [] if _hex_path([a])]))
    return out


def _draw_combats(d: ImageDraw.ImageDraw, frame: Frame, combats: list[tuple[str, list[str]]]):
    red, k = INK_INDEX[COMBAT], frame.k
    for hx, attackers in combats:
        x, y = frame.xy(hx)
        for a in attackers:
            ax, ay = frame.xy(a)
            mx, my = (ax + x) / 2, (ay + y) / 2
            _arrow(d, [(ax + (x - ax) * 0.3, ay + (y - ay) * 0.3), (mx + (x - mx) * 0.4, my + (y - my) * 0.4)], red, k)
        r = S * k * 0.92
        d.ellipse([x - r, y - r, x + r, y + r], outline=red, width=round(3 * k))


# ------------------------------------------------------------------- drawing


def _draw_scene(img: Image.Image, layout: Layout, frame: Frame, info: dict, shown: set[str], units: list[dict],
                moves: list, combats: list[tuple[str, list[str]]], us) -> None:
    """Everything a view puts on the map, on ``img`` (the terrain of the part shown): the
    numbers of the hexes ``shown`` recorded, moves, counters, leaders, place names, combats."""
    k = frame.k
    for hx in sorted(shown):
        box = hexnum_box(hx, k)
        box = (box[0] + frame.dx, box[1] + frame.dy, box[2] + frame.dx, box[3] + frame.dy)
        if box[0] >= 0 and box[1] >= 0 and box[2] <= layout.width and box[3] <= layout.height:
            layout.fixed(hx, box, hexnum_size(k), "hex")
    d = ImageDraw.Draw(img)
    _draw_moves(d, frame, moves, {u.get("id"): u.get("side") for u in units})
    _draw_combats(d, frame, combats)  # under the counters and names: the rings never hide a word
    stacks = _stacks(units)
    _counters(img, layout, frame, stacks, us)
    _leaders(d, layout, frame, {hx: st for hx, st in stacks.items() if hx in shown})
    _place_names(d, layout, frame, info["labels"], shown)


def _title(view: dict, map_title: str, gettext) -> str:
    title = gettext(map_title)  # marked in scenario.MAP_TITLES (a literal inside gettext() would be extracted)
    turn, turns = view.get("turn"), view.get("turns")
    if turn is None:
        return title
    done = view.get("resolved")
    if done:
        return format_message(TITLE_AFTER, {"title": title, "label": done, "turn": _turn_of(done, turn), "turns": turns}, gettext)
    return format_message(TITLE_BEFORE, {"title": title, "turn": turn, "turns": turns}, gettext)


def _turn_of(label: str, default) -> int:
    digits = "".join(ch for ch in label.split(".")[0] if ch.isdigit())
    return int(digits) if digits else default


# ------------------------------------------------------------ close-ups


def sector_of(hx: str) -> str:
    """``B3``: the sector's column letter and row number."""
    c, r = parse_hex(hx)
    return f"{string.ascii_uppercase[(c - 1) // SECTOR]}{(r - 1) // SECTOR + 1}"


def _sector_hexes(info: dict, name: str) -> list[str]:
    col, row = string.ascii_uppercase.index(name[0]), int(name[1:]) - 1
    return [f"{c:02d}{r:02d}" for c in range(col * SECTOR + 1, min(info["columns"], col * SECTOR + SECTOR) + 1)
            for r in range(row * SECTOR + 1, min(info["rows"], row * SECTOR + SECTOR) + 1)]


def _fight_hexes(info: dict, spot: str) -> list[str]:
    c, r = parse_hex(spot)
    c0 = max(1, min(info["columns"] - SECTOR + 1, c - SECTOR // 2 + 1))
    r0 = max(1, min(info["rows"] - SECTOR + 1, r - SECTOR // 2))
    return [f"{cc:02d}{rr:02d}" for cc in range(c0, c0 + SECTOR) for rr in range(r0, r0 + SECTOR)]


def reader_sectors(units: list[dict], reader: str | None) -> list[str]:
    """The sectors holding the reader's units (an observer's: anyone's), most units first."""
    count: dict[str, int] = {}
    for hx, stack in _stacks(units).items():
        mine = [u for u in stack if reader is None or u.get("side") == reader]
        if mine:
            count[sector_of(hx)] = count.get(sector_of(hx), 0) + len(mine)
    return sorted(count, key=lambda s: (-count[s], s))[:MAX_SECTORS]


def fight_spots(combats: list[tuple[str, list[str]]]) -> list[str]:
    out: list[str] = []
    for hx, _attackers in combats:
        if all(distance(hx, o) > FIGHT_RADIUS for o in out):
            out.append(hx)
    return out[:MAX_FIGHTS]


def _close_up(map_name: str, hexes: list[str], heading: str, units: list[dict], moves: list, combats, us) -> bytes:
    """The ``hexes`` at ``CLOSE_UP`` times the scale, under a title naming what they are."""
    layer, info = base(map_name, (), CLOSE_UP)
    k = CLOSE_UP
    xs, ys = [hex_xy(h, k)[0] for h in hexes], [hex_xy(h, k)[1] for h in hexes]
    x0, y0 = int(min(xs) - S * k) - PAD, int(min(ys) - H * k / 2) - PAD
    x1, y1 = int(max(xs) + S * k) + PAD, int(max(ys) + H * k / 2) + PAD
    width, height = x1 - x0, y1 - y0 + CROP_TITLE
    img = Image.new("P", (width, height))
    img.putpalette(layer.getpalette())
    img.paste(layer.crop((x0, y0, x1, y1)), (0, CROP_TITLE))
    layout = Layout(width, height)
    layout.block((0, 0, width, CROP_TITLE))  # no word under the title
    frame = Frame(k, -x0, CROP_TITLE - y0)
    _draw_scene(img, layout, frame, info, set(hexes), units, moves, combats, us)
    layout.keep_within((0, CROP_TITLE, width, height))  # the words of counters cut by the edges are no words to read
    strip, box = title_strip(width, heading, CROP_TITLE_SIZE, CROP_TITLE)
    img.paste(strip, (0, 0))
    ImageDraw.Draw(img).line([(0, CROP_TITLE - 1), (width, CROP_TITLE - 1)], fill=INK_INDEX[INK])
    layout.fixed(heading, box, CROP_TITLE_SIZE, "title")
    return encode_png(img, COMPRESS_LEVEL, layout)


# ------------------------------------------------------------------- pictures

_FINISHED: BoundedCache[bytes] = BoundedCache(32)  # maps and close-ups, by what they show: both readers share them
_DRAWN_UNIT_FIELDS = ("id", "name", "short", "side", "type", "tribe", "hex", "status", "strength", "cf", "mounted", "eliminated")


def draw_pictures(view: dict, gettext=None, close_up: bool = True, whole: bool = False) -> dict[str, bytes]:
    """The map (``"map"``) and, with ``close_up``, the close-ups of the reader's sectors and of
    this turn's combats, as PNGs with their words in the reader's language (``gettext``;
    None: English). The map is the part of the board around the pieces and this turn's moves
    and combats (:func:`_board_window`), or with ``whole`` all of it."""
    gettext = gettext or N_  # N_ returns the English id as it is
    map_name = _map_name(view)
    words = tuple(gettext(word) for word, *_ in LEGEND_KEYS)
    _layer, info = base(map_name, words)
    title = _title(view, info["title"], gettext)
    units = [{k: u.get(k) for k in _DRAWN_UNIT_FIELDS} for u in (view.get("units") or []) if isinstance(u, dict)]
    moves = [m for m in view.get("last_moves") or [] if isinstance(m, dict)]
    combats = _combats(view.get("last_combats") or [])
    reader = view.get("reader") if view.get("reader") in ("us", "indians") else None
    label = view.get("resolved") or gettext(START)
    drawn = json.dumps([map_name, units, moves, combats], sort_keys=True, default=str)  # what every picture shows
    us = us_colour(map_name)
    out = {"map": _FINISHED.get((drawn, words, title, whole),
                                lambda: _overview(map_name, words, info, title, units, moves, combats, whole, us))}
    if not close_up:
        return out
    close_ups = [(f"sector{name}", _sector_hexes(info, name), format_message(SECTOR_TITLE, {"sector": name, "label": label}, gettext))
                 for name in reader_sectors(units, reader)]
    close_ups += [(f"fight{i}", _fight_hexes(info, spot), format_message(FIGHT_TITLE, {"hex": spot, "label": label}, gettext))
                  for i, spot in enumerate(fight_spots(combats), 1)]
    for name, hexes, heading in close_ups:  # a sector both sides hold, and every fight, drawn once for both readers
        out[name] = _FINISHED.get((drawn, tuple(hexes), heading),
                                  lambda: _close_up(map_name, hexes, heading, units, moves, combats, us))
    return out


def _overview(map_name: str, words, info: dict, title: str, units: list[dict], moves: list, combats, whole: bool, us) -> bytes:
    """The board (or the part of it around the pieces) under its title, over its legend."""
    layer, _info = base(map_name, words)
    w, h = layer.size
    full = (0, TOP, w, h - LEGEND)
    x0, y0, x1, y1 = full if whole else _board_window(units, moves, combats, full, info["legend_width"])
    width, height = x1 - x0, TOP + (y1 - y0) + LEGEND
    img = Image.new("P", (width, height))
    img.putpalette(layer.getpalette())
    img.paste(layer.crop((x0, y0, x1, y1)), (0, TOP))
    layout = Layout(width, height)
    layout.block((0, 0, width, TOP))  # no placed word on the title or the legend
    layout.block((0, height - LEGEND, width, height))
    frame = Frame(1.0, -x0, TOP - y0)
    shown = {hx for hx in info["hexes"] if _inside(hexnum_box(hx, 1.0), (x0, y0, x1, y1))}
    _draw_scene(img, layout, frame, info, shown, units, moves, combats, us)
    layout.keep_within((0, TOP, width, height - LEGEND))
    strip, box = title_strip(width, title)
    img.paste(strip, (0, 0))  # over whatever reached into it
    layout.fixed(title, box, 16, "title")
    img.paste(layer.crop((0, h - LEGEND, width, h)), (0, height - LEGEND))  # the legend starts at the left edge: whole
    for word, (bx0, by0, bx1, by1), size in info["legend_words"]:
        if bx1 <= width:
            layout.fixed(word, (bx0, by0 - h + height, bx1, by1 - h + height), size, "legend")
    return encode_png(img, COMPRESS_LEVEL, layout)


def _inside(box: Rect, window: Rect) -> bool:
    return window[0] <= box[0] and window[1] <= box[1] and box[2] <= window[2] and box[3] <= window[3]


#: hexes of board kept around the outermost pieces, moves and combats in a report's map:
#: their own hexes whole and half of the next (a whole hex more cost 2-3 KB of PNG)
BOARD_MARGIN = 0.5


def _board_window(units: list[dict], moves: list, combats, full: Rect, legend_width: int) -> tuple[int, int, int, int]:
    """The part of the board a report's map shows: every piece on the board, this turn's
    moves and combats, and ``BOARD_MARGIN`` hexes around them; to the board's edge (its exit
    arrows included) when that is nearer than a hex, and at least as wide as the legend.
    The whole board when there is nothing on it."""
    hexes = [hx for hx, attackers in combats for hx in [hx, *attackers]] + list(_stacks(units))
    for mv in moves:
        hexes += _hex_path(mv.get("path"))
    points = [hex_xy(hx) for hx in hexes]
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
    return math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom)  # the legend's width whole


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
