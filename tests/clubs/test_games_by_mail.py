"""Games players start themselves (issue 28): NEW GAME to the general address, CONFIRM with the code
mailed back, others JOIN, the game starts when full and is played to the end by bots, and both
players' ratings move; a game not full in time lapses with everyone told; the host's policies; a
forged NEW GAME costs the address it names nothing but one mail and seats nobody."""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy

import pytest

from tests.clubs.play import play_to_end
from tests.support import mail, text_of

ANN, BOB, CYD = "ann@players.example", "bob@players.example", "cyd@players.example"


class Clock:
    def __init__(self, svc):
        self.now = svc.clock()
        svc.clock = lambda: self.now

    def advance(self, **kwargs) -> None:
        self.now += timedelta(**kwargs)


def general(svc) -> str:
    return svc.settings.server_address


def mails_to(svc, address: str) -> list[dict]:
    return svc.store.all("SELECT * FROM outbox WHERE to_addr = ? ORDER BY id", (address,))


def last_text(svc, address: str) -> str:
    return text_of(email.message_from_bytes(mails_to(svc, address)[-1]["raw"], policy=policy.default))


def send_general(svc, sender: str, body: str) -> dict:
    return svc.mailroom.receive(mail(sender, general(svc), body))


def code_in(text: str, word: str = "CONFIRM") -> str:
    return next(line.split()[1] for line in text.splitlines() if line.startswith(word + " "))


def start_by_mail(svc, sender: str, line: str) -> dict:
    """NEW GAME, then CONFIRM with the code mailed back: the game row made."""
    send_general(svc, sender, line + "\n")
    send_general(svc, sender, f"CONFIRM {code_in(last_text(svc, sender))}\n")
    return svc.records.game([g for g in svc.records.games() if g["created_by"] == sender][-1]["id"])


def join_by_mail(svc, sender: str, game: dict, role: str = "") -> None:
    send_general(svc, sender, f"JOIN {game['id']} {game['invitation_code']} {role}\n")
    send_general(svc, sender, f"CONFIRM {code_in(last_text(svc, sender))}\n")


def test_a_game_started_by_mail_fills_through_join_starts_is_played_to_the_end_and_moves_both_ratings(svc):
    game = start_by_mail(svc, ANN, "NEW GAME peaux_rouges little_big_horn AS peaux_rouges DEADLINE 72h OPTIONS turn_limit=8")
    assert game["status"] == "open" and svc.records.current_phase(game["id"]) is None
    assert game["options"]["turn_limit"] == 8 and game["timing"]["phase"]["seconds"] == 72 * 3600
    made = last_text(svc, ANN)
    assert f"Your game {game['id']}" in made and f"JOIN {game['id']} {game['invitation_code']}" in made
    assert svc.records.active_player(game["id"], "peaux_rouges")["email"] == ANN
    # anyone sees it: LIST and the open-games page, with the line that joins it
    send_general(svc, CYD, "LIST\n")
    assert f"join: JOIN {game['id']} {game['invitation_code']} [role]" in last_text(svc, CYD)
    assert [g["id"] for g in svc.open_games.waiting()] == [game["id"]]
    join_by_mail(svc, BOB, game)
    game = svc.records.game(game["id"])
    assert game["status"] == "active" and svc.records.current_phase(game["id"]) is not None
    assert [r["kind"] for r in mails_to(svc, ANN)][-1] == "welcome" and [r["kind"] for r in mails_to(svc, BOB)][-1] == "welcome"
    assert svc.open_games.waiting() == []
    outcome = play_to_end(svc, game["id"])
    ladder = {r["player"]: r for r in svc.ratings.ladder("peaux_rouges")}
    assert set(ladder) == {ANN, BOB} and all(r["games"] == 1 for r in ladder.values())
    if outcome["winner"]:
        winner = ANN if outcome["winner"] == "peaux_rouges" else BOB
        assert ladder[winner]["mu"] > 25 > ladder[({ANN, BOB} - {winner}).pop()]["mu"]
    else:
        assert ladder[ANN]["draws"] == ladder[BOB]["draws"] == 1
        assert ladder[ANN]["sigma"] < 25 / 3, "a draw makes both ratings surer"


def test_a_forged_new_game_costs_the_address_it_names_one_mail_and_seats_nobody(svc):
    svc.host.set("creation.open_per_address", "1", actor="test")
    forged = mail(ANN, general(svc), "NEW GAME custer little_bighorn AS us\n", subject="not from Ann")
    assert svc.mailroom.receive(forged)["status"] == "processed"
    assert len(mails_to(svc, ANN)) == 1 and "If you did not ask for it, do nothing" in last_text(svc, ANN)
    assert svc.records.games() == [], "no game until the code comes back from Ann's mailbox"
    # the forger guesses codes from their own address: nothing
    send_general(svc, "forger@evil.example", "CONFIRM 0123abcd\n")
    assert svc.records.games() == []
    # Ann's allowance of one open game is untouched: her own request goes through
    game = start_by_mail(svc, ANN, "NEW GAME rummy two")
    assert game["status"] == "open" and game["created_by"] == ANN
    # the forged request's code no longer works (a newer request replaced it) and a second game is refused
    send_general(svc, ANN, "NEW GAME custer rosebud\n")
    assert "already have 1 games waiting" in last_text(svc, ANN)


