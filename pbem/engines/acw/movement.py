"""Movement (section 6): the base move by arm and formation plus the D20 variable move,
terrain, formation changes, facing and wheeling, mounting and limbering (15 C, G).

A unit's move this card is a share of its allowance: moving d inches in a formation
uses d / (base + variable) of it, woods and towns cost double, hills half again; a
formation change, mounting or limbering uses half; turning uses the distance its outer
flank travels. Guns in action (an unlimbered battery) roll no D20: they turn on their
centre to any facing at no cost and are moved by hand only their short base move, keeping
their facing (designed, data/acw/README.md). Moves go in straight steps of a quarter inch
and stop short of the table edge, of another unit, and an inch short of any enemy (10 A);
far from every unit and on unchanging ground the steps are an inch long.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString

from pbem.engines.base import event

from .fog import both_ends, seen_by
from .formations import COLUMN_LIKE, FORMATIONS, Layout
from .geometry import angle_between, bearing_to, direction, rounded
from .messages import N_
from .rules import base_move, scale as scale_rules, table as rules_table, variable_move

STEP = 0.25
LONG_STEP = 1.0  # the step far from every other unit on unchanging ground
TURN_BEFORE_MOVING = 45.0  # a line turns to face where it goes when that is more than 45 degrees off


def rate_key(unit: dict, scenario_unit: dict) -> tuple[str, str]:
    arm = unit["arm"]
    if arm == "artillery":
        return ("horse_artillery" if scenario_unit.get("horse") else "artillery"), unit["formation"]
    if arm == "cavalry" and not unit.get("mounted", True):
        return "cavalry", "dismounted"
    return arm, unit["formation"]


def guns_in_action(unit: dict) -> bool:
    """An unlimbered battery: trained freely, moved only by hand, no variable move."""
    return unit["arm"] == "artillery" and unit["formation"] == "unlimbered"


def base_of(ctx, uid: str) -> float:
    arm, formation = rate_key(ctx.state["units"][uid], ctx.scenario.units[uid])
    return base_move(ctx.scale, arm, formation)


class Mover:
    """One unit's movement for one card: its allowance and what it has used."""

    def __init__(self, ctx, uid: str):
        self.ctx, self.uid = ctx, uid
        self.unit = ctx.state["units"][uid]
        u = self.unit
        self.d20: int | None = None  # rolled when the unit first moves by its own legs or teams
        self.variable = 0.0
        self.column = ""
        self.used = 0.0  # share of the allowance
        self.start = (u["x"], u["y"])
        self.start_facing = u["facing"]
        self.track = [[rounded(u["x"]), rounded(u["y"])]]
        self.dismounted = False  # dismounted on this card (15 F)
        self.seen_before = seen_by(ctx, [uid])  # who saw it where its move began (its track is shown only to them)
        if guns_in_action(u):
            ctx.emit(event("allowance", N_("%(unit)s: guns in action, no D20: they turn freely and are moved by hand up to %(total)s in."),
                           unit=ctx.name(uid), id=uid, base=base_of(ctx, uid), by_hand=True, total=self.rate()))
        else:
            self._roll_variable()

    def _roll_variable(self) -> None:
        ctx, uid, u = self.ctx, self.uid, self.unit
        self.column = "road" if u["formation"] == "road_column" and ctx.table.on_road(u["x"], u["y"]) else (
            "open" if ctx.table.ground(u["x"], u["y"]) == "open" else "rough")
        self.d20 = ctx.dice.roll(20, ctx.label("variable move", uid))
        self.variable = variable_move(ctx.scale, self.column, self.d20)
        ctx.emit(event("allowance", N_("%(unit)s: base move %(base)s in. (%(formation)s), D20 %(d20)s: %(variable)s in. (%(column)s) = %(total)s in."),
                       unit=ctx.name(uid), id=uid, base=base_of(ctx, uid), formation=u["formation"].replace("_", " "),
                       d20=self.d20, variable=f"{self.variable:+g}", column=self.column, total=self.rate()))

    def by_hand(self) -> bool:
        return guns_in_action(self.unit)

    def rate(self) -> float:
        if self.by_hand():
            return base_of(self.ctx, self.uid)
        return max(0.0, base_of(self.ctx, self.uid) + self.variable)

    def left_inches(self) -> float:
        return max(0.0, (1.0 - self.used) * self.rate())

    def spend_share(self, share: float) -> bool:
        if self.used + share > 1.0 + 1e-9:
            return False
        self.used += share
        return True

    def spend_inches(self, cost: float) -> bool:
        r = self.rate()
        if r <= 0:
            return cost <= 0
        return self.spend_share(cost / r)

    # --- formation, facing --------------------------------------------------------------
    def turn_to(self, bearing: float, pivot: str = "centre") -> str | None:
        """Face ``bearing``: about the centre (FACE) or wheeling on a flank (``left`` or ``right``).
        Guns in action always turn on their centre, at no cost. None when done, else why not."""
        u = self.unit
        lay = Layout(u, self.ctx.scale)
        delta = ((bearing - u["facing"] + 180.0) % 360.0) - 180.0
        if abs(delta) < 1e-6:
            return None
        if self.by_hand():
            pivot, arm = "centre", 0.0
        else:
            arm = lay.frontage if pivot != "centre" else lay.frontage / 2.0
        before = (u["x"], u["y"], u["facing"], self.used)
        if not self.spend_inches(arm * math.radians(abs(delta))):
            return "not enough move left to turn" if pivot == "centre" else "not enough move left to wheel"
        if pivot == "centre":
            u["facing"] = bearing % 360.0
        else:
            px, py = lay.at(0.0, -lay.frontage / 2.0 if pivot == "left" else lay.frontage / 2.0)
            u["facing"] = bearing % 360.0
            rx, ry = -direction(u["facing"])[1], direction(u["facing"])[0]
            sign = 1.0 if pivot == "left" else -1.0
            u["x"], u["y"] = px + sign * rx * lay.frontage / 2.0, py + sign * ry * lay.frontage / 2.0
        if not has_room(self.ctx, self.uid):
            u["x"], u["y"], u["facing"], self.used = before
            return "no room to turn here"
        return None

    def change_formation(self, formation: str) -> str | None:
        """None when done, else why not."""
        u = self.unit
        if formation not in FORMATIONS[u["arm"]]:
            return "not a formation of its arm"
        if u["arm"] == "cavalry" and formation != "line" and not u.get("mounted", True):
            return "dismounted cavalry stays in line"
        if u["formation"] == formation:
            return None
        if not self.spend_share(rules_table("movement")["formation_change_share"]):
            return "not enough move left"
        before = u["formation"]
        u["formation"] = formation
        if not has_room(self.ctx, self.uid):
            u["formation"] = before
            self.used -= rules_table("movement")["formation_change_share"]
            return "no room for it here"
        if self.d20 is None and not self.by_hand():
            self._roll_variable()  # a battery that limbers moves on with its teams: now the D20
        return None

    def mount(self, mounted: bool) -> str | None:
        u = self.unit
        if u["arm"] != "cavalry":
            return "only cavalry mounts and dismounts"
        if u.get("mounted", True) == mounted:
            return None
        if mounted and u.get("horses_lost"):
            return "its horses are lost (15 H)"
        if self.used > rules_table("movement")["mount_share"] + 1e-9:
            return "it has moved more than half its move"
        if not self.spend_share(rules_table("movement")["mount_share"]):
            return "not enough move left"
        before = (u.get("mounted", True), u["formation"])
        u["mounted"] = mounted
        u["formation"] = "line"
        if not has_room(self.ctx, self.uid):
            u["mounted"], u["formation"] = before
            self.used -= rules_table("movement")["mount_share"]
            return "no room for it here"
        self.dismounted = not mounted
        return None

    # --- moving ---------------------------------------------------------------------------
    def move_to(self, x: float, y: float, *, keep_facing: bool = False, halt_at: float | None = None,
                cost_factor: float = 1.0, target: str | None = None) -> dict:
        """Go straight toward (x, y); returns where and why it stopped."""
        u = self.unit
        if not keep_facing and not self.by_hand():  # guns pushed by hand stay trained where they were
            want = bearing_to(u["x"], u["y"], x, y)
            if u["formation"] in COLUMN_LIKE or angle_between(want, u["facing"]) > TURN_BEFORE_MOVING:
                why = self.turn_to(want)
                if why:
                    return {"stopped": "no room to turn" if why.startswith("no room") else "no move left to turn"}
        return travel(self.ctx, self, [(x, y)], halt_at=halt_at, cost_factor=cost_factor, target=target)

    def finish(self) -> dict | None:
        u = self.unit
        moved = math.hypot(u["x"] - self.start[0], u["y"] - self.start[1])
        if moved > 0.05:
            u["moved"] = True
            self.ctx.state["last"]["moves"].append({"unit": self.uid, "path": self.track,
                                                    **both_ends(self.seen_before, seen_by(self.ctx, [self.uid]))})
        if self.dismounted and u["moved"]:
            u["dismounted_after_moving"] = True
            self.ctx.emit(event("no_fire", N_("%(unit)s moved and dismounted: it could not fire this turn (15 F)."),
                                to=[u["side"]], unit=self.ctx.name(self.uid), id=self.uid))
        return {"distance": rounded(moved)}


