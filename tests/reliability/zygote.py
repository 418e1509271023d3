"""A fork server for the crash tests: imports everything `pbem serve` needs once,
then forks a fresh `pbem serve` process (the real CLI entry point, ``pbem.cli.main``)
on request, so fifty kill-and-restart trials do not pay fifty interpreter start-ups.

Protocol on stdin/stdout, one line each:
  spawn LOGFILE ARG...  ->  the child's pid   (the child runs `pbem ARG...`)
  wait PID              ->  its wait status, once it has exited (the test kills it)
  quit
The zygote itself starts no thread and opens no database, so forking it is safe.
"""

from __future__ import annotations

import os
import sys


def warm_up() -> None:
    """Play one turn on a throwaway database, so the children start with templates
    compiled and scenario data loaded, as a server that has run for a while has.
    Every connection is closed again before any fork."""
    import shutil
    import tempfile
    from pathlib import Path

    from pbem.config import Settings
    from pbem.engines import get_engine
    from pbem.mail.addresses import orders_address
    from pbem.service.service import Service

    tmp = Path(tempfile.mkdtemp(prefix="pbem-zygote-"))
    try:
        svc = Service(Settings(db_path=tmp / "warm.db", maildir=tmp / "out", mail_domain="warm.test")).init()
        gid = svc.games.create("custer", "little_bighorn", {"us": "a@warm.test", "indians": "b@warm.test"})
        for p in svc.records.players(gid):
            state = svc.records.game_state(gid)
            body = get_engine("custer").order_template(state, p["role"])
            raw = (f"From: {p['email']}\r\nTo: {orders_address(gid, svc.records.token_for(p['id']), 'warm.test')}\r\n"
                   f"Subject: o\r\nMessage-ID: <w{p['id']}@warm.test>\r\n\r\n"
                   f"ORDERS {gid} {svc.records.current_phase(gid)['label']}\r\n{body}\r\nEND\r\n").encode()
            svc.mailroom.receive(raw)
        svc.phases.close(gid)
        svc.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    import pbem.cli
    import pbem.server  # noqa: F401  (aiosmtpd, APScheduler, the service)
    import pbem.web  # noqa: F401  (Flask)
    from pbem.engines import all_engines

    all_engines()
    if "--warm" in sys.argv:
        warm_up()
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "spawn":
            logfile, args = words[1], words[2:]
            pid = os.fork()
            if pid == 0:  # the child: a `pbem serve` process
                code = 70
                try:
                    devnull = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(devnull, 0)
                    log = os.open(logfile, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                    os.dup2(log, 1)
                    os.dup2(log, 2)
                    sys.stdin = open(0, closefd=False)
                    sys.stdout = open(1, "w", buffering=1, closefd=False)
                    sys.stderr = open(2, "w", buffering=1, closefd=False)
                    try:
                        pbem.cli.main(args=args, prog_name="pbem", standalone_mode=True)
                        code = 0
                    except SystemExit as exc:
                        code = exc.code if isinstance(exc.code, int) else 1
                finally:
                    os._exit(code)
            out.write(f"{pid}\n")
            out.flush()
        elif words[0] == "wait":
            _, status = os.waitpid(int(words[1]), 0)
            out.write(f"{status}\n")
            out.flush()
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
