"""The table and its terrain: shapes rebuilt from a scenario's JSON, with the questions
the rules ask of them (what ground a point is on, cover, crest lines, forward slopes,
roads, the grid references players write).

Terrain JSON, one item per feature (coordinates in inches)::

    {"kind": "woods" | "town", "name", "polygon": [[x, y], ...]}
    {"kind": "hill", "name", "level": 1, "polygon", "crest": [[x, y], ...], "forward_slope": [[x, y], ...]}
    {"kind": "road", "name", "line"}
    {"kind": "stream", "name", "line", "fords": [[x, y]], "bridges": [[x, y]]}
    {"kind": "fence" | "wall" | "hedge" | "breastworks", "name", "line"}
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

import shapely
from shapely.geometry import LineString, Point, Polygon

from .geometry import union

AREA_KINDS = ("woods", "town", "hill")
LINE_OBSTACLES = ("fence", "wall", "hedge", "breastworks")
COVER_KINDS = ("woods", "town")
CROSSING_RADIUS = 1.0
ROAD_TOLERANCE = 0.5  # a unit this close to a road is on it  # a stream is crossed at a ford or bridge within this distance of it
_GRID = re.compile(r"^([A-Za-z])\s*(\d{1,2})$")
_XY = re.compile(r"^(-?\d+(?:\.\d+)?)\s*[,/ ]\s*(-?\d+(?:\.\d+)?)$")


@dataclass
class Feature:
    kind: str
    name: str
    shape: object
    level: int = 0
    crest: LineString | None = None
    forward_slope: Polygon | None = None
    fords: list = field(default_factory=list)
    bridges: list = field(default_factory=list)


class Table:
    """A table of ``width`` x ``height`` inches with its terrain and landmarks."""

    def __init__(self, data: dict, grid: float = 6.0):
        self.width, self.height = float(data["width"]), float(data["height"])
        self.grid = float(grid)
        self.bounds = Polygon([(0, 0), (self.width, 0), (self.width, self.height), (0, self.height)])
        self.features: list[Feature] = []
        for item in data.get("terrain", []):
            kind = item["kind"]
            if kind in AREA_KINDS:
                shape = Polygon(item["polygon"])
            else:
                shape = LineString(item["line"])
            f = Feature(kind=kind, name=item.get("name", kind), shape=shape, level=int(item.get("level", 0)),
                        crest=LineString(item["crest"]) if item.get("crest") else None,
                        forward_slope=Polygon(item["forward_slope"]) if item.get("forward_slope") else None,
                        fords=[Point(p) for p in item.get("fords", [])],
                        bridges=[Point(p) for p in item.get("bridges", [])])
            shapely.prepare(shape)
            self.features.append(f)
        self.landmarks: dict[str, tuple[float, float]] = {k: (float(v[0]), float(v[1]))
                                                          for k, v in data.get("landmarks", {}).items()}
        self.cover = union([f.shape for f in self.features if f.kind in COVER_KINDS])
        self.sight_blocking = self.cover
        # its separate pieces, for the gaps between them a sight line may pass (10 Q)
        self.sight_blocking_parts = [] if self.cover is None else list(getattr(self.cover, "geoms", [self.cover]))
        self.sight_blocking_bounds = self.cover.bounds if self.cover is not None else None
        if self.cover is not None:
            shapely.prepare(self.cover)
            for part in self.sight_blocking_parts:
                shapely.prepare(part)
        self.crests = [f.crest for f in self.features if f.crest is not None]
        self.crest_points = [list(c.coords) for c in self.crests]  # for quick distances by hand (sight)
        self.forward_slopes = [f.forward_slope for f in self.features if f.forward_slope is not None]
        for slope in self.forward_slopes:
            shapely.prepare(slope)
        self.roads = [f for f in self.features if f.kind == "road"]
        self.road_bands = [f.shape.buffer(ROAD_TOLERANCE) for f in self.roads]
        for band in self.road_bands:
            shapely.prepare(band)
        self.streams = [f for f in self.features if f.kind == "stream"]
        self.obstacles = [f for f in self.features if f.kind in LINE_OBSTACLES]
        self.hills = [f for f in self.features if f.kind == "hill"]

    # --- ground -------------------------------------------------------------------
    def ground(self, x: float, y: float) -> str:
        """The ground at a point for movement: woods, town, hill or open."""
        for kind in ("woods", "town", "hill"):
            if any(f.kind == kind and shapely.contains_xy(f.shape, x, y) for f in self.features):
                return kind
        return "open"

    def level(self, x: float, y: float) -> int:
        return max([f.level for f in self.hills if shapely.contains_xy(f.shape, x, y)], default=0)

    def on_road(self, x: float, y: float) -> bool:
        return any(shapely.intersects_xy(band, x, y) for band in self.road_bands)

    def on_forward_slope(self, x: float, y: float) -> bool:
        return any(shapely.contains_xy(s, x, y) for s in self.forward_slopes)

    def in_cover_terrain(self, shape) -> float:
        """The share of a footprint inside woods or towns."""
        if self.cover is None:
            return 0.0
        return shape.intersection(self.cover).area / shape.area if shape.area else 0.0

    def obstacles_crossed(self, segment: LineString) -> list[Feature]:
        return [f for f in self.obstacles if f.shape.intersects(segment)]

    def stream_crossing(self, segment: LineString) -> str | None:
        """How a step crosses a stream: None (it does not), ``bridge``, ``ford`` or ``stream``."""
        for f in self.streams:
            if not f.shape.intersects(segment):
                continue
            at = f.shape.intersection(segment)
            if any(b.distance(at) <= CROSSING_RADIUS for b in f.bridges):
                return "bridge"
            if any(p.distance(at) <= CROSSING_RADIUS for p in f.fords):
                return "ford"
            return "stream"
        return None

    def contains(self, x: float, y: float) -> bool:
        return 0 <= x <= self.width and 0 <= y <= self.height

    # --- references players write -------------------------------------------------
    @property
    def columns(self) -> int:
        return int(round(self.width / self.grid))

    @property
    def rows(self) -> int:
        return int(round(self.height / self.grid))

    def grid_point(self, ref: str) -> tuple[float, float] | None:
        """The centre of grid square ``C4`` (columns lettered from the left, rows
        numbered from the top), or None when ``ref`` is not a square of this table."""
        m = _GRID.match(ref.strip())
        if not m:
            return None
        col = string.ascii_uppercase.index(m.group(1).upper())
        row = int(m.group(2)) - 1
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            return None
        return (col + 0.5) * self.grid, (row + 0.5) * self.grid

    def grid_ref(self, x: float, y: float) -> str:
        col = min(max(int(x // self.grid), 0), self.columns - 1)
        row = min(max(int(y // self.grid), 0), self.rows - 1)
        return f"{string.ascii_uppercase[col]}{row + 1}"

    @staticmethod
    def xy_point(ref: str) -> tuple[float, float] | None:
        m = _XY.match(ref.strip())
        return (float(m.group(1)), float(m.group(2))) if m else None

    def road_path(self, x: float, y: float, tx: float, ty: float) -> list[tuple[float, float]] | None:
        """The way along the nearest road from the point of it nearest (x, y) to the point
        of it nearest (tx, ty), or None when no road passes within 3 inches of the start."""
        here = Point(x, y)
        near = [f for f in self.roads if f.shape.distance(here) <= 3.0]
        if not near:
            return None
        road = min(near, key=lambda f: f.shape.distance(here)).shape
        a, b = road.project(here), road.project(Point(tx, ty))
        steps = sorted({a, b} | {road.project(Point(c)) for c in road.coords if min(a, b) < road.project(Point(c)) < max(a, b)},
                       reverse=a > b)
        return [(p.x, p.y) for p in (road.interpolate(d) for d in steps)]
