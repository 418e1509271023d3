"""Who may order: token plus registered address; refusals go to the registered player."""

from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, raw_text, submissions
from tests.support import mail

MALLORY = "mallory@evil.example"


def test_forged_from_without_token_is_refused_and_only_the_registered_player_hears(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us", to_addr=f"pbem@{svc.settings.mail_domain}"))
    assert submissions(svc, gid) == []
    [err] = outbox(svc, kind="error")
    assert err["to_addr"] == US, "the From was the registered address, so the warning goes there"


def test_unknown_sender_without_token_gets_no_answer(svc):
    """The From may be forged: answering it would send mail to whoever it names (backscatter)."""
    gid = new_game(svc)
    svc.mailroom.receive(mail(MALLORY, f"pbem@{svc.settings.mail_domain}", f"ORDERS {gid} T1\nHOLD\nEND\n"))
    assert submissions(svc, gid) == []
    assert outbox(svc, to_addr=MALLORY) == []


def test_wrong_token_is_refused(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us", to_addr=f"{gid}+notatoken123@{svc.settings.mail_domain}", from_addr=MALLORY))
    assert submissions(svc, gid) == []
    assert not outbox(svc, to_addr=MALLORY)


def test_another_games_token_is_refused(svc):
    gid = new_game(svc)
    other = new_game(svc)
    token = address_of(svc, other, "us").split("+", 1)[1].split("@")[0]
    svc.mailroom.receive(orders_mail(svc, gid, "us", to_addr=f"{gid}+{token}@{svc.settings.mail_domain}"))
    assert submissions(svc, gid) == [] and submissions(svc, other) == []


def test_revoked_token_is_refused_and_the_player_is_told(svc):
    gid = new_game(svc)
    old_address = address_of(svc, gid, "us")
    svc.games.rotate_token(gid, "us", actor="mod@example.org", reason="suspected leak")
    svc.mailroom.receive(orders_mail(svc, gid, "us", to_addr=old_address, from_addr=MALLORY))
    assert submissions(svc, gid) == []
    warning = outbox(svc, kind="error")[-1]
    assert warning["to_addr"] == US
    assert MALLORY in raw_text(warning), "the registered player is told who tried"
    assert not outbox(svc, to_addr=MALLORY)


def test_valid_token_from_unregistered_address_is_held_until_confirmed(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us", from_addr="custer.phone@players.example"))
    [sub] = submissions(svc, gid)
    assert sub["status"] == "held" and sub["stands"] == 0
    request = outbox(svc, kind="error")[-1]
    assert request["to_addr"] == US
    code = sub["confirm_code"]
    assert f"CONFIRM {code}" in raw_text(request)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), f"CONFIRM {code}\n"))
    [sub] = submissions(svc, gid)
    assert sub["status"] == "accepted" and sub["stands"] == 1


def test_second_address_registered_by_set_address_and_confirmed(svc):
    gid = new_game(svc)
    second = "custer.phone@players.example"
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), f"SET ADDRESS {second}\n"))
    code = svc.store.one("SELECT confirm_code FROM addresses WHERE email = ?", (second,))["confirm_code"]
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), f"CONFIRM {code}\n"))
    svc.mailroom.receive(orders_mail(svc, gid, "us", from_addr=second))
    [sub] = submissions(svc, gid)
    assert sub["status"] == "accepted"
