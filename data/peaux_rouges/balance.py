"""Bot-versus-bot balance run for Peaux-Rouges contre Longs-Couteaux.

    .venv/bin/python data/peaux_rouges/balance.py [games] [first-game] [OPTION=VALUE ...]

Plays seeded games with the engine's own bot on both sides, as by mail: the bot
writes order text (French or English), the engine parses it and resolves the
turn. Game g draws its dice from sha256("peaux_rouges balance <g> <phase>"), so
a run is reproducible bit for bit. Prints how often each side wins, and how.
OPTION=VALUE plays every game with that rule option (e.g. stacking=one).
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections import Counter

from pbem.dice import Dice
from pbem.engines.peaux_rouges import PeauxRougesEngine
from pbem.engines.peaux_rouges import messages as M

HOW = {
    M.WIN_LC_CHIEFS: "Long Knives: the three chiefs killed",
    M.WIN_LC_FLAG: "Long Knives: the flag on a blue arrow",
    M.WIN_PR_LEADERS: "Indians: Custer and his officers killed",
    M.WIN_PR_FLAG: "Indians: the flag taken",
    M.DRAW: "draw at the turn limit",
}


def seed(*parts) -> str:
    return hashlib.sha256(" ".join(str(p) for p in parts).encode()).hexdigest()


def play(engine: PeauxRougesEngine, g: int, options: dict | None = None) -> tuple[dict, dict]:
    """One whole game; returns the final state and its outcome. Raises on a bad order or a stuck turn."""
    state = engine.setup("little_big_horn", options or {}, Dice(seed("peaux_rouges balance", g, "setup")))
    seen = set()
    while engine.outcome(state) is None:
        ph = engine.phase(state)
        if ph.id in seen or len(ph.awaited) != 1:
            raise AssertionError(f"game {g}: stuck at {ph.id}")
        seen.add(ph.id)
        role = ph.awaited[0]
        text = engine.bot_orders(state, role, Dice(seed("peaux_rouges balance", g, ph.id, "bot")))
        parsed = engine.parse_orders(state, role, text)
        if parsed.errors:
            raise AssertionError(f"game {g} {ph.id}: bot orders rejected: {parsed.errors}\n{text}")
        state, _ = engine.resolve(state, {role: parsed.orders}, Dice(seed("peaux_rouges balance", g, ph.id)))
    return state, engine.outcome(state)


def main(argv: list[str]) -> None:
    options = dict(a.split("=", 1) for a in argv[1:] if "=" in a)
    argv = [a for a in argv if "=" not in a]
    games = int(argv[1]) if len(argv) > 1 else 1000
    first = int(argv[2]) if len(argv) > 2 else 0
    engine = PeauxRougesEngine()
    wins, how, turns = Counter(), Counter(), Counter()
    t0 = time.perf_counter()
    for g in range(first, first + games):
        state, out = play(engine, g, options)
        wins[out["winner"]] += 1
        how[HOW[out["summary"]]] += 1
        turns[state["turn"]] += 1
    dt = time.perf_counter() - t0
    with_options = "".join(f", {k}={v}" for k, v in sorted(options.items()))
    print(f"{games} games (seeds {first}..{first + games - 1}{with_options}) in {dt:.1f} s")
    for side, label in (("longs_couteaux", "Long Knives win"), ("peaux_rouges", "Indians win"), (None, "draw")):
        print(f"  {label:16s} {wins[side]:5d}  {100 * wins[side] / games:5.1f} %")
    for label in HOW.values():
        print(f"    {label:42s} {how[label]:5d}  {100 * how[label] / games:5.1f} %")
    mean = sum(t * n for t, n in turns.items()) / games
    print(f"  mean last turn {mean:.1f}; games lasting all {state['turn_limit']} turns: "
          f"{turns[state['turn_limit']]}")


if __name__ == "__main__":
    main(sys.argv)
