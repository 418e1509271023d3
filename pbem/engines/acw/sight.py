"""Line of sight (rules 10 P-Q and 16 A-D).

From the centre of the viewer's front edge to each stand of the target: a sight line that
crosses no crest line (16 D), runs through no other formation, enters woods or a town only at
its ends (sight enters them ``woods_edge_sight`` inches), and keeps a stand's width of
clearance (10 Q): it does not squeeze between two units or woods less than a stand's width
apart. From a forward slope one sees over woods, towns
and troops when the target stands ``forward_slope_beyond`` inches or more beyond the
obstacle (16 B). The target is seen when any of its stands is.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point
from shapely.ops import nearest_points

from .rules import scale as scale_rules

CREST_GRACE = 1.0  # a unit within an inch of a crest line stands on it and sees both sides
TOUCH = 1e-6  # inches: a sight line that only touches a unit or woods along its edge is clear


def _beyond(sight: LineString, obstacle, crossing=None) -> float:
    """How far the target (the sight line's end) stands beyond the far side of an obstacle,
    along the sight line: beyond where the line leaves it (``crossing``: the part of the line
    inside it, when known), or beyond its farthest point along the line when it lies beside it."""
    (ex, ey), (tx, ty) = sight.coords[0], sight.coords[-1]
    length = sight.length
    dx, dy = (tx - ex) / length, (ty - ey) / length
    if crossing is None and sight.intersects(obstacle):
        crossing = sight.intersection(obstacle)
    points = _coords(crossing) if crossing is not None and not crossing.is_empty else _coords(obstacle)
    far = max(min(length, (cx - ex) * dx + (cy - ey) * dy) for cx, cy in points)
    return length - far


def _coords(geom):
    if hasattr(geom, "geoms"):
        for g in geom.geoms:
            yield from _coords(g)
    elif hasattr(geom, "exterior"):
        yield from geom.exterior.coords
    else:
        yield from geom.coords


def sight_line_blocked(table, scale: str, eye: tuple[float, float], target: tuple[float, float],
                       stand_width: float, troops: list) -> str | None:
    """Why the sight line from ``eye`` to ``target`` is blocked (``crest``, ``woods``,
    ``troops``), or None when it is clear. ``troops``: footprints of other units.

    10 Q, "at least 1 stands width clearance": the line may not pass through a unit, nor through
    woods or a town beyond their edges, nor squeeze between two of them (one on each side of
    it) that stand less than a stand's width apart. A unit or wood on one side only, however
    close, leaves the clearance on the other."""
    blocked, woods_beside = _terrain(table, scale, eye, target, stand_width)
    if blocked or not troops:
        return blocked
    sight = LineString([eye, target])
    x0, y0, x1, y1 = min(eye[0], target[0]), min(eye[1], target[1]), max(eye[0], target[0]), max(eye[1], target[1])
    beside: list[tuple[object, str]] = [(table.sight_blocking_parts[i], "woods") for i in woods_beside]
    seen_over = _seen_over(table, scale, sight, eye)
    for shape in troops:
        bx0, by0, bx1, by1 = shape.bounds
        if bx0 > x1 + stand_width or bx1 < x0 - stand_width or by0 > y1 + stand_width or by1 < y0 - stand_width:
            continue  # nowhere near the sight line
        if shape.distance(sight) >= stand_width:
            continue
        if _across(sight, shape):
            if not seen_over(shape):
                return "troops"
            continue
        beside.append((shape, "troops"))
    return _squeezed(sight, beside, stand_width, seen_over)


def _seen_over(table, scale: str, sight: LineString, eye: tuple[float, float]):
    """16 B: from a forward slope one sees over an obstacle to a target 12 inches or more beyond it."""
    forward = table.on_forward_slope(*eye)
    beyond = scale_rules(scale)["forward_slope_beyond"]

    def seen_over(obstacle, crossing=None) -> bool:
        return forward and _beyond(sight, obstacle, crossing) >= beyond
    return seen_over


SIGHT_CACHE = 100_000  # terrain answers kept per table: most sight lines are asked again and again, unit by unit


def _terrain(table, scale: str, eye: tuple[float, float], target: tuple[float, float],
             stand_width: float) -> tuple[str | None, tuple[int, ...]]:
    """What the ground alone does to a sight line: (``crest`` or ``woods`` when it blocks it,
    the indexes of the pieces of woods and towns close beside it). It does not depend on where
    the troops stand, so it is kept for the table."""
    key = (scale, eye[0], eye[1], target[0], target[1], stand_width)
    cache = table.__dict__.setdefault("_sight_terrain", {})
    found = cache.get(key)
    if found is None:
        if len(cache) > SIGHT_CACHE:
            cache.clear()
        found = cache[key] = _terrain_now(table, scale, eye, target, stand_width)
    return found


def _off_line(pts: list, x: float, y: float) -> float:
    """The distance from a point to a polyline (a crest line of a few points), by hand: quicker
    than making a shape of the point for each sight line."""
    best = math.inf
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def terrain_blocks(table, scale: str, eye, target, stand_width: float) -> str | None:
    """``crest`` or ``woods`` when the ground alone blocks the sight line, else None."""
    return _terrain(table, scale, eye, target, stand_width)[0]


def _crosses(points: list, eye, target) -> bool:
    """Whether the segment eye-target crosses the polyline (a crest line of a few points)."""
    (ex, ey), (tx, ty) = eye, target
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        d1 = (bx - ax) * (ey - ay) - (by - ay) * (ex - ax)
        d2 = (bx - ax) * (ty - ay) - (by - ay) * (tx - ax)
        d3 = (tx - ex) * (ay - ey) - (ty - ey) * (ax - ex)
        d4 = (tx - ex) * (by - ey) - (ty - ey) * (bx - ex)
        if d1 * d2 <= 0 and d3 * d4 <= 0 and (d1, d2, d3, d4) != (0, 0, 0, 0):
            return True
    return False


def _terrain_now(table, scale: str, eye, target, stand_width: float) -> tuple[str | None, tuple[int, ...]]:
    if eye == target:
        return None, ()
    for points in table.crest_points:
        if _crosses(points, eye, target) and _off_line(points, *eye) > CREST_GRACE and _off_line(points, *target) > CREST_GRACE:
            return "crest", ()
    woods = table.sight_blocking
    if woods is None:
        return None, ()
    x0, y0, x1, y1 = min(eye[0], target[0]), min(eye[1], target[1]), max(eye[0], target[0]), max(eye[1], target[1])
    bx0, by0, bx1, by1 = table.sight_blocking_bounds
    if bx0 > x1 + stand_width or bx1 < x0 - stand_width or by0 > y1 + stand_width or by1 < y0 - stand_width:
        return None, ()
    sight = LineString([eye, target])
    seen_over = _seen_over(table, scale, sight, eye)
    crossing = sight.intersection(woods) if woods.intersects(sight) else None  # (prepared: a quick no)
    inside = crossing.length if crossing is not None else 0.0
    if inside > scale_rules(scale)["woods_edge_sight"]:
        return (None if seen_over(woods, crossing) else "woods"), ()
    if inside > TOUCH and seen_over(woods, crossing):
        return None, ()
    beside = tuple(i for i, part in enumerate(table.sight_blocking_parts)
                   if part.distance(sight) < stand_width and not _across(sight, part))
    squeezed = _squeezed(sight, [(table.sight_blocking_parts[i], "woods") for i in beside], stand_width, seen_over)
    return squeezed, beside


def _across(sight: LineString, shape) -> bool:
    """Whether the line runs through the shape's inside (touching its edge does not count)."""
    return sight.intersects(shape) and not sight.touches(shape)


def _side(sight: LineString, shape) -> float:
    """Which side of the line the shape lies (the sign of the cross product)."""
    (x0, y0), (x1, y1) = sight.coords[0], sight.coords[-1]
    near = nearest_points(sight, shape)[1]
    return (x1 - x0) * (near.y - y0) - (y1 - y0) * (near.x - x0)


def _squeezed(sight: LineString, beside: list, stand_width: float, seen_over) -> str | None:
    """The kind of obstacle when two on opposite sides of the line stand less than a stand's
    width apart where it passes between them (and the viewer cannot see over both), else None."""
    if len(beside) < 2:
        return None
    sides = [(shape, kind, _side(sight, shape)) for shape, kind in beside]
    for i, (a, kind_a, side_a) in enumerate(sides):
        for b, kind_b, side_b in sides[i + 1:]:
            if side_a * side_b < 0 and a.distance(b) < stand_width - TOUCH and not (seen_over(a) and seen_over(b)):
                return "troops" if "troops" in (kind_a, kind_b) else "woods"
    return None


def can_see(table, scale: str, viewer, target, others: list) -> bool:
    """Whether the viewer's layout sees any stand of the target's layout; ``others`` are the
    footprints of every other unit on the table."""
    eye = viewer.at(0.0, 0.0)
    for stand in target.stand_centres():
        if sight_line_blocked(table, scale, eye, stand, viewer.width, others) is None:
            return True
    return False


def sees_point(table, scale: str, eye: tuple[float, float], where: tuple[float, float], others: list,
               width: float) -> bool:
    return sight_line_blocked(table, scale, eye, where, width, others) is None
