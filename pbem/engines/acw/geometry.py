"""Plane geometry of the table, in inches, with Shapely.

The table's x runs from the left edge to the right, y from the top edge down; a
bearing is in degrees clockwise from "north" (the top edge), as ``Dice.angle`` draws it.
Everything here is pure computation on shapes rebuilt from the state's numbers.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

CONE_HALF_ANGLE = 30.0  # the fire cone is 60 degrees wide, centred on the facing


def direction(bearing: float) -> tuple[float, float]:
    """The unit vector of a bearing (0 = up the table, 90 = right)."""
    r = math.radians(bearing)
    return math.sin(r), -math.cos(r)


def bearing_to(x0: float, y0: float, x1: float, y1: float) -> float:
    """The bearing from one point to another, in [0, 360)."""
    return math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360.0


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two bearings, in [0, 180]."""
    d = abs(a - b) % 360.0
    return 360.0 - d if d > 180.0 else d


def rectangle(cx: float, cy: float, width: float, depth: float, bearing: float) -> Polygon:
    """A rectangle ``width`` across and ``depth`` deep, centred on (cx, cy), its front
    facing ``bearing``."""
    fx, fy = direction(bearing)
    rx, ry = -fy, fx  # to the right of the facing
    hw, hd = width / 2.0, depth / 2.0
    return shapely.polygons([
        (cx + fx * hd - rx * hw, cy + fy * hd - ry * hw),
        (cx + fx * hd + rx * hw, cy + fy * hd + ry * hw),
        (cx - fx * hd + rx * hw, cy - fy * hd + ry * hw),
        (cx - fx * hd - rx * hw, cy - fy * hd - ry * hw),
    ])


def fire_cone(front: LineString, bearing: float, reach: float) -> Polygon:
    """The 60-degree cone to the front of a front edge: from each end of the edge a ray
    30 degrees outward of the facing, ``reach`` long, closed across."""
    (lx, ly), (rx, ry) = front.coords[0], front.coords[-1]
    left, right = direction(bearing - CONE_HALF_ANGLE), direction(bearing + CONE_HALF_ANGLE)
    far = reach / math.cos(math.radians(CONE_HALF_ANGLE))
    return Polygon([(lx, ly), (rx, ry), (rx + right[0] * far, ry + right[1] * far),
                    (lx + left[0] * far, ly + left[1] * far)])


def half_plane_front(cx: float, cy: float, bearing: float, reach: float = 500.0) -> Polygon:
    """The 180-degree observation cone in front of a point facing ``bearing`` (the
    half of the table ahead of the line through the point across the facing)."""
    fx, fy = direction(bearing)
    rx, ry = -fy, fx
    return Polygon([(cx - rx * reach, cy - ry * reach), (cx + rx * reach, cy + ry * reach),
                    (cx + rx * reach + fx * reach, cy + ry * reach + fy * reach),
                    (cx - rx * reach + fx * reach, cy - ry * reach + fy * reach)])


def inches(distance: float) -> int:
    """A distance as players measure it for the range bands: whole inches, a fraction
    counting as the next inch (12.0 is 12, 12.1 is 13)."""
    return int(math.ceil(round(distance, 6)))


def share_inside(shape: Polygon, cover) -> float:
    """The share of ``shape``'s area inside ``cover`` (any Shapely geometry), 0..1."""
    if cover is None or cover.is_empty or shape.area == 0:
        return 0.0
    return shape.intersection(cover).area / shape.area


def union(shapes):
    shapes = [s for s in shapes if s is not None and not s.is_empty]
    return unary_union(shapes) if shapes else None


def point(x: float, y: float) -> Point:
    return Point(x, y)


def rounded(value: float) -> float:
    """Coordinates and distances kept in the state and reports: to a hundredth of an inch."""
    return round(value + 0.0, 2)
