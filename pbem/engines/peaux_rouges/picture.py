"""The board as PNGs, drawn from a view: terrain, pieces, the flag, last turn's moves and shots.

``draw_pictures(view, gettext=None) -> {name: PNG}``:
- ``map``: the whole board under a title naming the turn just played, the square names in its
  margins, the pieces lost under it and a legend at the bottom;
- ``near``: the 8 by 8 squares holding the most of the reader's pieces (an observer's: of
  all pieces), about 400 px wide, so a phone shows its codes and square names at 11 px or more;
- ``shots``: the 8 by 8 squares holding the most of last turn's shots, when they are elsewhere.
Every word drawn (a square name, a piece's code, the title, the legend) is in the picture's
layout data (pbem.engines.labels), carried in its PNG; no two overlap.

Words (title, legend) are English message ids marked ``N_`` and drawn through the reader's
``gettext``; square names and piece codes are the same in French and English.

The terrain with its grid and square names is drawn once per scenario (a palette
image); a turn's picture copies it, draws the shots and moves by palette index and
pastes each piece as a cached token. Both sides see the same board, so the finished
PNGs are kept (bounded) by everything drawn and the second reader gets the first's.
"""

from __future__ import annotations

import json
import math

from PIL import Image, ImageDraw

from pbem.engines.base import format_message
from pbem.engines.fonts import font
from pbem.engines.labels import Layout, text_box
from pbem.engines.pictures import BoundedCache, encode_png, palette_image, palette_index, quantize

from .board import FORD, OPEN, PARAPET, RIVER, ROCKS, WOODS, board_for
from .messages import N_
from .pieces import LC, kind_of, side_of

CELL = 44
MARGIN = 22
STRIP = 40  # eliminated pieces, below the board
TOP = 24  # the title, above the board
WINDOW = 8  # a close-up: 8 by 8 squares
COORD_SIZE = (13, 12)  # the square names: letters, numbers
LEGEND_SIZE = 11
TITLE_SIZE = 14

TITLE = N_("Turn %(turn)s of %(limit)s, after %(phase)s")
TITLE_START = N_("Before turn 1 of %(limit)s")
CLOSE_TITLE = N_("Squares %(first)s to %(last)s, after %(phase)s")
START = N_("the start")
LEGEND = (("lc", N_("Long Knives")), ("pr", N_("Indian pieces")), ("rider", N_("rider")), ("chief", N_("Custer, his officers")),
          ("move", N_("move")), ("back", N_("falls back")), ("fire", N_("shot at range")), ("melee", N_("melee")),
          ("dead", N_("eliminated")), ("flag", N_("the flag")))

COLOURS = {
    OPEN: (233, 222, 180),
    WOODS: (92, 140, 70),
    ROCKS: (150, 146, 138),
    PARAPET: (176, 126, 72),
    RIVER: (70, 120, 190),
    FORD: (150, 195, 230),
}
GRID = (120, 110, 90)
BLUE = (28, 62, 150)
BLUE_LIGHT = (120, 150, 220)
RED = (178, 34, 34)
RED_LIGHT = (235, 130, 110)
INK = (30, 30, 30)
WHITE = (255, 255, 255)
ARROW = (20, 70, 220)
PAPER = (250, 247, 238)
TREE = (40, 95, 40)
STONE, STONE_EDGE = (105, 100, 95), (70, 68, 64)
PARAPET_EDGE = (110, 70, 30)
RIPPLE = (200, 225, 250)
FORD_STONE = (120, 110, 95)
TIPI, TIPI_EDGE = (240, 235, 220), (140, 60, 30)
CHIEF_RING = (230, 190, 40)
DEAD_CROSS = (90, 90, 90)
ELIMINATED = (0, 0, 0)
MOVE, MOVE_BACK = (20, 20, 20), (240, 150, 20)
FLAG_RED, FLAG_BLUE = (200, 30, 40), (30, 50, 140)

PALETTE = palette_image([*COLOURS.values(), GRID, BLUE, BLUE_LIGHT, RED, RED_LIGHT, INK, WHITE, ARROW, PAPER, TREE,
                         STONE, STONE_EDGE, PARAPET_EDGE, RIPPLE, FORD_STONE, TIPI, TIPI_EDGE, CHIEF_RING, DEAD_CROSS,
                         ELIMINATED, MOVE, MOVE_BACK, FLAG_RED, FLAG_BLUE])
