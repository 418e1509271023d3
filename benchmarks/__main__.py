"""The benchmark suite: `.venv/bin/python -m benchmarks [NAME ...]`.

Runs every benchmark (or the named ones), prints a table of figures and writes them,
with the machine they were measured on, to benchmarks/results.json. Loopback only;
the whole suite takes a few minutes.

  inbound     order mails per second through the embedded SMTP server, next to the floor
  inbound_split  where one order mail's time goes inside the server
  rush        acknowledgement latency under a 2,000-mail deadline rush
  turn_close  deadline to every report queued (Custer, four-player rummy), split by part
  scale       10,000 open games: memory, start-up, a hundred deadlines in one second
  verify      pbem verify over a long Custer campaign
  mail_parsing  parse_message and new_text on the real-mail corpus, new_text's growth on a pathological text
  rummy_picture  one rummy picture, four players mid-game
  lfm_period  Last Full Measure: one combat phase at 3-1 against a lone stack, open and town (seeded)
  lfm_arrival  Last Full Measure: an order mail read with and without the checks against the position
  dkim_sign   the CPU time a DKIM signature adds to an acknowledgement and to a report with its map
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

BENCHMARKS = {
    "inbound": "benchmarks.inbound_throughput",
    "inbound_split": "benchmarks.inbound_split",
    "rush": "benchmarks.ack_latency",
    "turn_close": "benchmarks.turn_close",
    "scale": "benchmarks.scale",
    "verify": "benchmarks.verify_campaign",
    "mail_parsing": "benchmarks.mail_parsing",
    "rummy_picture": "benchmarks.rummy_picture",
    "lfm_period": "benchmarks.lfm_period",
    "lfm_arrival": "benchmarks.lfm_arrival",
    "dkim_sign": "benchmarks.dkim_sign",
}
RESULTS = Path(__file__).resolve().parent / "results.json"


def machine() -> dict:
    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=root).stdout.strip()
    except OSError:
        commit = ""
    cpu = ""
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines() if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "commit": commit, "python": platform.python_version(),
            "cpus": os.cpu_count(), "cpu": cpu, "load_average_at_start": os.getloadavg()}


def _inbound(r: dict) -> list[tuple[str, str]]:
    return [(f"inbound: {r['messages']} order mails over SMTP, end to end (stored, ack queued)",
             f"{r['pbem_msgs_per_s']} msg/s; floor on the same messages {r['floor_msgs_per_s']} msg/s; "
             f"ratio {r['ratio_to_floor']} (goal 0.7; medians of {r['rounds']} alternating rounds: "
             f"{', '.join(map(str, r['ratio_each_round']))}); {r['acks_queued']} acks queued in every round, all sent "
             f"within {r['acks_all_sent_after_s']} s of the last 250; "
             f"share of pbem's time: " + ", ".join(f"{k} {round(v * 100)} %" for k, v in r["share"].items()))]


def _rush(r: dict) -> list[tuple[str, str]]:
    return [(f"rush: {r['mails']:,} order mails from {r['players']} players in {r['games']} games in {r['sent_over_s']} s",
             f"SMTP transaction to 250 (stored, ack queued): p50 {r['p50_ms']} ms, p90 {r['p90_ms']} ms, "
             f"p99 {r['p99_ms']} ms, max {r['max_ms']} ms; stored {r['stored']}, lost {r['lost']}, refused {r['failures']}")]


FORMATS = {"inbound": _inbound, "rush": _rush}


def rows_of(name: str, module, result) -> list[tuple[str, str]]:
    if hasattr(module, "table"):
        return module.table(result)
    if name in FORMATS:
        try:
            return FORMATS[name](result)
        except KeyError:
            pass
    if isinstance(result, dict):
        return [(name, ", ".join(f"{k} {v}" for k, v in result.items()))]
    return [(name, str(result))]


def main(argv: list[str]) -> int:
    names = argv or list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    out = {"machine": machine(), "results": {}, "seconds": {}}
    rows: list[tuple[str, str]] = []
    for name in names:
        module = importlib.import_module(BENCHMARKS[name])
        print(f"running {name} ...", flush=True)
        started = time.perf_counter()
        result = module.run()
        out["seconds"][name] = round(time.perf_counter() - started, 1)
        out["results"][name] = result
        rows += rows_of(name, module, result)
        print(json.dumps(result, default=str), flush=True)
    RESULTS.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'benchmark'.ljust(width)} | figures")
    print(f"{'-' * width}-+-{'-' * 60}")
    for what, figures in rows:
        print(f"{what.ljust(width)} | {figures}")
    m = out["machine"]
    print(f"\n{m['cpus']} CPU(s) {m['cpu']}, Python {m['python']}, commit {m['commit']}, load average at start "
          f"{', '.join(f'{x:.2f}' for x in m['load_average_at_start'])}; written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
