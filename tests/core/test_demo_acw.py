"""`pbem demo --engine acw`: the ACW miniatures game (Herbst Woods) played by mail through the
real server, as the Custer and Last Full Measure demos are: scripted players read the Maildir
outbox and reply over SMTP, the scheduler closes each turn, and the demo returns once the last
resolved phase's reports are delivered (it waits on the Maildir's deliveries, not on time)."""

import email
import mailbox
from email import policy

from pbem.demo import run_demo
from tests.support import free_port


def _text(msg) -> str:
    parsed = email.message_from_bytes(msg.as_bytes(), policy=policy.default)
    return parsed.get_body(("plain",)).get_content()


def test_the_demo_plays_acw_miniatures_by_mail_with_pictures_and_verify_agrees(tmp_path):
    lines = []
    result = run_demo(tmp_path / "demo", engine="acw", turns=2, smtp_port=free_port(), http_port=free_port(),
                      echo=lines.append, timeout=120)
    assert not result["stalled"]
    assert result["summary"]["phase_seq"] > 2 and result["verified"]["ok"], result["verified"]
    assert any("ACW Miniatures (1997), herbst_woods" in line for line in lines)
    box = mailbox.Maildir(str(tmp_path / "demo" / "outbox"), create=False)
    reports = [msg for msg in box if msg["X-PBEM-Kind"] == "report"]
    assert {msg["To"] for msg in reports} == {"meredith@demo.example", "archer@demo.example"}
    assert all(any(part.get_content_type() == "image/png" for part in msg.walk()) for msg in reports)
    assert result["reports"] == 2 * result["verified"]["phases"]
    # Each report tells the turn as the rules run it, to its own side: the cards with their
    # command response rolls, and the order template of the side it is mailed to.
    for msg in reports:
        text = _text(msg)
        assert "Card: " in text and "command response" in text
        side = "Union" if msg["To"] == "meredith@demo.example" else "Confederates"
        assert f"Orders for {side}" in text
    pages = list((tmp_path / "demo" / "reports").glob("*.html"))
    assert len(pages) == result["reports"]
