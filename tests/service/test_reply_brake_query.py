"""The per-address brake on answers (outbox.replies_sent_recently) counts one address's answers of
the last hour (of every kind, or of one) through that address's index, whatever else the outbox holds."""

from __future__ import annotations

from datetime import timedelta

from pbem.service import outbox
from pbem.service.clock import to_iso
from pbem.service.outbox import UNAUTHENTICATED


def _fill(svc, now) -> None:
    rows = []
    for k in range(300):  # answers to many others, with and without a token, and reports (some of them HISTORY answers)
        kind = ("ack", "report", "error")[k % 3]
        answer = {"ack": "status", "error": "error", "report": "history" if k % 2 else None}[kind]
        rows.append({"message_id": f"<m{k}@pbem.test>", "to_addr": f"p{k % 50}@players.example", "kind": kind, "answer": answer,
                     "subject": "s", "raw": b"x" * 3000, "status": "queued", "attempts": 0, "next_attempt_at": to_iso(now),
                     "created_at": to_iso(now - timedelta(minutes=k % 90)), "cause": UNAUTHENTICATED if k % 7 == 0 else None})
    with svc.store.write():
        for row in rows:
            svc.store.insert("outbox", row)


def test_the_count_is_right_for_each_address_and_cause(svc):
    now = svc.now()
    _fill(svc, now)
    rows = svc.store.all("SELECT to_addr, answer, created_at, cause FROM outbox")
    since = to_iso(now - timedelta(hours=1))
    for k in range(50):
        address = f"p{k}@players.example"
        for unauthenticated in (False, True):
            for kind in (None, "history"):
                expected = sum(1 for r in rows if r["to_addr"] == address and r["created_at"] >= since and r["answer"]
                               and kind in (None, r["answer"]) and r["cause"] == (UNAUTHENTICATED if unauthenticated else None))
                assert outbox.replies_sent_recently(svc.store, address, now, unauthenticated=unauthenticated, answer=kind) == expected


def test_the_count_reads_the_address_index(svc):
    _fill(svc, svc.now())
    seen = []
    svc.store.conn.set_trace_callback(seen.append)
    try:
        outbox.replies_sent_recently(svc.store, "p1@players.example", svc.now())
    finally:
        svc.store.conn.set_trace_callback(None)
    [sql] = seen
    plan = " ".join(str(r[-1]) for r in svc.store.conn.execute("EXPLAIN QUERY PLAN " + sql))
    assert "outbox_to" in plan and "outbox_cause" not in plan, plan