INK_INDEX = palette_index(PALETTE)

def _centre(board, sq: int) -> tuple[float, float]:
    x, y = board.xy(sq)
    return MARGIN + x * CELL + CELL / 2, MARGIN + y * CELL + CELL / 2


def _text(draw, xy, text, size, fill, anchor="mm"):
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)


def _arrow(draw, a, b, fill, width=3, head=9, dash=False, shorten=10):
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    x1, y1 = x1 - ux * shorten, y1 - uy * shorten
    x0, y0 = x0 + ux * shorten * 0.6, y0 + uy * shorten * 0.6
    if dash:
        seg = 6
        n = int(math.hypot(x1 - x0, y1 - y0) // seg)
        for i in range(0, n, 2):
            draw.line([(x0 + ux * seg * i, y0 + uy * seg * i), (x0 + ux * seg * (i + 1), y0 + uy * seg * (i + 1))],
                      fill=fill, width=width)
    else:
        draw.line([(x0, y0), (x1, y1)], fill=fill, width=width)
    px, py = -uy, ux
    draw.polygon([(x1 + ux * head * 0.6, y1 + uy * head * 0.6),
                  (x1 - ux * head * 0.6 + px * head * 0.6, y1 - uy * head * 0.6 + py * head * 0.6),
                  (x1 - ux * head * 0.6 - px * head * 0.6, y1 - uy * head * 0.6 - py * head * 0.6)], fill=fill)


def _terrain(draw, board) -> None:
    for sq in range(board.size):
        x, y = board.xy(sq)
        x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
        t = board.terrain[sq]
        draw.rectangle([x0, y0, x0 + CELL, y0 + CELL], fill=COLOURS[t])
        if t == WOODS:
            for cx, cy in ((0.3, 0.35), (0.7, 0.3), (0.5, 0.7)):
                px, py = x0 + cx * CELL, y0 + cy * CELL
                draw.polygon([(px, py - 8), (px - 6, py + 5), (px + 6, py + 5)], fill=TREE)
        elif t == ROCKS:
            for cx, cy, r in ((0.32, 0.38, 7), (0.66, 0.42, 8), (0.48, 0.72, 6)):
                px, py = x0 + cx * CELL, y0 + cy * CELL
                draw.ellipse([px - r, py - r * 0.7, px + r, py + r * 0.7], fill=STONE, outline=STONE_EDGE)
        elif t == PARAPET:
            draw.rectangle([x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4], outline=PARAPET_EDGE, width=3)
            draw.line([(x0 + 4, y0 + CELL / 2), (x0 + CELL - 4, y0 + CELL / 2)], fill=PARAPET_EDGE, width=2)
        elif t == RIVER:
            for k in (0.3, 0.6):
                yy = y0 + k * CELL
                draw.arc([x0 + 2, yy - 4, x0 + CELL / 2, yy + 4], 180, 360, fill=RIPPLE, width=2)
                draw.arc([x0 + CELL / 2, yy - 4, x0 + CELL - 2, yy + 4], 0, 180, fill=RIPPLE, width=2)
        elif t == FORD:
            for k in range(3):
                xx = x0 + 8 + k * 12
                draw.ellipse([xx - 4, y0 + CELL / 2 - 3, xx + 4, y0 + CELL / 2 + 3], fill=FORD_STONE)
    for sq in board.village:
        x0, y0 = MARGIN + board.xy(sq)[0] * CELL, MARGIN + board.xy(sq)[1] * CELL
        for cx in (0.3, 0.7):
            px = x0 + cx * CELL
            draw.polygon([(px, y0 + 8), (px - 8, y0 + CELL - 8), (px + 8, y0 + CELL - 8)],
                         fill=TIPI, outline=TIPI_EDGE)
            draw.line([(px - 3, y0 + 4), (px + 3, y0 + 14)], fill=TIPI_EDGE, width=1)
    for sq in board.arrows:
        cx, cy = _centre(board, sq)
        draw.rectangle([cx - CELL / 2 + 2, cy - CELL / 2 + 2, cx + CELL / 2 - 2, cy + CELL / 2 - 2],
                       outline=ARROW, width=3)
        y = board.xy(sq)[1]
        up = -1 if y == 0 else (1 if y == board.rows - 1 else -1)
        _arrow(draw, (cx, cy + 10 * -up), (cx, cy + 18 * up), ARROW, width=5, head=14, shorten=0)
    # the grid (the square names are drawn with the margins of each picture)
    w, h = board.cols * CELL, board.rows * CELL
    for i in range(board.cols + 1):
        draw.line([(MARGIN + i * CELL, MARGIN), (MARGIN + i * CELL, MARGIN + h)], fill=GRID, width=1)
    for j in range(board.rows + 1):
        draw.line([(MARGIN, MARGIN + j * CELL), (MARGIN + w, MARGIN + j * CELL)], fill=GRID, width=1)


def _coordinates(draw, layout: Layout, cols: range, rows: range, left: float, top: float) -> None:
    """The letters of ``cols`` above and under the squares from (left, top), the numbers of
    ``rows`` on both sides."""
    w, h = len(cols) * CELL, len(rows) * CELL
    for n, i in enumerate(cols):
        cx = left + n * CELL + CELL / 2
        for y in (top - MARGIN / 2, top + h + MARGIN / 2):
            _word(draw, layout, (cx, y), chr(65 + i), COORD_SIZE[0], INK, "square")
    for n, j in enumerate(rows):
        cy = top + n * CELL + CELL / 2
        for x in (left - MARGIN / 2, left + w + MARGIN / 2):
            _word(draw, layout, (x, cy), str(j + 1), COORD_SIZE[1], INK, "square")


def _word(draw, layout: Layout, xy, text: str, size: int, fill, kind: str, anchor: str = "mm") -> None:
    layout.fixed_text(draw, xy, text, size, fill, kind, anchor)  # glyphs drawn once per process


def _token(draw, cx, cy, code: str, side: str, r: float, dead: bool = False) -> None:
    fill = BLUE if side == LC else RED
    if dead:
        fill = BLUE_LIGHT if side == LC else RED_LIGHT
    if kind_of(code).mounted:
        # riders: a diamond
        draw.polygon([(cx, cy - r - 2), (cx + r + 2, cy), (cx, cy + r + 2), (cx - r - 2, cy)], fill=fill, outline=WHITE)
    else:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=WHITE, width=2)
    if code in ("C", "O1", "O2"):
        draw.ellipse([cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2], outline=CHIEF_RING, width=2)
    size = code_size(code)
    if dead:
        draw.line([(cx - r, cy - r), (cx + r, cy + r)], fill=DEAD_CROSS, width=1)
        draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=DEAD_CROSS, width=1)
    _text(draw, (cx, cy + 1), code, size, INK if dead else WHITE)


