"""Crash: `pbem serve` is killed with SIGKILL at seeded random moments while a client
streams order mails to it over SMTP and the scheduler closes turns, then restarted,
fifty times over. Afterwards:

* every message the server acknowledged (SMTP 250) is stored exactly once, and a
  message resent because the 250 was lost is recognised as a duplicate;
* every phase is resolved exactly once, and replaying the chain in-process from the
  stored start, the orders that stood (the last accepted submission of each role,
  the defaults otherwise) and the revealed seeds gives exactly the stored results:
  what an uninterrupted run with the same inputs gives;
* every report and acknowledgement is delivered at least once, each to its player,
  and a mail delivered twice is the same bytes under the same Message-ID.

The fifty-trial run forks each `pbem serve` from a pre-imported parent
(tests/reliability/zygote.py: the real CLI entry point, without fifty interpreter
start-ups); a shorter run starts `python -m pbem.cli serve` afresh each time.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import smtplib
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.mail.addresses import orders_address
from pbem.service.service import Service
from pbem.service.outbox import message_id
from pbem.service.adjudication import adjudicate
from pbem.service.store import dumps, loads
from tests.reliability.helpers import crlf
from tests.support import SmtpSink, free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = "pbem.test"


# -- starting and killing `pbem serve` ---------------------------------------------------------------
class ForkSpawner:
    """`pbem serve` processes forked from tests/reliability/zygote.py."""

    def __init__(self, env: dict):
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.reliability.zygote", "--warm"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, cwd=str(ROOT), text=True, bufsize=1)
        assert self.proc.stdout.readline().strip() == "ready"

    def _ask(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def start(self, args: list[str], log: Path) -> int:
        return int(self._ask(f"spawn {log} " + " ".join(args)))

    def stop(self, pid: int, sig=signal.SIGKILL) -> int:
        os.kill(pid, sig)
        return int(self._ask(f"wait {pid}"))

    def close(self) -> None:
        try:
            self._ask("quit")
        except (BrokenPipeError, OSError):
            pass
        self.proc.wait(timeout=10)


class ExecSpawner:
    """`python -m pbem.cli serve`, a new interpreter each time."""

    def __init__(self, env: dict):
        self.env = env
        self.procs: dict[int, subprocess.Popen] = {}

    def start(self, args: list[str], log: Path) -> int:
        out = open(log, "ab")
        p = subprocess.Popen([sys.executable, "-m", "pbem.cli", *args], stdout=out, stderr=out, env=self.env, cwd=str(ROOT))
        out.close()
        self.procs[p.pid] = p
        return p.pid

    def stop(self, pid: int, sig=signal.SIGKILL) -> int:
        p = self.procs.pop(pid)
        p.send_signal(sig)
        return p.wait(timeout=30)

    def close(self) -> None:
        for p in self.procs.values():
            p.kill()
            p.wait()


def wait_listening(port: int, pid: int, timeout: float = 120.0) -> None:
    """Until the server greets on its SMTP port (the timeout only stops a server that never does)."""
    def greets() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                s.settimeout(10)
                return s.recv(3) == b"220"
        except OSError:
            return False
    wait_until(greets, timeout=timeout, what=f"pbem serve (pid {pid}) to listen on port {port}", interval=0.01)


def _count(db_path: Path, sql: str) -> int:
    conn = sqlite3.connect(str(db_path), timeout=30)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


# -- the client: a stream of order mails, each retried with the same bytes until taken --------------------
class Client(threading.Thread):
    def __init__(self, db_path: Path, port: int, players: list[dict], seed: int, pause: float = 0.005):
        super().__init__(name="crash-client", daemon=True)
        self.db_path, self.port, self.players = db_path, port, players
        self.rng = random.Random(seed)
        self.pause = pause
        self.acked: dict[str, dict] = {}   # Message-ID -> what it was
        self.refused: dict[str, tuple] = {}
        self.attempts = 0
        self.stop_new = threading.Event()
        self.abort = threading.Event()
        self.error: BaseException | None = None

    def _message(self, n: int, db) -> tuple[str, bytes, dict]:
        p = self.players[n % len(self.players)]
        row = db.execute("SELECT p.label, p.state, g.engine FROM phases p JOIN games g ON g.id = p.game_id "
                         "WHERE p.game_id = ? AND p.status = 'open' ORDER BY p.seq DESC LIMIT 1", (p["game"],)).fetchone()
        if row is None:
            label, body = "T99", "HOLD"
        else:
            label, state, engine = row[0], json.loads(row[1]), get_engine(row[2])
            seed = hashlib.sha256(f"client {n}".encode()).hexdigest()
            body = engine.bot_orders(state, p["role"], Dice(seed)) if p["role"] in engine.phase(state).awaited else "HOLD"
        mid = f"c{n}.{self.rng.getrandbits(32):08x}@client.example"
        m = EmailMessage()
        m["From"] = p["email"]
        m["To"] = p["address"]
        m["Subject"] = f"orders {label}"
        m["Message-ID"] = f"<{mid}>"
        m.set_content(f"Orders follow.\n\nORDERS {p['game']} {label}\n{body.rstrip()}\nEND\n")
        return mid, crlf(m.as_bytes()), {"game": p["game"], "role": p["role"], "label": label}

    def _send(self, raw: bytes, p_email: str, rcpt: str) -> tuple[int, str] | None:
        """One attempt: (code, text) for an SMTP answer to DATA, None if the connection failed."""
        self.attempts += 1
        try:
            with smtplib.SMTP("127.0.0.1", self.port, timeout=10) as smtp:
                smtp.sendmail(p_email, [rcpt], raw)
                return 250, "ok"
        except smtplib.SMTPResponseException as exc:
            return exc.smtp_code, str(exc.smtp_error)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            return code, str(text)
        except (OSError, smtplib.SMTPException):
            return None

    def run(self) -> None:
        try:
            db = sqlite3.connect(str(self.db_path), timeout=30)
            n = 0
            while not self.stop_new.is_set() and not self.abort.is_set():
                mid, raw, info = self._message(n, db)
                p = self.players[n % len(self.players)]
                n += 1
                while not self.abort.is_set():  # the sender's MTA: retry the same bytes until taken
                    answer = self._send(raw, p["email"], p["address"])
                    if answer is not None and answer[0] == 250:
                        self.acked[mid] = info
                        break
                    if answer is not None and answer[0] >= 500:
                        self.refused[mid] = answer
                        break
                    time.sleep(0.01)  # the sender's retry interval, part of the load (not a wait for a state)
                time.sleep(self.pause)  # the pace of the stream of mails
            db.close()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc


# -- the campaign ------------------------------------------------------------------------------------
def run_campaign(tmp_path: Path, spawner_cls, *, trials: int, seed: int, games: int = 3, phase_seconds: float = 2.0,
                 max_delay: float = 1.0, min_acknowledged: int = 1, min_resolved: int = 0) -> dict:
    """``trials`` SIGKILLs at seeded random moments, then one uninterrupted run that goes on until
    the campaign has had ``min_acknowledged`` messages acknowledged and ``min_resolved`` phases
    resolved (on a loaded machine the killed runs may get through few), then the checks."""
    rng = random.Random(seed)
    db_path = tmp_path / "pbem.db"
    relay = SmtpSink().start()
    smtp_port, http_port = free_port(), free_port()
    env = dict(os.environ, PBEM_DB=str(db_path), PBEM_SMTP_URL=relay.url, PBEM_MAIL_DOMAIN=DOMAIN,
               PBEM_REPLIES_PER_HOUR="1000000", PYTHONPATH=str(ROOT),
               # one close worker: the killed servers still run a live pool, at half the start-up cost
               PBEM_CLOSE_WORKERS="1")
    from pbem.config import Settings
    settings = Settings(db_path=db_path, mail_domain=DOMAIN, smtp_url=relay.url, replies_per_address_per_hour=1_000_000)
    svc = Service(settings).init()
    players = []
    for g in range(games):
        emails = {"us": f"us{g}@players.example", "indians": f"ind{g}@players.example"}
        gid = svc.games.create("custer", "little_bighorn", emails, game_id=f"lb{g + 1}",
                              timing={"phase": {"kind": "duration", "seconds": phase_seconds}})
        for p in svc.records.players(gid):
            players.append({"game": gid, "role": p["role"], "email": p["email"],
                            "address": orders_address(gid, svc.records.token_for(p["id"]), DOMAIN)})
    svc.close()

    args = ["serve", "--smtp-port", str(smtp_port), "--http-port", str(http_port)]
    log = tmp_path / "serve.log"
    spawner = spawner_cls(env)
    client = Client(db_path, smtp_port, players, seed=rng.getrandbits(32))
    kills, startups = [], []
    started = time.monotonic()
    try:
        client.start()
        for trial in range(trials):
            t0 = time.monotonic()
            pid = spawner.start(args, log)
            wait_listening(smtp_port, pid)
            startups.append(time.monotonic() - t0)
            # A quarter of the kills land right after start-up, while overdue deadlines are
            # being caught up and the outbox re-sends; the rest anywhere in the run.
            delay = rng.uniform(0, 0.05) if rng.random() < 0.25 else rng.uniform(0.05, max_delay)
            time.sleep(delay)  # the kill's random moment: the trial itself, not a wait for a state
            status = spawner.stop(pid, signal.SIGKILL)
            kills.append((pid, round(delay, 3), status))
        acknowledged_through_kills = len(client.acked)
        # The last run is not interrupted: it goes on until the campaign has done enough work
        # (a count, whatever the machine's speed), the client finishes the message in flight,
        # the games are paused, the server stops cleanly, and one more (every game paused, so
        # no close can start) drains the outbox.
        pid = spawner.start(args, log)
        wait_listening(smtp_port, pid)
        resolved_sql = "SELECT COUNT(*) FROM phases WHERE status = 'resolved'"
        wait_until(lambda: client.error is not None or not client.is_alive() or (
                       len(client.acked) >= min_acknowledged and _count(db_path, resolved_sql) >= min_resolved),
                   timeout=600, what=f"{min_acknowledged} messages acknowledged and {min_resolved} phases resolved", interval=0.1)
        client.stop_new.set()
        client.join(timeout=60)
        assert not client.is_alive(), "the client's last message was never taken"
        svc = Service(settings).init()
        for g in svc.records.games():
            if g["status"] == "active":
                svc.games.pause(g["id"], actor="test", reason="end of the crash test")
        svc.close()
        # A close already under way when the games were paused has committed (or rolled back)
        # once its process has exited; the next server closes nothing, the games being paused.
        spawner.stop(pid, signal.SIGTERM)
        pid = spawner.start(args, log)
        wait_listening(smtp_port, pid)
        wait_until(lambda: _count(db_path, "SELECT COUNT(*) FROM outbox WHERE status != 'sent'") == 0,
                   timeout=120, what="the outbox to drain", interval=0.1)
        spawner.stop(pid, signal.SIGTERM)
    finally:
        client.abort.set()
        spawner.close()
        relay.stop()
    if client.error:
        raise client.error
    svc = Service(settings).init()
    try:
        return {"svc_stats": check_invariants(svc, client, relay), "kills": kills,
                "acknowledged_through_kills": acknowledged_through_kills,
                "seconds": round(time.monotonic() - started, 1), "log": log,
                "startup_median": sorted(startups)[len(startups) // 2] if startups else None}
    finally:
        svc.close()


def check_invariants(svc: Service, client: Client, relay: SmtpSink) -> dict:
    store = svc.store
    problems: list[str] = []

    # 1. Every acknowledged message is stored exactly once; nothing else is.
    inbound = store.all("SELECT id, message_id, status, note FROM inbound ORDER BY id")
    by_mid: dict[str, list[dict]] = {}
    for row in inbound:
        by_mid.setdefault(row["message_id"], []).append(row)
    errors = [r for r in inbound if r["status"] == "error"]
    assert not errors, f"inbound errors: {errors[:3]}"
    assert not client.refused, f"the server refused mail permanently: {list(client.refused.items())[:3]}"
    for mid in client.acked:
        rows = by_mid.get(mid, [])
        stored = [r for r in rows if r["status"] != "duplicate"]
        if len(stored) != 1:
            problems.append(f"acknowledged {mid} stored {len(stored)} times: {rows}")
    unknown = set(by_mid) - set(client.acked)
    assert not unknown, f"stored but never acknowledged: {sorted(unknown)[:5]}"
    subs = store.all("SELECT * FROM submissions ORDER BY id")
    per_inbound: dict[int, int] = {}
    for s in subs:
        per_inbound[s["inbound_id"]] = per_inbound.get(s["inbound_id"], 0) + 1
    assert max(per_inbound.values(), default=1) == 1, "one submission per stored message"
    # A processed message without a submission is only one that came after its game ended.
    lost = store.all("SELECT i.id, i.received_at, g.status, g.finished_at FROM inbound i JOIN games g ON g.id = i.game_id "
                     "WHERE i.status = 'processed' AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.inbound_id = i.id) "
                     "AND NOT (g.status = 'finished' AND i.received_at >= g.finished_at)")
    assert not lost, f"processed messages without a submission: {lost[:5]}"

    # 2. Every phase resolved exactly once, and the chain replays from the stored inputs.
    phases_resolved = 0
    for g in svc.records.games():
        engine = get_engine(g["engine"])
        rows = store.all("SELECT * FROM phases WHERE game_id = ? ORDER BY seq, id", (g["id"],))
        seqs = [r["seq"] for r in rows]
        assert seqs == list(range(1, len(rows) + 1)), f"{g['id']}: phase rows {seqs}"
        assert all(r["status"] == "resolved" for r in rows[:-1])
        assert rows[-1]["status"] in ("open", "resolved")
        previous = None
        for ph in rows:
            state = loads(ph["state"])
            if previous is not None and dumps(state) != dumps(previous):
                problems.append(f"{g['id']} {ph['label']}: does not start from the replayed result")
            if ph["status"] != "resolved":
                break
            accepted = store.all("SELECT * FROM submissions WHERE phase_row_id = ? AND status IN ('accepted', 'partial') ORDER BY id",
                                 (ph["id"],))
            expected, defaulted = {}, []
            for role in loads(ph["awaited"]):
                mine = [s for s in accepted if s["role"] == role]
                if mine:
                    expected[role] = loads(mine[-1]["orders"])
                    standing = [s["id"] for s in mine if s["stands"]]
                    if standing != [mine[-1]["id"]]:
                        problems.append(f"{g['id']} {ph['label']} {role}: standing {standing}, last accepted {mine[-1]['id']}")
                else:
                    expected[role] = engine.default_orders(state, role)
                    defaulted.append(role)
            if dumps(expected) != ph["orders"]:
                used = loads(ph["orders"])
                which = [r for r in expected if dumps(expected[r]) != dumps(used.get(r))]
                problems.append(f"{g['id']} {ph['label']}: resolved with other orders than the last acknowledged for {which}")
            new_state, events, rolls = adjudicate(engine, state, expected, ph["seed"])
            if dumps(new_state) != ph["result_state"]:
                problems.append(f"{g['id']} {ph['label']}: the replay differs from the stored result")
            record = loads(ph["events"])
            if dumps(events) != dumps(record["events"]) or dumps(rolls) != dumps(record["rolls"]):
                problems.append(f"{g['id']} {ph['label']}: the replay's events or dice differ")
            previous = loads(ph["result_state"])  # go on from what was stored; each phase is judged alone
            phases_resolved += 1
        verdict = svc.verifier.verify_game(g["id"])
        if not verdict["ok"]:
            problems.append(f"verify {g['id']}: {verdict['problems']}")

    # 3. Every mail delivered at least once, to its player, the same bytes each time.
    outbox = store.all("SELECT * FROM outbox ORDER BY id")
    received: dict[str, list[dict]] = {}
    for rec in relay.received:
        received.setdefault(rec["message_id"], []).append(rec)
    emails = {p["id"]: p["email"] for g in svc.records.games() for p in svc.records.players(g["id"])}
    for row in outbox:
        if row["status"] != "sent":
            problems.append(f"outbox #{row['id']} {row['kind']} still {row['status']}: {row['last_error']}")
            continue
        copies = received.get(row["message_id"], [])
        if not copies:
            problems.append(f"outbox #{row['id']} {row['kind']} marked sent but never arrived")
        for c in copies:
            if c["raw"] != row["raw"]:
                problems.append(f"{row['message_id']}: a copy differs from the queued bytes")
            if c["rcpt"] != [row["to_addr"]] or (row["player_id"] and row["to_addr"] != emails[row["player_id"]]):
                problems.append(f"{row['message_id']}: delivered to {c['rcpt']}, not its player")
    assert set(received) <= {r["message_id"] for r in outbox}, "the relay got mail the outbox never held"
    # Each accepted, partial or rejected submission was acknowledged; each resolved phase reported to each player.
    for s in subs:
        if s["status"] in ("accepted", "partial", "rejected"):
            key = f"ack/{s['game_id']}/{s['phase_label']}/{s['role']}/{s['id']}"
            if not any(r["message_id"] == message_id(key, DOMAIN) for r in outbox):
                problems.append(f"submission {s['id']} never acknowledged")
    reports = [r for r in outbox if r["kind"] == "report"]
    assert len(reports) == 2 * phases_resolved, (len(reports), phases_resolved)

    assert not problems, "\n".join(problems[:20]) + (f"\n... {len(problems)} problems" if len(problems) > 20 else "")
    return {
        "acknowledged": len(client.acked), "attempts": client.attempts,
        "duplicates_stored": sum(1 for r in inbound if r["status"] == "duplicate"),
        "submissions": len(subs), "phases_resolved": phases_resolved,
        "mails": len(outbox), "mails_delivered_twice": sum(1 for v in received.values() if len(v) > 1),
    }


def test_fifty_sigkills_while_ingesting_and_closing_turns(tmp_path):
    seed = int(os.environ.get("PBEM_CRASH_SEED", "7"))  # another seed explores other kill moments
    # The campaign does what it is meant to: many messages and closes go through it. The last
    # run goes on until there were this many (on a quiet machine the killed runs alone get
    # about 100-900 messages and 25-40 closes; far fewer when it is loaded).
    result = run_campaign(tmp_path, ForkSpawner, trials=50, seed=seed, min_acknowledged=15, min_resolved=6)
    stats = result["svc_stats"]
    print(f"\ncrash campaign: {len(result['kills'])} SIGKILLs in {result['seconds']} s "
          f"(start-up median {result['startup_median']:.3f} s; {result['acknowledged_through_kills']} messages "
          f"acknowledged before the last run); {stats}")
    assert len(result["kills"]) == 50
    assert all(os.WIFSIGNALED(st) and os.WTERMSIG(st) == signal.SIGKILL for _, _, st in result["kills"])


def test_sigkill_of_a_freshly_started_pbem_serve(tmp_path):
    """The same campaign with `python -m pbem.cli serve` started afresh each time."""
    result = run_campaign(tmp_path, ExecSpawner, trials=4, seed=11, games=1, max_delay=0.8)
    stats = result["svc_stats"]
    print(f"\ncrash campaign (exec): {result['kills']} in {result['seconds']} s; {stats}")
    assert all(st == -signal.SIGKILL for _, _, st in result["kills"])
    assert stats["acknowledged"] >= 1
