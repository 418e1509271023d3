"""Where a picture's words go, shared by the engines: every word drawn is a label with its box
and its font size in the picture's pixels, and no two labels overlap.

A ``Layout`` collects a picture's labels. Words whose place is fixed (a hex number, the words
inside a counter, a title, a legend line) are recorded with ``fixed``; words that may move (a
place name, a commander's name beside his badge, an objective's points) are placed with
``place``, which tries spots around the thing they name, nearest first, and draws a leader line
back to it when the label had to move away. ``block`` marks what a placed label must not cover
(counters, badges). ``to_json`` is the picture's layout data: pictures carry it in their PNG
(``pictures.encode_png(layout=...)``) so a test, or anyone, can check from the picture itself
that no two labels overlap and how large its words are drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw

from pbem.engines.accented_text import draw_text
from pbem.engines.fonts import font

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
GAP = 1.0  # pixels kept clear between two labels
CELL = 32  # the spatial index's cell, in pixels


@dataclass(frozen=True)
class Label:
    text: str
    box: Box
    size: int  # the font's size in the picture's pixels
    kind: str  # what it names: "hex", "name", "place", "title", "legend"...
    leader: tuple[float, float] | None = None  # where its leader line points, when it has one

    def to_json(self) -> dict:
        out = {"text": self.text, "box": [round(v, 1) for v in self.box], "size": self.size, "kind": self.kind}
        if self.leader:
            out["leader"] = [round(v, 1) for v in self.leader]
        return out


def overlap(a: Box, b: Box, gap: float = 0.0) -> bool:
    """Whether two boxes overlap (closer than ``gap``)."""
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def text_box(text: str, size: int, x: float, y: float, anchor: str = "la") -> Box:
    """The box ``draw_text`` fills with ``text`` at ``(x, y)`` (Pillow's anchors: l/m/r, a/m/s/d)."""
    left, top, right, bottom = _extent(text, size, anchor)
    return (x + left, y + top, x + right, y + bottom)


@lru_cache(maxsize=8192)
def _extent(text: str, size: int, anchor: str) -> tuple[float, float, float, float]:
    left, top, right, bottom = font(size).getbbox(text, anchor=anchor)
    if not text.isascii():  # the accents draw_text adds above the letters
        top -= size * 0.25
    return left, top, right, bottom


class Layout:
    """The labels of one picture (and what placed labels must keep off)."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.labels: list[Label] = []
        self.unplaced: list[str] = []
        self.blocks: list[Box] = []
        self._grid: dict[tuple[int, int], list[Box]] = {}

    # --- recording ------------------------------------------------------------
    def _cells(self, box: Box):
        for cx in range(int(box[0] // CELL), int(box[2] // CELL) + 1):
            for cy in range(int(box[1] // CELL), int(box[3] // CELL) + 1):
                yield cx, cy

    def _index(self, box: Box) -> None:
        for cell in self._cells(box):
            self._grid.setdefault(cell, []).append(box)

    def free(self, box: Box) -> bool:
        """Whether ``box`` is inside the picture and clear of every label and blocked box."""
        if box[0] < 0 or box[1] < 0 or box[2] > self.width or box[3] > self.height:
            return False
        return not any(overlap(box, other, GAP) for cell in self._cells(box) for other in self._grid.get(cell, ()))

    def block(self, box: Box) -> None:
        """A box placed labels keep off (a counter, a badge); not a label itself, but in the
        layout data (``blocks``) so a test can check what it covers."""
        self.blocks.append(box)
        self._index(box)

    def fixed(self, text: str, box: Box, size: int, kind: str) -> Label:
        """A label drawn where it must be; the caller keeps it clear of the others (the
        tests check the layout data)."""
        label = Label(text, box, size, kind)
        self.labels.append(label)
        self._index(box)
        return label

    def fixed_text(self, d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill, kind: str,
                   anchor: str = "la") -> Label:
        """Draw ``text`` at ``xy`` and record it as a fixed label."""
        draw_text(d, xy, text, font(size), fill, anchor=anchor)
        return self.fixed(text, text_box(text, size, xy[0], xy[1], anchor), size, kind)

    # --- placing ----------------------------------------------------------------
    def place(self, text: str, size: int, anchor: tuple[float, float], kind: str, clear: float = 3.0,
              reach: float = 90.0, pad: float = 1.0) -> Label | None:
        """A label for the thing at ``anchor``: the free spot nearest to it (its centre nearest
        first), no nearer than ``clear`` pixels and, failing any within ``reach``, up to three
        times as far, with a leader line back to the anchor when it is not right beside it; None
        (and the text noted in ``unplaced``) when no spot is free."""
        x0, y0, x1, y1 = text_box(text, size, 0, 0)
        w, h = round(x1 - x0 + 2 * pad), round(y1 - y0 + 2 * pad)
        ax, ay = anchor
        limit = 3 * reach + (w + h) / 2
        for dist, ox, oy in _offsets(REACH):
            if dist > limit:
                break
            dx, dy = max(abs(ox) - w / 2, 0.0), max(abs(oy) - h / 2, 0.0)  # the anchor outside the box, each way
            edge = (dx * dx + dy * dy) ** 0.5
            if edge < clear:
                continue
            left, top = ax + ox - w / 2, ay + oy - h / 2
            box = (left, top, left + w, top + h)
            if self.free(box):
                label = Label(text, box, size, kind, (ax, ay) if edge > clear + h else None)
                self.labels.append(label)
                self._index(box)
                return label
        self.unplaced.append(text)
        return None

    def keep_within(self, box: Box) -> None:
        """Forget the words not wholly inside ``box``: on a close-up, those of counters cut by its
        edges or painted over by its title, no longer words a reader can read."""
        self.labels = [x for x in self.labels if box[0] <= x.box[0] and box[1] <= x.box[1] and x.box[2] <= box[2] and x.box[3] <= box[3]]

    def to_json(self) -> dict:
        return {"width": self.width, "height": self.height, "labels": [x.to_json() for x in self.labels],
                "unplaced": list(self.unplaced), "blocks": [[round(v, 1) for v in b] for b in self.blocks]}


@lru_cache(maxsize=4)
def _offsets(reach: int, step_x: int = 3, step_y: int = 2) -> tuple[tuple[float, int, int], ...]:
    """Where a label's centre may go round its anchor, nearest first: (distance, dx, dy) on a
    ``step_x`` by ``step_y`` pixel grid, out to ``reach``. Made once, when first wanted."""
    out = [(math.hypot(i * step_x, j * step_y), i * step_x, j * step_y)
           for i in range(-(reach // step_x), reach // step_x + 1) for j in range(-(reach // step_y), reach // step_y + 1)]
    out.sort()
    return tuple(out)


REACH = 330  # three times the usual reach, and a long label's half width


def draw_placed(d: ImageDraw.ImageDraw, label: Label, ink, paper, leader_ink=None, pad: float = 1.0) -> None:
    """Draw a placed label on a patch of ``paper`` (readable over terrain), with its leader line."""
    x0, y0, x1, y1 = label.box
    if label.leader:
        cx, cy = min(max(label.leader[0], x0), x1), min(max(label.leader[1], y0), y1)
        d.line([(cx, cy), label.leader], fill=leader_ink or ink, width=1)
    d.rectangle([x0, y0, x1 - 1, y1 - 1], fill=paper)
    tx0, ty0, _tx1, _ty1 = text_box(label.text, label.size, 0, 0)
    draw_text(d, (x0 + pad - tx0, y0 + pad - ty0), label.text, font(label.size), ink)


def overlaps(layout: dict) -> list[tuple[dict, dict]]:
    """The pairs of labels of a picture's layout data that overlap (none, in a good picture)."""
    labels = layout["labels"]
    grid: dict[tuple[int, int], list[int]] = {}
    out = []
    for i, label in enumerate(labels):
        x0, y0, x1, y1 = label["box"]
        seen: set[int] = set()
        for cx in range(int(x0 // CELL), int(x1 // CELL) + 1):
            for cy in range(int(y0 // CELL), int(y1 // CELL) + 1):
                for j in grid.get((cx, cy), ()):
                    if j not in seen and overlap(tuple(label["box"]), tuple(labels[j]["box"])):
                        seen.add(j)
                        out.append((labels[j], label))
                grid.setdefault((cx, cy), []).append(i)
    return out