def has_room(ctx, uid: str) -> bool:
    """Whether the unit, as it now stands, is on the table and clear of every other unit."""
    shape = Layout(ctx.state["units"][uid], ctx.scale).footprint
    return ctx.table.bounds.contains(shape) and not any(shape.intersects(fp) for fp in ctx.footprints(exclude=(uid,)))


def step_cost(ctx, unit: dict, here: tuple[float, float], there: tuple[float, float]) -> float | None:
    """The cost in inches of one step, or None when the step is closed to the unit."""
    mv = rules_table("movement")
    length = math.hypot(there[0] - here[0], there[1] - here[1])
    ground = ctx.table.ground(*there)
    road = unit["formation"] in ("road_column", "limbered") and ctx.table.on_road(*there)
    if road:
        factor = 1.0
    else:
        if unit["arm"] == "artillery" and ground in mv["closed_to_limbered_guns"]:
            return None
        factor = mv["terrain_cost"][ground]
    cost = length * factor
    climb = ctx.table.level(*there) - ctx.table.level(*here)
    if climb > 0:
        cost += climb * mv["contour_climb"]
    seg = LineString([here, there])
    crossing = ctx.table.stream_crossing(seg)
    if crossing:
        if crossing == "stream" and unit["arm"] == "artillery":
            return None
        cost += mv["stream_crossing"][crossing]
    if not road and ctx.table.obstacles_crossed(seg):
        extra = mv["obstacle_crossing"][unit["arm"]]
        if extra is None:
            return None
        cost += extra
    return cost


