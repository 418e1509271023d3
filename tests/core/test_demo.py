"""`pbem demo`, the README's first command, plays turns through the real server: scripted
players read the Maildir outbox and reply over SMTP; the scheduler closes each turn. The demo
returns only once the last resolved phase's reports are in the Maildir and written as pages
(it once stopped as soon as the game moved on, before they were delivered)."""

import mailbox
import shutil
import subprocess
from pathlib import Path

from pbem.demo import run_demo
from tests.support import free_port


def test_the_demo_plays_turns_by_mail_writes_every_report_and_verify_agrees(tmp_path):
    previous = tmp_path / "demo" / "outbox" / "new"  # a run before this one, whose mail is kept
    previous.mkdir(parents=True)
    (previous / "1.earlier").write_bytes(b"Subject: the last run's report\n\nkept\n")
    (tmp_path / "demo.last").mkdir()  # and the run before that, which goes
    lines = []
    result = run_demo(tmp_path / "demo", turns=2, smtp_port=free_port(), http_port=free_port(), echo=lines.append, timeout=120)
    assert not result["stalled"]
    assert result["summary"]["phase_seq"] > 2, "two turns were played and the third opened"
    assert result["verified"]["ok"] and result["verified"]["phases"] >= 2
    assert any("pbem verify agrees" in line for line in lines)
    assert (tmp_path / "demo.last" / "outbox" / "new" / "1.earlier").read_bytes().endswith(b"kept\n")
    assert f"The previous demo's mail, report pages and database are kept in {tmp_path / 'demo.last'}" in lines[0]
    kinds = {msg["X-PBEM-Kind"] for msg in mailbox.Maildir(str(tmp_path / "demo" / "outbox"), create=False)}
    assert {"welcome", "ack", "report"} <= kinds
    # Every resolved phase, the last one included, has its report page for each side.
    resolved, game = result["verified"]["phases"], result["game"]
    pages = {tuple(p.name[len(game) + 1:-len(".html")].rsplit("-", 1)) for p in (tmp_path / "demo" / "reports").glob("*.html")}
    labels = {label for label, _ in pages}
    assert len(labels) == resolved and pages == {(label, side) for label in labels for side in ("us", "indians")}
    assert result["reports"] == 2 * resolved
    assert sum("resolved; report mailed to every side" in line for line in lines) == resolved
    # The command it suggests runs as printed in the caller's shell: by its full path when the
    # venv is not on the PATH (./scripts/demo cannot put it there).
    [hint] = [line for line in lines if " --help;" in line]
    command = hint.split("Try: ", 1)[1].split(" --help;", 1)[0]
    if shutil.which("pbem") is None:
        assert Path(command).is_absolute()
    proc = subprocess.run(f"{command} --help", shell=True, capture_output=True, text=True)
    assert proc.returncode == 0 and "Usage:" in proc.stdout, proc.stderr


def test_the_demo_plays_last_full_measure_by_mail_with_pictures(tmp_path):
    """`pbem demo --engine lfm`: East Cavalry Field by mail through the real server, each
    report with its map picture, and `pbem verify` agrees."""
    lines = []
    result = run_demo(tmp_path / "demo", engine="lfm", turns=3, smtp_port=free_port(), http_port=free_port(),
                      echo=lines.append, timeout=120)
    assert not result["stalled"]
    assert result["summary"]["phase_seq"] > 3 and result["verified"]["ok"]
    assert any("Last Full Measure, east_cavalry_field" in line for line in lines)
    box = mailbox.Maildir(str(tmp_path / "demo" / "outbox"), create=False)
    reports = [msg for msg in box if msg["X-PBEM-Kind"] == "report"]
    assert {msg["To"] for msg in reports} == {"stuart@demo.example", "gregg@demo.example"}
    assert all(any(part.get_content_type() == "image/png" for part in msg.walk()) for msg in reports)
    assert result["reports"] == 2 * result["verified"]["phases"]