def test_a_game_not_full_in_time_lapses_and_everyone_seated_is_told(svc):
    clock = Clock(svc)
    svc.host.set("creation.lapse_hours", "24", actor="test")
    game = start_by_mail(svc, ANN, "NEW GAME rummy three")
    join_by_mail(svc, BOB, game, "p3")
    assert svc.records.game(game["id"])["status"] == "open"
    assert "You have your role in game" in last_text(svc, BOB)
    clock.advance(hours=23)
    assert svc.open_games.lapse_due() == 0
    clock.advance(hours=2)
    assert svc.open_games.lapse_due() == 1
    assert svc.records.game(game["id"])["status"] == "lapsed"
    for address in (ANN, BOB):
        assert f"Game {game['id']} lapsed: not every role was taken" in last_text(svc, address)
    send_general(svc, CYD, f"JOIN {game['id']} {game['invitation_code']}\n")
    assert "lapsed before every role was taken" in last_text(svc, CYD)
    send_general(svc, CYD, "LIST\n")
    assert game["id"] not in last_text(svc, CYD)


def test_the_host_decides_who_may_start_games_and_can_close_creation(svc):
    svc.host.set("creators", "players", actor="test")
    send_general(svc, CYD, "NEW GAME custer little_bighorn\n")
    assert "only its players start games" in last_text(svc, CYD)
    svc.games.create("custer", "rosebud", {"us": CYD, "indians": BOB})
    send_general(svc, CYD, "NEW GAME custer little_bighorn\n")
    assert "CONFIRM " in last_text(svc, CYD)
    svc.host.set("creators", "list", actor="test")
    svc.host.set("creators.list", f"{ANN}, {BOB.upper()}", actor="test")
    send_general(svc, CYD, "NEW GAME custer little_bighorn\n")
    assert "only the addresses its host names" in last_text(svc, CYD)
    send_general(svc, BOB, "NEW GAME custer little_bighorn\n")
    assert "CONFIRM " in last_text(svc, BOB)
    svc.host.set("creation", "closed", actor="test")
    send_general(svc, ANN, "NEW GAME custer little_bighorn\n")
    assert "does not take new games by mail now" in last_text(svc, ANN)
    # closing creation also stops a request made before from being confirmed
    send_general(svc, BOB, f"CONFIRM {code_in(mails_text(svc, BOB, 'CONFIRM '))}\n")
    assert "does not take new games by mail now" in last_text(svc, BOB) and svc.records.waiting_games() == []


def mails_text(svc, address: str, holding: str) -> str:
    for row in reversed(mails_to(svc, address)):
        text = text_of(email.message_from_bytes(row["raw"], policy=policy.default))
        if holding in text:
            return text
    raise AssertionError(f"no mail to {address} holds {holding!r}")


@pytest.mark.parametrize("line, expected", [
    ("NEW GAME chess classic", ["This server hosts no game called chess", "custer (Custer's Last Stand): little_bighorn, rosebud"]),
    ("NEW GAME custer big", ["custer has no scenario big", "rosebud: Rosebud; roles us, indians."]),
    ("NEW GAME custer rosebud AS sioux", ["has no role sioux; its roles: us, indians"]),
    ("NEW GAME rummy two OPTIONS colour=red", ["has no option colour", "target=null: the points that win"]),
    ("NEW GAME custer rosebud DEADLINE soon", ["'soon' is not a deadline"]),
    ("NOUVELLE PARTIE custer rosebud OPTIONS couleur=rouge", ["n'a pas d'option couleur", "impulse=false"]),
])
def test_a_wrong_engine_scenario_role_option_or_deadline_gets_the_right_ones(svc, line, expected):
    send_general(svc, CYD, line + "\n")
    text = last_text(svc, CYD)
    for bit in expected:
        assert bit in text, text
    assert svc.records.games() == [] and "CONFIRM" not in text


def test_new_game_at_a_game_address_says_where_it_goes(svc):
    from tests.clubs.play import send
    gid = svc.games.create("custer", "rosebud", {"us": ANN, "indians": BOB})
    send(svc, gid, "us", "NEW GAME custer rosebud\n")
    assert f"goes to the server's general address {general(svc)}" in last_text(svc, ANN)
