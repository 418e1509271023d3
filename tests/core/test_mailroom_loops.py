"""Never answer bounces, auto-replies or lists; rate-limit replies to any address."""

import pytest

from tests.core.helpers import US, address_of, new_game, outbox
from tests.support import mail


@pytest.mark.parametrize("headers, envelope_from", [
    ({"Auto_Submitted": "auto-replied"}, "custer@players.example"),
    ({"Auto_Submitted": "auto-generated"}, "custer@players.example"),
    ({"Precedence": "bulk"}, "custer@players.example"),
    ({"Precedence": "junk"}, "custer@players.example"),
    ({"Precedence": "list"}, "custer@players.example"),
    ({"List_Id": "<games.lists.example>"}, "custer@players.example"),
    ({"X_Autoreply": "yes"}, "custer@players.example"),
    ({}, ""),  # null envelope sender: a bounce
], ids=["auto-replied", "auto-generated", "bulk", "junk", "list", "list-id", "x-autoreply", "null-sender"])
def test_automatic_mail_is_kept_and_never_answered(svc, headers, envelope_from):
    gid = new_game(svc)
    before = len(outbox(svc))
    result = svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "I am out of the office.", **headers), envelope_from=envelope_from)
    assert result["status"] == "ignored"
    assert len(outbox(svc)) == before
    assert svc.store.one("SELECT raw FROM inbound WHERE id = ?", (result["inbound_id"],))["raw"]


def test_out_of_office_without_headers_is_answered_a_bounded_number_of_times(svc):
    """An auto-responder that sets no header at all answers every error we send;
    the per-address rate limit stops the loop."""
    gid = new_game(svc)
    before = len(outbox(svc, to_addr=US))
    for i in range(60):
        svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), f"Thank you for your mail ({i}). I will read it later."))
    replies = len(outbox(svc, to_addr=US)) - before
    assert 0 < replies <= svc.settings.replies_per_address_per_hour


def test_our_own_mail_carries_auto_submitted(svc):
    gid = new_game(svc)
    for row in outbox(svc, game_id=gid):
        assert b"Auto-Submitted: auto-" in row["raw"]