def code_size(code: str) -> int:
    return 15 if len(code) == 1 else 13 if len(code) == 2 else 11


def _flag(draw, x, y) -> None:
    draw.line([(x, y), (x, y + 18)], fill=INK, width=2)
    draw.rectangle([x + 1, y, x + 14, y + 9], fill=FLAG_RED)
    for k in range(1, 5, 2):
        draw.line([(x + 1, y + k * 2), (x + 14, y + k * 2)], fill=WHITE, width=1)
    draw.rectangle([x + 1, y, x + 6, y + 4], fill=FLAG_BLUE)


def _tile(paint, half: int) -> tuple[Image.Image, Image.Image]:
    """What ``paint(draw, cx, cy)`` draws around the centre of a square ``2 * half`` wide,
    on the palette, with the mask of what it covered."""
    im = Image.new("RGBA", (2 * half, 2 * half), PAPER + (0,))
    paint(ImageDraw.Draw(im), half, half)
    return quantize(im, PALETTE), im.getchannel("A").point(lambda a: 255 if a >= 128 else 0)


# every piece at each of its sizes, alive or dead, and the flag: a few dozen tiles
_TILES: BoundedCache[tuple[Image.Image, Image.Image]] = BoundedCache(256)
_TERRAIN: BoundedCache[Image.Image] = BoundedCache(4)  # per scenario
_FINISHED: BoundedCache[bytes] = BoundedCache(32)  # maps and close-ups, by what they show and their words
TOKEN_HALF = 20  # a token's tile reaches this far from its centre (the largest is 17)


