"""The board as a PNG, drawn from a view: terrain, pieces, the flag, last turn's moves and shots.

The picture carries no words, only square names and piece codes (the same in
French and English); the report's legend explains the colours and marks.
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

from pbem.engines.fonts import font

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
                draw.polygon([(px, py - 8), (px - 6, py + 5), (px + 6, py + 5)], fill=(40, 95, 40))
        elif t == ROCKS:
            for cx, cy, r in ((0.32, 0.38, 7), (0.66, 0.42, 8), (0.48, 0.72, 6)):
                px, py = x0 + cx * CELL, y0 + cy * CELL
                draw.ellipse([px - r, py - r * 0.7, px + r, py + r * 0.7], fill=(105, 100, 95), outline=(70, 68, 64))
        elif t == PARAPET:
            draw.rectangle([x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4], outline=(110, 70, 30), width=3)
            draw.line([(x0 + 4, y0 + CELL / 2), (x0 + CELL - 4, y0 + CELL / 2)], fill=(110, 70, 30), width=2)
        elif t == RIVER:
            for k in (0.3, 0.6):
                yy = y0 + k * CELL
                draw.arc([x0 + 2, yy - 4, x0 + CELL / 2, yy + 4], 180, 360, fill=(200, 225, 250), width=2)
                draw.arc([x0 + CELL / 2, yy - 4, x0 + CELL - 2, yy + 4], 0, 180, fill=(200, 225, 250), width=2)
        elif t == FORD:
            for k in range(3):
                xx = x0 + 8 + k * 12
                draw.ellipse([xx - 4, y0 + CELL / 2 - 3, xx + 4, y0 + CELL / 2 + 3], fill=(120, 110, 95))
    for sq in board.village:
        x0, y0 = MARGIN + board.xy(sq)[0] * CELL, MARGIN + board.xy(sq)[1] * CELL
        for cx in (0.3, 0.7):
            px = x0 + cx * CELL
            draw.polygon([(px, y0 + 8), (px - 8, y0 + CELL - 8), (px + 8, y0 + CELL - 8)],
                         fill=(240, 235, 220), outline=(140, 60, 30))
            draw.line([(px - 3, y0 + 4), (px + 3, y0 + 14)], fill=(140, 60, 30), width=1)
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
        draw.ellipse([cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2], outline=(230, 190, 40), width=2)
    size = 13 if len(code) <= 2 else 11
    if len(code) == 1:
        size = 15
    if dead:
        draw.line([(cx - r, cy - r), (cx + r, cy + r)], fill=(90, 90, 90), width=1)
        draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=(90, 90, 90), width=1)
    _text(draw, (cx, cy + 1), code, size, INK if dead else WHITE)


def _flag(draw, x, y) -> None:
    draw.line([(x, y), (x, y + 18)], fill=INK, width=2)
    draw.rectangle([x + 1, y, x + 14, y + 9], fill=(200, 30, 40))
    for k in range(1, 5, 2):
        draw.line([(x + 1, y + k * 2), (x + 14, y + k * 2)], fill=WHITE, width=1)
    draw.rectangle([x + 1, y, x + 6, y + 4], fill=(30, 50, 140))


def draw(view: dict) -> bytes:
    board = board_for(view["scenario"])
    width = board.cols * CELL + 2 * MARGIN
    height = board.rows * CELL + 2 * MARGIN + STRIP
    img = Image.new("RGB", (width, height), (250, 247, 238))
    d = ImageDraw.Draw(img)
    _terrain(d, board)
    last = view.get("last") or {}
    # shots first, under the pieces
    for shot in last.get("shots", []):
        a, b = _centre(board, board.index(shot["from"])), _centre(board, board.index(shot["to"]))
        colour = BLUE if side_of(shot["attacker"]) == LC else RED
        _arrow(d, a, b, colour, width=4 if shot.get("melee") else 2, head=10, dash=not shot.get("melee"), shorten=14)
        if shot.get("result") == "eliminated":
            loser = shot.get("winner") == shot["attacker"]
            bx, by = b if loser else a
            d.line([(bx - 14, by - 14), (bx + 14, by + 14)], fill=(0, 0, 0), width=3)
            d.line([(bx - 14, by + 14), (bx + 14, by - 14)], fill=(0, 0, 0), width=3)
    for mv in last.get("moves", []):
        a, b = _centre(board, board.index(mv["from"])), _centre(board, board.index(mv["to"]))
        colour = (240, 150, 20) if mv.get("retreat") else ((20, 20, 20) if not mv.get("flag") else (200, 30, 40))
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
            _token(d, cx + dx, cy + dy, p["code"], p["side"], r)
    if view.get("flag"):
        cx, cy = _centre(board, board.index(view["flag"]))
        _flag(d, cx + CELL / 2 - 17, cy - CELL / 2 + 2)
    # eliminated pieces along the bottom
    y = board.rows * CELL + 2 * MARGIN + STRIP / 2 - 2
    x = MARGIN + 14
    for p in dead:
        _token(d, x, y, p["code"], p["side"], 12, dead=True)
        x += 32
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()
