"""Issue 2's two figures: one inbound order (receive to acknowledgement queued) and
one turn close (deadline to every report queued), for Custer's Last Stand.

Run: .venv/bin/python benchmarks/bench_core_loop.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.config import Settings  # noqa: E402
from pbem.service.service import Service  # noqa: E402
from tests.core.helpers import new_game, orders_mail  # noqa: E402


def main(rounds: int = 30) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    svc = Service(Settings(db_path=workdir / "pbem.db", maildir=workdir / "outbox", mail_domain="pbem.test")).init()
    receive_ms, close_ms = [], []
    for _ in range(rounds):
        gid = new_game(svc)
        raw = orders_mail(svc, gid, "us")
        started = time.perf_counter()
        svc.mailroom.receive(raw)
        receive_ms.append((time.perf_counter() - started) * 1000)
        svc.mailroom.receive(orders_mail(svc, gid, "indians"))
        started = time.perf_counter()
        svc.phases.close(gid)
        close_ms.append((time.perf_counter() - started) * 1000)
    result = {
        "inbound_order_ms": {"median": statistics.median(receive_ms), "p95": sorted(receive_ms)[int(0.95 * len(receive_ms)) - 1]},
        "turn_close_ms": {"median": statistics.median(close_ms), "p95": sorted(close_ms)[int(0.95 * len(close_ms)) - 1]},
        "rounds": rounds,
    }
    print(f"one inbound order, receive to ack queued (parse, store, render, commit): median {result['inbound_order_ms']['median']:.1f} ms, p95 {result['inbound_order_ms']['p95']:.1f} ms")
    print(f"one Little Big Horn turn close, deadline to both reports queued (engine, pictures, templates, commit): median {result['turn_close_ms']['median']:.1f} ms, p95 {result['turn_close_ms']['p95']:.1f} ms")
    return result


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
