"""Movement: costs per hex entered, zones of control, stacking, and the
cheapest legal path (A* with the hex distance as heuristic: every hex costs
at least 1 MP, so it never overestimates and the first path found is cheapest).
"""

from __future__ import annotations

import heapq

from .hexgrid import distance
from .scenario import HEX_MOVE_COST, HEXSIDE_MOVE_COST
from .situation import Situation

COULEE = "coulee"


def step_cost(sit: Situation, a: str, b: str, ezoc: set[str]) -> int:
    """MP to move from ``a`` into the adjacent ``b``; modifiers are cumulative."""
    terrain = sit.board.terrain
    cost = HEX_MOVE_COST[terrain[b]]
    side = sit.board.hexside_type(a, b)
    if side:
        cost += HEXSIDE_MOVE_COST[side]
    if (terrain[a] == COULEE) != (terrain[b] == COULEE):
        cost += 1  # entering or exiting a coulee
    if b in ezoc:
        cost += 1
    return cost


def cost_breakdown(sit: Situation, a: str, b: str, ezoc: set[str]) -> dict:
    """The same cost, itemised for the move event (a player can check each MP)."""
    terrain = sit.board.terrain
    items = {"terrain": terrain[b], "terrain_mp": HEX_MOVE_COST[terrain[b]]}
    side = sit.board.hexside_type(a, b)
    if side:
        items["hexside"], items["hexside_mp"] = side, HEXSIDE_MOVE_COST[side]
    if (terrain[a] == COULEE) != (terrain[b] == COULEE):
        items["coulee_mp"] = 1
    if b in ezoc:
        items["zoc_mp"] = 1
    return items


def passable(sit: Situation, side: str, h: str) -> bool:
    """A unit may pass through friendly units and lone enemy leaders, never other enemy units."""
    here = sit.at.get(h)
    if not here:
        return True
    info = sit.info
    if info[here[0]].side == side:
        return True
    return all(info[x].is_leader for x in here)


def can_end(sit: Situation, uid: str, h: str) -> bool:
    """Whether ``uid`` may end its move in ``h`` (stacking; a lone enemy leader there will be displaced)."""
    side = sit.info[uid].side
    here = [x for x in sit.at.get(h, []) if x != uid]
    if here and sit.info[here[0]].side != side:
        return all(sit.info[x].is_leader for x in here)
    return sit.can_stack([uid], h)


def find_path(sit: Situation, uid: str, start: str, goals: set[str], ezoc: set[str],
              limit: int | None = None) -> tuple[list[str], list[int]] | None:
    """Cheapest passable path from ``start`` to any of ``goals`` (ignoring MP unless ``limit``):
    the hexes (start first) and the cost of each step, or None."""
    if not goals:
        return None
    side = sit.info[uid].side
    nb = sit.board.neighbours
    goal_list = list(goals)

    def h(x: str) -> int:
        return min(distance(x, g) for g in goal_list) if len(goal_list) > 1 else distance(x, goal_list[0])

    best = {start: 0}
    came: dict[str, tuple[str, int]] = {}
    heap = [(h(start), 0, start)]
    while heap:
        _, g, cur = heapq.heappop(heap)
        if g > best.get(cur, 1 << 30):
            continue
        if cur in goals:
            path, costs = [cur], []
            while cur != start:
                prev, c = came[cur]
                path.append(prev)
                costs.append(c)
                cur = prev
            return path[::-1], costs[::-1]
        for nxt in nb[cur]:
            if not passable(sit, side, nxt):
                continue
            c = step_cost(sit, cur, nxt, ezoc)
            ng = g + c
            if limit is not None and ng > limit:
                continue
            if ng < best.get(nxt, 1 << 30):
                best[nxt] = ng
                came[nxt] = (cur, c)
                heapq.heappush(heap, (ng + h(nxt), ng, nxt))
    return None


def reachable(sit: Situation, uid: str, start: str, mp: int, ezoc: set[str]) -> dict[str, int]:
    """Every hex ``uid`` can reach from ``start`` with ``mp`` (Dijkstra), with its cost."""
    side = sit.info[uid].side
    nb = sit.board.neighbours
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        g, cur = heapq.heappop(heap)
        if g > best[cur]:
            continue
        for nxt in nb[cur]:
            if not passable(sit, side, nxt):
                continue
            ng = g + step_cost(sit, cur, nxt, ezoc)
            if ng <= mp and ng < best.get(nxt, 1 << 30):
                best[nxt] = ng
                heapq.heappush(heap, (ng, nxt))
    return best


def route_to(sit: Situation, uid: str, target: str, ezoc: set[str]) -> tuple[list[str], list[int]] | None:
    """The cheapest route toward ``target``: into it when it can be entered, else next to it
    (a MOVE TO an enemy-held hex stops adjacent)."""
    start = sit.hex_of(uid)
    side = sit.info[uid].side
    if target == start:
        return [start], []
    if passable(sit, side, target):
        found = find_path(sit, uid, start, {target}, ezoc)
        if found:
            return found
    around = {n for n in sit.board.neighbours[target] if passable(sit, side, n)}
    if start in around:
        return [start], []
    return find_path(sit, uid, start, around, ezoc)


def walk(sit: Situation, uid: str, path: list[str], costs: list[int], mp: int) -> tuple[list[str], list[int]]:
    """How far along ``path`` the unit gets: it pays each step while MP last and stops
    at the last hex on the way where it may legally end."""
    spent = 0
    end = 0
    for i in range(1, len(path)):
        if spent + costs[i - 1] > mp:
            break
        spent += costs[i - 1]
        if can_end(sit, uid, path[i]):
            end = i
    return path[: end + 1], costs[:end]


def follow_waypoints(sit: Situation, uid: str, waypoints: list[str], ezoc: set[str]) -> tuple[list[str], list[int]]:
    """A given path: adjacent waypoints are stepped directly; gaps are filled by the cheapest route.
    The path stops before the first step that cannot be taken (an enemy in the way, off the map)."""
    side = sit.info[uid].side
    cur = sit.hex_of(uid)
    path, costs = [cur], []
    for wp in waypoints:
        if wp == cur:
            continue
        if not sit.board.contains(wp) or not passable(sit, side, wp):
            break
        if distance(cur, wp) == 1:
            leg = ([cur, wp], [step_cost(sit, cur, wp, ezoc)])
        else:
            leg = find_path(sit, uid, cur, {wp}, ezoc)
            if leg is None:
                break
        path += leg[0][1:]
        costs += leg[1]
        cur = wp
    return path, costs
