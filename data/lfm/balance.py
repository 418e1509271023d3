"""Seeded bot-against-bot games of East Cavalry Field, for the figures in data/lfm/README.md:
how attacks fared at each odds column, what artillery fire and charges did, who won.

    .venv/bin/python data/lfm/balance.py [games]      (default 200)
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.dice import Dice  # noqa: E402
from pbem.engines.lfm import LastFullMeasureEngine  # noqa: E402


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def play(engine, game: int, stats: dict) -> dict:
    state = engine.setup("east_cavalry_field", {}, Dice(seed(game, 2, "setup")))
    while engine.outcome(state) is None:
        phase = engine.phase(state)
        (role,) = phase.awaited
        text = engine.bot_orders(state, role, Dice(seed(game, 2, phase.id, role)))
        state, events = engine.resolve(state, {role: engine.parse_orders(state, role, text).orders},
                                       Dice(seed(game, 2, phase.id)))
        for i, ev in enumerate(events):
            a = ev["args"]
            if ev["type"] == "combat":
                later = events[i + 1:i + 8]
                stood = any(e["type"] == "stands" and e["args"]["hex"] == a["target"] for e in later)
                stats["combat"][a["column"]][a["result"] + ("*" if stood else "")] += 1
            elif ev["type"] == "artillery_fire":
                stats["fire"][a["n"]] += 1
            elif ev["type"] == "cohesion_check":
                stats["checks"][a["outcome"]] += 1
            elif ev["type"] == "charge":
                stats["charge"][a["result"]] += 1
    return engine.outcome(state)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    engine = LastFullMeasureEngine()
    stats = {"combat": defaultdict(Counter), "fire": Counter(), "checks": Counter(), "charge": Counter()}
    winners, vp = Counter(), Counter()
    start = time.perf_counter()
    for game in range(games):
        out = play(engine, game, stats)
        winners[out["winner"]] += 1
        for side, v in out["scores"].items():
            vp[side] += v
    took = time.perf_counter() - start
    print(f"{games} games in {took:.1f} s ({took / games * 1000:.0f} ms a game)")
    print("winners:", dict(winners), "mean VP:", {s: round(v / games, 1) for s, v in vp.items()})
    print("column  attacks  dislodged  held-in-NR  exchange  nothing  repulsed")
    order = ["1-3", "1-2", "1-1", "3-2", "2-1", "3-1", "4-1", "5-1", "6-1"]
    for col in order:
        c = stats["combat"].get(col)
        if not c:
            continue
        n = sum(c.values())
        share = lambda *keys: f"{sum(c[k] for k in keys) / n:6.0%}"  # noqa: E731
        print(f"{col:>6} {n:8d} {share('DE', 'DR')} {share('DE*', 'DR*'):>10} {share('EX', 'EX*'):>9} "
              f"{share('NE', 'NE*'):>8} {share('AR', 'AE', 'AR*', 'AE*'):>9}")
    fires = sum(stats["fire"].values())
    print("artillery fire:", fires, "shots;", {k: f"{v / fires:.0%}" for k, v in sorted(stats["fire"].items())})
    print("cohesion checks:", dict(stats["checks"]))
    print("charges:", dict(stats["charge"]))


if __name__ == "__main__":
    main()
