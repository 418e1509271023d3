"""Last Full Measure: what checking orders on arrival costs (issue 25). Seeded bot games of
Gettysburg, 1 July (the largest scenario); each mail the bot writes is read twice, as the
mail room reads it (``parse_orders``: the checks against the position, a dry run of the
movement phase, the artillery phase to its first roll, the combat mail's first round) and
without the checks; the median and the slowest of each, per mail, in milliseconds.

    .venv/bin/python -m benchmarks.lfm_arrival [games] [phases per game]     (default 2 and 16)
"""

from __future__ import annotations

import statistics
import sys
import time

from benchmarks.common import seed_hex
from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.lfm import orders, scenario as scenarios

SCENARIO = "gettysburg_july1"


def run(games: int = 2, phases: int = 16) -> dict:
    engine, sc = get_engine("lfm"), scenarios.load(SCENARIO)
    checked, unchecked = [], []
    for game in range(games):
        state = engine.setup(SCENARIO, {}, Dice(seed_hex("arrival", game)))
        for step in range(phases):
            if engine.outcome(state):
                break
            role = engine.phase(state).awaited[0]
            text = engine.bot_orders(state, role, Dice(seed_hex("arrival bot", game, step)))
            t = time.perf_counter()
            parsed = engine.parse_orders(state, role, text)
            checked.append(time.perf_counter() - t)
            t = time.perf_counter()
            orders.parse(sc, state, role, text, check=False)
            unchecked.append(time.perf_counter() - t)
            state, _ = engine.resolve(state, {role: parsed.orders}, Dice(seed_hex("arrival resolve", game, step)))
    ms = lambda xs: {"median_ms": round(statistics.median(xs) * 1000, 2), "max_ms": round(max(xs) * 1000, 2)}  # noqa: E731
    return {"mails": len(checked), "checked": ms(checked), "unchecked": ms(unchecked)}


def table(result: dict) -> list[tuple[str, str]]:
    c, u = result["checked"], result["unchecked"]
    return [(f"lfm arrival: {result['mails']} Gettysburg order mails read by parse_orders",
             f"checked against the position: median {c['median_ms']} ms, max {c['max_ms']} ms; "
             f"read only: median {u['median_ms']} ms, max {u['max_ms']} ms")]


if __name__ == "__main__":
    result = run(*(int(a) for a in sys.argv[1:3]))
    for what, figures in table(result):
        print(f"{what}: {figures}")
