"""Issue 26, item 9, from outside: a real `pbem serve` whose wall clock steps back three days
and forward again (libfaketime, Debian's faketime, reads the offset from a file on every call;
the monotonic clock stays the machine's, as NTP and a restored virtual machine leave it).
Games are made from the CLI, another process on the same database, on the same stepped clock;
each deadline must close once, never before its time, and its reports reach the relay.
Nothing is driven by hand here: APScheduler reads the machine's clock and waits on it, which is
what the guarantee is about (tests/reliability/test_clock_steps.py drives the same scheduler
with a clock moved by hand, second by second, and bounds the lateness).
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.service.clock import from_iso
from tests.core.helpers import IND, US
from tests.support import free_port

ROOT = Path(__file__).resolve().parents[2]
WAIT = 90  # seconds: only bounds a failure (a stalled deadline would wait three days)


def _libfaketime() -> str | None:
    """The multithreaded libfaketime, installed from Debian when missing and we may (scripts/test installs it too)."""
    pattern = "/usr/lib/*/faketime/libfaketimeMT.so.1"
    if not glob.glob(pattern) and os.geteuid() == 0 and shutil.which("apt-get"):
        quiet = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], env=quiet, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "faketime"], env=quiet, capture_output=True)
    found = sorted(glob.glob(pattern))
    return found[0] if found else None


@pytest.fixture
def stepped_env(tmp_path, sink):
    """The environment of `pbem` processes whose wall clock follows tmp_path/offset."""
    library = _libfaketime()
    if library is None:
        pytest.skip("libfaketime is needed (Debian package faketime; scripts/test installs it)")
    offset = tmp_path / "offset"
    offset.write_text("+0\n")
    env = dict(os.environ, LD_PRELOAD=library, FAKETIME_TIMESTAMP_FILE=str(offset), FAKETIME_NO_CACHE="1",
               FAKETIME_DONT_FAKE_MONOTONIC="1", PBEM_DB=str(tmp_path / "pbem.db"), PBEM_MAIL_DOMAIN="pbem.test",
               PBEM_SMTP_URL=sink.url, PBEM_CLOSE_WORKERS="1", PBEM_MAILDIR=str(tmp_path / "outbox"))
    return env, offset


def _pbem(env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pbem.cli", *args], env=env, cwd=str(ROOT), capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _new_game(env: dict, deadline: str) -> str:
    return _pbem(env, "game", "new", "--engine", "custer", "--scenario", "little_bighorn",
                 "--player", f"us={US}", "--player", f"indians={IND}", "--deadline", deadline)


def _first_phase(db: Path, gid: str) -> dict:
    conn = sqlite3.connect(str(db), timeout=30)
    conn.row_factory = sqlite3.Row
    try:
        return dict(conn.execute("SELECT * FROM phases WHERE game_id = ? AND seq = 1 AND status != 'superseded'", (gid,)).fetchone())
    finally:
        conn.close()


def _first_reports(gid: str):
    """A predicate on the relay's records: the reports on the game's first phase (T1)."""
    return lambda r: r["kind"] == "report" and r["msg"]["X-PBEM-Game"] == gid and "Report T1;" in r["msg"]["Subject"]


def test_pbem_serve_closes_every_deadline_once_across_real_clock_steps(tmp_path, sink, stepped_env):
    env, offset = stepped_env
    db = tmp_path / "pbem.db"
    log = tmp_path / "serve.log"
    with open(log, "wb") as err:
        server = subprocess.Popen([sys.executable, "-m", "pbem.cli", "serve", "--smtp-port", str(free_port()),
                                   "--http-port", str(free_port())], env=env, cwd=str(ROOT), stdout=subprocess.PIPE, stderr=err)
    try:
        assert server.stdout.readline().startswith(b"pbem serving"), log.read_text(errors="replace")
        a = _new_game(env, "10s")  # due ten seconds from now on the true calendar
        offset.write_text("-3d\n")  # the clock steps back three days: a's deadline is three days ahead
        c = _new_game(env, "3s")  # made after the step, due three seconds later on the stepped clock
        sink.wait_for(_first_reports(c), count=2, timeout=WAIT)
        assert _first_phase(db, a)["status"] == "open", "a deadline three days ahead on the stepped clock waits"
        offset.write_text("+0\n")  # and forward again: a's deadline is (or soon will be) passed
        sink.wait_for(_first_reports(a), count=2, timeout=WAIT)
    finally:
        server.terminate()
        try:
            server.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            raise AssertionError("pbem serve did not stop on SIGTERM") from None
    for gid in (a, c):
        phase = _first_phase(db, gid)
        assert phase["status"] == "resolved" and phase["label"] == "T1"
        assert from_iso(phase["deadline"]) <= from_iso(phase["resolved_at"]), f"{gid} closed before its deadline"
        reports = [r for r in sink.received if _first_reports(gid)(r)]
        assert sorted(r["to"] for r in reports) == sorted([US, IND]), f"{gid}: one report per player, once"
    text = log.read_text(errors="replace")
    assert "the clock stepped -259" in text and "the clock stepped +259" in text, text
