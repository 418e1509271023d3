"""Which enemy a unit fires at, and how it is hit (rule 7 and section 19).

The firer's front edge measures base to base (7.2); the target must lie, at least in
part, inside the 60-degree cone to the front (7.1) and be seen; the closest such target
is the one fired at (7.5; ties go to the one nearer the firer's centre line, then the
unit listed first). A target is in cover when half or more of its footprint is (7.3):
inside woods or a town, or within ``cover_behind_obstacle`` inches behind a fence, wall
or hedge that the line of fire crosses (16 C). A target counts as a column when it is
one, when another infantry or cavalry regiment stands within 2 inches in front of or
behind it (7.6), or when the fire enfilades it (a 2-inch path from the centre of the
firer's front, straight ahead, passes over the centre of every stand of a line).
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import LineString

from .formations import COLUMN_LIKE
from .geometry import angle_between, bearing_to, direction, fire_cone, rectangle, share_inside, union
from .rules import scale as scale_rules
from .rules import table as rules_table


@dataclass
class Candidate:
    uid: str
    distance: float
    off_axis: float


EDGE = 1e-6  # inches: a target exactly at the cone's edge or at the last inch of range is in it, whatever
# the facing's rounding (a bearing of 270 puts the cone's far corner a few 1e-15 short)


def in_cone(firer, target_shape, reach: float) -> bool:
    """Whether any part of the target lies inside the firer's 60-degree cone (its edges included)."""
    return fire_cone(firer.front, firer.facing, reach + EDGE).distance(target_shape) <= EDGE


def base_to_base(firer, target_shape) -> float:
    return firer.front.distance(target_shape)


def closest(firer, candidates: list[tuple[str, object]], reach: float) -> list[Candidate]:
    """The targets in the cone within ``reach``, closest first (ties: nearer the
    firer's centre line, then by id)."""
    out = []
    mid = firer.front.interpolate(0.5, normalized=True)
    for uid, shape in candidates:
        if not in_cone(firer, shape, reach):
            continue
        d = base_to_base(firer, shape)
        if d > reach + EDGE:
            continue
        c = shape.centroid
        out.append(Candidate(uid, d, angle_between(firer.facing, bearing_to(mid.x, mid.y, c.x, c.y))))
    out.sort(key=lambda c: (round(c.distance, 6), round(c.off_axis, 6), c.uid))
    return out


def cover_share(table, scale: str, firer, target) -> float:
    """The share of the target's footprint in cover from this firer (7.3, 16 C): what lies
    in woods or towns, and every stand whose line of fire crosses a fence, wall or hedge
    within ``cover_behind_obstacle`` inches of it."""
    eye = firer.at(0.0, 0.0)
    behind = scale_rules(scale)["cover_behind_obstacle"]
    sheltered = []
    for centre, stand in zip(target.stand_centres(), target.stand_shapes()):
        line = LineString([eye, centre])
        if any(f.shape.distance(stand) <= behind for f in table.obstacles_crossed(line)):
            sheltered.append(stand)
    return share_inside(target.footprint, union([table.cover] + sheltered))


def in_cover(table, scale: str, firer, target) -> tuple[bool, float]:
    share = cover_share(table, scale, firer, target)
    return share >= rules_table("fire")["cover_share"] - 1e-9, share


def column_neighbour(scale: str, target, others: list[tuple[str, dict, object]]) -> str | None:
    """The id of an infantry or cavalry regiment within 2 inches in front of or behind the
    target (7.6), or None. ``others``: (id, unit, layout) of every other unit."""
    gap = scale_rules(scale)["column_target_gap"]
    cx, cy = target.centre
    zone = rectangle(cx, cy, target.frontage, target.total_depth + 2 * gap, target.facing)
    for uid, unit, lay in others:
        if unit["arm"] == "artillery":
            continue
        if lay.footprint.intersects(zone):
            return uid
    return None


def enfilades(scale: str, firer, target) -> bool:
    """The path straight ahead from the centre of the firer's front, 2 inches wide (15 mm: 1.5,
    scaled with the stands as the ranges are), passes over every figure of a target in line:
    every stand lies wholly under it (section 19, enfilade fire)."""
    if target.files < 2:
        return False
    mid = firer.front.interpolate(0.5, normalized=True)
    fx, fy = direction(firer.facing)
    reach = 200.0
    width = scale_rules(scale)["enfilade_path_width"]
    path = rectangle(mid.x + fx * reach / 2.0, mid.y + fy * reach / 2.0, width, reach, firer.facing).buffer(EDGE)
    return all(path.contains(stand) for stand in target.stand_shapes())


def target_kind(scale: str, target_unit: dict, target, others, firer) -> tuple[str, str | None]:
    """``line`` or ``column`` as the hit table reads the target, and why it is a column."""
    if target_unit["formation"] in COLUMN_LIKE or target_unit["formation"] == "square":
        return "column", "formation"
    neighbour = column_neighbour(scale, target, others)
    if neighbour:
        return "column", "neighbour"
    if enfilades(scale, firer, target):
        return "column", "enfilade"
    return "line", None
