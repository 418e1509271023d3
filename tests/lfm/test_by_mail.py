"""Last Full Measure through the whole service: a game created, the movement mail and the
combat mail of a player turn sent by mail, the other side's standing orders changed in its
own mail, reports with the picture, and a whole game played by the bots through the service."""

import email
import hashlib
from email import policy

from pbem.dice import Dice
from pbem.engines import get_engine
from tests.core.helpers import address_of, outbox
from tests.support import mail

CSA, USA = "stuart@players.example", "gregg@players.example"


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def send(svc, gid, role, who, body):
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(who, address_of(svc, gid, role), f"ORDERS {gid} {phase}\n{body}\nEND\n"))
    svc.phases.close(gid, reason="test")


def test_a_player_turn_by_mail_movement_then_the_other_side(svc):
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    assert svc.records.current_phase(gid)["label"] == "T1a.M"
    welcome = outbox(svc, kind="welcome", to_addr=CSA)[-1]
    assert "T1a.M" in email.message_from_bytes(welcome["raw"], policy=policy.default).get_body(("plain",)).get_content()
    send(svc, gid, "csa", CSA, "1004 MOVE TO 1003\nSTANDING:\n  EVADE NEVER")
    state = svc.records.game_state(gid)
    assert state["units"]["1nc"]["hex"] == "1003"
    assert state["standing"]["csa"] == {"evade": "never"}
    assert svc.records.current_phase(gid)["label"] in ("T1b.M", "T1a.C")
    report = [r for r in outbox(svc, kind="report") if r["to_addr"] == USA][-1]
    msg = email.message_from_bytes(report["raw"], policy=policy.default)
    text = msg.get_body(("plain",)).get_content()
    assert "Hampton" in text or "1st North Carolina" in text
    assert any(part.get_content_type() == "image/png" for part in msg.walk())
    assert "EVADE NEVER" not in text  # the other side's standing orders stay private


def test_a_whole_game_by_mail_with_the_bots(svc):
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    engine = get_engine("lfm")
    who = {"csa": CSA, "usa": USA}
    for step in range(60):
        state = svc.records.game_state(gid)
        if engine.outcome(state):
            break
        phase = engine.phase(state)
        (role,) = phase.awaited
        text = engine.bot_orders(state, role, Dice(seed(step, phase.id)))
        send(svc, gid, role, who[role], text)
    state = svc.records.game_state(gid)
    assert engine.outcome(state) is not None
    assert svc.verifier.verify_game(gid)["ok"]
