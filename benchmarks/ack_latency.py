"""Acknowledgement latency under a deadline rush: 2,000 order mails from 500 players
within one minute, over SMTP; latency is from the start of the SMTP transaction to the
server's 250 reply, which it gives only once the orders are stored and the ack queued."""

from __future__ import annotations

import smtplib
import threading
import time

from benchmarks.common import order_mail, players_of, service, settings, summary_ms, workdir

CUSTER_GAMES = 100   # 200 players
RUMMY_GAMES = 75     # 300 players (four-player games)


def run(mails: int = 2000, seconds: float = 60.0, clients: int = 4) -> dict:
    from pbem.server import Server

    path = workdir("rush")
    svc = service(path)
    players = []
    for i in range(CUSTER_GAMES):
        gid = svc.games.create("custer", "little_bighorn", {"us": f"u{i}@players.example", "indians": f"i{i}@players.example"})
        players += [(gid, p) for p in players_of(svc, gid)]
    for i in range(RUMMY_GAMES):
        gid = svc.games.create("rummy", "four", {f"p{k}": f"r{i}p{k}@players.example" for k in range(1, 5)})
        players += [(gid, p) for p in players_of(svc, gid)]
    queue = []
    for n in range(mails):
        gid, p = players[n % len(players)]
        body = "DRAW DECK\nDISCARD drawn" if svc.records.game(gid)["engine"] == "rummy" else None
        raw, rcpt = order_mail(svc, gid, p, body)
        queue.append((raw, p["email"], rcpt))
    svc.close()

    server = Server(settings(path), web=False).start()
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()
    interval = seconds / mails * clients
    started = time.monotonic()

    def client(k: int) -> None:
        with smtplib.SMTP("127.0.0.1", server.settings.smtp_port, timeout=60) as smtp:
            for j, (raw, sender, rcpt) in enumerate(queue[k::clients]):
                due = started + j * interval
                if (pause := due - time.monotonic()) > 0:
                    time.sleep(pause)
                t0 = time.perf_counter()
                try:
                    smtp.sendmail(sender, [rcpt], raw)
                except smtplib.SMTPException as exc:
                    with lock:
                        failures.append(str(exc))
                    continue
                with lock:
                    latencies.append((time.perf_counter() - t0) * 1000)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    try:
        stored = server.svc.store.one("SELECT COUNT(*) AS n FROM inbound WHERE via = 'smtp'")["n"]
    finally:
        server.stop()
    return {"mails": mails, "players": len(players), "games": CUSTER_GAMES + RUMMY_GAMES, "sent_over_s": round(elapsed, 1),
            "stored": stored, "lost": mails - stored, "failures": len(failures), **summary_ms(latencies)}


if __name__ == "__main__":
    print(run())
