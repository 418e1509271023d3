"""Issue 18, item 2, the JOIN confirmation step: whoever holds a game's public invitation code
could send JOIN with a forged From and seat a victim, who then got a welcome. Now JOIN only
holds the role and mails a code to the From address; nothing more happens unless that address
sends the code back."""

from __future__ import annotations

from tests.core.helpers import US, outbox, raw_text
from tests.support import mail

BAIT = "CHEAP PILLS at pills.evil.test"
VICTIM = "victim@victims.example"


def _general(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def _open_game(svc) -> tuple[str, str]:
    gid = svc.games.create("custer", "little_bighorn", {"us": US})
    return gid, svc.records.game(gid)["invitation_code"]


def test_a_forged_join_seats_nobody_and_sends_no_welcome(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(VICTIM, _general(svc), f"JOIN {gid} {invitation}\n\n{BAIT}\n", subject=BAIT))
    indians = next(p for p in svc.records.players(gid) if p["role"] == "indians")
    assert indians["status"] == "open" and indians["email"] is None, "the victim is not seated"
    assert svc.records.registered_players(VICTIM) == [] and svc.records.token_for(indians["id"]) is None
    assert [r["kind"] for r in outbox(svc) if r["to_addr"] == VICTIM] == ["ack"], "one code mail, no welcome"
    [answer] = outbox(svc, to_addr=VICTIM)
    assert b"pills" not in answer["raw"].lower() and invitation not in raw_text(answer), "nothing of the mail is quoted"
    assert "If you did not ask for it, do nothing" in raw_text(answer)


def test_a_forged_confirm_without_the_mailed_code_seats_nobody(svc):
    gid, invitation = _open_game(svc)
    svc.mailroom.receive(mail(VICTIM, _general(svc), f"JOIN {gid} {invitation}\n"))
    # the forger never sees the code mailed to the victim; guesses are refused
    for guess in ("00000000", "deadbeef", invitation):
        svc.mailroom.receive(mail(VICTIM, _general(svc), f"CONFIRM {guess}\n", subject=BAIT))
    assert next(p for p in svc.records.players(gid) if p["role"] == "indians")["status"] == "open"
    assert not outbox(svc, kind="welcome", to_addr=VICTIM)
    assert all(b"pills" not in r["raw"].lower() for r in outbox(svc, to_addr=VICTIM))


def test_forged_joins_to_many_victims_stay_under_the_global_limit_of_answers_to_strangers(svc):
    svc.settings = svc.settings.with_(stranger_replies_per_hour=5)
    gid, invitation = _open_game(svc)
    victims = [f"victim{n}@victims.example" for n in range(30)]
    for victim in victims:
        svc.mailroom.receive(mail(victim, _general(svc), f"JOIN {gid} {invitation}\n", subject=BAIT))
    answered = [r for r in outbox(svc) if r["to_addr"] in victims]
    assert len(answered) == 5, f"{len(answered)} answers to 30 forged JOINs"
    assert not [r for r in answered if r["kind"] == "welcome"]
