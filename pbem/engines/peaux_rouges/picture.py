"""The board as a PNG, drawn from a view: terrain, pieces, the flag, last turn's moves and shots.

The picture carries no words, only square names and piece codes (the same in
French and English); the report's legend explains the colours and marks.

The terrain with its grid and square names is drawn once per scenario (a palette
image); a turn's picture copies it, draws the shots and moves by palette index and
pastes each piece as a cached token. Both sides see the same board, so the finished
PNGs are kept (bounded) by everything drawn and the second reader gets the first's.
"""

from __future__ import annotations

import json
import math

from PIL import Image, ImageDraw

from pbem.engines.fonts import font
from pbem.engines.pictures import BoundedCache, encode_png, palette_image, palette_index, quantize

from .board import FORD, OPEN, PARAPET, RIVER, ROCKS, WOODS, board_for
from .pieces import LC, kind_of, side_of

CELL = 44
MARGIN = 22
STRIP = 40  # eliminated pieces, below the board

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
    # grid and coordinates
    w, h = board.cols * CELL, board.rows * CELL
    for i in range(board.cols + 1):
        draw.line([(MARGIN + i * CELL, MARGIN), (MARGIN + i * CELL, MARGIN + h)], fill=GRID, width=1)
    for j in range(board.rows + 1):
        draw.line([(MARGIN, MARGIN + j * CELL), (MARGIN + w, MARGIN + j * CELL)], fill=GRID, width=1)
    for i in range(board.cols):
        cx = MARGIN + i * CELL + CELL / 2
        _text(draw, (cx, MARGIN / 2), chr(65 + i), 13, INK)
        _text(draw, (cx, MARGIN + h + MARGIN / 2), chr(65 + i), 13, INK)
    for j in range(board.rows):
        cy = MARGIN + j * CELL + CELL / 2
        _text(draw, (MARGIN / 2, cy), str(j + 1), 12, INK)
        _text(draw, (MARGIN + w + MARGIN / 2, cy), str(j + 1), 12, INK)


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
    size = 13 if len(code) <= 2 else 11
    if len(code) == 1:
        size = 15
    if dead:
        draw.line([(cx - r, cy - r), (cx + r, cy + r)], fill=DEAD_CROSS, width=1)
        draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=DEAD_CROSS, width=1)
    _text(draw, (cx, cy + 1), code, size, INK if dead else WHITE)


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
_FINISHED: BoundedCache[bytes] = BoundedCache(16)
TOKEN_HALF = 20  # a token's tile reaches this far from its centre (the largest is 17)


def _paste(img: Image.Image, key: tuple, paint, cx: float, cy: float, half: int = TOKEN_HALF) -> None:
    tile, mask = _TILES.get(key, lambda: _tile(paint, half))
    img.paste(tile, (round(cx) - half, round(cy) - half), mask)


def _paste_token(img, cx, cy, code: str, side: str, r: float, dead: bool = False) -> None:
    _paste(img, ("token", code, side, r, dead), lambda d, x, y: _token(d, x, y, code, side, r, dead), cx, cy)


def _board_layer(scenario: str) -> Image.Image:
    def make() -> Image.Image:
        board = board_for(scenario)
        img = Image.new("RGB", (board.cols * CELL + 2 * MARGIN, board.rows * CELL + 2 * MARGIN + STRIP), PAPER)
        _terrain(ImageDraw.Draw(img), board)
        return quantize(img, PALETTE)
    return _TERRAIN.get(scenario, make)


def draw(view: dict) -> bytes:
    last = view.get("last") or {}
    drawn = [view["scenario"], view.get("flag"), [(p["code"], p["side"], p["square"]) for p in view["pieces"]],
             last.get("shots", []), last.get("moves", [])]
    return _FINISHED.get(json.dumps(drawn, sort_keys=True, default=str), lambda: _draw(view))


def _draw(view: dict) -> bytes:
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
    # pieces
    by_square: dict[str, list[dict]] = {}
    dead = []
    for p in view["pieces"]:
        if p["square"]:
            by_square.setdefault(p["square"], []).append(p)
        else:
            dead.append(p)
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
    if view.get("flag"):
        cx, cy = _centre(board, board.index(view["flag"]))
        _paste(img, ("flag",), lambda dr, x, y: _flag(dr, x, y), cx + CELL / 2 - 17, cy - CELL / 2 + 2)
    # eliminated pieces along the bottom
    y = board.rows * CELL + 2 * MARGIN + STRIP / 2 - 2
    x = MARGIN + 14
    for p in dead:
        _paste_token(img, x, y, p["code"], p["side"], 12, dead=True)
        x += 32
    return encode_png(img)
