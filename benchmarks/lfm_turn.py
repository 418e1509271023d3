"""Last Full Measure, Gettysburg 1 July: the issue's benchmark, a player turn at its busiest.

1. **Find the busiest turn**, deterministically: seeded bot games played through the engine
   alone; among the Confederate player turns whose combat phase opens with at least three
   Confederate divisions in contact (a regiment next to an enemy unit), the one with the most
   attacks. Its two phases (the movement mail ``TNx.M``, then the combat mail ``TNx.C``) are
   kept: the state each starts from and the orders the bot mailed.
2. **Engine**: ``LastFullMeasureEngine.resolve`` alone on each of the two phases, repeated;
   median and max (goal: under 50 ms).
3. **Deadline to every report queued**, through the service: a game is created, a moderator's
   hand adjustment (``Disputes.adjust_state``) puts it at the phase's starting state, the
   orders are mailed in through the mail room (not timed), then ``Phases.close`` is timed:
   resolution, views, the map pictures, report mails for both players and the JSON
   attachments (goal: under 250 ms, pictures included). The service rolls its own seed,
   so the combats are those of the same positions and attacks with other dice.
4. **Stage shares**: one more close of each phase under cProfile, split into the engine's
   resolve, the pictures, the views, the report templates and the rest (storage, JSON, mail).

    .venv/bin/python -m benchmarks.lfm_turn [games searched] [repeats]     (default 8 and 9)
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import statistics
import sys
import time

from benchmarks.common import order_mail, players_of, scratch, seed_hex, service
from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.lfm import scenario as scenarios

SCENARIO = "gettysburg_july1"
PLAYERS = {"csa": "lee@players.example", "usa": "meade@players.example"}
ATTACKER = "csa"
# Stages of a close, by the function whose cumulative time they are (file ending, name).
STAGES = {
    "engine resolve": ("lfm/engine.py", "resolve"),
    "pictures": ("lfm/engine.py", "pictures"),  # the map, the sectors and the fights (issue 25)
    "views": ("lfm/engine.py", "view"),
    "report templates": ("pbem/service/render.py", "render"),
}


def divisions_in_contact(sc, state: dict, side: str) -> set[str]:
    """The divisions of ``side`` with a regiment next to an enemy unit."""
    where = {}
    for uid, u in state["units"].items():
        if u["status"] == "on_map":
            where.setdefault(u["hex"], []).append(uid)
    out = set()
    for uid, u in state["units"].items():
        info = sc.units[uid]
        if u["status"] != "on_map" or info.side != side or not info.brigade:
            continue
        if any(sc.units[x].side != side for n in sc.board.neighbours[u["hex"]] for x in where.get(n, [])):
            out.add(sc.commanders[info.brigade].superior)
    return out


def find_busiest(games: int) -> dict:
    """The busiest Confederate player turn of ``games`` seeded bot games (see the module doc)."""
    engine, sc = get_engine("lfm"), scenarios.load(SCENARIO)
    best = None
    for game in range(games):
        state = engine.setup(SCENARIO, {}, Dice(seed_hex("lfm bench", game, "setup")))
        movement = None
        while engine.outcome(state) is None:
            phase = engine.phase(state)
            (role,) = phase.awaited
            text = engine.bot_orders(state, role, Dice(seed_hex("lfm bench", game, phase.id, role)))
            record = {"phase": phase.id, "role": role, "state": state, "text": text,
                      "orders": engine.parse_orders(state, role, text).orders, "seed": seed_hex("lfm bench", game, phase.id)}
            if phase.id.endswith(".M"):
                movement = record
            contact = divisions_in_contact(sc, state, ATTACKER) if phase.id.endswith(".C") and role == ATTACKER else set()
            state, events = engine.resolve(state, {role: record["orders"]}, Dice(record["seed"]))
            if len(contact) >= 3:
                attacks = sum(1 for e in events if e["type"] == "combat")
                if best is None or attacks > best["attacks"]:
                    best = {"game": game, "attacks": attacks, "divisions": sorted(contact),
                            "phases": [movement, record]}
    if best is None:
        raise SystemExit(f"no Confederate player turn with three divisions in contact in {games} game(s): search more")
    return best


def engine_times(record: dict, repeats: int) -> list[float]:
    engine = get_engine("lfm")
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        engine.resolve(record["state"], {record["role"]: record["orders"]}, Dice(record["seed"]))
        out.append(time.perf_counter() - start)
    return out


def close_once(svc, record: dict, profile: cProfile.Profile | None = None, cpu: list | None = None) -> float:
    """A game put at ``record``'s phase, its orders mailed in, then the close timed (its CPU
    time appended to ``cpu``: on a shared machine, what the close itself cost)."""
    gid = svc.games.create("lfm", SCENARIO, PLAYERS)
    svc.disputes.adjust_state(gid, json.dumps(record["state"]), "benchmark: the busiest player turn", "bench")
    assert svc.records.current_phase(gid)["label"] == record["phase"], svc.records.current_phase(gid)["label"]
    player = next(p for p in players_of(svc, gid) if p["role"] == record["role"])
    raw, _ = order_mail(svc, gid, player, record["text"])
    svc.mailroom.receive(raw)
    if profile is not None:
        profile.enable()
    start, start_cpu = time.perf_counter(), time.process_time()
    svc.phases.close(gid)
    elapsed = time.perf_counter() - start
    if cpu is not None:
        cpu.append(time.process_time() - start_cpu)
    if profile is not None:
        profile.disable()
    assert svc.records.current_phase(gid) is None or svc.records.current_phase(gid)["label"] != record["phase"]
    return elapsed


def stage_shares(profile: cProfile.Profile) -> dict[str, float]:
    """Seconds of each stage (cumulative time of its function) and of the whole close."""
    stats = pstats.Stats(profile).stats
    out = {}
    for stage, (path_end, name) in STAGES.items():
        out[stage] = sum(ct for (path, _, func), (_, _, _, ct, _) in stats.items() if func == name and path.endswith(path_end))
    out["whole close"] = sum(ct for (path, _, func), (_, _, _, ct, _) in stats.items()
                             if func == "close" and path.endswith("pbem/service/phases.py"))
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    busiest = find_busiest(games)
    move, combat = busiest["phases"]
    print(f"busiest Confederate player turn in {games} seeded game(s): game {busiest['game']}, {move['phase']} + "
          f"{combat['phase']}, {busiest['attacks']} attacks, divisions in contact: {', '.join(busiest['divisions'])}")
    with scratch("lfm-bench") as path:
        svc = service(path)
        try:
            for record in (move, combat):
                e = engine_times(record, repeats)
                close_once(svc, record)  # warm: templates compiled, picture layers cached
                cpu: list[float] = []
                c = [close_once(svc, record, cpu=cpu) for _ in range(repeats)]
                profile = cProfile.Profile()
                close_once(svc, record, profile)
                shares = stage_shares(profile)
                whole = shares.pop("whole close") or 1.0
                rest = whole - sum(shares.values())
                print(f"{record['phase']}: engine resolve median {ms(statistics.median(e))}, max {ms(max(e))} (goal < 50 ms); "
                      f"deadline to every report queued median {ms(statistics.median(c))}, max {ms(max(c))} (goal < 250 ms), "
                      f"CPU median {ms(statistics.median(cpu))}, {repeats} runs each")
                print("    stage shares under cProfile: " + ", ".join(
                    f"{stage} {value / whole:.0%}" for stage, value in [*shares.items(), ("the rest (storage, JSON, mail)", rest)]))
        finally:
            svc.close()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
