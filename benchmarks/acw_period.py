"""ACW miniatures: does the game play like its period? Seeded trials with the engine's own rules
(not a timing: the figures are what the rules make of four situations of 1861-65), quoted and
argued in data/acw/README.md, "Plays like its period".

1. A regiment in column charges a fresh regiment in line from 8 inches (the line stands,
   firing its standing musketry): how often the column closes, how often it wins the close
   combat, how often the line breaks first; what each loses that turn.
2. Two regiments in line trade standing musketry at 10 inches: hits a turn, and after how
   many turns one of them has fallen back, routed or gone (of 4).
3. A 6-gun battery (3 gun models) against a regiment in line at 36 inches (shot and shell,
   long range) and at 10 inches (canister): hits a turn, stands taken, how often the
   regiment gives way in that turn.

Veterans, 25 mm, open ground, the initial morale rolled by the seed as in a game.

    .venv/bin/python -m benchmarks.acw_period [trials]      (default 400)
"""

from __future__ import annotations

import statistics
import sys

from benchmarks.common import seed_hex
from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine, scenario as scenarios

ROLES = ("union", "confederate")


def table(name: str, units: list[dict]) -> str:
    units = [dict({"arm": "infantry", "stands": 6, "formation": "line", "quality": "veterans",
                   "brigade": f"{u['side']}_bde", "name": u["id"]}, **u) for u in units]
    brigades = [{"id": f"{s}_bde", "name": f"{s} brigade", "side": s, "general": None, "division": None} for s in ROLES]
    return scenarios.register({
        "name": name, "title": name, "roles": list(ROLES), "edges": {"union": "left", "confederate": "right"},
        "turns": 8, "table": {"width": 72, "height": 36, "terrain": [], "landmarks": {}, "entries": {}},
        "brigades": brigades, "divisions": [], "commanders": {}, "officers": [], "objectives": [],
        "cards": [{"id": b["id"], "name": b["name"], "side": b["side"], "brigades": [b["id"]]} for b in brigades],
        "units": units, "options": {"effectiveness_percent": "share_of_start"}})


def play(name: str, orders: dict, trial: int, turns: int) -> tuple[dict, list[list[dict]]]:
    """Up to ``turns`` turns with the same orders; the last state and each turn's events."""
    engine = ACWMiniaturesEngine()
    state = engine.setup(name, {}, Dice(seed_hex("acw period", name, trial, "setup")))
    told = []
    for turn in range(turns):
        parsed = {role: engine.parse_orders(state, role, text).orders for role, text in orders.items()}
        state, events = engine.resolve(state, parsed, Dice(seed_hex("acw period", name, trial, turn)))
        told.append(events)
        if state["over"]:
            break
    return state, told


def figures_lost(events: list[dict], uid: str) -> int:
    return sum(e["args"]["hits"] for e in events if e["type"] == "casualties" and e["args"]["id"] == uid)


def given_way(state: dict, uid: str) -> bool:
    return state["units"][uid]["status"] != "formed"


def column_charges_line(trials: int) -> dict:
    name = table("period_column_charge", [
        {"id": "column", "side": "union", "x": 26, "y": 18, "facing": 90, "formation": "column"},
        {"id": "line", "side": "confederate", "x": 34.0, "y": 18, "facing": 270}])
    closed = won = line_broke = 0
    lost = {"column": [], "line": []}
    for trial in range(trials):
        state, (events,) = play(name, {"union": "column: CHARGE line", "confederate": "line: HOLD"}, trial, 1)
        fights = [e for e in events if e["type"] == "close_combat"]
        closed += bool(fights)
        won += bool(fights and fights[0]["args"]["result"] == "attacker")
        line_broke += given_way(state, "line")
        for uid in lost:
            lost[uid].append(figures_lost(events, uid))
    return {"closes": closed / trials, "wins": won / trials, "line gives way": line_broke / trials,
            "column loses (figures of 24)": statistics.mean(lost["column"]),
            "line loses (figures of 24)": statistics.mean(lost["line"])}


def line_against_line(trials: int, turns: int = 4) -> dict:
    name = table("period_firefight", [
        {"id": "blue", "side": "union", "x": 26, "y": 18, "facing": 90},
        {"id": "grey", "side": "confederate", "x": 36, "y": 18, "facing": 270}])  # front edges 10 in. apart
    hits, first, decided = [], [], 0
    for trial in range(trials):
        state, told = play(name, {"union": "blue: HOLD", "confederate": "grey: HOLD"}, trial, turns)
        hits.append(sum(e["args"]["hits"] for e in told[0] if e["type"] == "fire") / 2)
        for n, events in enumerate(told, start=1):
            if any(e["type"] in ("fall_back", "rout", "destroyed") for e in events):
                first.append(n)
                decided += 1
                break
    return {"hits a turn (each)": statistics.mean(hits), f"one gives way within {turns} turns": decided / trials,
            "median turn one gives way": statistics.median(first) if first else None}


def battery_against_regiment(trials: int, gap: float) -> dict:
    name = table(f"period_battery_{gap:g}", [
        {"id": "guns", "side": "union", "x": 10, "y": 18, "facing": 90, "arm": "artillery", "stands": 3,
         "formation": "unlimbered"},
        {"id": "target", "side": "confederate", "x": 10 + gap + 1.5, "y": 18, "facing": 90}])  # its back to the guns: it cannot reply
    hits, stands, gave_way = [], [], 0
    for trial in range(trials):
        state, (events,) = play(name, {"union": "guns: FIRE", "confederate": "target: HOLD"}, trial, 1)
        fire = [e for e in events if e["type"] == "fire" and e["args"]["firer"] == "guns"]
        hits.append(sum(e["args"]["hits"] for e in fire))
        stands.append(6 - len(state["units"]["target"]["stands"]))
        gave_way += given_way(state, "target")
    weapon = fire[0]["args"]["weapon"] if fire else "-"
    return {"weapon": weapon, "hits a turn": statistics.mean(hits), "stands a turn": statistics.mean(stands),
            "regiment gives way that turn": gave_way / trials}


def main(trials: int = 400) -> dict:
    results = {
        "column charges a line from 8 in.": column_charges_line(trials),
        "line against line at 10 in.": line_against_line(trials),
        "battery at 36 in.": battery_against_regiment(trials, 36.0),
        "battery at canister range (10 in.)": battery_against_regiment(trials, 10.0),
    }
    print(f"{trials} seeded trials each (veterans, 25 mm, open ground)")
    for what, figures in results.items():
        shown = ", ".join(f"{k} {v:.0%}" if isinstance(v, float) and not k.startswith("median")
                          and ("gives way" in k or k in ("closes", "wins"))
                          else f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
        print(f"{what}: {shown}")
    return results


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
