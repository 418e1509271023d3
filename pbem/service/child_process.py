"""What every process `pbem serve` spawns does first: the server alone decides when it stops."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading


def serve_the_parent() -> None:
    """Ignore Ctrl-C (a terminal sends it to the whole process group, and the server stops its
    children itself) and end with the server even when it is killed outright (SIGKILL, OOM),
    when it cannot stop them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, name="pbem-parent-watch", daemon=True).start()


def _exit_with_parent() -> None:
    multiprocessing.parent_process().join()
    os._exit(0)
