"""Movement (rules 1, 2, 5, 6.2, 16.3, 23.6): costs from the terrain chart, road movement
and its limits, ZOC entry and exit, cheapest legal paths.

Costs are in twelfths of a movement point (12 = 1 MP) so road rates stay whole numbers.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from .situation import Context
from .tables import terrain

TWELFTHS = 12


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
    may = (not night and all(u in in_command for u in units) and not any(sit.shattered(u) for u in units)
           and not any(sit.units[u]["detached"] or sit.units[u].get("charged") for u in units))  # 3.1: charged, no ZOC
    return Mover(side=side, mode=mode, slow_roads=slow, may_enter_zoc=may or charging, charging=charging, night=night)


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


def search(ctx: Context, mover: Mover, start: str, budget: int, field: Field, road_used: bool = False,
           start_in_zoc: bool | None = None, target: str | None = None) -> dict:
    """Cheapest legal ways to every reachable hex: {(hex, used_road_rate): (cost, previous key)};
    with ``target``, the search stops once the cheapest way there is known."""
    board = ctx.sc.board
    if start_in_zoc is None:
        start_in_zoc = start in field.zoc
    steps = steps_for(board, mover.mode)
    spec = terrain()["roads"]
    rates = {k: v["disorganized_rate" if mover.slow_roads else "rate"] for k, v in spec.items()}
    best: dict = {(start, road_used): (0, None)}
    heap = [(0, start, road_used)]
    while heap:
        cost, h, used = heapq.heappop(heap)
        if best.get((h, used), (None,))[0] != cost:
            continue
        if h == target:
            break
        if h != start and h in field.zoc and not mover.commander_only and not mover.charging:
            continue  # entering a ZOC ends the move (rule 5.2)
        for n, plain, road in steps[h]:
            if n in field.enemy_hexes:
                continue
            if road and field.burned and ((h, n) if h < n else (n, h)) in field.burned:
                road, plain = None, terrain_cost(board, h, n, mover.mode, bridge_burned=True)
            options = []
            if road and not mover.charging and h not in field.zoi and n not in field.zoi:
                options.append((rates[road], True))
            if road or not mover.night:
                options.append((plain, used))
            for step, new_used in options:
                total = cost + step
                if total > budget:
                    continue
                if n in field.zoc and not mover.commander_only:
                    if not mover.may_enter_zoc or new_used:
                        continue  # rules 2.2, 5.5, 5.6
                key = (n, new_used)
                if key not in best or total < best[key][0]:
                    best[key] = (total, (h, used))
                    heapq.heappush(heap, (total, n, new_used))
    return best


def path_to(best: dict, dest: str) -> tuple[list[str], int, bool] | None:
    """The cheapest found path to ``dest`` (hexes from the start), its cost and whether it used a road rate."""
    keys = [k for k in best if k[0] == dest]
    if not keys:
        return None
    key = min(keys, key=lambda k: (best[k][0], k[1]))
    cost, used = best[key][0], key[1]
    path = []
    while key is not None:
        path.append(key[0])
        key = best[key][1]
    return list(reversed(path)), cost, used
