"""Bot-versus-bot balance run: python data/peaux_rouges/balance.py [games] [first-seed]

Plays seeded games with the engine's own bot on both sides (mail text in, parsed,
resolved), and prints how often each side wins, how, and how long games last.
Game g uses the seeds sha256("peaux_rouges balance <g> <phase>").
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections import Counter

from pbem.dice import Dice
from pbem.engines.peaux_rouges import PeauxRougesEngine


def seed(*parts) -> str:
    return hashlib.sha256(" ".join(str(p) for p in parts).encode()).hexdigest()


def play(engine: PeauxRougesEngine, g: int, options: dict | None = None) -> tuple[dict, dict]:
    state = engine.setup("little_big_horn", options or {}, Dice(seed("peaux_rouges balance", g, "setup")))
    steps = 0
    while engine.outcome(state) is None:
        ph = engine.phase(state)
        role = ph.awaited[0]
        text = engine.bot_orders(state, role, Dice(seed("peaux_rouges balance", g, ph.id, "bot")))
        parsed = engine.parse_orders(state, role, text)
        if parsed.errors:
            raise AssertionError(f"game {g} {ph.id}: bot orders rejected: {parsed.errors}\n{text}")
        state, _ = engine.resolve(state, {role: parsed.orders}, Dice(seed("peaux_rouges balance", g, ph.id)))
        steps += 1
        if steps > 2 * state["turn_limit"] + 2:
            raise AssertionError(f"game {g} does not end")
    return state, engine.outcome(state)


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 1000
    first = int(argv[2]) if len(argv) > 2 else 0
    engine = PeauxRougesEngine()
    wins, how, turns = Counter(), Counter(), Counter()
    t0 = time.perf_counter()
    for g in range(first, first + games):
        state, out = play(engine, g)
        wins[out["winner"]] += 1
        how[out["summary"].split(":")[0] + ": " + out["summary"].split(":")[1][:25]] += 1
        turns[state["turn"]] += 1
    dt = time.perf_counter() - t0
    print(f"{games} games in {dt:.1f} s")
    for side in ("longs_couteaux", "peaux_rouges", None):
        print(f"  {side or 'draw'}: {wins[side]} ({100 * wins[side] / games:.1f} %)")
    for k, v in how.most_common():
        print(f"    {v:5d}  {k}")
    mean = sum(t * n for t, n in turns.items()) / games
    print(f"  mean last turn: {mean:.1f}")


if __name__ == "__main__":
    main(sys.argv)
