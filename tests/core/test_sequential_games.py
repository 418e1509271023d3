"""Sequential phases through the whole service: a card game's turn by mail, with the
draw answered at once and privately; and a French player's mail in French."""

import email
import gzip
import re
from email import policy

from tests.core.helpers import outbox
from tests.support import attachment_json, mail

P1, P2 = "anna@players.example", "ben@players.example"


def _address(svc, gid, role):
    from tests.core.helpers import address_of
    return address_of(svc, gid, role)


def _parts_text(row) -> str:
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    out = []
    for part in msg.walk():
        if part.get_content_type() == "application/gzip":  # the report's JSON, as mailed
            out.append(gzip.decompress(part.get_payload(decode=True)).decode("utf-8"))
        elif part.get_content_maintype() in ("text", "application") and not part.is_multipart():
            body = part.get_content()
            out.append(body if isinstance(body, str) else body.decode("utf-8", "replace"))
    return "\n".join(out)


def test_a_rummy_draw_alone_is_answered_at_once_and_only_to_the_drawer(svc):
    gid = svc.games.create("rummy", "two", {"p1": P1, "p2": P2})
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(P1, _address(svc, gid, "p1"), f"ORDERS {gid} {phase}\nDRAW DECK\nEND\n"))
    after = svc.records.current_phase(gid)
    assert after["label"] != phase and after["awaited"] == '["p1"]', "the same player's turn goes on, at once"
    drawn = [r for r in outbox(svc, kind="report") if r["to_addr"] == P1][-1]
    other = [r for r in outbox(svc, kind="report") if r["to_addr"] == P2][-1]
    card = next(ev for ev in attachment_json(email.message_from_bytes(drawn["raw"], policy=policy.default))["events"]
                if ev["type"] == "drawn")["args"]["id"]
    # the card's id as a whole word: "brave-1" is not named by "brave-10" in a hand
    named = re.compile(rf"(?<![\w-]){re.escape(card)}(?![\w-])")
    assert named.search(_parts_text(drawn))
    assert not named.search(_parts_text(other)), "the card drawn is private to its drawer"
    svc.mailroom.receive(mail(P1, _address(svc, gid, "p1"), f"ORDERS {gid} {after['label']}\nDISCARD drawn\nEND\n"))
    assert svc.records.current_phase(gid)["awaited"] == '["p2"]'
    assert svc.verifier.verify_game(gid)["ok"]


def test_a_rummy_turn_without_orders_is_played_for_the_player_at_the_deadline(svc):
    gid = svc.games.create("rummy", "two", {"p1": P1, "p2": P2})
    svc.phases.close(gid)
    assert svc.records.current_phase(gid)["awaited"] == '["p2"]'
    report = [r for r in outbox(svc, kind="report") if r["to_addr"] == P2][-1]
    assert "p1" in _parts_text(report)


def test_a_french_player_gets_the_acknowledgement_in_french(svc):
    gid = svc.games.create("peaux_rouges", "little_big_horn", {"longs_couteaux": P1, "peaux_rouges": P2},
                          languages={"longs_couteaux": "fr", "peaux_rouges": "en"})
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(P1, _address(svc, gid, "longs_couteaux"), f"ORDRES {gid} {phase}\nDÉPLACER XYZ A1\nFIN\n"))
    ack = outbox(svc, kind="ack", to_addr=P1)[-1]
    text = _parts_text(ack)
    assert "Vos ordres" in text and "Your orders" not in text
    welcome_en = outbox(svc, kind="welcome", to_addr=P2)[-1]
    assert "Welcome" in welcome_en["subject"]


def test_a_french_player_missing_fin_is_told_in_french(svc):
    gid = svc.games.create("peaux_rouges", "little_big_horn", {"longs_couteaux": P1, "peaux_rouges": P2},
                          languages={"longs_couteaux": "fr", "peaux_rouges": "en"})
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(P1, _address(svc, gid, "longs_couteaux"), f"ORDRES {gid} {phase}\nCONSIGNES RIPOSTE oui\n"))
    text = _parts_text(outbox(svc, kind="ack", to_addr=P1)[-1])
    assert "FIN manque après" in text and "is missing" not in text
    svc.mailroom.receive(mail(P1, _address(svc, gid, "longs_couteaux"), "REGLER FUSEAU Mars/Olympus\n"))
    text = _parts_text(outbox(svc, kind="error", to_addr=P1)[-1])
    assert "fuseau horaire inconnu" in text and "unknown time zone" not in text


def test_a_resignation_is_announced_in_each_players_language(svc):
    gid = svc.games.create("peaux_rouges", "little_big_horn", {"longs_couteaux": P1, "peaux_rouges": P2},
                          languages={"longs_couteaux": "fr", "peaux_rouges": "en"})
    svc.mailroom.receive(mail(P2, _address(svc, gid, "peaux_rouges"), "RESIGN\n"))
    text = _parts_text(outbox(svc, kind="press", to_addr=P1)[-1])
    assert "joueur peaux_rouges a abandonné" in text and "has resigned" not in text
