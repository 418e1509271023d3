"""Scale: 10,000 concurrent games (half Custer's Last Stand, half four-player rummy) with
deadlines spread over a week, served by a real `pbem serve` process: its memory, its
time to start, and how late deadlines are met when a hundred fall in the same second.

The games are made in bulk: two games through `Service.create_game`, then their rows
(game, players, tokens, addresses, open phase) copied with fresh ids, tokens, seeds and
deadlines in one transaction; welcome mails are not copied.

A hundred Custer games then get the same deadline second, written into the database by
this process while the server runs (as `pbem` commands on the same database do); the
server's periodic sync picks the change up. Lateness is measured from that second to the
moment each phase is seen resolved with its reports queued (polling every 20 ms).
"""

from __future__ import annotations

import random
import secrets
import sqlite3
import time
from datetime import datetime, timedelta, timezone

from benchmarks.common import ServeProcess, percentile, rss_mb, scratch, service
from benchmarks.turn_close import STAGES, Split, instrument, summary

WEEK = 7 * 86400


def _bulk_games(svc, count: int, rng: random.Random) -> list[str]:
    from pbem.dice import commitment
    from pbem.mail.addresses import new_token
    from pbem.service.clock import to_iso

    templates = [
        svc.games.create("custer", "little_bighorn", {"us": "t-us@players.example", "indians": "t-ind@players.example"}, game_id="tcuster"),
        svc.games.create("rummy", "four", {f"p{i}": f"t-p{i}@players.example" for i in range(1, 5)}, game_id="trummy"),
    ]
    store = svc.store
    now = svc.now()
    made = []
    games_rows, phase_rows, people = [], [], []
    for n in range(count - len(templates)):
        tid = templates[n % 2]
        gid = f"{'c' if tid == 'tcuster' else 'r'}{n}"
        seed = secrets.token_hex(32)
        deadline = now + timedelta(seconds=rng.uniform(3600, WEEK))
        games_rows.append((gid, secrets.token_hex(4), tid))
        phase_rows.append((gid, seed, commitment(seed), to_iso(deadline), to_iso(now), tid))
        people.append((gid, tid))
        made.append(gid)
    with store.write():  # plain SQL: sqlite-utils' per-row insert would take minutes here
        store.conn.executemany(
            "INSERT INTO games (id, engine, scenario, options, title, status, timing, invitation_code, created_at) "
            "SELECT ?, engine, scenario, options, title, status, timing, ?, created_at FROM games WHERE id = ?", games_rows)
        open_phase = {tid: store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open'", (tid,)) for tid in templates}
        store.conn.executemany(
            "INSERT INTO phases (game_id, seq, label, mode, immediate, awaited, state, commitment, seed, opened_at, deadline, status) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open')",
            [(gid, open_phase[tid]["seq"], open_phase[tid]["label"], open_phase[tid]["mode"], open_phase[tid]["immediate"],
              open_phase[tid]["awaited"], open_phase[tid]["state"], comm, seed, opened, deadline)
             for gid, seed, comm, deadline, opened, tid in phase_rows])
        template_players = {tid: store.all("SELECT * FROM players WHERE game_id = ? ORDER BY id", (tid,)) for tid in templates}
        for gid, tid in people:
            for p in template_players[tid]:
                email = f"{gid}.{p['role']}@players.example"
                cur = store.conn.execute("INSERT INTO players (game_id, role, email, lang, tz, status, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                         (gid, p["role"], email, p["lang"], p["tz"], p["status"], p["joined_at"]))
                pid = cur.lastrowid
                store.conn.execute("INSERT INTO tokens (token, game_id, player_id, created_at) VALUES (?, ?, ?, ?)",
                                   (new_token(), gid, pid, to_iso(now)))
                store.conn.execute("INSERT INTO addresses (player_id, email, confirmed_at, created_at) VALUES (?, ?, ?, ?)",
                                   (pid, email, to_iso(now), to_iso(now)))
        # The templates' own deadlines go into the week too.
        for tid in templates:
            store.execute("UPDATE phases SET deadline = ? WHERE game_id = ?", (to_iso(now + timedelta(seconds=rng.uniform(3600, WEEK))), tid))
    return made + templates


def _split_same_closes(start_db, chosen: list[str]) -> dict:
    """The same hundred closes again, in this process on a copy of the starting database
    (10,000 games), one after another, split by stage as the turn_close benchmark does: where
    the server's time went (it cannot be instrumented from outside)."""
    from pbem.service.clock import to_iso
    split, closes = Split(), []
    svc = service(start_db.parent / "split", db_path=start_db)
    undo = instrument(split, closes)
    try:
        with svc.store.write():
            svc.store.conn.executemany("UPDATE phases SET deadline = ? WHERE game_id = ? AND status = 'open'",
                                       [(to_iso(svc.now()), g) for g in chosen])
        for gid in chosen:
            svc.phases.close(gid)
    finally:
        undo()
        svc.close()
    return summary(closes)


def run(games: int = 10_000, simultaneous: int = 100) -> dict:
    rng = random.Random(10_000)
    with scratch("scale") as path:
        svc = service(path)
        t = time.perf_counter()
        ids = _bulk_games(svc, games, rng)
        bulk_seconds = time.perf_counter() - t
        # Orders for a hundred of the games, sent once the server runs among all of them.
        from benchmarks.common import order_mail, players_of
        orders = []
        for gid in [g for g in ids if g.startswith("c")][-100:]:
            p = players_of(svc, gid)[0]
            raw, rcpt = order_mail(svc, gid, p)
            orders.append((raw, p["email"], rcpt))
        svc.store.backup(path / "start.db")  # for the in-process split of the same closes, below
        svc.close()
        db = path / "pbem.db"
        size_mb = db.stat().st_size / 2**20

        server = ServeProcess(db)
        try:
            start_seconds = server.wait_ready()
            rss_start = rss_mb(server.pid)
            time.sleep(2)  # the first scheduler sync has run
            rss_idle = rss_mb(server.pid)
            import smtplib
            t = time.perf_counter()
            with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=60) as smtp:
                for raw, sender, rcpt in orders:
                    smtp.sendmail(sender, [rcpt], raw)
            inbound_rate = len(orders) / (time.perf_counter() - t)

            # A hundred deadlines in the same second, set from outside as `pbem` commands do.
            chosen = [g for g in ids if g.startswith("c")][:simultaneous]
            sync = 10.0  # Settings.scheduler_sync_seconds: the server notices within this
            target = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=sync + 5)
            conn = sqlite3.connect(str(db), timeout=30, isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany("UPDATE phases SET deadline = ? WHERE game_id = ? AND status = 'open'",
                             [(target.isoformat(timespec="seconds"), g) for g in chosen])
            conn.execute("COMMIT")
            marks = ",".join("?" * len(chosen))
            seen: dict[str, float] = {}
            give_up = time.time() + 300
            while len(seen) < len(chosen) and time.time() < give_up:
                rows = conn.execute(f"SELECT game_id FROM phases WHERE status = 'resolved' AND game_id IN ({marks})", chosen).fetchall()
                now = time.time()
                for (gid,) in rows:
                    seen.setdefault(gid, now)
                time.sleep(0.02)
            reports = conn.execute(f"SELECT COUNT(*) FROM outbox WHERE kind = 'report' AND game_id IN ({marks})", chosen).fetchone()[0]
            conn.close()
            rss_after = rss_mb(server.pid)
        finally:
            server.stop()
        stages = _split_same_closes(path / "start.db", chosen)
    late = [seen[g] - target.timestamp() for g in seen]
    return {
        "games": len(ids), "bulk_create_seconds": round(bulk_seconds, 1), "database_mb": round(size_mb, 1),
        "start_seconds": round(start_seconds, 2), "rss_mb_at_start": round(rss_start, 1), "rss_mb_idle": round(rss_idle, 1),
        "rss_mb_after_closes": round(rss_after, 1), "orders_per_s_among_10k_games": round(inbound_rate, 1),
        "simultaneous_deadlines": len(chosen), "resolved": len(seen), "missed": len(chosen) - len(seen),
        "reports_queued": reports,
        "late_s_first": round(min(late), 2) if late else None, "late_s_median": round(percentile(late, 50), 2) if late else None,
        "late_s_p99": round(percentile(late, 99), 2) if late else None, "late_s_last": round(max(late), 2) if late else None,
        "closes_in_process": stages,
    }


def table(r: dict) -> list[tuple[str, str]]:
    return [
        (f"scale: {r['games']:,} open games, deadlines over a week (pbem serve)",
         f"start {r['start_seconds']} s; RSS {r['rss_mb_at_start']} MB at start, {r['rss_mb_idle']} MB idle, "
         f"{r['rss_mb_after_closes']} MB after the closes; database {r['database_mb']} MB; "
         f"{r['orders_per_s_among_10k_games']} order mails/s taken over SMTP among them"),
        (f"scale: {r['simultaneous_deadlines']} deadlines in the same second",
         f"resolved {r['resolved']}, missed {r['missed']}; reports queued after the deadline: first +{r['late_s_first']} s, "
         f"median +{r['late_s_median']} s, p99 +{r['late_s_p99']} s, last +{r['late_s_last']} s"),
        _split_row(r["closes_in_process"]),
    ]


def _split_row(c: dict) -> tuple[str, str]:
    share = ", ".join(f"{k} {round(c['share'][k] * 100)} %" for k in STAGES)
    return ("scale: the same closes in one process, one after another, split by stage",
            f"{c['closes']} closes, median {c['total_ms_median']} ms (max {c['total_ms_max']} ms); share of the time: {share}")


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
