"""Ratings and the ladder (issue 28): every finished game leaves a result, each rated result moves
its players' OpenSkill ratings per engine and overall, and the whole table is recomputed from the
results with the same numbers; RATINGS answers by mail; the host decides how conceded, drawn and
stand-in games count."""

from __future__ import annotations

import email
from email import policy

import pytest

from pbem.service.ratings import OVERALL, why_not_rated
from pbem.service.store import dumps, loads
from tests.clubs.play import play_to_end, send
from tests.core.test_cli import pbem
from tests.support import mail, text_of

RUMMY_FOUR = {f"p{n}": f"rummy{n}@players.example" for n in range(1, 5)}


def _custer(svc, us="custer@players.example", indians="gall@players.example", **kwargs) -> str:
    return svc.games.create("custer", "little_bighorn", {"us": us, "indians": indians}, **kwargs)


def _answer(svc, to_addr: str) -> str:
    row = svc.store.all("SELECT raw FROM outbox WHERE to_addr = ? ORDER BY id DESC LIMIT 1", (to_addr,))[0]
    return text_of(email.message_from_bytes(row["raw"], policy=policy.default))


def test_a_four_player_rummy_game_played_by_mail_rates_all_four(svc):
    """OpenSkill's Plackett-Luce model ranks every player of a multi-player game: the winner gains
    most, the last loses most, and each is rated in the engine's ladder and the overall one."""
    gid = svc.games.create("rummy", "four", RUMMY_FOUR, options={"target": 10})
    outcome = play_to_end(svc, gid)
    result = svc.records.result_of(gid)
    sides = loads(result["sides"])
    assert [s["place"] for s in sides] == sorted(s["place"] for s in sides) and len(sides) == 4
    assert sides[0]["roles"] == [outcome["winner"]]
    by_points = sorted(RUMMY_FOUR, key=lambda r: -outcome["scores"][r])
    assert [s["roles"][0] for s in sides] == [outcome["winner"]] + [r for r in by_points if r != outcome["winner"]]
    for scope in ("rummy", OVERALL):
        ladder = svc.ratings.ladder(scope)
        assert {r["player"] for r in ladder} == set(RUMMY_FOUR.values())
        assert all(r["games"] == 1 for r in ladder)
        order = [next(r for r in ladder if r["player"] == RUMMY_FOUR[s["roles"][0]]) for s in sides]
        assert [r["mu"] for r in order] == sorted((r["mu"] for r in order), reverse=True), "the better placed rate higher"
        assert order[0]["mu"] > 25 > order[-1]["mu"]
        assert order[0]["wins"] == 1 and all(r["losses"] == 1 for r in order[1:])


