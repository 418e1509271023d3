"""Closes worked out in worker processes (issue 17): the database stays the only record of what
is closed and queued, a worker that dies loses nothing and its closes are redone exactly once,
and a close racing another closer (the CLI, orders coming in) resolves the phase once, with
the orders that stood when it was committed."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from datetime import timedelta

import pytest

from pbem.config import Settings
from pbem.server import Server
from pbem.service.clock import to_iso
from pbem.service.close_pool import CloseFailed, ClosePool
from pbem.service.phases import ClosePlan
from tests.core.close_pool_hooks import HoldCloses
from tests.core.helpers import IND, US, new_game, orders_mail

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _open_phase(svc, game_id: str) -> int:
    return svc.records.current_phase(game_id)["id"]


def _resolved_once_with_one_report_each(svc, game_id: str) -> None:
    """Phase 1 resolved by exactly one row, phase 2 open, and one report to each player."""
    rows = svc.store.all("SELECT seq, status FROM phases WHERE game_id = ? ORDER BY seq", (game_id,))
    assert [(r["seq"], r["status"]) for r in rows] == [(1, "resolved"), (2, "open")], (game_id, rows)
    reports = svc.store.all("SELECT to_addr, message_id FROM outbox WHERE game_id = ? AND kind = 'report'", (game_id,))
    assert sorted(r["to_addr"] for r in reports) == sorted([US, IND]), (game_id, reports)


def _wait_exit(pid: int, timeout: float) -> bool:
    """Whether process ``pid`` (not a child of ours) has ended within ``timeout`` seconds (woken by its end)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    finally:
        os.close(fd)


def test_a_plan_is_worked_out_without_writing_and_committed_once(svc):
    gid = new_game(svc)
    before = svc.store.one("SELECT COUNT(*) AS n FROM outbox")["n"]
    plan = svc.phases.prepare_close(gid, now=svc.now())
    assert isinstance(plan, ClosePlan) and plan.label == "T1" and len(plan.mails) == 2
    assert svc.records.current_phase(gid)["seq"] == 1, "working a close out changes nothing"
    assert svc.store.one("SELECT COUNT(*) AS n FROM outbox")["n"] == before
    assert svc.phases.commit_close(plan)["next"] == "T2"
    assert svc.phases.commit_close(plan) is None, "the same plan again finds its phase closed"
    _resolved_once_with_one_report_each(svc, gid)


def test_closes_are_worked_out_in_the_workers_and_committed_here(svc, tmp_path):
    games = [new_game(svc) for _ in range(3)]
    hook = HoldCloses(hold=[], folder=tmp_path)
    pool = ClosePool(svc, 1, prepare_hook=hook).start()
    try:
        workers = pool.worker_pids()
        results = [pool.submit(gid, _open_phase(svc, gid)).result(timeout=120) for gid in games]
    finally:
        pool.shutdown()
    assert [r["next"] for r in results] == ["T2"] * 3
    assert {gid for _, gid in hook.started()} == set(games)
    assert {pid for pid, _ in hook.started()} == set(workers) and os.getpid() not in workers
    for gid in games:
        _resolved_once_with_one_report_each(svc, gid)


def test_a_worker_killed_inside_its_close_loses_nothing_and_its_closes_are_redone_once(svc, tmp_path):
    """SIGKILL a worker while it works a close out, with a second close held in the other
    worker and two more waiting: every one of the four is resolved once with one report per
    player; the killed close and the one the broken pool stopped were each worked out again."""
    games = [new_game(svc) for _ in range(4)]
    victim, bystander = games[0], games[1]
    hook = HoldCloses(hold=[victim, bystander], folder=tmp_path)
    pool = ClosePool(svc, 2, prepare_hook=hook).start()
    try:
        futures = {gid: pool.submit(gid, _open_phase(svc, gid)) for gid in games}
        holders = dict(hook.holder() for _ in range(2))
        assert set(holders) == {victim, bystander}
        assert all(svc.records.current_phase(gid)["seq"] == 1 for gid in games[:2])
        os.kill(holders[victim], signal.SIGKILL)
        results = {gid: done.result(timeout=120) for gid, done in futures.items()}
        assert holders[victim] not in pool.worker_pids()
    finally:
        hook.let_go()
        pool.shutdown()
    assert all(result is not None for result in results.values()), results
    for gid in games:
        _resolved_once_with_one_report_each(svc, gid)
    started = [gid for _, gid in hook.started()]
    assert started.count(victim) == 2 and started.count(bystander) == 2, started
    assert [pid for pid, gid in hook.started() if gid == victim][0] == holders[victim]


def test_a_pool_close_racing_the_cli_resolves_the_phase_once(svc, settings, tmp_path):
    gid = new_game(svc)
    hook = HoldCloses(hold=[gid], folder=tmp_path)
    pool = ClosePool(svc, 1, prepare_hook=hook).start()
    try:
        done = pool.submit(gid, _open_phase(svc, gid))
        hook.holder()  # the worker has read the phase and stopped before working it out
        env = dict(os.environ, PBEM_DB=str(settings.db_path), PBEM_MAIL_DOMAIN=settings.mail_domain, PYTHONPATH=ROOT)
        subprocess.run([sys.executable, "-m", "pbem.cli", "game", "close-turn", gid], env=env, check=True,
                       capture_output=True, timeout=120)
        hook.let_go(gid)
        assert done.result(timeout=120) is None, "the pool's close found the phase closed by the CLI"
    finally:
        hook.let_go()
        pool.shutdown()
    _resolved_once_with_one_report_each(svc, gid)


