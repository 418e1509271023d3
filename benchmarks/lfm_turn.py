"""Last Full Measure, Gettysburg 1 July: how long a player turn takes to adjudicate and report.

Two figures, for whole bot games (the busiest player turns are where all three Confederate
divisions are in contact, in the afternoon):

* engine: ``LastFullMeasureEngine.resolve`` alone for each phase, pure, no service; the
  slowest phase of each game and the median of all (the issue's target: under 50 ms);
* close: ``Service.phases.close`` for each phase of a game played by mail through the
  service (bot orders mailed in through the mail room beforehand, not timed): from the deadline to every report
  queued, pictures and templates included (target: under 250 ms at the busiest).

    .venv/bin/python -m benchmarks.lfm_turn [games]     (default 3)
"""

from __future__ import annotations

import statistics
import sys
import time

from benchmarks.common import order_mail, players_of, scratch, seed_hex, service
from pbem.dice import Dice
from pbem.engines import get_engine

SCENARIO = "gettysburg_july1"
PLAYERS = {"csa": "lee@players.example", "usa": "meade@players.example"}


def engine_times(game: int) -> list[tuple[float, str, int]]:
    engine = get_engine("lfm")
    state = engine.setup(SCENARIO, {}, Dice(seed_hex("lfm bench", game, "setup")))
    out = []
    while engine.outcome(state) is None:
        phase = engine.phase(state)
        (role,) = phase.awaited
        orders = engine.parse_orders(state, role, engine.bot_orders(state, role, Dice(seed_hex("lfm bench", game, phase.id, role)))).orders
        dice = Dice(seed_hex("lfm bench", game, phase.id))
        start = time.perf_counter()
        state, events = engine.resolve(state, {role: orders}, dice)
        out.append((time.perf_counter() - start, phase.id, sum(1 for e in events if e["type"] == "combat")))
    return out


def close_times(game: int) -> list[tuple[float, str]]:
    engine = get_engine("lfm")
    out = []
    with scratch(f"lfm-bench-{game}") as path:
        svc = service(path)
        try:
            gid = svc.games.create("lfm", SCENARIO, PLAYERS)
            while True:
                ph = svc.records.current_phase(gid)
                if ph is None:
                    break
                state = svc.records.game_state(gid)
                if engine.outcome(state) is not None:
                    break
                (role,) = engine.phase(state).awaited
                player = next(p for p in players_of(svc, gid) if p["role"] == role)
                body = engine.bot_orders(state, role, Dice(seed_hex("lfm bench mail", game, ph["label"], role)))
                raw, _ = order_mail(svc, gid, player, body)
                svc.mailroom.receive(raw)
                start = time.perf_counter()
                svc.phases.close(gid)
                out.append((time.perf_counter() - start, ph["label"]))
        finally:
            svc.close()
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    resolves, closes = [], []
    for game in range(games):
        e = engine_times(game)
        c = close_times(game)
        resolves += e
        closes += c
        slow_e, slow_c = max(e), max(c)
        print(f"game {game}: engine slowest {slow_e[0] * 1000:.0f} ms ({slow_e[1]}, {slow_e[2]} combats), "
              f"close slowest {slow_c[0] * 1000:.0f} ms ({slow_c[1]}), {len(c)} phases")
    print(f"engine resolve: median {statistics.median(t for t, *_ in resolves) * 1000:.1f} ms, "
          f"max {max(t for t, *_ in resolves) * 1000:.1f} ms over {len(resolves)} phases")
    print(f"close (deadline to reports queued): median {statistics.median(t for t, _ in closes) * 1000:.0f} ms, "
          f"max {max(t for t, _ in closes) * 1000:.0f} ms over {len(closes)} phases")


if __name__ == "__main__":
    main()
