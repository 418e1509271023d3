"""A game of ACW miniatures through the whole service: created, both sides mail their
orders, the phase closes at the deadline, each side's report tells its own moves and the
table it can see, and nothing of the other side's hidden regiments; the game verifies."""

import email
from email import policy

from tests.core.helpers import address_of, outbox
from tests.support import mail

UNION, CONFEDERATE = "meade@players.example", "lee@players.example"


def _text(row) -> str:
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    out = []
    for part in msg.walk():
        if part.get_content_type() in ("text/plain", "text/html"):
            out.append(part.get_content())
    return "\n".join(out)


def test_a_turn_by_mail_reports_to_each_side_only_what_its_troops_see(svc):
    gid = svc.games.create("acw", "herbst_woods", {"union": UNION, "confederate": CONFEDERATE})
    phase = svc.records.current_phase(gid)["label"]
    welcome = _text(outbox(svc, kind="welcome", to_addr=CONFEDERATE)[-1])
    assert "1st Tennessee: HOLD" in welcome and "2nd Wisconsin" not in welcome
    svc.mailroom.receive(mail(UNION, address_of(svc, gid, "union"),
                     f"ORDERS {gid} {phase}\nCalef's Battery: FACE 250\nSTANDING Iron Brigade: OPPORTUNITY FIRE\nEND\n"))
    svc.mailroom.receive(mail(CONFEDERATE, address_of(svc, gid, "confederate"),
                     f"ORDERS {gid} {phase}\nArcher's Brigade: MOVE 2 BEARING 90\nMarye's Battery: HOLD\nEND\n"))
    ack = _text(outbox(svc, kind="ack", to_addr=CONFEDERATE)[-1])
    assert "Archer's Brigade: MOVE 2 BEARING 90" in ack
    svc.phases.close(gid)
    assert svc.records.current_phase(gid)["label"] == "T2"
    union = _text(outbox(svc, kind="report", to_addr=UNION)[-1])
    grey = _text(outbox(svc, kind="report", to_addr=CONFEDERATE)[-1])
    assert "POSITIONS" in union and "2nd Wisconsin" in union and "1st Tennessee" in union
    for hidden in ("2nd Wisconsin", "7th Wisconsin", "19th Indiana", "24th Michigan", "6th Wisconsin"):
        assert hidden not in grey, hidden
    assert "Card: Heth's Division" in grey
    assert svc.verifier.verify_game(gid)["ok"]
