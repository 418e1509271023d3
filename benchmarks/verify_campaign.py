"""Verify: `pbem verify GAME` over a long Custer's Last Stand campaign.

The campaign is a whole Little Big Horn game in impulse mode (each activation is its own
phase: about 130 resolved phases over the 14 turns), played through the service with bot
orders by mail. Then `pbem verify` runs as a user runs it (a new process; the figure
includes its start-up) and in-process (`Service.verifier.verify_game`: the replay alone). The
figure for the first 30 phases is `verify_game` over a copy of the game cut after its
30th resolved phase.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time

from benchmarks.common import DOMAIN, ROOT, play_with_bots, scratch, service


def _play(svc) -> str:
    gid = svc.games.create("custer", "little_bighorn", {"us": "custer@players.example", "indians": "bull@players.example"},
                          options={"impulse": True}, timing={"phase": {"kind": "duration", "seconds": 86400}})
    play_with_bots(svc, gid, seed_label="verify")
    return gid


def run() -> dict:
    with scratch("verify") as path:
        svc = service(path)
        t = time.perf_counter()
        gid = _play(svc)
        play_seconds = time.perf_counter() - t
        phases = svc.store.one("SELECT COUNT(*) AS n FROM phases WHERE game_id = ? AND status = 'resolved'", (gid,))["n"]
        turns = svc.records.game_state(gid).get("turn")
        t = time.perf_counter()
        result = svc.verifier.verify_game(gid)
        inprocess = time.perf_counter() - t
        svc.close()
        assert result["ok"], result["problems"]

        env = dict(os.environ, PBEM_DB=str(path / "pbem.db"), PBEM_MAIL_DOMAIN=DOMAIN, PYTHONPATH=str(ROOT))
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pbem.cli", "verify", gid], capture_output=True, env=env, cwd=str(ROOT))
        cli = time.perf_counter() - t
        assert proc.returncode == 0, proc.stdout + proc.stderr
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import pbem.cli"], env=env, cwd=str(ROOT), check=True)
        startup = time.perf_counter() - t

        # The first 30 phases alone: the same game cut after its 30th resolved phase.
        cut = path / "cut.db"
        shutil.copy(path / "pbem.db", cut)
        conn = sqlite3.connect(str(cut))
        conn.execute("DELETE FROM phases WHERE game_id = ? AND seq > 30", (gid,))
        conn.commit()
        conn.close()
        svc30 = service(path, db_path=cut)
        t = time.perf_counter()
        r30 = svc30.verifier.verify_game(gid)
        thirty = time.perf_counter() - t
        svc30.close()
    return {
        "phases": phases, "turns": turns, "play_seconds": round(play_seconds, 1),
        "verify_cli_seconds": round(cli, 2), "python_and_import_seconds": round(startup, 2),
        "verify_game_seconds": round(inprocess, 3), "verify_ms_per_phase": round(inprocess / phases * 1000, 2),
        "verify_30_phases_seconds": round(thirty, 3), "verify_30_phases_checked": r30["phases"],
        "output": proc.stdout.decode().strip().splitlines()[-1],
    }


def table(r: dict) -> list[tuple[str, str]]:
    return [(f"pbem verify, a whole Little Big Horn game in impulse mode ({r['phases']} phases, {r['turns']} turns)",
             f"{r['verify_cli_seconds']} s for the command ({r['python_and_import_seconds']} s of it start-up); "
             f"replay alone {r['verify_game_seconds']} s, {r['verify_ms_per_phase']} ms per phase; "
             f"first 30 phases {r['verify_30_phases_seconds']} s")]


if __name__ == "__main__":
    import json
    print(json.dumps(run(), indent=1))