def test_recomputing_every_rating_from_the_results_gives_the_same_table(svc):
    """Ratings kept as games end, and ratings worked out again from the results table alone, agree
    to the last bit: the same steps on the same inputs, in the order the games finished."""
    players = [f"club{n}@players.example" for n in range(5)]
    for n in range(8):
        us, indians = players[n % 5], players[(n + 1 + n // 5) % 5]
        gid = _custer(svc, us, indians)
        if n % 3 == 0:
            assert svc.endings.propose_draw(gid, "us") is None and svc.endings.accept_draw(gid, "indians") is None
        else:
            assert svc.endings.concede(gid, "us" if n % 2 else "indians") is None
    rummy = svc.games.create("rummy", "four", {f"p{n + 1}": p for n, p in enumerate(players[:4])}, options={"target": 10})
    play_to_end(svc, rummy)
    kept = svc.records.all_ratings()
    assert len(kept) == 5 + 5 + 4  # custer, rummy and overall ratings
    assert svc.ratings.recompute() == 9
    assert svc.records.all_ratings() == kept
    cli = pbem("ratings", "recompute", db=svc.settings.db_path).stdout.decode()
    assert "from 9 rated result(s)" in cli and svc.records.all_ratings() == kept


def test_an_unrated_game_is_recorded_and_moves_nobody(svc):
    gid = _custer(svc, rated=False)
    assert svc.endings.concede(gid, "indians") is None
    assert svc.records.result_of(gid)["rated"] == 0
    assert svc.records.all_ratings() == []


def test_the_host_decides_how_conceded_drawn_and_stand_in_games_count(svc):
    conceded, drawn = _custer(svc), _custer(svc, "other@players.example", "third@players.example")
    assert svc.endings.concede(conceded, "indians") is None
    assert svc.endings.propose_draw(drawn, "us") is None and svc.endings.accept_draw(drawn, "indians") is None
    assert {r["ending"] for r in svc.records.results()} == {"conceded", "drawn"}
    assert len(svc.ratings.ladder("custer")) == 4
    svc.host.set("ratings.drawn", "unrated", actor="test")  # recomputed at once
    assert {r["player"] for r in svc.ratings.ladder("custer")} == {"custer@players.example", "gall@players.example"}
    svc.host.set("ratings.conceded", "unrated", actor="test")
    assert svc.ratings.ladder("custer") == []
    svc.host.set("ratings.drawn", "draw", actor="test")
    assert len(svc.ratings.ladder("custer")) == 2
    # a stand-in: in some phase, or in the last one (how it is marked: tests/clubs/test_stand_in.py)
    policies = svc.host.all()
    row = dict(svc.records.results()[0], ending="played", stand_in="played")
    assert why_not_rated(row, policies) is None, "by default only a game a stand-in decided is left out"
    assert "last phase" in why_not_rated(dict(row, stand_in="decided"), policies)
    assert "stand-in" in why_not_rated(row, dict(policies, **{"ratings.stand_in": "exclude"}))
    assert why_not_rated(dict(row, stand_in="decided"), dict(policies, **{"ratings.stand_in": "count"})) is None
    with pytest.raises(Exception, match="one of count, exclude, exclude_if_decided"):
        svc.host.set("ratings.stand_in", "sometimes", actor="test")


def test_one_address_on_both_sides_rates_nobody(svc):
    gid = _custer(svc, "same@players.example", "same@players.example")
    assert svc.endings.concede(gid, "us") is None
    assert "more than one side" in why_not_rated(svc.records.result_of(gid), svc.host.all())
    assert svc.records.all_ratings() == []


def test_ratings_by_mail_name_players_never_by_address(svc):
    gid = _custer(svc)
    player = svc.records.active_player(gid, "indians")
    assert svc.roster.set_name(gid, player["id"], "Gall", actor="indians") is None
    assert svc.endings.concede(gid, "us") is None
    other = _custer(svc, "reno@players.example", "crazyhorse@players.example")
    send(svc, other, "us", "RATINGS\nRATINGS custer\n")
    text = _answer(svc, "reno@players.example")
    assert "1. Gall: " in text and "(1 games: 1 won, 0 drawn, 0 lost)" in text
    assert "@" not in text.split("/ladder")[0].split("Ratings for")[1], "no address in the ladder"
    assert text.count("Ratings for") == 2, "both ladders in one answer"
    assert "/ladder/custer" in text
    # a stranger at the general address, in French, asking for a game the server does not host
    general = f"pbem@{svc.settings.mail_domain}"
    svc.mailroom.receive(mail("someone@elsewhere.example", general, "CLASSEMENT chess\n"))
    text = _answer(svc, "someone@elsewhere.example")
    assert "aucun jeu appelé chess" in text and "CLASSEMENT" not in text.split("jeux :")[0] and "RATINGS rummy" in text
    # the loser asks: their own place is named
    svc.mailroom.receive(mail("custer@players.example", general, "RATINGS\n"))
    assert "You: 2. player " in _answer(svc, "custer@players.example")


def test_a_correction_that_changes_how_a_game_ended_changes_its_result(svc):
    gid = _custer(svc)
    assert svc.endings.concede(gid, "us") is None
    kept = svc.records.all_ratings()
    svc.store.execute("UPDATE games SET outcome = ? WHERE id = ?",
                      (dumps({"winner": "us", "conceded_by": "indians", "summary": "x", "args": {}}), gid))
    with svc.records.write():
        svc.ratings.game_revised(gid)
    assert loads(svc.records.result_of(gid)["sides"])[0]["roles"] == ["us"]
    assert svc.records.all_ratings() != kept
    svc.store.execute("UPDATE games SET status = 'active', outcome = NULL WHERE id = ?", (gid,))
    with svc.records.write():
        svc.ratings.game_revised(gid)
    assert svc.records.result_of(gid) is None and svc.records.all_ratings() == []


def test_the_ladder_page_shows_names_ratings_games_and_recent_results(svc):
    from pbem.web import create_app
    gid = _custer(svc)
    assert svc.endings.concede(gid, "us") is None
    svc.settings = svc.settings.with_(secret_key=svc.settings.secret_key or "k")
    client = create_app(svc, testing=True).test_client()
    page = client.get("/ladder/custer").get_data(as_text=True)
    assert "@players.example" not in page
    assert f'href="/games/{gid}"' in page and "won" in page and "lost" in page
    assert client.get("/ladder").status_code == 200 and client.get("/ladder/chess").status_code == 404
