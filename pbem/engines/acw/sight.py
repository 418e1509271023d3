"""Line of sight (rules 10 P-Q and 16 A-D).

From the centre of the viewer's front edge to each stand of the target: a sight line one
stand wide (10 Q: a stand's width of clearance) that crosses no crest line (16 D), no
other formation, and no more than the edge of woods or a town (sight enters them only
``woods_edge_sight`` inches). From a forward slope one sees over woods, towns and troops
when the target stands ``forward_slope_beyond`` inches or more beyond the obstacle (16 B).
The target is seen when any of its stands is.
"""

from __future__ import annotations

from shapely.geometry import LineString, Point

from .rules import scale as scale_rules

CREST_GRACE = 1.0  # a unit within an inch of a crest line stands on it and sees both sides


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
    ``troops``), or None when it is clear. ``troops``: footprints of other units."""
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
    if table.sight_blocking is not None and table.sight_blocking.intersects(sight):
        inside = sight.intersection(table.sight_blocking).length
        if inside > rules["woods_edge_sight"] and not (forward and _beyond(sight, table.sight_blocking, tp) >= beyond):
            return "woods"
    if troops:
        corridor = None
        x0, y0, x1, y1 = min(eye[0], target[0]), min(eye[1], target[1]), max(eye[0], target[0]), max(eye[1], target[1])
        pad = stand_width / 2.0
        for shape in troops:
            bx0, by0, bx1, by1 = shape.bounds
            if bx0 > x1 + pad or bx1 < x0 - pad or by0 > y1 + pad or by1 < y0 - pad:
                continue  # nowhere near the sight line
            corridor = corridor or sight.buffer(pad, cap_style="flat")
            if shape.intersects(corridor) and not (forward and _beyond(sight, shape, tp) >= beyond):
                return "troops"
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

