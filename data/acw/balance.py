"""Does the game play like its period? Seeded trials with the engine's own rules.

    .venv/bin/python data/acw/balance.py [trials]

1. A regiment in line 10 inches from an enemy column that holds and cannot fire: how often
   is the column broken (falls back, routs or is destroyed) within two turns?
2. At long range: a 6-gun battery at 36 inches against a regiment in line, and a regiment at
   18 inches against another: hits per turn, and who can reach beyond 24 inches at all.
3. A charge from 7 inches against a fresh regiment of the same quality that stands: how
   often does the attacker win the close combat?
"""

from __future__ import annotations

import hashlib
import sys

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine, scenario as scenarios


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def table(name: str, units: list[dict], width: float = 72) -> str:
    units = [dict({"arm": "infantry", "stands": 6, "formation": "line", "quality": "veterans", "brigade": f"{u['side']}_bde"}, **u)
             for u in units]
    for u in units:
        u.setdefault("name", u["id"])
    brigades = [{"id": f"{s}_bde", "name": f"{s} brigade", "side": s, "general": None, "division": None}
                for s in ("union", "confederate")]
    return scenarios.register({
        "name": name, "title": name, "roles": ["union", "confederate"], "edges": {"union": "right", "confederate": "left"},
        "turns": 8, "table": {"width": width, "height": 36, "terrain": [], "landmarks": {}, "entries": {}},
        "brigades": brigades, "divisions": [], "commanders": {}, "officers": [], "objectives": [],
        "cards": [{"id": b["id"], "name": b["name"], "side": b["side"], "brigades": [b["id"]]} for b in brigades],
        "units": units})


def play(name: str, orders: dict, game: int, turns: int):
    engine = ACWMiniaturesEngine()
    state = engine.setup(name, {}, Dice(seed(name, game, "setup")))
    events = []
    for t in range(turns):
        parsed = {r: engine.parse_orders(state, r, text).orders for r, text in orders.items()}
        state, ev = engine.resolve(state, parsed, Dice(seed(name, game, t)))
        events += ev
        if state["over"]:
            break
    return state, events


def line_against_column(trials: int) -> float:
    name = table("balance_line_column", [
        {"id": "line", "side": "union", "x": 30, "y": 18, "facing": 90},
        {"id": "column", "side": "confederate", "x": 40, "y": 18, "facing": 270, "formation": "column"}])
    broken = 0
    for game in range(trials):
        state, _ = play(name, {"union": "line: FIRE", "confederate": "column: HOLD"}, game, 2)
        broken += state["units"]["column"]["status"] != "formed"
    return broken / trials


def long_range(trials: int) -> tuple[float, float]:
    guns = table("balance_guns", [
        {"id": "guns", "side": "union", "x": 20, "y": 18, "facing": 90, "arm": "artillery", "stands": 3, "formation": "unlimbered"},
        {"id": "target", "side": "confederate", "x": 56, "y": 18, "facing": 270}])
    muskets = table("balance_muskets", [
        {"id": "firer", "side": "union", "x": 20, "y": 18, "facing": 90},
        {"id": "target", "side": "confederate", "x": 38, "y": 18, "facing": 270}])
    hits = {"guns": 0, "firer": 0}
    for game in range(trials):
        for name, firer in ((guns, "guns"), (muskets, "firer")):
            _, events = play(name, {"union": f"{firer}: FIRE", "confederate": "target: HOLD"}, game, 1)
            hits[firer] += sum(e["args"]["hits"] for e in events if e["type"] == "fire" and e["args"]["firer"] == firer)
    return hits["guns"] / trials, hits["firer"] / trials


def charges(trials: int) -> tuple[float, float]:
    name = table("balance_charge", [
        {"id": "attacker", "side": "union", "x": 30, "y": 18, "facing": 90},
        {"id": "defender", "side": "confederate", "x": 37, "y": 18, "facing": 270}])
    closed = won = 0
    for game in range(trials):
        _, events = play(name, {"union": "attacker: CHARGE defender", "confederate": "defender: FIRE"}, game, 1)
        fights = [e for e in events if e["type"] == "close_combat"]
        gone = any(e["type"] in ("fall_back", "rout") and e["args"]["unit"] == "defender" for e in events)
        if fights or gone:
            closed += 1
        won += bool((fights and fights[0]["args"]["result"] == "attacker") or (not fights and gone))
    return closed / trials, won / trials


def main(trials: int = 200) -> None:
    print(f"{trials} seeded trials each")
    print(f"a line at 10 in. breaks a column within two turns: {line_against_column(trials):.0%}")
    guns, muskets = long_range(trials)
    print(f"hits a turn on a line at long range: a 6-gun battery at 36 in. {guns:.2f}, a regiment at 18 in. {muskets:.2f}")
    closed, won = charges(trials)
    print(f"a charge from 7 in. on fresh veterans: closes {closed:.0%}, wins {won:.0%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
