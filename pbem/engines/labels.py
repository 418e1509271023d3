"""Where a picture's words go, shared by the engines: every word drawn is a label with its box
and its font size in the picture's pixels, and no two labels overlap.

A ``Layout`` collects a picture's labels. Words whose place is fixed (a hex number, the words
inside a counter, a title, a legend line) are recorded with ``fixed``; words that may move (a
place name, a commander's name beside his badge, an objective's points) are placed with
``place``, which tries spots around the thing they name, nearest first, and draws a leader line
back to it when the label had to move away. ``place`` weighs every spot at once: what labels and
blocked boxes cover is kept as a raster of pixels (numpy), and a spot is free when the summed-area
table of its neighbourhood counts no covered pixel in its box (conservative: a box is rounded out
to whole pixels, so a spot the raster calls free is free). ``block`` marks what a placed label must not cover
(counters, badges). ``to_json`` is the picture's layout data: pictures carry it in their PNG
(``pictures.encode_png(layout=...)``) so a test, or anyone, can check from the picture itself
that no two labels overlap and how large its words are drawn.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import ImageDraw

from pbem.engines.accented_text import draw_text
from pbem.engines.fonts import font
from pbem.engines.pictures import BoundedCache

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
        out = {"text": self.text, "box": [_tenth(v) for v in self.box], "size": self.size, "kind": self.kind}
        if self.leader:
            out["leader"] = [_tenth(v) for v in self.leader]
        return out


def _tenth(v: float) -> float:
    """``v`` to a tenth of a pixel (round() with digits is ten times slower: thousands a picture)."""
    return math.floor(v * 10 + 0.5) / 10


@lru_cache(maxsize=32768)
def _label_json(label: Label) -> str:
    return json.dumps(label.to_json(), separators=(",", ":"), sort_keys=True)


def _box_json(box: Box) -> str:
    return json.dumps([_tenth(v) for v in box], separators=(",", ":"))


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


_MASKS: BoundedCache = BoundedCache(4096)  # (text, size, anchor, font mode) -> its glyphs' mask and offset


def draw_words(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill, anchor: str = "la") -> None:
    """``draw_text`` with the glyphs rendered once per process: a text the font draws as it is
    (ASCII) is kept as its mask and stamped at ``xy`` rounded to the pixel (a counter's name, its
    SP, a title's words come back every phase); any other text goes through ``draw_text``."""
    if not text.isascii() or "\n" in text:
        draw_text(d, xy, text, font(size), fill, anchor=anchor)
        return
    mask, (ox, oy) = _MASKS.get((text, size, anchor, d.fontmode),
                                lambda: font(size).getmask2(text, d.fontmode, anchor=anchor, start=(0, 0)))
    ink, fill_ink = d._getink(fill)
    d.draw.draw_bitmap((round(xy[0]) + ox, round(xy[1]) + oy), mask, fill_ink if ink is None else ink)


class Layout:
    """The labels of one picture (and what placed labels must keep off)."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.labels: list[Label] = []
        self.unplaced: list[str] = []
        self.blocks: list[Box] = []
        self._sat: np.ndarray | None = None  # the covered pixels' summed-area table, made at the first ``place``
        self._pending: list[Box] = []  # boxes recorded since it was made (all of them, before)
        self._grid: dict[tuple[int, int], list[Box]] = {}  # the pending boxes by cell, once there is a table
        self._inside: set[int] = set()  # ids of the labels inside a blocked box (not weighed apart)

    # --- recording ------------------------------------------------------------
    def _cells(self, box: Box):
        for cx in range(int(box[0] // CELL), int(box[2] // CELL) + 1):
            for cy in range(int(box[1] // CELL), int(box[3] // CELL) + 1):
                yield cx, cy

    def _index(self, box: Box) -> None:
        self._pending.append(box)
        if self._sat is not None:
            for cell in self._cells(box):
                self._grid.setdefault(cell, []).append(box)

    def _table(self) -> np.ndarray:
        """The summed-area table of the covered pixels (a pixel is covered where a recorded box,
        ``GAP`` added, reaches), made at the first look and again when many boxes were recorded
        since; those since are checked box by box (``free``). Thousands of fixed words and
        counters cost one pass, and no index of their own."""
        if self._sat is None or len(self._pending) > 64:
            covered = np.zeros((self.height + 2, self.width + 2), dtype=np.uint8)
            for x0, y0, x1, y1 in self._boxes():
                covered[max(0, math.floor(y0 - GAP)):max(0, math.ceil(y1 + GAP)),
                        max(0, math.floor(x0 - GAP)):max(0, math.ceil(x1 + GAP))] = 1
            # 16 bits that wrap: a box's sum (a label's area, well under 65,536 pixels) still comes
            # out right from four wrapped corners, and the table is made twice as fast as in 32
            sat = np.zeros((covered.shape[0] + 1, covered.shape[1] + 1), dtype=np.uint16)
            np.cumsum(covered, axis=0, dtype=np.uint16, out=sat[1:, 1:])
            np.cumsum(sat[1:, 1:], axis=1, out=sat[1:, 1:])
            self._sat, self._pending, self._grid = sat, [], {}
        return self._sat

    def _boxes(self):
        yield from self.blocks
        for label in self.labels:
            if id(label) not in self._inside:
                yield label.box

    def free(self, box: Box) -> bool:
        """Whether ``box`` is inside the picture and clear of every label and blocked box (by the
        table, rounded out to whole pixels, then each box recorded since)."""
        if box[0] < 0 or box[1] < 0 or box[2] > self.width or box[3] > self.height:
            return False
        sat = self._table()
        x0, y0 = math.floor(box[0]), math.floor(box[1])
        x1, y1 = min(math.ceil(box[2]), sat.shape[1] - 1), min(math.ceil(box[3]), sat.shape[0] - 1)
        if (int(sat[y1, x1]) - int(sat[y0, x1]) - int(sat[y1, x0]) + int(sat[y0, x0])) & 0xFFFF:
            return False
        return self._clear_of_pending(box)

    def _clear_of_pending(self, box: Box) -> bool:
        return not any(overlap(box, other, GAP) for cell in self._cells(box) for other in self._grid.get(cell, ()))

    def block(self, box: Box) -> None:
        """A box placed labels keep off (a counter, a badge); not a label itself, but in the
        layout data (``blocks``) so a test can check what it covers."""
        self.blocks.append(box)
        self._index(box)

    def fixed(self, text: str, box: Box, size: int, kind: str, inside: bool = False) -> Label:
        """A label drawn where it must be; the caller keeps it clear of the others (the
        tests check the layout data). ``inside``: within a box the caller blocks (a counter's
        words): placed labels keep off that box already, so this one is not weighed again."""
        label = Label(text, box, size, kind)
        self.labels.append(label)
        if inside:
            self._inside.add(id(label))
        else:
            self._index(box)
        return label

    def fixed_text(self, d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill, kind: str,
                   anchor: str = "la", inside: bool = False) -> Label:
        """Draw ``text`` at ``xy`` and record it as a fixed label."""
        draw_words(d, xy, text, size, fill, anchor=anchor)
        return self.fixed(text, text_box(text, size, xy[0], xy[1], anchor), size, kind, inside)

    # --- placing ----------------------------------------------------------------
    def place(self, text: str, size: int, anchor: tuple[float, float], kind: str, clear: float = 3.0,
              reach: float = 90.0, pad: float = 1.0) -> Label | None:
        """A label for the thing at ``anchor``: the free spot nearest to it (its centre nearest
        first), no nearer than ``clear`` pixels and, failing any within ``reach``, up to three
        times as far, with a leader line back to the anchor when it is not right beside it; None
        (and the text noted in ``unplaced``) when no spot is free."""
        x0, y0, x1, y1 = text_box(text, size, 0, 0)
        w, h = round(x1 - x0 + 2 * pad), round(y1 - y0 + 2 * pad)
        limit = 3 * reach + (w + h) / 2
        near = reach + (w + h) / 2
        bands = sorted({min(r, limit) for r in (w / 2 + 24, near, 2 * near, limit)})
        for lo, hi in zip([0.0] + bands, bands):  # nearer bands first: most labels find a spot close by
            label = self._first_free(text, size, kind, anchor, w, h, clear, lo, hi)
            if label:
                self.labels.append(label)
                self._index(label.box)
                return label
        self.unplaced.append(text)
        return None

    def _first_free(self, text: str, size: int, kind: str, anchor: tuple[float, float], w: int, h: int, clear: float,
                    lo: float, hi: float) -> Label | None:
        """The label at the nearest free spot whose centre is between ``lo`` (excluded, but for 0)
        and ``hi`` pixels from ``anchor``, or None."""
        dist, ox, oy = _offsets(REACH)
        i0, i1 = np.searchsorted(dist, lo, side="right" if lo else "left"), np.searchsorted(dist, hi, side="right")
        if i0 >= i1:
            return None
        ox, oy = ox[i0:i1], oy[i0:i1]
        ax, ay = anchor
        # the anchor outside the box, each way: no nearer than ``clear``
        dx, dy = np.maximum(np.abs(ox) - w / 2, 0.0), np.maximum(np.abs(oy) - h / 2, 0.0)
        edge = np.sqrt(dx * dx + dy * dy)
        left, top = ax + ox - w / 2, ay + oy - h / 2
        ok = (edge >= clear) & (left >= 0) & (top >= 0) & (left + w <= self.width) & (top + h <= self.height)
        if not ok.any():
            return None
        sat = self._table()
        xmax, ymax = sat.shape[1] - 1, sat.shape[0] - 1
        px0, px1 = np.clip(np.floor(left), 0, xmax).astype(np.int64), np.clip(np.ceil(left + w), 0, xmax).astype(np.int64)
        py0, py1 = np.clip(np.floor(top), 0, ymax).astype(np.int64), np.clip(np.ceil(top + h), 0, ymax).astype(np.int64)
        count = sat[py1, px1] - sat[py0, px1] - sat[py1, px0] + sat[py0, px0]  # wraps to the box's sum (uint16)
        for i in np.flatnonzero(ok & (count == 0)):
            box = (float(left[i]), float(top[i]), float(left[i]) + w, float(top[i]) + h)
            if self._clear_of_pending(box):
                far = edge[i] > clear + h
                return Label(text, box, size, kind, (ax, ay) if far else None)
        return None

    def keep_within(self, box: Box) -> None:
        """Forget the words not wholly inside ``box``: on a close-up, those of counters cut by its
        edges or painted over by its title, no longer words a reader can read."""
        self.labels = [x for x in self.labels if box[0] <= x.box[0] and box[1] <= x.box[1] and x.box[2] <= box[2] and x.box[3] <= box[3]]

    def json_text(self) -> str:
        """``to_json`` as ``json.dumps(..., separators=(",", ":"), sort_keys=True)`` writes it, each
        label's text made once per process (hex numbers and most counters' words are the same
        from one phase to the next)."""
        blocks = ",".join(_box_json(b) for b in self.blocks)
        labels = ",".join(_label_json(x) for x in self.labels)
        return (f'{{"blocks":[{blocks}],"height":{json.dumps(self.height)},"labels":[{labels}],'
                f'"unplaced":{json.dumps(self.unplaced)},"width":{json.dumps(self.width)}}}')

    def to_json(self) -> dict:
        return {"width": self.width, "height": self.height, "labels": [x.to_json() for x in self.labels],
                "unplaced": list(self.unplaced), "blocks": [[_tenth(v) for v in b] for b in self.blocks]}


@lru_cache(maxsize=2)
def _offsets(reach: int, fine: int = 150) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a label's centre may go round its anchor, nearest first: distances, dx and dy on a
    3 by 2 pixel grid out to ``fine`` pixels, a 6 by 4 one beyond, out to ``reach`` (a label that
    far has a leader line: a few pixels more or less do not matter, and there are four times
    fewer spots to weigh)."""
    def grid(step_x: int, step_y: int) -> tuple[np.ndarray, np.ndarray]:
        i = np.arange(-(reach // step_x), reach // step_x + 1) * step_x
        j = np.arange(-(reach // step_y), reach // step_y + 1) * step_y
        return tuple(a.ravel().astype(np.float64) for a in np.meshgrid(i, j, indexing="ij"))
    (fx, fy), (cx, cy) = grid(3, 2), grid(6, 4)
    near, far = np.hypot(fx, fy) <= fine, np.hypot(cx, cy) > fine
    ox, oy = np.concatenate((fx[near], cx[far])), np.concatenate((fy[near], cy[far]))
    dist = np.hypot(ox, oy)
    order = np.lexsort((oy, ox, dist))  # nearest first; equals in a fixed order
    return dist[order], ox[order], oy[order]


REACH = 330  # three times the usual reach, and a long label's half width


def draw_placed(d: ImageDraw.ImageDraw, label: Label, ink, paper, leader_ink=None, pad: float = 1.0) -> None:
    """Draw a placed label on a patch of ``paper`` (readable over terrain), with its leader line."""
    x0, y0, x1, y1 = label.box
    if label.leader:
        cx, cy = min(max(label.leader[0], x0), x1), min(max(label.leader[1], y0), y1)
        d.line([(cx, cy), label.leader], fill=leader_ink or ink, width=1)
    d.rectangle([x0, y0, x1 - 1, y1 - 1], fill=paper)
    tx0, ty0, _tx1, _ty1 = text_box(label.text, label.size, 0, 0)
    draw_words(d, (x0 + pad - tx0, y0 + pad - ty0), label.text, label.size, ink)


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
