"""Movement (rules 1, 2, 5, 6.2, 16.3, 23.6): costs from the terrain chart, road movement
and its limits, ZOC entry and exit, cheapest legal paths.

Costs are in twelfths of a movement point (12 = 1 MP) so road rates stay whole numbers.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from pbem.engines.hexgrid import distance

from .situation import Context
from .tables import terrain

TWELFTHS = 12
LEAVING_ZOC = "leaving a ZOC is a retreat of at most 2 hexes (rule 9)"


@dataclass(frozen=True)
class Mover:
    """Who is moving, as far as costs and legality go."""

    side: str
    mode: str  # foot, mounted, artillery (cost columns of the terrain chart)
    slow_roads: bool  # disorganized or shattered: every road hex costs 1/2 MP (rule 16.3)
    may_enter_zoc: bool  # in command, not shattered, not a night turn (rules 5.6, 16.4, 23.2)
    charging: bool = False  # no road movement at all, ZOC does not stop it (rule 3.1)
    night: bool = False  # only along roads (rule 23.6)
    commander_only: bool = False  # a commander alone: no ZOC rules
    zoc_ban: str | None = None  # why it may not enter an enemy ZOC, in a player's words
    no_road_rate: bool = False  # entering where an enemy ZOI covers the entry hex (rule 26.5)


def zoc_ban(ctx: Context, units: list[str], in_command: set[str]) -> str | None:
    """Why these units may not enter an enemy ZOC (rules 3.1, 16.4, 20.1, 22.3, 23.2), or None."""
    sit = ctx.sit
    if ctx.sc.is_night(ctx.state["turn"]):
        return "no unit may enter an enemy ZOC at night (rule 23.2)"
    for u in units:
        if sit.units[u].get("charged"):
            return f"{ctx.name(u)} charged this turn and may not enter an enemy ZOC (rule 3.1)"
    for u in units:
        if sit.shattered(u):
            return f"{ctx.name(u)}'s brigade is shattered: it may not enter an enemy ZOC (rule 16.4)"
    for u in units:
        if u not in in_command and sit.units[u]["detached"]:
            return f"{ctx.name(u)} is detached: not in command, it may not enter an enemy ZOC (rule 22.3)"
    for u in units:
        if u not in in_command:
            return f"{ctx.name(u)} is not in command: it may not enter an enemy ZOC (rule 20.1)"
    return None


def mover_for(ctx: Context, units: list[str], commanders: list[str], side: str, in_command: set[str],
              charging: bool = False) -> Mover:
    sit = ctx.sit
    night = ctx.sc.is_night(ctx.state["turn"])
    if not units:
        return Mover(side=side, mode="mounted", slow_roads=False, may_enter_zoc=False, night=night, commander_only=True)
    infos = [ctx.sc.units[u] for u in units]
    if any(i.is_artillery for i in infos):
        mode = "artillery"
    elif all(i.is_cavalry and sit.mounted(i.id) for i in infos):
        mode = "mounted"
    else:
        mode = "foot"
    slow = any(sit.units[u]["d"] or sit.shattered(u) for u in units)
    ban = None if charging else zoc_ban(ctx, units, in_command)
    return Mover(side=side, mode=mode, slow_roads=slow, may_enter_zoc=ban is None, charging=charging, night=night,
                 zoc_ban=ban)


def terrain_cost(board, a: str, b: str, mode: str, bridge_burned: bool = False) -> int:
    """Twelfths of an MP to move from ``a`` into ``b`` off the road rate (roads still negate
    the hex's terrain and carry it over streams on their bridges; rule 2.3). Where the road's
    bridge has been burned (rule 25) the road no longer crosses that hexside."""
    tec = terrain()
    column = "mounted" if mode == "mounted" else "artillery" if mode == "artillery" else "cost"
    cost = tec["hexes"][board.terrain[b]][column]
    road = None if bridge_burned else board.road(a, b)
    if road:
        cost = min(cost, tec["road_negates_cost"])
    for side in board.sides(a, b):
        spec = tec["hexsides"][side]
        if side == "stream" and road and tec["bridge_negates_stream"]:
            continue
        if spec.get("uphill_only") and board.elevation[b] <= board.elevation[a]:
            continue
        cost += spec["mounted" if mode == "mounted" else "artillery" if mode == "artillery" else "cost"]
    return cost


def steps_for(board, mode: str) -> dict[str, tuple[tuple[str, int, str | None], ...]]:
    """hex -> ((neighbour, terrain cost from hex, road kind or None), ...) for a movement mode:
    the costs that depend on the map alone, computed once per map and mode."""
    table = board.steps.get(mode)
    if table is None:
        table = board.steps[mode] = {
            a: tuple((b, terrain_cost(board, a, b, mode), board.road(a, b)) for b in board.neighbours[a])
            for a in board.terrain}
    return table


class Field:
    """The enemy's presence for one search: occupied hexes, ZOC, ZOI."""

    def __init__(self, ctx: Context, side: str):
        sit = ctx.sit
        enemy = ctx.sc.enemy(side)
        self.enemy_hexes = set(sit.hexes_of(enemy))
        self.zoc = sit.zoc_hexes(enemy)
        self.zoi = sit.zoi_hexes(enemy)
        self.burned = {tuple(k.split("-")) for k in ctx.state.get("burned", [])}


# The rules a search may be told to set aside, to find which one forbids a move (``why_not``).
RELAXABLE = frozenset({"road_into_zoc", "zoi", "slow_roads", "through_zoc", "night", "no_road_rate", "steps"})


def search(ctx: Context, mover: Mover, start: str, budget: int, field: Field, road_used: bool = False,
           target: str | None = None, max_steps: int | None = None, relax: frozenset = frozenset()) -> dict:
    """Cheapest legal ways to every reachable hex: {(hex, used_road_rate[, steps]): (cost, previous
    key)}; with ``target``, the search stops once the cheapest way there is known. ``max_steps``:
    at most that many hexes (a unit leaving a ZOC retreats 1 or 2, rule 9); ``relax``: rules of
    RELAXABLE set aside."""
    board = ctx.sc.board
    steps = steps_for(board, mover.mode)
    spec = terrain()["roads"]
    slow = mover.slow_roads and "slow_roads" not in relax
    rates = {k: v["disorganized_rate" if slow else "rate"] for k, v in spec.items()}
    zoi = frozenset() if "zoi" in relax else field.zoi
    night = mover.night and "night" not in relax
    road_rate = not mover.charging and not (mover.no_road_rate and "no_road_rate" not in relax)
    stop_in_zoc = not mover.commander_only and not mover.charging and "through_zoc" not in relax
    limit = None if "steps" in relax else max_steps
    first = (start, road_used) if limit is None else (start, road_used, 0)
    best: dict = {first: (0, None)}
    heap = [(0, first)]
    while heap:
        cost, key = heapq.heappop(heap)
        if best.get(key, (None,))[0] != cost:
            continue
        h, used = key[0], key[1]
        if h == target:
            break
        if h != start and h in field.zoc and stop_in_zoc:
            continue  # entering a ZOC ends the move (rule 5.2)
        if limit is not None and key[2] >= limit:
            continue
        for n, plain, road in steps[h]:
            if n in field.enemy_hexes:
                continue
            if road and field.burned and ((h, n) if h < n else (n, h)) in field.burned:
                road, plain = None, terrain_cost(board, h, n, mover.mode, bridge_burned=True)
            options = []
            if road and road_rate and h not in zoi and n not in zoi:
                options.append((rates[road], True))
            if road or not night:
                options.append((plain, used))
            for step, new_used in options:
                total = cost + step
                if total > budget:
                    continue
                if n in field.zoc and not mover.commander_only:
                    if not mover.may_enter_zoc or (new_used and "road_into_zoc" not in relax):
                        continue  # rules 2.2, 5.5, 5.6
                nxt = (n, new_used) if limit is None else (n, new_used, key[2] + 1)
                if nxt not in best or total < best[nxt][0]:
                    best[nxt] = (total, key)
                    heapq.heappush(heap, (total, nxt))
    return best


def path_to(best: dict, dest: str) -> tuple[list[str], int, bool] | None:
    """The cheapest found path to ``dest`` (hexes from the start), its cost and whether it used a road rate."""
    keys = [k for k in best if k[0] == dest]
    if not keys:
        return None
    key = min(keys, key=lambda k: (best[k][0], k[1:]))
    cost, used = best[key][0], key[1]
    path = []
    while key is not None:
        path.append(key[0])
        key = best[key][1]
    return list(reversed(path)), cost, used


ROAD_INTO_ZOC = "a unit that used the road movement rate may not enter a ZOC (rule 2.2)"


def why_not(ctx: Context, mover: Mover, start: str, target: str, field: Field, budget: int, road_used: bool,
            max_steps: int | None = None, road_into_zoc: str = ROAD_INTO_ZOC) -> str:
    """Why ``target`` cannot be reached from ``start`` with ``budget`` twelfths of an MP left, in a
    player's words naming the rule: each rule that can forbid a move is set aside in turn and
    the first one whose absence would let the move through is the reason."""
    if target in field.enemy_hexes:
        return f"{target} is held by the enemy"
    if target in field.zoc and not mover.commander_only:
        if mover.zoc_ban:
            return mover.zoc_ban
        if road_used:
            return road_into_zoc
    if max_steps is not None and distance(start, target) > max_steps:
        return LEAVING_ZOC

    def reach(relax: frozenset, limit: int = budget) -> bool:
        best = search(ctx, mover, start, limit, field, road_used=road_used, target=target, max_steps=max_steps,
                      relax=relax)
        return path_to(best, target) is not None

    for relaxed, applies, why in (
            ("steps", max_steps is not None, LEAVING_ZOC),
            ("road_into_zoc", target in field.zoc, road_into_zoc),
            ("night", mover.night, "only movement along roads is allowed at night (rule 23.6)"),
            ("through_zoc", not mover.commander_only,
             f"every way to {target} crosses an enemy ZOC, where a move must stop (rule 5.2)"),
            ("zoi", bool(field.zoi), f"{target} is beyond the movement points left: no road rate inside an enemy ZOI (rule 2.2)"),
            ("slow_roads", mover.slow_roads, f"{target} is beyond the movement points left: shattered or disorganized "
                                             "units pay 1/2 MP a road hex (rule 16.3)")):
        if applies and reach(frozenset({relaxed})):
            return why
    if reach(frozenset(), 10 ** 6):
        return f"{target} is beyond the movement points left"
    return f"no legal path to {target}"
