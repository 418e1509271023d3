"""Shared pieces of the benchmark suite: work directories, settings and a service on
them, order mails, timers and percentiles, process memory, a `pbem serve` subprocess."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path

from pbem.engines import get_engine

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = "pbem.bench"
BENCH_DIR = ROOT / "var" / "bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- directories, settings, a service ------------------------------------------------------------
def workdir(name: str) -> Path:
    """A fresh scratch directory on the real disk (durable commits cost what they cost), under var/bench."""
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=BENCH_DIR))


@contextmanager
def scratch(name: str):
    """:func:`workdir`, removed afterwards."""
    path = workdir(name)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def settings(path: Path, **changes):
    from pbem.config import Settings
    base = Settings(db_path=path / "pbem.db", maildir=path / "outbox", mail_domain=DOMAIN,
                    smtp_port=free_port(), http_port=free_port(), replies_per_address_per_hour=1_000_000)
    return base.with_(**changes) if changes else base


def service(path: Path, **changes):
    from pbem.service.service import Service
    return Service(settings(path, **changes)).init()


def players_of(svc, game_id: str) -> list[dict]:
    return [p for p in svc.records.players(game_id) if p["status"] == "active"]


# -- mail ----------------------------------------------------------------------------------
_serial = [0]


def raw_order_mail(sender: str, to_addr: str, game: str, phase: str, body: str, n: int | None = None) -> bytes:
    if n is None:
        _serial[0] += 1
        n = _serial[0]
    m = EmailMessage()
    m["From"] = sender
    m["To"] = to_addr
    m["Subject"] = f"Orders for {phase}"
    m["Message-ID"] = f"<bench{n}.{os.getpid()}.{time.monotonic_ns()}@players.example>"
    m.set_content(f"Here are my orders.\n\nORDERS {game} {phase}\n{body.rstrip()}\nEND\n\n-- \nsent from a benchmark\n")
    return m.as_bytes(policy=m.policy.clone(linesep="\r\n"))


def order_mail(svc, game_id: str, player: dict, body: str | None = None) -> tuple[bytes, str]:
    """(raw message, its recipient): ``player``'s orders for the open phase, the order
    template unless ``body`` is given, to the player's own orders address."""
    from pbem.mail.addresses import orders_address
    g = svc.records.game(game_id)
    ph = svc.records.current_phase(game_id)
    if body is None:
        body = get_engine(g["engine"]).order_template(svc.records.game_state(game_id), player["role"])
    rcpt = orders_address(game_id, svc.records.token_for(player["id"]), svc.settings.mail_domain)
    return raw_order_mail(player["email"], rcpt, game_id, ph["label"], body), rcpt


def custer_order_mails(svc, count: int) -> list[tuple[bytes, str, str]]:
    """(raw, sender, recipient) of ``count`` order mails (each side's order template) spread
    over Little Big Horn games made for them, twenty mails a game."""
    games = [svc.games.create("custer", "little_bighorn", {"us": f"us{i}@players.example", "indians": f"ind{i}@players.example"})
             for i in range(max(1, count // 20))]
    mails = []
    for i in range(count):
        gid = games[i % len(games)]
        player = players_of(svc, gid)[i % 2]
        raw, rcpt = order_mail(svc, gid, player)
        mails.append((raw, player["email"], rcpt))
    return mails


def play_with_bots(svc, game_id: str, *, seed_label: str, max_closes: int = 1000) -> None:
    """Every awaited role mails its bot's orders for the open phase, and what is still open
    then closes as at its deadline; until the game ends or ``max_closes`` phases."""
    from pbem.dice import Dice
    from pbem.mail.addresses import orders_address
    from pbem.service.store import loads
    engine = get_engine(svc.records.game(game_id)["engine"])
    for _ in range(max_closes):
        ph = svc.records.current_phase(game_id)
        if ph is None:
            return
        state = loads(ph["state"])
        for role in engine.phase(state).awaited:
            p = next(q for q in svc.records.players(game_id) if q["role"] == role)
            body = engine.bot_orders(state, role, Dice(seed_hex(seed_label, ph["label"], role)))
            svc.mailroom.receive(raw_order_mail(p["email"], orders_address(game_id, svc.records.token_for(p["id"]), svc.settings.mail_domain),
                                       game_id, ph["label"], body))
        current = svc.records.current_phase(game_id)
        if current is not None and current["id"] == ph["id"]:
            svc.phases.close(game_id)  # the deadline


# -- measuring -------------------------------------------------------------------------------
class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start


def percentile(values, p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def summary_ms(values_ms) -> dict:
    values_ms = list(values_ms)
    if not values_ms:
        return {"count": 0}
    return {"count": len(values_ms), "p50_ms": round(percentile(values_ms, 50), 1), "p90_ms": round(percentile(values_ms, 90), 1),
            "p99_ms": round(percentile(values_ms, 99), 1), "max_ms": round(max(values_ms), 1),
            "mean_ms": round(statistics.mean(values_ms), 1)}


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def seed_hex(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


# -- the real process --------------------------------------------------------------------------
class ServeProcess:
    """`python -m pbem.cli serve` on loopback ports, for figures about the real process."""

    def __init__(self, db: Path, *, smtp_url: str | None = None, maildir: Path | None = None, env: dict | None = None,
                 verbose: bool = False):
        self.smtp_port, self.http_port = free_port(), free_port()
        self.db = db
        env = dict(os.environ, PBEM_DB=str(db), PBEM_MAIL_DOMAIN=DOMAIN, PYTHONPATH=str(ROOT),
                   PBEM_REPLIES_PER_HOUR="1000000", **(env or {}))
        if smtp_url:
            env["PBEM_SMTP_URL"] = smtp_url
        else:
            env.pop("PBEM_SMTP_URL", None)
        self.log = open(db.parent / "serve.log", "ab")
        args = [sys.executable, "-m", "pbem.cli", *(["--verbose"] if verbose else []), "serve", "--smtp-port", str(self.smtp_port),
                "--http-port", str(self.http_port), "--maildir", str(maildir or db.parent / "outbox")]
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, env=env, cwd=str(ROOT))
        self._first_line: list = []  # (the line, seconds from spawn), read as soon as it is written
        self._reader = threading.Thread(target=self._read_first_line, daemon=True)
        self._reader.start()

    def _read_first_line(self) -> None:
        line = self.proc.stdout.readline()
        self._first_line[:] = [line, time.perf_counter() - self.started]

    def wait_ready(self) -> float:
        """Seconds from spawn until `pbem serve` said every part listens (its first line of output)."""
        self._reader.join()
        line, seconds = self._first_line
        if not line.startswith(b"pbem serving"):
            raise RuntimeError(f"pbem serve did not start: {line!r}; see {self.log.name}")
        return seconds

    def first_mail_taken(self, raw: bytes, sender: str, rcpt: str, timeout: float = 120.0) -> float:
        """Seconds from spawn until the server took ``raw`` (its 250), connecting every 10 ms until it listens."""
        import smtplib
        while True:
            try:
                with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=timeout) as smtp:
                    smtp.sendmail(sender, [rcpt], raw)
                return time.perf_counter() - self.started
            except (ConnectionRefusedError, smtplib.SMTPServerDisconnected):
                if self.proc.poll() is not None or time.perf_counter() - self.started > timeout:
                    raise RuntimeError(f"pbem serve never took a mail; see {self.log.name}") from None
                time.sleep(0.01)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
