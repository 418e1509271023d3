"""What each side's troops can see (2 B, 16): an enemy unit appears to a side when it is
on the table, not concealed, and some unit of the side (or an officer on his own) has a
line of sight to it, or stands in contact with it (within the charge's halt distance and a
little: troops an inch apart cannot miss each other, whatever lies between). Concealed
units (placed in woods, towns or behind hills) stay hidden until they move, fire, or an
enemy comes within ``concealment_spot`` inches with a line of sight; reserves are off the
table until they enter. An enemy officer is seen with the unit he rides with, or, riding
alone, where a unit of the side has a line of sight to him (or stands in contact)."""

from __future__ import annotations

import json
from functools import lru_cache

from shapely import STRtree
from shapely.geometry import LineString, Point

from pbem.engines.base import event

from .messages import N_
from .rules import scale as scale_rules
from .scenario import generation, load
from .sight import can_see, sees_point, sight_line_blocked, terrain_blocks
from .situation import ON_TABLE, Context

CONTACT_SLACK = 0.3  # inches beyond the halt distance that still count as contact


def reveal(ctx, uid: str, why: str) -> None:
    u = ctx.state["units"][uid]
    if u.get("concealed"):
        u["concealed"] = False
        ctx.emit(event("revealed", N_("%(unit)s was no longer concealed (%(why)s)."), unit=ctx.name(uid), id=uid, why=why))


def spot_concealed(ctx) -> None:
    """Concealed units an enemy now stands close to, with a line of sight, are revealed."""
    spot = scale_rules(ctx.scale)["concealment_spot"]
    for uid in ctx.on_table():
        if not ctx.state["units"][uid].get("concealed"):
            continue
        lay = ctx.layout(uid)
        for other in ctx.on_table(ctx.scenario.enemy(ctx.state["units"][uid]["side"])):
            olay = ctx.layout(other)
            if olay.footprint.distance(lay.footprint) <= spot and can_see(
                    ctx.table, ctx.scale, olay, lay, ctx.footprints(exclude=(uid, other))):
                reveal(ctx, uid, "spotted")
                break


def position_key(state: dict) -> str:
    """Everything line of sight depends on, as one string: the same key, the same answers."""
    return json.dumps([[uid, u["x"], u["y"], u["facing"], u["formation"], u.get("mounted", False), len(u["stands"]),
                        u["status"], bool(u.get("concealed"))] for uid, u in sorted(state["units"].items())]
                      + [[o["x"], o["y"], o["side"], o["status"], o.get("attached")] for _, o in sorted(state["officers"].items())])


def visible_enemies(scenario, state: dict, side: str, key: str | None = None) -> set[str]:
    """The enemy units ``side`` can see now (the same positions give the same answer,
    so the answer is kept for a few positions: views and reports ask again and again)."""
    return set(_visible(scenario.name, generation(), side, key or position_key(state)))


def unit_seen(scenario, state: dict, side: str, uid: str, key: str | None = None) -> bool:
    """Whether ``side`` sees the enemy unit ``uid`` now: ``visible_enemies`` asked of one unit
    (what the fog of war asks at every event, cheaper than the whole answer)."""
    key = key or position_key(state)
    whole = _WHOLE.get((scenario.name, generation(), side, key))
    if whole is not None:
        return uid in whole
    return _seen_one(scenario.name, generation(), side, uid, key)


_WHOLE: dict = {}  # the whole answers of _visible, by their arguments, for unit_seen (kept small)
_LAYOUTS: dict = {}  # (scenario, registration) -> the units' shapes where they stood, shared by the position keys (most units stay put)


class _Positions:
    """The units and officers of a position key, with their shapes."""

    def __init__(self, name: str, registration: int, key: str):
        scenario = load(name)
        rows = json.loads(key)
        n = len(scenario.units)
        self.units = {uid: {"side": scenario.units[uid]["side"], "arm": scenario.units[uid]["arm"], "x": x, "y": y,
                            "facing": f, "formation": form, "mounted": mounted, "stands": [0] * stands, "status": status,
                            "concealed": concealed}
                      for uid, x, y, f, form, mounted, stands, status, concealed in rows[:n]}
        self.officers = [{"x": x, "y": y, "side": s, "status": st, "attached": a} for x, y, s, st, a in rows[n:]]
        self.ctx = Context(scenario, {"units": self.units, "officers": {}}, None, [], _layouts=_LAYOUTS.setdefault((name, registration), {}))
        if len(self.ctx._layouts) > 4096:
            self.ctx._layouts.clear()
        self.layouts = {uid: self.ctx.layout(uid) for uid in self.ctx.on_table()}
        self.shapes = {uid: lay.footprint for uid, lay in self.layouts.items()}
        self.ids = list(self.shapes)
        self.tree = STRtree([self.shapes[uid] for uid in self.ids])  # which units stand near a sight line

    def _near(self, eye, point, width: float, leave: tuple[str, ...]) -> list:
        """The footprints within a stand's width of the sight line, but the viewer's and the target's."""
        found = self.tree.query(LineString([eye, point]), predicate="dwithin", distance=width)
        return [self.shapes[self.ids[i]] for i in found if self.ids[i] not in leave]

    def _line(self, eye, point, width: float, leave: tuple[str, ...]) -> bool:
        table, scale = self.ctx.table, self.ctx.scale
        if terrain_blocks(table, scale, eye, point, width):  # most lines: the ground alone answers (kept)
            return False
        return sight_line_blocked(table, scale, eye, point, width, self._near(eye, point, width, leave)) is None

    def sees(self, side: str, e: str) -> bool:
        """Whether ``side`` sees the enemy unit ``e``: contact, or a line of sight from one of its
        units (as ``sight.can_see``), or from one of its officers riding alone."""
        ctx, units, layouts, shapes = self.ctx, self.units, self.layouts, self.shapes
        if e not in layouts or units[e]["concealed"]:
            return False
        mine = ctx.on_table(side)
        touch = contact_distance(ctx.scale)
        if any(shapes[m].distance(shapes[e]) <= touch for m in mine):
            return True
        target = layouts[e]
        tx, ty = target.centre
        stands = target.stand_centres()
        for m in sorted(mine, key=lambda m: (layouts[m].x - tx) ** 2 + (layouts[m].y - ty) ** 2):
            eye, width = layouts[m].at(0.0, 0.0), layouts[m].width
            if any(self._line(eye, c, width, (m, e)) for c in stands):
                return True
        eyes = [(o["x"], o["y"]) for o in self.officers if o["side"] == side and o["status"] == "active" and not o["attached"]]
        return any(self._line(eye, c, target.width, (e,)) for eye in eyes for c in stands)


