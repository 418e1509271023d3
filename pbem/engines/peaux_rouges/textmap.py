"""The board as lines of text, for the plain-text report (the picture's twin).

Language-neutral: terrain symbols, square names and piece codes only; the
report's legend (translated) explains them.
"""

from __future__ import annotations

from .board import FORD, OPEN, PARAPET, RIVER, ROCKS, WOODS, Board

SYMBOLS = {OPEN: ".", WOODS: "&", ROCKS: "@", PARAPET: "#", RIVER: "~", FORD: "="}
ARROW, VILLAGE, FLAG, STACK = "^", "A", "*", "+"


def text_map(board: Board, pieces: dict[str, str | None], flag: str | None) -> list[str]:
    by_square: dict[int, list[str]] = {}
    for code, sq in pieces.items():
        if sq:
            by_square.setdefault(board.index(sq), []).append(code)
    flag_sq = board.index(flag) if flag else None
    village = set(board.village)
    lines = ["   " + "".join(f"  {chr(65 + c)} " for c in range(board.cols)).rstrip()]
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            sq = r * board.cols + c
            here = by_square.get(sq)
            if here:
                terrain = SYMBOLS[board.terrain[sq]]
                mark = FLAG if sq == flag_sq else (STACK if len(here) > 1 else (" " if terrain == "." else terrain))
                cells.append(here[0].rjust(3) + mark)
            elif sq == flag_sq:
                cells.append(f"  {FLAG} ")
            elif sq in board.arrows:
                cells.append(f"  {ARROW} ")
            elif sq in village:
                cells.append(f"  {VILLAGE} ")
            else:
                cells.append(f"  {SYMBOLS[board.terrain[sq]]} ")
        lines.append(f"{r + 1:>2} " + "".join(cells) + f" {r + 1}")
    lines.append(lines[0])
    return lines
