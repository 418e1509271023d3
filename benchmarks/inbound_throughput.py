"""Order mails per second accepted end to end through the embedded SMTP server
(received, parsed, stored durably, acknowledgement queued: as a draft the delivery process
makes and sends; how long after the last 250 every one is sent is measured too), next to the floor on
the same messages: SMTP receive, stdlib parse and one durable SQLite commit each."""

from __future__ import annotations

import email
import smtplib
import sqlite3
import statistics
import time
from email import policy

from aiosmtpd.controller import Controller

from benchmarks.common import Timer, custer_order_mails, free_port, service, settings, workdir
from benchmarks.inbound_split import PARTS, instrument, shares


class FloorHandler:
    """What any mail server must do at least: take the message, parse it, commit it."""

    def __init__(self, path):
        self.path = path
        self.conn = None

    async def handle_DATA(self, server, session, envelope):
        if self.conn is None:  # made on the event loop's thread, where it is used
            self.conn = sqlite3.connect(self.path, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.execute("CREATE TABLE IF NOT EXISTS m (id INTEGER PRIMARY KEY, raw BLOB, subject TEXT)")
        msg = email.message_from_bytes(envelope.original_content, policy=policy.default)
        body = msg.get_body(("plain",))
        self.conn.execute("INSERT INTO m (raw, subject) VALUES (?, ?)", (envelope.original_content, (body.get_content() if body else "")[:100]))
        return "250 OK"


def _send_all(port: int, messages: list[tuple[bytes, str, str]]) -> float:
    with Timer() as t:
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            for raw, sender, rcpt in messages:
                smtp.sendmail(sender, [rcpt], raw)
    return t.seconds


def _until_every_ack_is_sent(store, limit: float = 120.0) -> float:
    """Seconds from now (the last 250) until the delivery process has made and sent every
    acknowledgement: the throughput does not hide a backlog. Polled: a benchmark, not a test."""
    start = time.perf_counter()
    while store.one("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'ack' AND status != 'sent'")["n"]:
        if time.perf_counter() - start > limit:
            raise RuntimeError(f"acknowledgements still unsent {limit} s after the last order mail")
        time.sleep(0.01)
    return time.perf_counter() - start


def run(count: int = 800, rounds: int = 3) -> dict:
    """``rounds`` alternating runs of the floor and of pbem on the same messages, each pbem
    run on its own copy of the same starting database; the figures are the medians. One
    run of each, on this two-core machine, varied by a tenth from one try to the next."""
    from pbem.server import Server
    from pbem.service.store import Store

    path = workdir("inbound")
    svc = service(path)
    messages = custer_order_mails(svc, count)
    svc.store.backup(path / "start.db")
    svc.close()

    floor_rates, pbem_rates, acks, drains = [], [], [], []
    acc, wall = dict.fromkeys((*PARTS, "receive"), 0.0), 0.0  # where pbem's time went, every round together
    for n in range(rounds):
        floor_port = free_port()
        floor = Controller(FloorHandler(str(path / f"floor{n}.db")), hostname="127.0.0.1", port=floor_port)
        floor.start()
        floor_rates.append(count / _send_all(floor_port, messages))
        floor.stop()

        run_dir = path / f"pbem{n}"
        Store(path / "start.db").backup(run_dir / "pbem.db")
        server = Server(settings(run_dir), web=False).start()
        undo = instrument(acc)
        try:
            seconds = _send_all(server.settings.smtp_port, messages)
            undo()
            wall += seconds
            pbem_rates.append(count / seconds)
            acks.append(server.svc.store.one("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'ack'")["n"])
            drains.append(_until_every_ack_is_sent(server.svc.store))
        finally:
            undo()
            server.stop()
    floor_rate, pbem_rate = statistics.median(floor_rates), statistics.median(pbem_rates)
    ratios = [p / f for p, f in zip(pbem_rates, floor_rates)]
    return {"messages": count, "rounds": rounds, "floor_msgs_per_s": round(floor_rate, 1), "pbem_msgs_per_s": round(pbem_rate, 1),
            "ratio_to_floor": round(statistics.median(ratios), 3), "ratio_each_round": [round(r, 3) for r in ratios],
            "acks_queued": min(acks), "acks_all_sent_after_s": round(max(drains), 2), "share": shares(acc, wall)}


if __name__ == "__main__":
    print(run())
