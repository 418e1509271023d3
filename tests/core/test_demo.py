"""`pbem demo`, the README's first command, plays turns through the real server: scripted
players read the Maildir outbox and reply over SMTP; the scheduler closes each turn."""

import mailbox

from pbem.demo import run_demo
from tests.support import free_port


def test_the_demo_plays_turns_by_mail_and_verify_agrees(tmp_path):
    lines = []
    result = run_demo(tmp_path / "demo", turns=2, smtp_port=free_port(), http_port=free_port(), echo=lines.append, timeout=120)
    assert result["summary"]["phase_seq"] > 2, "two turns were played and the third opened"
    assert result["verified"]["ok"] and result["verified"]["phases"] >= 2
    assert result["reports"] >= 4, "a report to each side for each turn"
    kinds = {msg["X-PBEM-Kind"] for msg in mailbox.Maildir(str(tmp_path / "demo" / "outbox"), create=False)}
    assert {"welcome", "ack", "report"} <= kinds
    assert list((tmp_path / "demo" / "reports").glob("*.html")), "each report also as a web page"
    assert any("pbem verify agrees" in line for line in lines)
