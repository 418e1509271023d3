"""How long one full Little Big Horn turn takes to resolve (draws, activations, movement, combat).

Plays seeded games with the bot on both sides and times ``resolve`` alone (bot and parsing
excluded), in wall-clock and in CPU time. Run: ``.venv/bin/python benchmarks/bench_custer_turn.py [games]``.
"""

import hashlib
import statistics
import sys
import time

from pbem.dice import Dice
from pbem.engines.custer import CusterEngine


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def main(games: int = 20, scenario: str = "little_bighorn") -> None:
    engine = CusterEngine()
    times, cpu = [], []
    for game in range(games):
        state = engine.setup(scenario, {}, Dice(seed(scenario, game)))
        while engine.outcome(state) is None:
            phase = engine.phase(state)
            orders = {}
            for role in phase.awaited:
                text = engine.bot_orders(state, role, Dice(seed(scenario, game, phase.id, role)))
                orders[role] = engine.parse_orders(state, role, text).orders
            dice = Dice(seed(scenario, game, phase.id))
            start, start_cpu = time.perf_counter(), time.process_time()
            state, _ = engine.resolve(state, orders, dice)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    times.sort()
    print(f"{scenario}: {len(times)} turns in {games} games; resolve per turn: "
          f"mean {statistics.mean(times):.2f} ms, median {statistics.median(times):.2f} ms, "
          f"95th percentile {times[int(len(times) * 0.95)]:.2f} ms, max {times[-1]:.2f} ms; "
          f"CPU time per turn (steadier on a busy machine): mean {statistics.mean(cpu):.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
