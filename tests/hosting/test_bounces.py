"""What a bounce does (issue 27), through the service as `pbem serve` and `pbem ingest` take
mail: a report comes back to the return path of the mail that failed (tests/hosting/dsn/)."""

from __future__ import annotations

import email
from email import policy

import pytest

from pbem.mail.return_paths import return_path
from pbem.service.delivery import deliver_once
from pbem.service.outbox import MaildirTransport
from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, submissions
from tests.hosting.dsn_fixtures import report
from tests.support import mail

MOD = "moderator@club.example"
HARD = ["postfix-user-unknown", "exim-user-unknown", "exim-plain-text", "gmail-address-not-found", "microsoft-recipient-not-found"]


def _turn(svc, gid) -> None:
    """Both sides order and the phase closes: a report goes to each."""
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    svc.phases.close(gid)


def _latest(svc, kind: str, to_addr: str) -> dict:
    return [r for r in outbox(svc, kind=kind) if r["to_addr"] == to_addr][-1]


def _bounce(svc, sent: dict, name: str = "postfix-user-unknown", *, to: str | None = None) -> dict:
    rp = to or return_path(sent["id"], svc.settings.secret_key, svc.settings.mail_domain)
    raw = report(name, return_path=rp, recipient=sent["to_addr"], message_id=sent["message_id"])
    return svc.mailroom.receive(raw, envelope_from="", envelope_to=[rp])


def _text(row: dict) -> str:
    return email.message_from_bytes(row["raw"], policy=policy.default).get_body(("plain",)).get_content()


def _inbound(svc, inbound_id: int) -> dict:
    return svc.store.one("SELECT * FROM inbound WHERE id = ?", (inbound_id,))


@pytest.fixture
def game(svc, tmp_path):
    """A game whose first turn is resolved and every mail of it sent (a report can come back)."""
    svc.moderators.add(MOD, "a long enough password", None)
    gid = new_game(svc)
    _turn(svc, gid)
    deliver_once(svc.store, MaildirTransport(tmp_path / "sent"), svc.settings, now=svc.now())
    return gid


def test_a_hard_bounce_marks_the_address_and_tells_moderators_and_the_other_players(svc, game):
    sent = _latest(svc, "report", IND)
    before = len(outbox(svc))
    result = _bounce(svc, sent)
    assert result["status"] == "processed"
    [bounce] = svc.store.all("SELECT * FROM bounces")
    assert (bounce["outbox_id"], bounce["address"], bounce["permanent"], bounce["status"]) == (sent["id"], IND, 1, "5.1.1")
    assert "User unknown" in bounce["diagnostic"]
    row = _inbound(svc, result["inbound_id"])
    assert (row["game_id"], row["status"]) == (game, "processed"), "the console finds the report under its game"
    assert svc.store.one("SELECT * FROM undeliverable WHERE address = ? AND lifted_at IS NULL", (IND,))
    new = outbox(svc)[before:]
    assert {r["to_addr"] for r in new} == {MOD, US}, "nothing goes to the dead address nor back to the reporter"
    [to_moderator] = [r for r in new if r["to_addr"] == MOD]
    assert to_moderator["kind"] == "moderator"
    assert IND in _text(to_moderator) and "5.1.1" in _text(to_moderator) and f"/console/games/{game}" in _text(to_moderator)
    [to_us] = [r for r in new if r["to_addr"] == US]
    assert "has not received the last report" in _text(to_us)
    assert IND not in to_us["raw"].decode("utf-8", "replace") and "5.1.1" not in _text(to_us), "only that, nothing of why or where"
    [indians] = [p for p in svc.console.game(game)["players"] if p["role"] == "indians"]
    assert indians["undeliverable"]["address"] == IND


@pytest.mark.parametrize("name", HARD)
def test_each_providers_hard_bounce_marks_the_address(svc, game, name):
    _bounce(svc, _latest(svc, "report", IND), name)
    assert svc.store.one("SELECT * FROM undeliverable WHERE address = ? AND lifted_at IS NULL", (IND,)), name


def test_mail_to_a_marked_address_is_withheld_and_the_game_goes_on_by_its_missed_orders_rule(svc, game, tmp_path):
    _bounce(svc, _latest(svc, "report", IND))
    out = tmp_path / "out"
    deliver_once(svc.store, MaildirTransport(out), svc.settings, now=svc.now())
    svc.mailroom.receive(orders_mail(svc, game, "us"))
    svc.phases.close(game)  # the deadline: the Indians gave no orders
    deliver_once(svc.store, MaildirTransport(out), svc.settings, now=svc.now())
    withheld = [r for r in outbox(svc) if r["to_addr"] == IND and (r["last_error"] or "").startswith("withheld")]
    assert [r["kind"] for r in withheld] == ["report"] and withheld[0]["status"] == "failed", "the T2 report is not sent"
    assert all(r["status"] == "sent" for r in outbox(svc) if r["to_addr"] == US)
    closed = svc.store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'resolved' ORDER BY seq DESC LIMIT 1", (game,))
    assert "indians" in closed["defaulted"], "the game's rule for missing orders (hold: default orders) applied"


