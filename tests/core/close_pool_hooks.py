"""A prepare hook for the close pool's tests, run inside its worker processes (kept apart from
the tests so that a worker imports only this). It notes each close a worker starts to work
out, and stops the first attempt at each game the test names there: it tells the test which
worker holds it and waits until the test lets it go on (or kills that worker).

Only pipes and files pass between the test and the workers: a worker killed while waiting on
a shared lock or event would leave it held, and the test waiting forever."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

SPAWN = multiprocessing.get_context("spawn")  # the pool's own start method


class HoldCloses:
    """``hold``: games whose first attempt stops in its worker; ``kill``: games whose every
    attempt kills its own worker (a close that would crash any process working it out)."""

    def __init__(self, hold: list[str], folder: Path, kill: tuple[str, ...] = ()):
        self.folder = str(folder)
        self.kill = tuple(kill)
        self._heard, self._announce = SPAWN.Pipe(duplex=False)
        self._release = {game_id: SPAWN.Pipe(duplex=False) for game_id in hold}  # game -> (worker's end, test's end)

    # -- in the worker --------------------------------------------------------------------------
    def __call__(self, game_id: str, phase_row_id: int) -> None:
        with open(os.path.join(self.folder, "started.log"), "a", encoding="ascii") as log:
            log.write(f"{os.getpid()} {game_id}\n")  # on disk before anything else can happen
        if game_id in self.kill:
            os.kill(os.getpid(), signal.SIGKILL)
        if game_id not in self._release:
            return
        try:
            os.close(os.open(os.path.join(self.folder, f"held-{game_id}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return  # held once already: the close goes on
        self._announce.send((game_id, os.getpid()))
        self._release[game_id][0].recv()

    # -- in the test -----------------------------------------------------------------------------
    def holder(self, timeout: float = 120.0) -> tuple[str, int]:
        """(game id, worker pid) of the next close stopped in its worker (woken when it stops)."""
        if not self._heard.poll(timeout):
            raise AssertionError(f"no worker stopped at a held close within {timeout} s")
        return self._heard.recv()

    def let_go(self, game_id: str | None = None) -> None:
        """Let the close of ``game_id`` (of every held game, by default) go on."""
        for gid, (_, go) in self._release.items():
            if game_id in (None, gid) and not go.closed:
                go.send(True)
                go.close()

    def started(self) -> list[tuple[int, str]]:
        """(worker pid, game id) of every close a worker began to work out, in order."""
        log = Path(self.folder) / "started.log"
        lines = log.read_text(encoding="ascii").splitlines() if log.exists() else []
        return [(int(pid), gid) for pid, gid in (line.split() for line in lines)]
