"""One Little Bighorn Rummy picture: a four-player game seventy bot phases in, drawn for a
player (their hand and every table) and for an observer. CPU time of this process, best of
each round, median over the rounds. tests/rummy/test_presentation.py checks what the picture
shows; how fast it is drawn is measured here."""

from __future__ import annotations

import statistics
import time

from pbem.dice import Dice
from pbem.engines import get_engine

ROUNDS = 20


def midgame(phases: int = 70):
    """The state after ``phases`` phases of bot play from the four-player start (seeded)."""
    engine = get_engine("rummy")
    state = engine.setup("four", {}, Dice("0d" * 32))
    for i in range(phases):
        player = state["player"]
        parsed = engine.parse_orders(state, player, engine.bot_orders(state, player, Dice(f"{i:064x}")))
        state, _ = engine.resolve(state, {player: parsed.orders}, Dice(f"{i + 5000:064x}"))
    return engine, state


def run(rounds: int = ROUNDS) -> dict:
    engine, state = midgame()
    out = {}
    for who, role in (("player", "p1"), ("observer", None)):
        view = engine.view(state, role)
        engine.picture(view)  # fonts and card images loaded once, as in a running server
        times = []
        for _ in range(rounds):
            t = time.process_time()
            engine.picture(view)
            times.append((time.process_time() - t) * 1000)
        out[who] = {"median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1), "rounds": rounds}
    return out


def table(result: dict) -> list[tuple[str, str]]:
    return [(f"rummy picture, four players mid-game, for a {who} (CPU)",
             f"median {r['median_ms']} ms, slowest {r['max_ms']} ms over {r['rounds']} drawings")
            for who, r in result.items()]


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
