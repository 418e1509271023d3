"""An observer's mail and the public archive hold nothing secret: a seeded rummy game played by
bots with an observer watching; every observer mail is checked as it is queued.

A card an observer may read is one every player may read: each card named in an observer's
report is named in every seat's report of the same phase (a card only one seat's report names
is in that seat's hand). No player's address or orders token appears anywhere an observer or
the public can read."""

from __future__ import annotations

import hashlib
import re

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.rummy import cards as C
from pbem.mail.addresses import orders_address
from pbem.service.store import loads
from tests.core.helpers import outbox, raw_text
from tests.support import mail

PLAYERS = {f"p{i}": f"rummy{i}@players.example" for i in range(1, 5)}
WATCHER = "watcher@elsewhere.example"
PHASES = 40
CARD_NAMES = {C.name(c) for c in C.ORDER}  # as reports write them ("Co. C Trooper", "Coup Stick")


def cards_in(text: str) -> set:
    return {name for name in CARD_NAMES if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)}


def test_an_observer_of_a_rummy_game_reads_no_hand_and_no_address(svc):
    engine = get_engine("rummy")
    gid = svc.games.create("rummy", "four", PLAYERS, options={"target": 15},
                           timing={"phase": {"kind": "duration", "seconds": 86400}, "turn": {"kind": "duration", "seconds": 86400}})
    general = f"pbem@{svc.settings.mail_domain}"
    code = svc.observers.confirmation_code(gid, WATCHER)
    svc.mailroom.receive(mail(WATCHER, general, f"OBSERVE {gid} {code}\n", subject="watch"))
    assert len(svc.records.observers(gid)) == 1
    secrets = set(PLAYERS.values()) | {svc.records.token_for(p["id"]) for p in svc.records.players(gid)}
    checked, seen = 0, set()
    for n in range(PHASES):
        ph = svc.records.current_phase(gid)
        if ph is None:
            break
        state = loads(ph["state"])
        for role in engine.phase(state).awaited:
            p = svc.records.active_player(gid, role)
            orders = engine.bot_orders(state, role, Dice(hashlib.sha256(f"{role}/{ph['label']}/{n}".encode()).hexdigest()))
            svc.mailroom.receive(mail(p["email"], orders_address(gid, svc.records.token_for(p["id"]), svc.settings.mail_domain),
                                      f"ORDERS {gid} {ph['label']}\n{orders.rstrip()}\nEND\n", subject="turn"))
        if svc.records.current_phase(gid) and svc.records.current_phase(gid)["id"] == ph["id"]:
            svc.phases.close(gid, reason="test", actor="test")
        watched = outbox(svc, kind="observer", to_addr=WATCHER)[-1]
        seat_reports = [r for r in outbox(svc, kind="report") if f"Report {ph['label']}" in r["subject"]]
        public_cards = set.intersection(*(cards_in(raw_text(r)) for r in seat_reports)) if seat_reports else set()
        text = raw_text(watched)
        assert ph["label"] in watched["subject"]
        assert cards_in(text) <= public_cards, f"{ph['label']}: the observer reads {sorted(cards_in(text) - public_cards)}"
        assert not [s for s in secrets if s and s.encode() in watched["raw"]], ph["label"]
        checked, seen = checked + 1, seen | cards_in(text)
    assert checked >= 10 and len(outbox(svc, kind="observer", to_addr=WATCHER)) == checked
    assert seen, "the observer reads the public cards (the discard pile, the melds)"
    archive = repr(svc.public.archive(gid))
    assert not [s for s in secrets if s and s in archive]
    assert all(WATCHER.encode() not in r["raw"] for r in outbox(svc) if r["to_addr"] != WATCHER), "an observer's address stays private"