@lru_cache(maxsize=64)
def _positions(name: str, registration: int, key: str) -> _Positions:
    return _Positions(name, registration, key)


@lru_cache(maxsize=256)
def _visible(name: str, registration: int, side: str, key: str) -> tuple[str, ...]:
    pos = _positions(name, registration, key)
    seen = tuple(e for e in pos.ctx.on_table(load(name).enemy(side)) if pos.sees(side, e))
    if len(_WHOLE) > 512:
        _WHOLE.clear()
    _WHOLE[(name, registration, side, key)] = frozenset(seen)
    return seen


@lru_cache(maxsize=4096)
def _seen_one(name: str, registration: int, side: str, uid: str, key: str) -> bool:
    return _positions(name, registration, key).sees(side, uid)


def contact_distance(scale: str) -> float:
    """Troops this close (the charge's halt distance and a little) are in contact and see each other."""
    return scale_rules(scale)["halt_short_of_enemy"] + CONTACT_SLACK


def visible_officers(scenario, state: dict, side: str) -> set[str]:
    """The enemy officers ``side`` sees now: with a unit it sees, or riding alone where one of
    its units has a line of sight to him or stands in contact."""
    seen_units = visible_enemies(scenario, state, side)
    out = {oid for oid, o in state["officers"].items()
           if o["side"] != side and o["status"] == "active" and o.get("attached") in seen_units}
    alone = [[oid, o["x"], o["y"]] for oid, o in sorted(state["officers"].items())
             if o["side"] != side and o["status"] == "active" and not o.get("attached")]
    if alone:
        out |= _points_seen(scenario, state, side, alone)
    return out


def visible_wagons(scenario, state: dict, side: str) -> set[str]:
    """The enemy's supply wagons (optional rule) a unit of ``side`` on the table has a line
    of sight to (kept for a few positions, as ``visible_enemies``)."""
    wagons = [[wid, w["x"], w["y"]] for wid, w in sorted(state.get("wagons", {}).items())
              if w["side"] != side and w["status"] == "active"]
    if not wagons:
        return set()
    return _points_seen(scenario, state, side, wagons)


def _points_seen(scenario, state: dict, side: str, points: list) -> set[str]:
    units = [[uid, u["x"], u["y"], u["facing"], u["formation"], u.get("mounted", False), len(u["stands"]), u["status"]]
             for uid, u in sorted(state["units"].items()) if u["status"] in ON_TABLE]
    return set(_visible_points(scenario.name, generation(), side, json.dumps([units, points])))


@lru_cache(maxsize=256)
def _visible_points(name: str, registration: int, side: str, key: str) -> tuple[str, ...]:
    scenario = load(name)
    rows, points = json.loads(key)
    units = {uid: {"side": scenario.units[uid]["side"], "arm": scenario.units[uid]["arm"], "x": x, "y": y, "facing": f,
                   "formation": form, "mounted": mounted, "stands": [0] * stands, "status": status}
             for uid, x, y, f, form, mounted, stands, status in rows}
    ctx = Context(scenario, {"units": units, "officers": {}}, None, [])
    shapes = {uid: ctx.layout(uid).footprint for uid in ctx.on_table()}
    mine = ctx.on_table(side)
    touch = contact_distance(ctx.scale)
    seen = []
    for pid, px, py in points:
        where = Point(px, py)
        for m in sorted(mine, key=lambda m: (units[m]["x"] - px) ** 2 + (units[m]["y"] - py) ** 2):
            lay = ctx.layout(m)
            others = [s for uid, s in shapes.items() if uid != m]
            if shapes[m].distance(where) <= touch or sees_point(ctx.table, ctx.scale, lay.at(0.0, 0.0), (px, py), others, lay.width):
                seen.append(pid)
                break
    return tuple(seen)