def test_a_player_heard_from_again_gets_the_missed_reports_and_the_mark_is_lifted(svc, game, tmp_path):
    first = _latest(svc, "report", IND)
    _bounce(svc, first)
    svc.mailroom.receive(orders_mail(svc, game, "us"))
    svc.phases.close(game)  # T2 resolved while the mark stood: its report withheld
    result = svc.mailroom.receive(orders_mail(svc, game, "indians"))  # the player writes again, from the address itself
    assert any("lifted" in n for n in result["notes"])
    assert svc.store.one("SELECT * FROM undeliverable WHERE address = ? AND lifted_at IS NULL", (IND,)) is None
    copies = [r for r in outbox(svc, kind="report") if r["to_addr"] == IND and r["id"] > first["id"]]
    labels = {r["subject"].split("Report ")[1].split(":")[0].split(";")[0] for r in copies}
    assert {"T1", "T2"} <= labels, "every report since the mail that bounced, as HISTORY sends them"
    deliver_once(svc.store, MaildirTransport(tmp_path / "out"), svc.settings, now=svc.now())
    copy_ids = {r["id"] for r in copies}
    assert {r["status"] for r in outbox(svc) if r["id"] in copy_ids} == {"sent"}
    latest = submissions(svc, game)[-1]
    assert (latest["role"], latest["stands"]) == ("indians", 1), "and the orders in that mail count"


def test_a_player_writing_from_a_second_confirmed_address_gets_their_mail_there(svc, game):
    second = "bull.new@players.example"
    svc.mailroom.receive(mail(IND, address_of(svc, game, "indians"), f"SET ADDRESS {second}\n"))
    code = svc.store.one("SELECT confirm_code FROM addresses WHERE email = ?", (second,))["confirm_code"]
    svc.mailroom.receive(mail(IND, address_of(svc, game, "indians"), f"CONFIRM {code}\n"))
    _bounce(svc, _latest(svc, "report", IND))
    svc.mailroom.receive(mail(second, address_of(svc, game, "indians"), "STATUS\n"))
    [indians] = [p for p in svc.records.players(game) if p["role"] == "indians" and p["status"] == "active"]
    assert indians["email"] == second
    assert [r for r in outbox(svc, kind="report") if r["to_addr"] == second], "the missed report goes to the address that wrote"
    assert svc.store.one("SELECT * FROM undeliverable WHERE address = ? AND lifted_at IS NULL", (IND,)), \
        "the dead address stays marked: nobody wrote from it"


def test_a_soft_bounce_is_recorded_and_left_to_the_relays_retries(svc, game):
    before = len(outbox(svc))
    result = _bounce(svc, _latest(svc, "report", IND), "postfix-delayed")
    assert result["status"] == "ignored"
    [bounce] = svc.store.all("SELECT * FROM bounces")
    assert (bounce["permanent"], bounce["status"]) == (0, "4.4.1")
    assert svc.store.all("SELECT * FROM undeliverable") == []
    assert len(outbox(svc)) == before


@pytest.mark.parametrize("name", ["vacation-reply", "read-receipt"])
def test_an_automatic_reply_to_a_return_path_is_never_taken_for_a_bounce_nor_answered(svc, game, name):
    before = len(outbox(svc))
    result = _bounce(svc, _latest(svc, "report", IND), name)
    assert result["status"] == "ignored"
    assert svc.store.all("SELECT * FROM bounces") == [] and svc.store.all("SELECT * FROM undeliverable") == []
    assert len(outbox(svc)) == before


def test_a_forged_return_path_is_not_believed(svc, game):
    sent = _latest(svc, "report", IND)
    forged = f"bounces+{sent['id']}-aaaaaaaaaa@{svc.settings.mail_domain}"
    before = len(outbox(svc))
    result = _bounce(svc, sent, to=forged)
    assert result["status"] == "ignored" and any("not believed" in n for n in result["notes"])
    assert svc.store.all("SELECT * FROM undeliverable") == [] and len(outbox(svc)) == before


def test_an_observer_whose_address_bounces_stops_receiving_reports(svc, game):
    watcher = "watcher@elsewhere.example"
    assert svc.observers.observe(game, watcher, svc.observers.confirmation_code(game, watcher)) is None
    svc.mailroom.receive(orders_mail(svc, game, "us"))
    svc.mailroom.receive(orders_mail(svc, game, "indians"))
    svc.phases.close(game)
    _bounce(svc, _latest(svc, "observer", watcher))
    assert svc.records.observers(game) == []
