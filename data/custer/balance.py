"""Bot-against-bot balance runs for the Custer scenarios.

    .venv/bin/python data/custer/balance.py little_bighorn 200
    .venv/bin/python data/custer/balance.py rosebud 200 --start 0

Plays N seeded games (seed i -> phase seeds derived from i), both sides ordered
by the engine's random-but-legal bot, and prints who won, the VP and how
units ended up.  Deterministic: the same command prints the same figures.
"""

from __future__ import annotations

import argparse
import json
import hashlib
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.dice import Dice  # noqa: E402
from pbem.engines.custer import CusterEngine  # noqa: E402


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def play(scenario: str, game: int) -> dict:
    e = CusterEngine()
    state = e.setup(scenario, {}, Dice(seed("setup", scenario, game)))
    step = 0
    while e.outcome(state) is None:
        ph = e.phase(state)
        orders = {}
        for role in ph.awaited:
            text = e.bot_orders(state, role, Dice(seed("bot", scenario, game, step, role)))
            parsed = e.parse_orders(state, role, text)
            orders[role] = parsed.orders
        state, _ = e.resolve(state, orders, Dice(seed("resolve", scenario, game, step)))
        step += 1
        if step > 500:
            raise RuntimeError("game does not end")
    out = e.outcome(state)
    gone = Counter()
    for uid, u in state["units"].items():
        if u["status"] != "on_board" and u["status"] != "waiting":
            gone[u["status"]] += 1
    return {"winner": out["winner"], "vp": out["scores"], "turn": state["turn"],
            "status": {uid: ("hit" if u["status"] == "on_board" and u["reduced"] and e_leader(state, uid) else u["status"])
                       for uid, u in state["units"].items()}}


def e_leader(state: dict, uid: str) -> bool:
    from pbem.engines.custer import scenario as sc

    return sc.load(state["scenario"]).units[uid].type == "us_leader"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("games", type=int, nargs="?", default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=4)
    args = ap.parse_args()
    games = range(args.start, args.start + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, [args.scenario] * len(games), games))
    wins = Counter(r["winner"] for r in results)
    n = len(results)
    print(f"{args.scenario}: {n} bot-vs-bot games (seeds {games.start}..{games.stop - 1})")
    for who in sorted(wins, key=str):
        print(f"  {str(who or 'draw'):8s} {wins[who]:4d}  {100 * wins[who] / n:5.1f}%")
    for side in ("us", "indians"):
        vps = [r["vp"].get(side, 0) for r in results]
        print(f"  VP {side:8s} mean {statistics.mean(vps):5.1f}  median {statistics.median(vps):4.1f}"
              f"  min {min(vps)}  max {max(vps)}")
    fates = Counter()
    for r in results:
        for uid, st in r["status"].items():
            fates[(uid.split("_")[0] if "_" in uid else uid, st)] += 1
    elim = Counter()
    exited = Counter()
    for r in results:
        for uid, st in r["status"].items():
            if st == "eliminated":
                elim[uid] += 1
            elif st == "exited":
                exited[uid] += 1
    scen = json.loads((Path(__file__).resolve().parent / "scenarios" / f"{args.scenario}.json").read_text())
    types = {u["id"]: (u["side"], u["type"]) for u in scen["units"]}
    per_type = Counter()
    for r in results:
        for uid, st in r["status"].items():
            if st in ("eliminated", "exited", "hit"):
                per_type[(types[uid], st)] += 1
    print("  per game, on average:")
    for ((side, kind), st), c in sorted(per_type.items()):
        print(f"    {side:8s} {kind:13s} {st:10s} {c / n:5.2f}")


if __name__ == "__main__":
    main()
