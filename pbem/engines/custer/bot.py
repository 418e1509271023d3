"""A random but legal player: orders for every marker its side might draw.

Units move toward one of the three enemies nearest their group (the route is worked out at run time),
sometimes dismount, mount or hold; reinforcements sometimes choose a hex next to their entry hex;
villages head for an exit where they may; attacks are ALL ATTACK or explicit attacks on enemies
adjacent now (which may be skipped if the situation changes), a leader sometimes named with the
first unit of his hex; a leader's marker that has a twin is sometimes passed (PASS, only where
allowed when the marker is already drawn). Standing orders are random too.
All choice comes from the dice, under labels naming the turn, marker and unit.
"""

from __future__ import annotations

import heapq

from pbem.dice import Dice

from pbem.engines.hexgrid import distance, toward
from .activation import may_pass
from .orders import DEFAULT_STANDING, markers_for, op_text, standing_lines, unit_names
from .scenario import Scenario
from .situation import ON_BOARD, WAITING

REACH = 7  # a far enemy is approached by way of a hex this far along the line to it


def _unit_ops(sc: Scenario, state: dict, uid: str, near: list[tuple[str, str]], dice: Dice, label: str) -> list[dict]:
    info = sc.units[uid]
    u = state["units"][uid]
    ops = []
    if info.type == "village":
        if info.type in sc.board.exits and dice.below(3, f"{label} exit"):
            return [{"op": "exit", "units": [uid]}]
        return []
    if u["status"] == WAITING and info.enter_hex and dice.below(3, f"{label} entry") == 0:
        choices = [info.enter_hex] + sorted(sc.board.neighbours[info.enter_hex])
        ops.append({"op": "enter", "units": [uid], "hex": dice.choice(choices, f"{label} entry hex")})
    roll = dice.below(10, f"{label} plan")
    if info.can_mount and roll == 0:
        ops.append({"op": "mount" if u["mounted"] is False else "dismount", "units": [uid]})
    if roll == 1:
        return ops
    if near:
        # most units follow the group's target; some pick their own among the nearest enemies
        _, target = near[0] if dice.below(4, f"{label} follow") else dice.choice(near, f"{label} target")
        here = u["hex"] or info.enter_hex
        waypoint = toward(here, target, REACH)
        ops.append({"op": "move", "units": [uid], "to": waypoint if sc.board.contains(waypoint) else target})
    elif info.type in sc.board.exits and dice.below(2, f"{label} exit"):
        ops.append({"op": "exit", "units": [uid]})
    return ops


def orders_text(sc: Scenario, state: dict, role: str, dice: Dice) -> str:
    t = state["turn"]
    units = state["units"]
    enemy = sc.enemy(role)
    enemies = [(uid, u["hex"]) for uid, u in units.items() if u["status"] == ON_BOARD and sc.units[uid].side == enemy]
    lines = []
    for mid in markers_for(sc, state, role):
        marker = sc.markers[mid]
        label = f"bot T{t} {mid}"
        if marker.tribe:
            members = [uid for uid, info in sc.units.items() if info.tribe == marker.tribe and info.side == role
                       and units[uid]["status"] in (ON_BOARD, WAITING)]
        else:
            leader = sc.units[marker.leader]
            centre = units[marker.leader]["hex"] or leader.enter_hex
            pool = [uid for uid, info in sc.units.items() if info.side == role and not info.is_leader
                    and units[uid]["status"] in (ON_BOARD, WAITING)
                    and distance(units[uid]["hex"] or info.enter_hex, centre) <= 5]
            picked = dice.shuffle(pool, f"{label} pick")[: marker.units]
            members = [marker.leader] + sorted(picked)
        ops: list[dict] = []
        twins = [m for m in sc.markers.values() if m.id != mid and m.side == role
                 and (m.leader, m.tribe) == (marker.leader, marker.tribe)]
        if twins and (state.get("pending") != mid or may_pass(sc, state, mid)) and dice.below(4, f"{label} pass") == 0:
            ops.append({"op": "pass"})
        # the three enemies nearest the marker's first unit are the targets of the whole activation
        here = next((units[u]["hex"] or sc.units[u].enter_hex for u in members), None)
        near = heapq.nsmallest(3, enemies, key=lambda e: (distance(here, e[1]), e[0])) if here else []
        if near:
            first = dice.below(len(near), f"{label} group target")
            near = near[first:] + near[:first]
        for uid in members:
            ops += _unit_ops(sc, state, uid, near, dice, f"{label} {uid}")
        ops.sort(key=lambda o: o["op"] not in ("pass", "enter", "mount", "dismount"))
        style = dice.below(3, f"{label} attack style")
        if style == 0:
            ops.append({"op": "all_attack"})
        elif style == 1:
            leaders = {units[u]["hex"]: u for u in members if sc.units[u].is_leader and units[u]["hex"]}
            for uid in members:
                h = units[uid]["hex"]
                if not h or sc.units[uid].type == "village" or sc.units[uid].is_leader:
                    continue
                adjacent = sorted(e for e in enemies if distance(h, e[1]) == 1)
                if adjacent:
                    _, target = dice.choice(adjacent, f"{label} {uid} strike")
                    attackers = [uid]
                    if h in leaders and dice.below(2, f"{label} {uid} with leader"):
                        attackers.append(leaders.pop(h))  # a leader joins one attack only
                    ops.append({"op": "attack", "hex": target, "units": attackers, "advance": None})
        lines.append(f"ON {marker.label}:")
        lines += [f"  {op_text(sc, op)}" for op in ops] or ["  HOLD"]
    alive = [uid for uid in sorted(units) if sc.units[uid].side == role and units[uid]["status"] == ON_BOARD]
    standing = dict(DEFAULT_STANDING)
    if alive and dice.below(2, f"bot T{t} losses"):
        standing["losses"] = [dice.choice(alive, f"bot T{t} losses unit")]
    if alive and dice.below(2, f"bot T{t} retreat"):
        standing["retreat"] = units[dice.choice(alive, f"bot T{t} retreat toward")]["hex"]
    standing["advance"] = bool(dice.below(4, f"bot T{t} advance"))
    lines.append("STANDING:")
    lines += [f"  {line}" for line in standing_lines(sc, standing)]
    unit_names(sc)
    return "\n".join(lines) + "\n"


#: what the cautious stand-in leaves out of the random player's orders (issue 28).
#: Custer's stand-in (``CAUTIOUS_PLAY``) gives the same orders without a single attack (no ALL ATTACK, no
#: ATTACK line): its units move, mount, dismount and hold as the random player's would, and fight only
#: when attacked.
CAUTIOUS_DROPS = ("ATTACK",)
