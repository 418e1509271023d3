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


def test_a_comma_list_of_units_takes_one_line_and_a_second_line_for_a_unit_is_refused(svc):
    """Issue 25: "1st Tennessee, 14th Tennessee: MOVE TO Herbst Woods" was refused; it is now
    two units' orders. A second line for one of them is refused with both line numbers, and a
    line in another game's syntax gets a hint in its own form."""
    gid = svc.games.create("acw", "herbst_woods", {"union": UNION, "confederate": CONFEDERATE})
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(CONFEDERATE, address_of(svc, gid, "confederate"),
                              f"ORDERS {gid} {phase}\n1st Tennessee, 14th Tennessee: MOVE TO Herbst Woods\n"
                              f"14th Tennessee: HOLD\nMarye's Battery FIRE AT 1208\nEND\n"))
    ack = _text(outbox(svc, kind="ack", to_addr=CONFEDERATE)[-1]).replace("\r\n", "\n")
    assert "accepted in part" in ack
    assert "1st Tennessee: MOVE TO Herbst Woods\n14th Tennessee: MOVE TO Herbst Woods\n" in ack
    assert 'line 2: "14th Tennessee: HOLD"\n  14th Tennessee already has an order on line 1' in ack
    assert ("line 3: \"Marye's Battery FIRE AT 1208\"\n  write '<unit, brigade or officer>: <orders>' "
            "(write e.g. Marye's Battery: FIRE)") in ack
