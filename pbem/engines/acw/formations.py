"""Regiments of stands in formation: where each stand stands, the footprint, the front.

A unit's position (x, y) is the centre of its front edge; ``facing`` is a bearing. Stands
fill ranks from the front, left to right: an infantry line is two ranks (rule 17: six
stands, three a rank), a column two files, a road column one file, a battery unlimbered
one rank of guns and limbered one file.
"""

from __future__ import annotations

import math
from functools import cached_property

from shapely.geometry import LineString

from .geometry import direction, rectangle
from .rules import stand_size

FORMATIONS = {
    "infantry": ("line", "column", "road_column", "square"),
    "cavalry": ("line", "column", "road_column"),
    "artillery": ("unlimbered", "limbered"),
}
COLUMN_LIKE = ("column", "road_column", "limbered")


def files_and_ranks(arm: str, formation: str, stands: int, mounted: bool = True) -> tuple[int, int]:
    n = max(stands, 1)
    if arm == "artillery":
        return (n, 1) if formation == "unlimbered" else (1, n)
    if formation == "road_column":
        return 1, n
    if formation in ("column", "square"):
        files = min(2, n)
        return files, math.ceil(n / files)
    ranks = min(2, n)
    return math.ceil(n / ranks), ranks


class Layout:
    """The shapes of one unit (a dict of the state) at one moment."""

    def __init__(self, unit: dict, scale: str):
        self.unit = unit
        self.arm = unit["arm"]
        self.width, self.depth = stand_size(scale, self.arm)
        self.count = len(unit["stands"])
        self.files, self.ranks = files_and_ranks(self.arm, unit["formation"], self.count, unit.get("mounted", True))
        self.x, self.y, self.facing = unit["x"], unit["y"], unit["facing"]
        self.fx, self.fy = direction(self.facing)
        self.rx, self.ry = -self.fy, self.fx
        self.frontage = self.files * self.width
        self.total_depth = self.ranks * self.depth

    def at(self, along: float, across: float) -> tuple[float, float]:
        """The point ``along`` inches ahead of the front centre and ``across`` to the right."""
        return (self.x + self.fx * along + self.rx * across, self.y + self.fy * along + self.ry * across)

    @cached_property
    def centre(self) -> tuple[float, float]:
        return self.at(-self.total_depth / 2.0, 0.0)

    @cached_property
    def footprint(self):
        cx, cy = self.centre
        return rectangle(cx, cy, self.frontage, self.total_depth, self.facing)

    @cached_property
    def front(self) -> LineString:
        return LineString([self.at(0.0, -self.frontage / 2.0), self.at(0.0, self.frontage / 2.0)])

    @cached_property
    def rear(self) -> LineString:
        return LineString([self.at(-self.total_depth, -self.frontage / 2.0),
                           self.at(-self.total_depth, self.frontage / 2.0)])

    def stand_centres(self) -> list[tuple[float, float]]:
        out = []
        for i in range(self.count):
            rank, file = divmod(i, self.files)
            out.append(self.at(-(rank + 0.5) * self.depth, (file - (self.files - 1) / 2.0) * self.width))
        return out

    def stand_shapes(self):
        return [rectangle(cx, cy, self.width, self.depth, self.facing) for cx, cy in self.stand_centres()]


def layout(unit: dict, scale: str) -> Layout:
    return Layout(unit, scale)


def about_face(unit: dict, scale: str) -> None:
    """Turn a unit about where it stands: its rear becomes its front, its footprint stays put."""
    lay = Layout(unit, scale)
    unit["x"], unit["y"] = lay.at(-lay.total_depth, 0.0)
    unit["facing"] = (unit["facing"] + 180.0) % 360.0
