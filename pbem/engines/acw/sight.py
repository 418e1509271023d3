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

from shapely.geometry import LineString, Point
from shapely.ops import nearest_points

from .rules import scale as scale_rules

CREST_GRACE = 1.0  # a unit within an inch of a crest line stands on it and sees both sides
TOUCH = 1e-6  # inches: a sight line that only touches a unit or woods along its edge is clear


def _beyond(sight: LineString, obstacle, target: Point) -> float:
    """How far the target stands beyond the far side of an obstacle, along the sight line."""
    crossing = sight.intersection(obstacle)
    if crossing.is_empty:
        return float("inf")
    far = max(sight.project(Point(c)) for c in _coords(crossing))
    return sight.project(target) - far


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
    rules = scale_rules(scale)
    sight = LineString([eye, target])
    if sight.length == 0:
        return None
    tp, ep = Point(target), Point(eye)
    for crest in table.crests:
        if crest.intersects(sight) and crest.distance(ep) > CREST_GRACE and crest.distance(tp) > CREST_GRACE:
            return "crest"
    forward = table.on_forward_slope(*eye)
    beyond = rules["forward_slope_beyond"]
    beside: list[tuple[object, str]] = []  # obstacles close to the line, not across it
    if table.sight_blocking is not None and table.sight_blocking.distance(sight) < stand_width:
        if not (forward and _beyond(sight, table.sight_blocking, tp) >= beyond):
            if sight.intersects(table.sight_blocking) and sight.intersection(table.sight_blocking).length > rules["woods_edge_sight"]:
                return "woods"
            beside += [(part, "woods") for part in _parts(table.sight_blocking)
                       if part.distance(sight) < stand_width and not _across(sight, part)]
    if troops:
        x0, y0, x1, y1 = min(eye[0], target[0]), min(eye[1], target[1]), max(eye[0], target[0]), max(eye[1], target[1])
        for shape in troops:
            bx0, by0, bx1, by1 = shape.bounds
            if bx0 > x1 + stand_width or bx1 < x0 - stand_width or by0 > y1 + stand_width or by1 < y0 - stand_width:
                continue  # nowhere near the sight line
            if shape.distance(sight) >= stand_width or (forward and _beyond(sight, shape, tp) >= beyond):
                continue
            if _across(sight, shape):
                return "troops"
            beside.append((shape, "troops"))
    return _squeezed(sight, beside, stand_width)


def _parts(geom) -> list:
    return list(geom.geoms) if hasattr(geom, "geoms") else [geom]


def _across(sight: LineString, shape) -> bool:
    """Whether the line runs through the shape's inside (touching its edge does not count)."""
    return sight.intersects(shape) and sight.intersection(shape).length > TOUCH


def _side(sight: LineString, shape) -> float:
    """Which side of the line the shape lies (the sign of the cross product)."""
    (x0, y0), (x1, y1) = sight.coords[0], sight.coords[-1]
    near = nearest_points(sight, shape)[1]
    return (x1 - x0) * (near.y - y0) - (y1 - y0) * (near.x - x0)


def _squeezed(sight: LineString, beside: list, stand_width: float) -> str | None:
    """The kind of obstacle when two on opposite sides of the line stand less than a stand's
    width apart where it passes between them, else None."""
    if len(beside) < 2:
        return None
    sides = [(shape, kind, _side(sight, shape)) for shape, kind in beside]
    for i, (a, kind_a, side_a) in enumerate(sides):
        for b, kind_b, side_b in sides[i + 1:]:
            if side_a * side_b < 0 and a.distance(b) < stand_width - TOUCH:
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