def _paste(img: Image.Image, key: tuple, paint, cx: float, cy: float, half: int = TOKEN_HALF) -> None:
    tile, mask = _TILES.get(key, lambda: _tile(paint, half))
    img.paste(tile, (round(cx) - half, round(cy) - half), mask)


def _paste_token(img, cx, cy, code: str, side: str, r: float, dead: bool = False) -> None:
    _paste(img, ("token", code, side, r, dead), lambda d, x, y: _token(d, x, y, code, side, r, dead), cx, cy)


def _board_layer(scenario: str) -> Image.Image:
    def make() -> Image.Image:
        board = board_for(scenario)
        img = Image.new("RGB", (board.cols * CELL + 2 * MARGIN, board.rows * CELL + 2 * MARGIN), PAPER)
        _terrain(ImageDraw.Draw(img), board)
        return quantize(img, PALETTE)
    return _TERRAIN.get(scenario, make)


def _phase_words(view: dict, gettext) -> tuple[str, str]:
    """The phase just played (its label) and the map's title."""
    last = view.get("last") or {}
    if not last.get("phase"):
        return gettext(START), format_message(TITLE_START, {"limit": view["turn_limit"]}, gettext)
    turn = last["phase"].split(".")[0][1:]
    return last["phase"], format_message(TITLE, {"turn": turn, "limit": view["turn_limit"], "phase": last["phase"]}, gettext)


def draw(view: dict, gettext=None) -> bytes:
    """The whole board's picture (the pages' and the report's ``map``)."""
    return draw_pictures(view, gettext, close_ups=False)["map"]


def draw_pictures(view: dict, gettext=None, close_ups: bool = True) -> dict[str, bytes]:
    gettext = gettext or N_  # N_ returns the English id as it is
    last = view.get("last") or {}
    reader = view.get("role") if view.get("role") in ("longs_couteaux", "peaux_rouges") else None
    drawn = json.dumps([view["scenario"], view.get("flag"), [(p["code"], p["side"], p["square"]) for p in view["pieces"]],
                        last.get("shots", []), last.get("moves", [])], sort_keys=True, default=str)
    board = board_for(view["scenario"])
    body = _BODIES.get(drawn, lambda: _draw_board(view))
    phase, title = _phase_words(view, gettext)
    legend = tuple((kind, gettext(text)) for kind, text in LEGEND)
    out = {"map": _FINISHED.get((drawn, title, legend), lambda: _overview(board, *body, title, legend))}
    if not close_ups:
        return out
    mine = [p["square"] for p in view["pieces"] if p["square"] and (reader is None or p["side"] == reader)]
    shots = [sq for s in last.get("shots", []) for sq in (s["from"], s["to"])]
    windows = []
    for name, squares in (("near", mine), ("shots", shots)):
        if squares:
            window = _best_window(board, [board.index(sq) for sq in squares])
            if window not in windows:
                windows.append(window)
                heading = _close_title(board, window, phase, gettext)
                out[name] = _FINISHED.get((drawn, heading), lambda: _close_up(board, body[0], body[1], window, heading))
    return out


_BODIES: BoundedCache[tuple] = BoundedCache(4)  # the board drawn, shared by a phase's pictures for every reader


