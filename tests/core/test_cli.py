"""The `pbem` command, run as a user runs it (a subprocess)."""

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest

from tests.support import mail


def pbem(*args, db, input=None, check=True):
    env = {**os.environ, "PBEM_DB": str(db), "PBEM_MAIL_DOMAIN": "pbem.test", "PBEM_MAILDIR": str(db.parent / "outbox")}
    proc = subprocess.run([sys.executable, "-m", "pbem.cli", *args], input=input, capture_output=True, env=env, timeout=120)
    if check and proc.returncode != 0:
        raise AssertionError(f"pbem {' '.join(args)} failed ({proc.returncode}): {proc.stderr.decode()}")
    return proc


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pbem.db"


def test_help_everywhere(db):
    for args in ([], ["game"], ["game", "new"], ["serve"], ["verify"], ["ingest"], ["moderator", "add"], ["backup"], ["engines"]):
        out = pbem(*args, "--help", db=db).stdout.decode()
        assert "Usage:" in out


def test_engines_json_lists_scenarios_and_roles(db):
    data = json.loads(pbem("engines", "--json", db=db).stdout)
    assert data["custer"]["scenarios"]["little_bighorn"]["roles"] == ["us", "indians"]


def test_game_new_prints_the_id_alone_and_show_reads_it(db):
    out = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn",
               "--player", "us=a@example.org", "--player", "indians=b@example.org", "--deadline", "48h", db=db).stdout.decode()
    gid = out.strip()
    assert out == gid + "\n" and gid.isalnum()
    shown = json.loads(pbem("game", "show", gid, "--json", db=db).stdout)
    assert shown["id"] == gid and shown["awaited"] == ["us", "indians"]
    assert gid in pbem("game", "list", db=db).stdout.decode()


def test_deadline_times_last_full_measures_phases(db):
    """`--deadline` times Last Full Measure's phases (each one side's: the `turn` kind);
    tests/core/test_game_creation.py follows the rule through the service."""
    from datetime import datetime
    from pbem.config import Settings
    from pbem.service.service import Service
    gid = pbem("game", "new", "--engine", "lfm", "--scenario", "east_cavalry_field", "--player", "csa=a@example.org",
               "--player", "usa=b@example.org", "--deadline", "72h", db=db).stdout.decode().strip()
    svc = Service(Settings(db_path=db, mail_domain="pbem.test")).init()
    try:
        phase = svc.records.current_phase(gid)
        assert datetime.fromisoformat(phase["deadline"]) - datetime.fromisoformat(phase["opened_at"]) == timedelta(hours=72)
    finally:
        svc.close()


def test_game_new_explains_bad_input(db):
    proc = pbem("game", "new", "--engine", "custer", "--scenario", "nowhere", "--player", "us=a@example.org", db=db, check=False)
    assert proc.returncode != 0 and b"no scenario" in proc.stderr
    proc = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--deadline", "soon", db=db, check=False)
    assert proc.returncode != 0 and b"cannot read the deadline" in proc.stderr
    proc = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--player", "us=a@example.org",
                "--lang", "us=de", db=db, check=False)
    assert proc.returncode != 0 and b"not offered in 'de' (languages: en, fr)" in proc.stderr
    proc = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--lang", "cavalry=fr", db=db, check=False)
    assert proc.returncode != 0 and b"no role cavalry" in proc.stderr
    proc = pbem("game", "new", "--engine", "peaux_rouges", "--scenario", "little_big_horn", "--option", "stacking=many", db=db, check=False)
    assert proc.returncode == 1 and proc.stderr.decode().startswith("pbem: option stacking must be one of"), proc.stderr
    assert b"Traceback" not in proc.stderr
    assert pbem("game", "list", db=db).stdout == b"", "nothing was created"


def test_ingest_close_turn_verify_and_backup(db, tmp_path):
    gid = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn",
               "--player", "us=a@example.org", "--player", "indians=b@example.org", db=db).stdout.decode().strip()
    out = pbem("ingest", db=db, input=mail("a@example.org", "pbem@pbem.test", "HELP\n")).stdout.decode()
    assert "stored as #" in out
    assert json.loads(pbem("game", "close-turn", gid, db=db).stdout)["phase"]
    assert "all agree" in pbem("verify", gid, db=db).stdout.decode()
    pbem("backup", str(tmp_path / "copy.db"), db=db)
    import sqlite3
    copy = sqlite3.connect(tmp_path / "copy.db")
    assert copy.execute("SELECT COUNT(*) FROM phases WHERE game_id = ?", (gid,)).fetchone()[0] == 2


