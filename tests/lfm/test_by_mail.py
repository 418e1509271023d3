"""Last Full Measure through the whole service: a game created, the movement mail and the
combat mail of a player turn sent by mail, the other side's standing orders changed in its
own mail, reports with the picture, and a whole game played by the bots through the service."""

import email
import hashlib
import json
from email import policy

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.service import phases as phases_module
from pbem.service.adjudication import adjudicate
from tests.core.helpers import address_of, outbox
from tests.support import mail, text_of

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


def receive(svc, gid, role, who, body):
    phase = svc.records.current_phase(gid)["label"]
    return svc.mailroom.receive(mail(who, address_of(svc, gid, role), f"ORDERS {gid} {phase}\n{body}\nEND\n"))


def test_standing_orders_changed_by_mail_during_the_other_sides_phase(svc):
    """Standing orders can be changed at any time by mail: a side the open phase does not
    await mails a STANDING block; the open phase's state takes it at once (nothing resolves),
    the side gets an acknowledgement with what was understood and the receipt, the change is
    audited privately, and the phase's resolution and `pbem verify` start from the new state."""
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    send(svc, gid, "csa", CSA, "HOLD")
    assert svc.records.current_phase(gid)["label"] == "T1b.M"  # Gregg's player turn: csa is not awaited
    receive(svc, gid, "csa", CSA, "STANDING:\n  EVADE NEVER\n  RETREAT 2")
    assert svc.records.game_state(gid)["standing"]["csa"] == {"evade": "never", "retreat": 2}
    assert svc.records.current_phase(gid)["label"] == "T1b.M"
    ack = text_of(email.message_from_bytes(outbox(svc, kind="ack", to_addr=CSA)[-1]["raw"], policy=policy.default))
    assert "EVADE NEVER" in ack and "RETREAT 2" in ack and "SHA-256" in ack
    assert "only your standing orders were read" in ack
    [entry] = svc.store.all("SELECT * FROM audit WHERE game_id = ? AND action = 'standing orders'", (gid,))
    assert entry["actor"] == "csa" and entry["public"] == 0
    assert not outbox(svc, kind="ack", to_addr=USA)  # the other side hears nothing of it
    send(svc, gid, "usa", USA, "HOLD")
    assert svc.records.game_state(gid)["standing"]["csa"] == {"evade": "never", "retreat": 2}
    verified = svc.verifier.verify_game(gid)
    assert verified["ok"] and any("T1b.M" in n and "standing orders" in n for n in verified["notes"]), verified


def test_other_orders_from_a_side_not_awaited_are_refused(svc):
    """Outside its own phase a side may change only its standing orders: a block with a
    move is refused as before (the phase does not wait for that side) and changes nothing."""
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    before = svc.records.game_state(gid)
    receive(svc, gid, "usa", USA, "1613 MOVE TO 1513\nSTANDING:\n  EVADE NEVER")
    assert svc.records.game_state(gid) == before
    refusal = text_of(email.message_from_bytes(outbox(svc, kind="error", to_addr=USA)[-1]["raw"], policy=policy.default))
    assert "does not wait for orders from the usa player" in refusal
    assert not svc.store.all("SELECT * FROM audit WHERE game_id = ? AND action = 'standing orders'", (gid,))


def test_standing_orders_outside_ones_phase_only_from_the_registered_address(svc):
    """A forged sender must not change a side's standing orders: with no CONFIRM step for
    them, a STANDING block from an address not registered to the player is refused."""
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    receive(svc, gid, "usa", "someone.else@players.example", "STANDING:\n  EVADE NEVER")
    assert svc.records.game_state(gid)["standing"]["usa"] == {}
    refusal = text_of(email.message_from_bytes(outbox(svc, kind="error", to_addr=USA)[-1]["raw"], policy=policy.default))
    assert "only from your registered address" in refusal


def test_a_misspelt_standing_block_outside_ones_phase_gets_its_errors(svc):
    """Bad input gets a clear answer: a STANDING line that cannot be read, from a side not
    awaited, is answered with the line and the reason, and the standing orders stay as they were."""
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    receive(svc, gid, "usa", USA, "STANDING:\n  EVADE SOMETIMES")
    assert svc.records.game_state(gid)["standing"]["usa"] == {}
    ack = text_of(email.message_from_bytes(outbox(svc, kind="ack", to_addr=USA)[-1]["raw"], policy=policy.default))
    assert "EVADE SOMETIMES" in ack and "rejected" in ack


def test_standing_orders_taken_while_the_phase_resolves_are_not_lost(svc, monkeypatch):
    """The phase resolves outside the write lock; standing orders that change its state in
    that moment are committed first, so the close resolves again from the new state (the
    stored result, the state it started from and `pbem verify` agree)."""
    gid = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
    send(svc, gid, "csa", CSA, "HOLD")
    receive(svc, gid, "usa", USA, "HOLD")
    calls = []

    def adjudicate_while_a_mail_arrives(*args):
        if not calls:
            receive(svc, gid, "csa", CSA, "STANDING:\n  ARTILLERY HOLD")
        calls.append(args)
        return adjudicate(*args)

    monkeypatch.setattr(phases_module, "adjudicate", adjudicate_while_a_mail_arrives)
    svc.phases.close(gid, reason="test")
    assert len(calls) == 2
    resolved = svc.records.phase_rows(gid)[1]
    assert resolved["label"] == "T1b.M" and resolved["status"] == "resolved"
    assert json.loads(resolved["state"])["standing"]["csa"] == {"artillery": "hold"}
    assert json.loads(resolved["result_state"])["standing"]["csa"] == {"artillery": "hold"}
    assert svc.verifier.verify_game(gid)["ok"]