def _draw_board(view: dict) -> tuple[Image.Image, list[tuple[str, tuple, int, str]], list[dict]]:
    """The board with the shots, moves, pieces and flag drawn (no margins' words), the piece
    codes' words (text, box, size, kind) and the pieces lost."""
    board = board_for(view["scenario"])
    img = _board_layer(view["scenario"]).copy()
    d = ImageDraw.Draw(img)
    last = view.get("last") or {}
    # shots first, under the pieces
    for shot in last.get("shots", []):
        a, b = _centre(board, board.index(shot["from"])), _centre(board, board.index(shot["to"]))
        colour = INK_INDEX[BLUE if side_of(shot["attacker"]) == LC else RED]
        _arrow(d, a, b, colour, width=4 if shot.get("melee") else 2, head=10, dash=not shot.get("melee"), shorten=14)
        if shot.get("result") == "eliminated":
            loser = shot.get("winner") == shot["attacker"]
            bx, by = b if loser else a
            d.line([(bx - 14, by - 14), (bx + 14, by + 14)], fill=INK_INDEX[ELIMINATED], width=3)
            d.line([(bx - 14, by + 14), (bx + 14, by - 14)], fill=INK_INDEX[ELIMINATED], width=3)
    for mv in last.get("moves", []):
        a, b = _centre(board, board.index(mv["from"])), _centre(board, board.index(mv["to"]))
        colour = INK_INDEX[MOVE_BACK if mv.get("retreat") else (MOVE if not mv.get("flag") else FLAG_RED)]
        d.ellipse([a[0] - 7, a[1] - 7, a[0] + 7, a[1] + 7], outline=colour, width=2)
        _arrow(d, a, b, colour, width=3, head=11, shorten=17)
    by_square: dict[str, list[dict]] = {}
    dead = []
    for p in view["pieces"]:
        if p["square"]:
            by_square.setdefault(p["square"], []).append(p)
        else:
            dead.append(p)
    words = []
    for sq, ps in by_square.items():
        cx, cy = _centre(board, board.index(sq))
        if len(ps) == 1:
            spots, r = [(0, 0)], 14
        elif len(ps) == 2:
            spots, r = [(-10, 0), (10, 0)], 10
        else:
            spots, r = [(-10, -9), (10, -9), (0, 10)], 9.5
        for (dx, dy), p in zip(spots, ps):
            _paste_token(img, cx + dx, cy + dy, p["code"], p["side"], r)
            words.append((p["code"], text_box(p["code"], code_size(p["code"]), cx + dx, cy + dy + 1, "mm"), code_size(p["code"]), "name"))
    if view.get("flag"):
        cx, cy = _centre(board, board.index(view["flag"]))
        _paste(img, ("flag",), lambda dr, x, y: _flag(dr, x, y), cx + CELL / 2 - 17, cy - CELL / 2 + 2)
    return img, words, dead


def _best_window(board, squares: list[int]) -> tuple[int, int]:
    """The top left square (column, row) of the ``WINDOW`` by ``WINDOW`` squares holding the
    most of ``squares`` (the first such, scanning rows then columns)."""
    best, most = (0, 0), -1
    for r0 in range(max(1, board.rows - WINDOW + 1)):
        for c0 in range(max(1, board.cols - WINDOW + 1)):
            n = sum(1 for sq in squares if c0 <= board.xy(sq)[0] < c0 + WINDOW and r0 <= board.xy(sq)[1] < r0 + WINDOW)
            if n > most:
                best, most = (c0, r0), n
    return best


def _title_strip(img: Image.Image, layout: Layout, title: str) -> None:
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, img.width, TOP - 1], fill=INK_INDEX[PAPER])
    _word(d, layout, (MARGIN / 2, TOP / 2 + 1), title, TITLE_SIZE, INK_INDEX[INK], "title", anchor="lm")


def _overview(board, body: Image.Image, words: list, dead: list[dict], title: str, legend) -> bytes:
    width = body.width
    rows = _legend_rows(legend, width)
    height = TOP + body.height + STRIP + len(rows) * 20 + 8
    img = Image.new("P", (width, height), INK_INDEX[PAPER])
    img.putpalette(PALETTE.getpalette())
    img.paste(body, (0, TOP))
    layout = Layout(width, height)
    d = ImageDraw.Draw(img)
    _title_strip(img, layout, title)
    _coordinates(d, layout, range(board.cols), range(board.rows), MARGIN, TOP + MARGIN)
    for text, (x0, y0, x1, y1), size, kind in words:
        layout.fixed(text, (x0, y0 + TOP, x1, y1 + TOP), size, kind)
    # eliminated pieces along the bottom
    y = TOP + body.height + STRIP / 2 - 2
    x = MARGIN + 14
    for p in dead:
        _paste_token(img, x, y, p["code"], p["side"], 12, dead=True)
        layout.fixed(p["code"], text_box(p["code"], code_size(p["code"]), x, y + 1, "mm"), code_size(p["code"]), "lost")
        x += 32
    _legend(img, layout, rows, TOP + body.height + STRIP)
    return encode_png(img, layout=layout)


