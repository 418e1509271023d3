"""ACW miniatures, McPherson's Ridge (the large scenario): how long a turn takes to adjudicate
and report.

* engine: ``ACWMiniaturesEngine.resolve`` alone for each turn of whole bot games (pure, no
  service): the slowest turn of each game and the median of all;
* close: ``Service.phases.close`` for each turn of a game played by mail through the
  service (both sides' bot orders mailed in through the mail room beforehand, not timed):
  from the deadline to every report queued, each side's own picture and templates included
  (the issue's target: under 250 ms).

Each figure is given as wall-clock time and as this process's CPU time (``time.process_time``:
the close runs in this process), which a loaded machine disturbs much less. McPherson's
Ridge plays the optional supply wagons by default, so both figures include them.

    .venv/bin/python -m benchmarks.acw_turn [games]     (default 2)
"""

from __future__ import annotations

import statistics
import sys
import time

from benchmarks.common import order_mail, players_of, scratch, seed_hex, service
from pbem.dice import Dice
from pbem.engines import get_engine

SCENARIO = "mcphersons_ridge"
PLAYERS = {"union": "meade@players.example", "confederate": "lee@players.example"}


def engine_times(game: int) -> list[tuple[float, str]]:
    engine = get_engine("acw")
    state = engine.setup(SCENARIO, {}, Dice(seed_hex("acw bench", game, "setup")))
    out = []
    while engine.outcome(state) is None:
        phase = engine.phase(state)
        orders = {role: engine.parse_orders(state, role, engine.bot_orders(
            state, role, Dice(seed_hex("acw bench", game, phase.id, role)))).orders for role in phase.awaited}
        dice = Dice(seed_hex("acw bench", game, phase.id))
        start, cpu = time.perf_counter(), time.process_time()
        state, _ = engine.resolve(state, orders, dice)
        out.append((time.perf_counter() - start, phase.id, time.process_time() - cpu))
    return out


def close_times(game: int) -> list[tuple[float, str]]:
    engine = get_engine("acw")
    out = []
    with scratch(f"acw-bench-{game}") as path:
        svc = service(path)
        try:
            gid = svc.games.create("acw", SCENARIO, PLAYERS)
            while True:
                ph = svc.records.current_phase(gid)
                if ph is None:
                    break
                state = svc.records.game_state(gid)
                if engine.outcome(state) is not None:
                    break
                for role in engine.phase(state).awaited:
                    player = next(p for p in players_of(svc, gid) if p["role"] == role)
                    body = engine.bot_orders(state, role, Dice(seed_hex("acw bench mail", game, ph["label"], role)))
                    raw, _ = order_mail(svc, gid, player, body)
                    svc.mailroom.receive(raw)
                start, cpu = time.perf_counter(), time.process_time()
                svc.phases.close(gid)
                out.append((time.perf_counter() - start, ph["label"], time.process_time() - cpu))
        finally:
            svc.close()
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    resolves, closes = [], []
    for game in range(games):
        e = engine_times(game)
        c = close_times(game)
        resolves += e
        closes += c
        print(f"game {game}: engine slowest {max(e)[0] * 1000:.0f} ms ({max(e)[1]}), "
              f"close slowest {max(c)[0] * 1000:.0f} ms ({max(c)[1]}), {len(c)} turns")
    for what, rows in (("engine resolve", resolves), ("close (deadline to reports queued)", closes)):
        print(f"{what}: median {statistics.median(r[0] for r in rows) * 1000:.0f} ms, max {max(r[0] for r in rows) * 1000:.0f} ms; "
              f"CPU median {statistics.median(r[2] for r in rows) * 1000:.0f} ms, max {max(r[2] for r in rows) * 1000:.0f} ms "
              f"over {len(rows)} turns")


if __name__ == "__main__":
    main()
