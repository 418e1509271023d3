"""A random but legal player: each brigade advances on the enemy it can see (or an
objective), closes in and charges or stands and fires when near, or holds; batteries unlimber and face the
enemy; reserves come on; officers join regiments; standing orders at random. All choice
comes from the dice, under labels naming the turn, side and unit."""

from __future__ import annotations

import math

from pbem.dice import Dice

from .geometry import bearing_to
from .orders import STANDING_FLAGS, STANDING_WORDS
from .scenario import Scenario
from .view import build

CHARGE_FROM = 8.0  # inches to the nearest enemy: close enough to try a charge
CLOSE = 20.0  # close enough to stand and fire, or to close in
WAGON_BEHIND = 8.0  # supply wagons follow the army this far behind its centre, toward its own edge
WAGON_SPACING = 6.0  # several wagons of a side park this far apart along the line
TOWARD_EDGE = {"left": (-1.0, 0.0), "right": (1.0, 0.0), "top": (0.0, -1.0), "bottom": (0.0, 1.0)}


def _nearest(u: dict, enemies: list[dict]) -> dict | None:
    return min(enemies, key=lambda e: (math.hypot(e["x"] - u["x"], e["y"] - u["y"]), e["id"]), default=None)


def orders_text(sc: Scenario, state: dict, role: str, dice: Dice) -> str:
    t = state["turn"]
    view = build(sc, state, role, "")
    mine = {u["id"]: u for u in view["units"] if u["side"] == role}
    enemies = [u for u in view["units"] if u["side"] != role]
    objectives = [sc.table.landmarks[o["name"]] for o in sc.objectives]
    lines = []
    for bid, brigade in sorted(sc.brigades.items()):
        if brigade["side"] != role:
            continue
        units = [mine[uid] for uid in sc.brigade_units(bid) if uid in mine]
        if not units:
            continue
        label = f"bot T{t} {role} {bid}"
        entries = [e for e, info in sc.entries.items() if info["side"] == role]
        if entries and any(u["status"] == "reserve" for u in units) and dice.below(2, f"{label} enter"):
            lines.append(f"{brigade['name']}: ENTER AT {dice.choice(entries, label + ' entry')}")  # by whole brigades (2 C)
        for u in units:
            ulabel = f"{label} {u['id']}"
            if u["status"] == "reserve":
                continue
            if u["status"] != "formed" and u["status"] != "falling_back":
                continue
            target = _nearest(u, enemies)
            if u["arm"] == "artillery":
                ops = ["UNLIMBER"]
                if target is not None:
                    ops.append(f"FACE {int(bearing_to(u['x'], u['y'], target['x'], target['y']))}")
                elif dice.below(3, f"{ulabel} limber") == 0:
                    ops = ["LIMBER", f"MOVE TO {_goal(u, objectives, dice, ulabel)}"]
                lines.append(f"{sc.units[u['id']]['name']}: " + "; ".join(ops))
                continue
            plan = dice.below(6, f"{ulabel} plan")
            name = sc.units[u["id"]]["name"]
            dist = math.hypot(target["x"] - u["x"], target["y"] - u["y"]) if target else None
            if target is not None and dist < CHARGE_FROM and plan < 3:
                lines.append(f"{name}: CHARGE {'NEAREST FRONT' if plan == 0 else target['name']}")  # no time to re-form
            elif plan == 5:
                lines.append(f"{name}: HOLD")
            elif target is not None and dist < CLOSE and plan >= 4:
                lines.append(f"{name}: LINE; FACE {int(bearing_to(u['x'], u['y'], target['x'], target['y']))}; FIRE")
            elif target is not None and dist < CLOSE:
                lines.append(f"{name}: LINE; MOVE TO {target['x']:g},{target['y']:g}")  # halts an inch short
            else:
                goal = f"{target['x']:g},{target['y']:g}" if target is not None and dice.below(2, f"{ulabel} goal") else \
                    _goal(u, objectives, dice, ulabel)
                form = "COLUMN" if dist is None or dist > 20 else "LINE"
                lines.append(f"{name}: {form}; MOVE TO {goal}")
            flags = [STANDING_WORDS[f] for f in STANDING_FLAGS if dice.below(2, f"{ulabel} standing {f}")]
            lines.append(f"STANDING {name}: {', '.join(flags) if flags else 'NONE'}")
    for oid, info in sorted(sc.officers.items()):
        o = state["officers"][oid]
        if info["side"] != role or o["status"] != "active":
            continue
        pick = [u for u in mine.values() if u["status"] in ("formed", "falling_back", "routed")]
        if pick and dice.below(3, f"bot T{t} {oid} attach") == 0:
            lines.append(f"{info['name']}: ATTACH TO {dice.choice(sorted(pick, key=lambda u: u['id']), f'bot T{t} {oid} unit')['name']}")
        elif o.get("attached") and dice.below(4, f"bot T{t} {oid} detach") == 0:
            lines.append(f"{info['name']}: DETACH")
    lines += _wagon_lines(sc, state, role, [u for u in mine.values() if u["status"] in ("formed", "falling_back")])
    return "\n".join(lines) + "\n"


def _wagon_lines(sc: Scenario, state: dict, role: str, formed: list[dict]) -> list[str]:
    """Supply wagons (optional rule) follow the army, a little behind its centre, so the
    regiments that fall silent can refill."""
    wagons = [wid for wid, w in sorted(state.get("wagons", {}).items()) if w["side"] == role and w["status"] == "active"]
    if not wagons or not formed:
        return []
    dx, dy = TOWARD_EDGE[sc.edges[role]]
    cx = sum(u["x"] for u in formed) / len(formed) + dx * WAGON_BEHIND
    cy = sum(u["y"] for u in formed) / len(formed) + dy * WAGON_BEHIND
    lines = []
    for i, wid in enumerate(wagons):
        along = (i - (len(wagons) - 1) / 2.0) * WAGON_SPACING  # spread along the line, across the way back
        x, y = cx + dy * along, cy + dx * along
        x, y = min(max(x, 1.0), sc.table.width - 1.0), min(max(y, 1.0), sc.table.height - 1.0)
        lines.append(f"{sc.wagons[wid]['name']}: MOVE TO {x:.1f},{y:.1f}")
    return lines


def _goal(u: dict, objectives: list, dice: Dice, label: str) -> str:
    if not objectives:
        return f"{u['x']:g},{u['y']:g}"
    x, y = dice.choice(objectives, label + " objective")
    return f"{x:g},{y:g}"


#: what the cautious stand-in leaves out of the random player's orders (issue 28).
#: The ACW stand-in (``CAUTIOUS_PLAY``) gives the same orders without any charge (a standing order to
#: countercharge included: that line goes, and the unit keeps the standing orders it had): its units move,
#: form, face, fire and hold as the random player's would.
CAUTIOUS_DROPS = ("CHARGE", "COUNTERCHARGE")
