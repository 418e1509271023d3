"""Movement: costs per hex entered, zones of control, stacking, and the
cheapest legal path (A* with the hex distance as heuristic: every hex costs
at least 1 MP, so it never overestimates and the first path found is cheapest).
"""

from __future__ import annotations

import heapq

from pbem.engines.hexgrid import distance
from .scenario import HEX_MOVE_COST, HEXSIDE_MOVE_COST
from .situation import Situation

COULEE = "coulee"
_FAR = 1 << 30


def step_cost(sit: Situation, a: str, b: str, ezoc: set[str]) -> int:
    """MP to move from ``a`` into the adjacent ``b``: terrain, hexside, coulee, +1 into enemy ZOC."""
    for n, cost in sit.board.steps[a]:
        if n == b:
            return cost + (1 if b in ezoc else 0)
    raise ValueError(f"{a} and {b} are not adjacent")


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


def blocked_hexes(sit: Situation, side: str) -> set[str]:
    """Hexes ``side`` may not move through: those holding enemy units other than lone leaders."""
    cached = sit.blocked_cache.get(side)
    if cached is None:
        info = sit.info
        cached = sit.blocked_cache[side] = {
            h for h, here in sit.at.items()
            if info[here[0]].side != side and not all(info[x].is_leader for x in here)}
    return cached


def can_end(sit: Situation, uid: str, h: str) -> bool:
    """Whether ``uid`` may end its move in ``h`` (stacking; a lone enemy leader there will be displaced)."""
    side = sit.info[uid].side
    here = [x for x in sit.at.get(h, []) if x != uid]
    if here and sit.info[here[0]].side != side:
        return all(sit.info[x].is_leader for x in here)
    return sit.can_stack([uid], h)


def find_path(sit: Situation, uid: str, start: str, goals: set[str], ezoc: set[str],
              aim: str | None = None, slack: int = 0) -> tuple[list[str], list[int]] | None:
    """Cheapest passable path from ``start`` to any of ``goals``: the hexes (start first) and
    the cost of each step, or None. The heuristic is the distance to ``aim`` less ``slack``
    (goals all within ``slack`` of ``aim``), else the distance to the nearest goal."""
    if not goals:
        return None
    board = sit.board
    steps, ax = board.steps, board.axial
    blocked = blocked_hexes(sit, sit.info[uid].side)
    field = None
    if aim is None and len(goals) > 1:
        field = distance_field(board, frozenset(goals))
        hq = hr = 0
    else:
        hq, hr = ax[aim if aim is not None else next(iter(goals))]
        if aim is None:
            slack = 0

    def h(x: str) -> int:
        if field is not None:
            return field[x]
        q, r = ax[x]
        dq, dr = q - hq, r - hr
        d = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
        return d - slack if d > slack else 0

    best = {start: 0}
    came: dict[str, tuple[str, int]] = {}
    heap = [(h(start), 0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        _, g, cur = pop(heap)
        if g > best[cur]:
            continue
        if cur in goals:
            path, costs = [cur], []
            while cur != start:
                prev, c = came[cur]
                path.append(prev)
                costs.append(c)
                cur = prev
            return path[::-1], costs[::-1]
        for nxt, c in steps[cur]:
            if nxt in blocked:
                continue
            if nxt in ezoc:
                c += 1
            ng = g + c
            if ng < best.get(nxt, _FAR):
                best[nxt] = ng
                came[nxt] = (cur, c)
                if field is None:
                    q, r = ax[nxt]
                    dq, dr = q - hq, r - hr
                    d = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
                    est = d - slack if d > slack else 0
                else:
                    est = field[nxt]
                push(heap, (ng + est, ng, nxt))
    return None


_FIELDS: dict[tuple[int, frozenset], dict[str, int]] = {}


def distance_field(board, goals: frozenset) -> dict[str, int]:
    """Hexes to the nearest of ``goals`` for every hex of the board (breadth-first, cached):
    the A* heuristic toward a set of hexes such as the exits."""
    key = (id(board), goals)
    field = _FIELDS.get(key)
    if field is None:
        field = {g: 0 for g in goals}
        frontier = list(goals)
        while frontier:
            nxt = []
            for h in frontier:
                d = field[h] + 1
                for n in board.neighbours[h]:
                    if n not in field:
                        field[n] = d
                        nxt.append(n)
            frontier = nxt
        if len(_FIELDS) > 256:
            _FIELDS.clear()
        _FIELDS[key] = field
    return field


def route_to(sit: Situation, uid: str, target: str, ezoc: set[str]) -> tuple[list[str], list[int]] | None:
    """The cheapest route toward ``target``: into it when it can be entered, else next to it
    (a MOVE TO an enemy-held hex stops adjacent)."""
    start = sit.hex_of(uid)
    side = sit.info[uid].side
    if target == start:
        return [start], []
    if passable(sit, side, target):
        found = find_path(sit, uid, start, {target}, ezoc, aim=target)
        if found:
            return found
    around = {n for n in sit.board.neighbours[target] if passable(sit, side, n)}
    if start in around:
        return [start], []
    return find_path(sit, uid, start, around, ezoc, aim=target, slack=1)


def walk(sit: Situation, uid: str, path: list[str], costs: list[int], mp: int,
         leave_from: frozenset[str] = frozenset()) -> tuple[list[str], list[int]]:
    """How far along ``path`` the unit gets: it pays each step while MP last and stops
    at the last hex on the way where it may legally end (or one of ``leave_from``, the exit
    hexes it leaves the board from, where it does not stay)."""
    spent = 0
    end = 0
    for i in range(1, len(path)):
        if spent + costs[i - 1] > mp:
            break
        spent += costs[i - 1]
        if path[i] in leave_from or can_end(sit, uid, path[i]):
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
            leg = find_path(sit, uid, cur, {wp}, ezoc, aim=wp)
            if leg is None:
                break
        path += leg[0][1:]
        costs += leg[1]
        cur = wp
    return path, costs
