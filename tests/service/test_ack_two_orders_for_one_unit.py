"""Issue 25, through the service (a mail in, the acknowledgement out), in French where the engine
speaks French: two orders for one unit are refused naming both lines; a list of units or pieces
takes one line."""

import email
from email import policy

from tests.core.helpers import address_of, outbox
from tests.support import mail

FR, EN = "marie@players.example", "sam@players.example"


def _ack(svc, to_addr: str) -> str:
    raw = outbox(svc, kind="ack", to_addr=to_addr)[-1]["raw"]
    return email.message_from_bytes(raw, policy=policy.default).get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_custer_a_second_move_for_a_company_is_refused_in_french(svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": FR, "indians": EN}, languages={"us": "fr", "indians": "en"})
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(FR, address_of(svc, gid, "us"),
                              f"ORDRES {gid} {phase}\nON Custer 1:\n  Co. C, Co. E MOVE TO 2220\n  Co. E MOVE TO 2221\nFIN\n"))
    ack = _ack(svc, FR)
    assert "ON Custer 1:\n  Co. C, Co. E MOVE TO 2220\n" in ack
    assert '"Co. E MOVE TO 2221"\n  Co. E a déjà un ordre à la ligne 2' in ack


def test_custer_the_same_in_english(svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": EN, "indians": FR})
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(EN, address_of(svc, gid, "us"),
                              f"ORDERS {gid} {phase}\nON Custer 1:\n  Co. C, Co. E MOVE TO 2220\n  Co. E MOVE TO 2221\nEND\n"))
    assert 'line 3: "Co. E MOVE TO 2221"\n  Co. E already has an order on line 2' in _ack(svc, EN)


def test_peaux_rouges_a_second_move_for_a_piece_is_refused_in_french(svc):
    gid = svc.games.create("peaux_rouges", "little_big_horn", {"longs_couteaux": FR, "peaux_rouges": EN},
                           languages={"longs_couteaux": "fr", "peaux_rouges": "en"})
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(FR, address_of(svc, gid, "longs_couteaux"),
                              f"ORDRES {gid} {phase}\nDÉPLACER S2 G8\nDÉPLACER S2 F8\nFIN\n"))
    ack = _ack(svc, FR)
    assert "DÉPLACER S2 G8" in ack
    assert '"DÉPLACER S2 F8"\n  S2 a déjà un ordre à la ligne 1' in ack