def test_close_turn_naming_its_phase_closes_it_once(db):
    """`--phase T1` run twice closes T1 once: the second run says T1 is not open, and T2 stays open."""
    gid = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn",
               "--player", "us=a@example.org", "--player", "indians=b@example.org", db=db).stdout.decode().strip()
    first = json.loads(pbem("game", "show", gid, "--json", db=db).stdout)["phase"]
    closed = json.loads(pbem("game", "close-turn", gid, "--phase", first, db=db).stdout)
    assert closed["phase"] == first
    again = pbem("game", "close-turn", gid, "--phase", first, db=db, check=False)
    assert again.returncode == 1 and f"phase {first} of game {gid} is not open (open now: {closed['next']})" in again.stderr.decode()
    assert b"Traceback" not in again.stderr
    assert json.loads(pbem("game", "show", gid, "--json", db=db).stdout)["phase"] == closed["next"]


def test_deliver_writes_the_outbox_to_the_maildir(db):
    pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn",
         "--player", "us=a@example.org", "--player", "indians=b@example.org", db=db)
    assert "2 sent" in pbem("deliver", db=db).stdout.decode()
    assert len(list((db.parent / "outbox" / "new").iterdir())) == 2


def test_mail_made_by_the_cli_links_to_where_the_server_serves_the_web(db, tmp_path):
    """`pbem serve --http-port 8123` and then `pbem game new` (another process, no
    PBEM_BASE_URL): the welcome links to the server's page at port 8123, not the default 8000."""
    import email
    import sqlite3
    from email import policy
    from pbem.config import Settings
    from pbem.server import Server
    from tests.support import free_port
    port = free_port()
    server = Server(Settings(db_path=db, maildir=tmp_path / "outbox", mail_domain="pbem.test", http_port=port,
                             smtp_port=free_port())).start()
    server.stop()
    gid = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn", "--player", "us=a@example.org",
               db=db).stdout.decode().strip()
    [(raw,)] = sqlite3.connect(db).execute("SELECT raw FROM outbox WHERE kind = 'welcome'").fetchall()
    text = email.message_from_bytes(raw, policy=policy.default).get_body(("plain",)).get_content()
    assert f"http://127.0.0.1:{port}/play/{gid}/" in text and ":8000/" not in text


def test_verify_offline_reads_the_attachments_as_mailed_and_refuses_other_files(db, tmp_path):
    """`pbem verify --offline` takes the two .json.gz a player saved from two report mails (or
    their unpacked .json); a file that is neither gets a clear answer, not a traceback."""
    import email
    import gzip
    from email import policy
    import sqlite3

    gid = pbem("game", "new", "--engine", "custer", "--scenario", "little_bighorn",
               "--player", "us=a@example.org", "--player", "indians=b@example.org", db=db).stdout.decode().strip()
    for _ in range(2):
        pbem("game", "close-turn", gid, db=db)
    rows = sqlite3.connect(db).execute("SELECT raw FROM outbox WHERE kind = 'report' AND to_addr = 'a@example.org' ORDER BY id").fetchall()
    saved = []
    for n, (raw,) in enumerate(rows):
        part = next(p for p in email.message_from_bytes(raw, policy=policy.default).iter_attachments()
                    if p.get_filename().endswith(".json.gz"))
        path = tmp_path / f"{n}-{part.get_filename()}"
        path.write_bytes(part.get_payload(decode=True))
        saved.append(path)
    assert "ok:" in pbem("verify", "--offline", *map(str, saved), db=db).stdout.decode()
    unpacked = tmp_path / "second.json"
    unpacked.write_bytes(gzip.decompress(saved[1].read_bytes()))
    assert pbem("verify", "--offline", str(saved[0]), str(unpacked), db=db).returncode == 0
    junk = tmp_path / "junk.json.gz"
    junk.write_bytes(b"\x1f\x8bnot gzip at all")
    proc = pbem("verify", "--offline", str(saved[0]), str(junk), db=db, check=False)
    assert proc.returncode == 1 and b"is not a report's JSON" in proc.stderr and b"Traceback" not in proc.stderr