def _legend_rows(legend: list[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    rows, row, x = [], [], MARGIN
    for kind, text in legend:
        w = 36 + text_box(text, LEGEND_SIZE, 0, 0)[2] + 14
        if row and x + w > width - MARGIN:
            rows.append(row)
            row, x = [], MARGIN
        row.append((kind, text))
        x += w
    return rows + [row] if row else rows


def _legend(img: Image.Image, layout: Layout, rows: list, top: float) -> None:
    """A sample of each mark and its word, row by row."""
    d = ImageDraw.Draw(img)
    for n, row in enumerate(rows):
        y, x = top + n * 20 + 10, MARGIN
        for kind, text in row:
            _legend_sample(img, d, kind, x, y)
            _word(d, layout, (x + 34, y), text, LEGEND_SIZE, INK_INDEX[INK], "legend", anchor="lm")
            x += 36 + text_box(text, LEGEND_SIZE, 0, 0)[2] + 14


def _legend_sample(img: Image.Image, d, kind: str, x: float, y: float) -> None:
    ink = INK_INDEX
    if kind in ("lc", "pr", "rider", "chief"):
        colour = ink[BLUE if kind in ("lc", "chief") else RED]
        if kind == "rider":
            d.polygon([(x + 12, y - 8), (x + 20, y), (x + 12, y + 8), (x + 4, y)], fill=colour)
        else:
            d.ellipse([x + 5, y - 7, x + 19, y + 7], fill=colour)
        if kind == "chief":
            d.ellipse([x + 3, y - 9, x + 21, y + 9], outline=ink[CHIEF_RING], width=2)
    elif kind in ("move", "back"):
        _arrow(d, (x, y), (x + 24, y), ink[MOVE if kind == "move" else MOVE_BACK], width=3, head=8, shorten=0)
    elif kind in ("fire", "melee"):
        _arrow(d, (x, y), (x + 24, y), ink[BLUE], width=4 if kind == "melee" else 2, head=8, dash=kind == "fire", shorten=0)
    elif kind == "dead":
        d.line([(x + 5, y - 7), (x + 19, y + 7)], fill=ink[ELIMINATED], width=3)
        d.line([(x + 5, y + 7), (x + 19, y - 7)], fill=ink[ELIMINATED], width=3)
    elif kind == "flag":
        _paste(img, ("flag",), lambda dr, fx, fy: _flag(dr, fx, fy), x + 5, y - 9)


def _window(board, window: tuple[int, int]) -> tuple[range, range]:
    c0, r0 = window
    return range(c0, min(board.cols, c0 + WINDOW)), range(r0, min(board.rows, r0 + WINDOW))


def _close_title(board, window: tuple[int, int], phase: str, gettext) -> str:
    cols, rows = _window(board, window)
    first, last = f"{chr(65 + cols[0])}{rows[0] + 1}", f"{chr(65 + cols[-1])}{rows[-1] + 1}"
    return format_message(CLOSE_TITLE, {"first": first, "last": last, "phase": phase}, gettext)


def _close_up(board, body: Image.Image, words: list, window: tuple[int, int], heading: str) -> bytes:
    """The ``WINDOW`` by ``WINDOW`` squares from ``window``, with their names in the margins."""
    c0, r0 = window
    cols, rows = _window(board, window)
    x0, y0 = MARGIN + c0 * CELL, MARGIN + r0 * CELL
    w, h = len(cols) * CELL, len(rows) * CELL
    width, height = w + 2 * MARGIN, TOP + h + 2 * MARGIN
    img = Image.new("P", (width, height), INK_INDEX[PAPER])
    img.putpalette(PALETTE.getpalette())
    img.paste(body.crop((x0, y0, x0 + w + 1, y0 + h + 1)), (MARGIN, TOP + MARGIN))
    layout = Layout(width, height)
    _title_strip(img, layout, heading)
    _coordinates(ImageDraw.Draw(img), layout, cols, rows, MARGIN, TOP + MARGIN)
    dx, dy = MARGIN - x0, TOP + MARGIN - y0
    for text, (bx0, by0, bx1, by1), size, kind in words:
        box = (bx0 + dx, by0 + dy, bx1 + dx, by1 + dy)
        if MARGIN <= box[0] and box[2] <= MARGIN + w and TOP + MARGIN <= box[1] and box[3] <= TOP + MARGIN + h:
            layout.fixed(text, box, size, kind)
    return encode_png(img, layout=layout)