def travel(ctx, mover: Mover | None, waypoints: list[tuple[float, float]], *, halt_at: float | None = None,
           cost_factor: float = 1.0, target: str | None = None, budget: float | None = None,
           free: bool = False, through_friends: bool = False, unit_id: str | None = None,
           until_clear: bool = False, through_routed: bool = False) -> dict:
    """Walk a unit along ``waypoints`` in quarter-inch steps (inch steps where nothing is
    near). With a ``mover`` the steps are paid from its allowance; otherwise ``budget``
    inches (falling back, routing: ``free`` of terrain; ``through_routed``: routed enemies do not
    stop it). Stops at the table edge (``edge``), short of a unit (``unit``,
    with ``blocked_by``), ``halt_at`` inches short of an enemy (``enemy``), or when the
    allowance runs out (``allowance``); ``arrived`` when it gets there (``until_clear``: as
    soon as it stands clear of every unit)."""
    uid = mover.uid if mover else unit_id
    u = ctx.state["units"][uid]
    halt = scale_rules(ctx.scale)["halt_short_of_enemy"] if halt_at is None else halt_at
    start = Layout(u, ctx.scale)
    start_shape = start.footprint
    reach = budget if budget is not None else mover.left_inches()
    # terrain only slows a move, so nothing farther than this can stop it (a column's tail swings too)
    near = start_shape.buffer(reach + halt + start.total_depth + start.frontage)
    others = []
    for o in ctx.on_table():
        if o == uid:
            continue
        ou = ctx.state["units"][o]
        friend = ou["side"] == u["side"]
        if (friend and through_friends) or (not friend and through_routed and ou["status"] == "routed"):
            continue
        fp = ctx.layout(o).footprint
        if not fp.intersects(near):
            continue
        others.append([o, friend, fp, fp.distance(start_shape)])
    spent = 0.0
    fine = False  # True once the move has to finish in quarter-inch steps
    result = {"stopped": "arrived", "blocked_by": None}
    track = mover.track if mover else [[rounded(u["x"]), rounded(u["y"])]]
    for wx, wy in waypoints:
        while True:
            dx, dy = wx - u["x"], wy - u["y"]
            dist = math.hypot(dx, dy)
            if dist < 1e-6:
                break
            step = min(STEP, dist)
            if not fine and min((e[3] for e in others), default=1e9) > halt + LONG_STEP + 1.0:
                step = min(LONG_STEP, dist)  # far from every unit: longer steps, unless the ground changes
                tx, ty = u["x"] + dx / dist * step, u["y"] + dy / dist * step
                if not free and (ctx.table.ground(u["x"], u["y"]) != ctx.table.ground(tx, ty)
                                 or ctx.table.level(u["x"], u["y"]) != ctx.table.level(tx, ty)):
                    step = min(STEP, dist)
            nx, ny = u["x"] + dx / dist * step, u["y"] + dy / dist * step
            cost = step if free else step_cost(ctx, u, (u["x"], u["y"]), (nx, ny))
            if cost is None:
                if step > STEP:
                    fine = True
                    continue
                result["stopped"] = "terrain"
                return _done(result, track, u)
            cost *= cost_factor
            affordable = mover.spend_inches(cost) if mover is not None else spent + cost <= budget + 1e-9
            if not affordable:
                if step > STEP:
                    fine = True  # finish in quarter inches
                    continue
                result["stopped"] = "allowance"
                return _done(result, track, u)
            if mover is None:
                spent += cost
            old = (u["x"], u["y"], u["facing"])
            u["x"], u["y"] = nx, ny
            if u["formation"] in COLUMN_LIKE and mover is not None:
                u["facing"] = bearing_to(old[0], old[1], wx, wy)
            shape = Layout(u, ctx.scale).footprint
            if not ctx.table.bounds.contains(shape):
                if step > STEP:
                    u["x"], u["y"], u["facing"] = old
                    _refund(mover, cost)
                    spent -= cost if mover is None else 0.0
                    fine = True
                    continue
                if mover is None:
                    result["stopped"] = "edge"
                    return _done(result, track, u)
                u["x"], u["y"], u["facing"] = old
                result["stopped"] = "edge"
                return _done(result, track, u)
            for entry in others:
                o, friend, fp, before = entry
                gap = fp.distance(shape)
                entry[3] = gap
                closing = gap < before - 1e-9
                if (gap <= 1e-9 and closing) or (not friend and gap < halt - 1e-9 and closing):
                    u["x"], u["y"], u["facing"] = old
                    result["stopped"] = "unit" if friend or gap <= 1e-9 else "enemy"
                    result["blocked_by"] = o
                    _refund(mover, cost)
                    return _done(result, track, u)
            if until_clear and has_room(ctx, uid):
                return _done(result, track, u)
        track.append([rounded(u["x"]), rounded(u["y"])])
    return _done(result, track, u)


def _refund(mover: Mover | None, cost: float) -> None:
    if mover is not None and mover.rate():
        mover.used -= cost / mover.rate()


def _done(result: dict, track: list, u: dict) -> dict:
    here = [rounded(u["x"]), rounded(u["y"])]
    if track[-1] != here:
        track.append(here)
    result["at"] = here
    result["track"] = track
    return result