def test_orders_that_come_while_a_worker_works_the_close_out_are_the_ones_resolved(svc, tmp_path):
    gid = new_game(svc)
    hook = HoldCloses(hold=[gid], folder=tmp_path)
    pool = ClosePool(svc, 1, prepare_hook=hook).start()
    try:
        done = pool.submit(gid, _open_phase(svc, gid))
        hook.holder()
        svc.mailroom.receive(orders_mail(svc, gid, "us"))  # before the deadline's close is committed
        hook.let_go(gid)
        result = done.result(timeout=120)
    finally:
        hook.let_go()
        pool.shutdown()
    assert result["defaulted"] == ["indians"], "us's orders, committed meanwhile, stood"
    _resolved_once_with_one_report_each(svc, gid)


def test_the_server_closes_an_overdue_phase_in_its_workers_and_stops_them(settings):
    server = Server(settings.with_(close_workers=1), web=False)
    svc = server.svc
    gid = new_game(svc)
    ph = svc.records.current_phase(gid)
    with svc.store.write():
        svc.records.set_deadline(ph["id"], to_iso(svc.now() - timedelta(minutes=1)))
    server.start()
    try:
        workers = server.closes.worker_pids()
        assert len(workers) == 1
        server.closes.submit(gid, ph["id"]).result(timeout=120)  # the sweep at start submitted it already: the same close
    finally:
        server.stop()
    _resolved_once_with_one_report_each(svc, gid)
    assert _wait_exit(workers[0], 60), "the worker stopped with the server"


def test_workers_end_with_a_server_killed_outright(tmp_path):
    script = (
        "import sys\n"
        "from pbem.config import Settings\n"
        "from pbem.service.service import Service\n"
        "from pbem.service.close_pool import ClosePool\n"
        f"svc = Service(Settings(db_path={str(tmp_path / 'k.db')!r}, maildir={str(tmp_path / 'out')!r})).init()\n"
        "pool = ClosePool(svc, 2).start()\n"
        "print(*pool.worker_pids(), flush=True)\n"
        "sys.stdin.read()\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=ROOT))
    try:
        workers = [int(pid) for pid in proc.stdout.readline().split()]
        assert len(workers) == 2
    finally:
        proc.kill()
        proc.wait()
    assert all(_wait_exit(pid, 60) for pid in workers), "no worker outlives its server"


def test_close_workers_default_to_one_per_core_and_zero_closes_in_process(monkeypatch):
    monkeypatch.delenv("PBEM_CLOSE_WORKERS", raising=False)
    assert Settings.from_env().close_workers == len(os.sched_getaffinity(0))
    monkeypatch.setenv("PBEM_CLOSE_WORKERS", "0")
    assert Settings.from_env().close_workers == 0


def test_plans_committed_in_one_batch_each_stand_and_everyone_is_told_after_the_commit(svc, settings):
    """A batch of plans is one transaction; a plan made stale meanwhile (orders came) is worked
    out again inside it; the listeners (the outbox worker, the scheduler) are told only once
    the batch is committed, so what they read then is there."""
    from pbem.service.service import Service
    games = [new_game(svc) for _ in range(3)]
    plans = [svc.phases.prepare_close(gid, now=svc.now()) for gid in games]
    svc.mailroom.receive(orders_mail(svc, games[1], "us"))
    reader = Service(settings)  # another connection, as the outbox worker's thread has
    seen = []
    svc.listeners.append(lambda what, gid: seen.append((what, gid, len(reader.store.all(
        "SELECT id FROM outbox WHERE game_id = ? AND kind = 'report'", (gid,))))) if what == "outbox" else None)
    results = svc.phases.commit_closes(plans)
    assert [r["defaulted"] for r in results] == [["us", "indians"], ["indians"], ["us", "indians"]]
    assert seen == [("outbox", gid, 2) for gid in games]
    for gid in games:
        _resolved_once_with_one_report_each(svc, gid)
    reader.close()


def test_a_worker_warms_the_pictures_of_the_scenarios_in_play_only():
    from pbem.service.close_pool import warm_pictures
    assert warm_pictures({("custer", "little_bighorn"), ("rummy", "four")}) == 2
    assert warm_pictures(set()) == 0


def test_a_close_that_kills_every_worker_is_given_up_and_the_others_go_on(svc, tmp_path):
    """A close whose working out kills its worker each time is given back to its submitter (the
    scheduler retries it later, with backoff) after three workers, writing nothing; the pool
    made anew each time still closes the other phases, once each."""
    doomed, other, later = (new_game(svc) for _ in range(3))
    hook = HoldCloses(hold=[], folder=tmp_path, kill=(doomed,))
    pool = ClosePool(svc, 1, prepare_hook=hook).start()
    try:
        fails, goes = pool.submit(doomed, _open_phase(svc, doomed)), pool.submit(other, _open_phase(svc, other))
        with pytest.raises(CloseFailed, match="died 3 times"):
            fails.result(timeout=120)
        assert goes.result(timeout=120)["next"] == "T2"
        assert pool.submit(later, _open_phase(svc, later)).result(timeout=120)["next"] == "T2"
    finally:
        pool.shutdown()
    assert [gid for _, gid in hook.started()].count(doomed) == 3
    assert svc.records.current_phase(doomed)["seq"] == 1
    assert svc.store.all("SELECT id FROM outbox WHERE game_id = ? AND kind = 'report'", (doomed,)) == []
    _resolved_once_with_one_report_each(svc, other)
    _resolved_once_with_one_report_each(svc, later)
