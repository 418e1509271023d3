"""Scale: 10,000 concurrent games (half Custer's Last Stand, half four-player rummy) with
deadlines spread over a week, served by a real `pbem serve` process: its memory, its
time to start (to take a first mail, sent as soon as its SMTP port listens, and to say it
serves), and how late deadlines are met when a hundred fall in the same second.

The games are made in bulk: two games through `Service.create_game`, then their rows
(game, players, tokens, addresses, open phase) copied with fresh ids, tokens, seeds and
deadlines in one transaction; welcome mails are not copied.

A hundred Custer games then get the same deadline second, written into the database by
this process while the server runs (as `pbem` commands on the same database do); the
server's periodic sync picks the change up. Lateness is measured from that second to the
moment each phase is seen resolved with its reports queued (polling every 20 ms; a phase is
resolved and its reports queued in one transaction), once with the closes in the
scheduler's threads (``PBEM_CLOSE_WORKERS=0``, as before the worker pool) and once with a
close worker per core, each on a fresh copy of the same database. A game whose phase was
resolved twice or whose reports were queued twice counts as doubled. With the pool, the
server's log line for each close (`pbem --verbose serve`) says where its time went: the
scheduler firing and submitting it, waiting for a worker, being worked out in one, waiting
for the committing thread, and the commit.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import shutil
import sqlite3
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from benchmarks.common import ServeProcess, percentile, rss_mb, scratch, service
from benchmarks.turn_close import STAGES, Split, instrument, summary

WEEK = 7 * 86400
CORES = len(os.sched_getaffinity(0))


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


#: a `pbem serve` log line about one close the pool committed (pbem.service.close_pool)
_CLOSE_LINE = re.compile(r"close of (\S+) phase row \d+ committed: queued ([\d.]+) ms, worked out ([\d.]+) ms \(([\d.]+) ms CPU\) "
                         r"in process (\d+), waited ([\d.]+) ms, committed ([\d.]+) ms in a batch of (\d+), done at ([\d.]+)")
POOL_STAGES = ("scheduler", "queued", "worked_out", "waited", "committed")


def _cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _close_workers(pid: int) -> list[int]:
    """The server's close worker processes (its spawned children; not multiprocessing's resource tracker)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return [c for c in found if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


def _burst(start_db: Path, where: Path, chosen: list[str], workers: int, orders: list | None, first_mail: tuple) -> dict:
    """`pbem serve` with ``workers`` close workers on a copy of the starting database: how soon
    it takes a mail (``first_mail``, sent as soon as it listens) and says it serves; then a hundred
    deadlines set to the same second from outside; how late each phase was resolved with its
    reports queued, and whether any was missed or doubled."""
    where.mkdir()
    db = where / "pbem.db"
    shutil.copy(start_db, db)
    server = ServeProcess(db, env={"PBEM_CLOSE_WORKERS": str(workers)}, verbose=True)
    out: dict = {"workers": workers}
    try:
        out["first_mail_seconds"] = round(server.first_mail_taken(*first_mail), 2)
        out["start_seconds"] = round(server.wait_ready(), 2)
        out["rss_mb_at_start"] = round(rss_mb(server.pid), 1)
        time.sleep(2)  # the first scheduler sync has run
        out["rss_mb_idle"] = round(rss_mb(server.pid), 1)
        if orders:
            import smtplib
            t = time.perf_counter()
            with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=60) as smtp:
                for raw, sender, rcpt in orders:
                    smtp.sendmail(sender, [rcpt], raw)
            out["orders_per_s_among_10k_games"] = round(len(orders) / (time.perf_counter() - t), 1)
        # A hundred deadlines in the same second, set from outside as `pbem` commands do.
        sync = 10.0  # Settings.scheduler_sync_seconds: the server notices within this
        target = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=sync + 5)
        conn = sqlite3.connect(str(db), timeout=30, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("UPDATE phases SET deadline = ? WHERE game_id = ? AND status = 'open'",
                         [(target.isoformat(timespec="seconds"), g) for g in chosen])
        conn.execute("COMMIT")
        # CPU used by the server and by its close workers over the burst (whatever the machine's
        # load): what the burst costs, the bound on how fast two free cores could do it.
        processes = [server.pid, *_close_workers(server.pid)]
        cpu_before = {p: _cpu_seconds(p) for p in processes}
        marks = ",".join("?" * len(chosen))
        seen: dict[str, float] = {}
        give_up = time.time() + 300
        while len(seen) < len(chosen) and time.time() < give_up:
            rows = conn.execute(f"SELECT game_id FROM phases WHERE status = 'resolved' AND game_id IN ({marks})", chosen).fetchall()
            now = time.time()
            for (gid,) in rows:
                seen.setdefault(gid, now)
            time.sleep(0.02)
        resolutions = dict(conn.execute(f"SELECT game_id, COUNT(*) FROM phases WHERE status = 'resolved' AND game_id IN ({marks}) "
                                        "GROUP BY game_id", chosen).fetchall())
        reports = dict(conn.execute(f"SELECT game_id, COUNT(*) FROM outbox WHERE kind = 'report' AND game_id IN ({marks}) "
                                    "GROUP BY game_id", chosen).fetchall())
        conn.close()
        out["rss_mb_after_closes"] = round(rss_mb(server.pid), 1)
        cpu = {p: _cpu_seconds(p) - cpu_before[p] for p in processes}
        out["cpu_s_server"] = round(cpu[server.pid], 2)
        out["cpu_s_workers"] = [round(cpu[p], 2) for p in processes[1:]]
    finally:
        server.stop()
    late = [seen[g] - target.timestamp() for g in seen]
    out.update({
        "simultaneous_deadlines": len(chosen), "resolved": len(seen), "missed": len(chosen) - len(seen),
        # Custer games: two players, so two reports each; a phase resolved twice or a report queued twice is a double.
        "doubled": sum(1 for g in chosen if resolutions.get(g, 0) > 1 or reports.get(g, 0) > 2),
        "reports_queued": sum(reports.values()), "games_short_of_reports": sum(1 for g in seen if reports.get(g, 0) < 2),
        "late_s_first": round(min(late), 2) if late else None, "late_s_median": round(percentile(late, 50), 2) if late else None,
        "late_s_p99": round(percentile(late, 99), 2) if late else None, "late_s_last": round(max(late), 2) if late else None,
    })
    out["pool"] = _pool_stages((where / "serve.log").read_text(errors="replace"), set(chosen), target.timestamp()) if workers else None
    return out


def _pool_stages(log: str, chosen: set[str], target: float) -> dict | None:
    """From the server's log line for each close: lateness to the commit (exact, not polled), and
    where the time went between the deadline and the commit: the scheduler firing and
    submitting, waiting for a worker, working the close out in it, waiting for the committing
    thread, committing; as shares of the whole and for the last close."""
    closes = []
    for m in _CLOSE_LINE.finditer(log):
        gid, queued, worked, cpu, worker, waited, committed, batch, done = m.groups()
        if gid not in chosen:
            continue
        stages = {"queued": float(queued) / 1e3, "worked_out": float(worked) / 1e3, "waited": float(waited) / 1e3,
                  "committed": float(committed) / 1e3}
        late = float(done) - target
        stages["scheduler"] = late - sum(stages.values())
        closes.append({"late": late, "worker": int(worker), "stages": stages, "cpu": float(cpu) / 1e3, "batch": int(batch)})
    if not closes:
        return None
    total = sum(c["late"] for c in closes)
    last = max(closes, key=lambda c: c["late"])
    span = last["late"]
    busy = {}
    for c in closes:
        busy[c["worker"]] = busy.get(c["worker"], 0.0) + c["stages"]["worked_out"]
    return {
        "closes_logged": len(closes),
        "late_s_median": round(percentile([c["late"] for c in closes], 50), 2), "late_s_last": round(span, 2),
        "share": {k: round(sum(c["stages"][k] for c in closes) / total, 3) for k in POOL_STAGES},
        "last_close_s": {k: round(last["stages"][k], 3) for k in POOL_STAGES},
        "worked_out_ms_median": round(percentile([c["stages"]["worked_out"] * 1e3 for c in closes], 50), 1),
        "worked_out_cpu_ms_median": round(percentile([c["cpu"] * 1e3 for c in closes], 50), 1),
        "commit_batch_median": percentile([c["batch"] for c in closes], 50),
        "committed_ms_median": round(percentile([c["stages"]["committed"] * 1e3 for c in closes], 50), 1),
        "workers_busy_share": {str(w): round(t / span, 2) for w, t in sorted(busy.items())} if span > 0 else {},
    }


def run(games: int = 10_000, simultaneous: int = 100, workers: tuple[int, ...] = (0, CORES)) -> dict:
    """The hundred deadlines once for each number of close workers (0: closes in the
    scheduler's threads, as before the pool), each on a fresh copy of the same database."""
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
        # The mail each server is sent as soon as it listens: orders for a game neither list holds.
        spare = [g for g in ids if g.startswith("c")][simultaneous]
        p = players_of(svc, spare)[0]
        raw, rcpt = order_mail(svc, spare, p)
        first_mail = (raw, p["email"], rcpt)
        svc.store.backup(path / "start.db")
        svc.close()
        size_mb = (path / "start.db").stat().st_size / 2**20
        chosen = [g for g in ids if g.startswith("c")][:simultaneous]
        bursts = [_burst(path / "start.db", path / f"workers{n}", chosen, n, orders if i == 0 else None, first_mail)
                  for i, n in enumerate(workers)]
        stages = _split_same_closes(path / "start.db", chosen)
    first = bursts[0]
    return {
        "games": len(ids), "bulk_create_seconds": round(bulk_seconds, 1), "database_mb": round(size_mb, 1),
        "first_mail_seconds": first["first_mail_seconds"], "start_seconds": first["start_seconds"],
        "rss_mb_at_start": first["rss_mb_at_start"], "rss_mb_idle": first["rss_mb_idle"],
        "rss_mb_after_closes": first["rss_mb_after_closes"], "orders_per_s_among_10k_games": first.get("orders_per_s_among_10k_games"),
        "bursts": bursts, "closes_in_process": stages,
    }


def table(r: dict) -> list[tuple[str, str]]:
    rows = [
        (f"scale: {r['games']:,} open games, deadlines over a week (pbem serve)",
         f"first mail taken {r['first_mail_seconds']} s after spawn, 'pbem serving' at {r['start_seconds']} s; "
         f"RSS {r['rss_mb_at_start']} MB at start, {r['rss_mb_idle']} MB idle, "
         f"{r['rss_mb_after_closes']} MB after the closes; database {r['database_mb']} MB; "
         f"{r['orders_per_s_among_10k_games']} order mails/s taken over SMTP among them"),
    ]
    for b in r["bursts"]:
        how = f"{b['workers']} close worker processes" if b["workers"] else "closes in the scheduler's threads"
        rows.append((f"scale: {b['simultaneous_deadlines']} deadlines in the same second, {how}",
                     f"resolved {b['resolved']}, missed {b['missed']}, doubled {b['doubled']}, short of reports "
                     f"{b['games_short_of_reports']}; reports queued after the deadline: first +{b['late_s_first']} s, "
                     f"p50 +{b['late_s_median']} s, p99 +{b['late_s_p99']} s, p100 +{b['late_s_last']} s (polled every 20 ms); "
                     f"CPU over the burst: server {b['cpu_s_server']} s, workers {' + '.join(map(str, b['cpu_s_workers'])) or '-'} s; "
                     f"server: first mail taken {b['first_mail_seconds']} s, serving {b['start_seconds']} s, RSS {b['rss_mb_at_start']} MB"))
        pool = b.get("pool")
        if pool:
            share = ", ".join(f"{k.replace('_', ' ')} {round(pool['share'][k] * 100)} %" for k in POOL_STAGES)
            last = ", ".join(f"{k.replace('_', ' ')} {pool['last_close_s'][k]} s" for k in POOL_STAGES)
            busy = ", ".join(f"{v:.0%}" for v in pool["workers_busy_share"].values())
            rows.append((f"scale: where the {pool['closes_logged']} closes' lateness went ({b['workers']} workers, server log)",
                         f"p50 +{pool['late_s_median']} s, p100 +{pool['late_s_last']} s to the commit; share: {share}; "
                         f"the last close: {last}; worked out in {pool['worked_out_ms_median']} ms "
                         f"({pool['worked_out_cpu_ms_median']} ms of CPU), committed in {pool['committed_ms_median']} ms in "
                         f"batches of {pool['commit_batch_median']} (medians); each worker busy {busy} of the burst"))
    rows.append(_split_row(r["closes_in_process"]))
    return rows


def _split_row(c: dict) -> tuple[str, str]:
    share = ", ".join(f"{k} {round(c['share'][k] * 100)} %" for k in STAGES)
    return ("scale: the same closes in one process, one after another, split by stage",
            f"{c['closes']} closes, median {c['total_ms_median']} ms (max {c['total_ms_max']} ms); share of the time: {share}")


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
