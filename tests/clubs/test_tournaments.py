"""Seasons and tournaments (issue 28): a host lists players and a two-sided scenario, pbem pairs them
(round robin, or Swiss by rating), starts each round's games, mails the standings after each round
and keeps a standings page."""

from __future__ import annotations

import email
import itertools
from email import policy

import pytest

from pbem.service import pairing
from pbem.service.errors import ServiceError
from pbem.service.store import loads
from tests.clubs.play import play_to_end
from tests.core.test_cli import pbem
from tests.support import text_of

ENGINE, SCENARIO = "peaux_rouges", "little_big_horn"  # short games by bots: the test plays nine
PLAYERS = [f"{name}@club.example" for name in ("ann", "bob", "cyd", "dee", "eve", "fay")]


def _round_games(svc, tid: str, n: int) -> list[dict]:
    return [r for r in svc.records.tournament_games(tid) if r["round"] == n and r["game_id"]]


def _club_mails(svc, to_addr: str) -> list[str]:
    rows = svc.store.all("SELECT raw FROM outbox WHERE kind = 'club' AND to_addr = ? ORDER BY id", (to_addr,))
    return [text_of(email.message_from_bytes(r["raw"], policy=policy.default)) for r in rows]


def _seed_ratings(svc) -> None:
    """Fay and Eve have beaten others before: the Swiss pairs its first round by these ratings."""
    roles = svc.engine(ENGINE).scenarios()[SCENARIO].roles
    for winner, loser in (("fay", "ann"), ("eve", "bob"), ("fay", "cyd")):
        gid = svc.games.create(ENGINE, SCENARIO, {roles[0]: f"{winner}@club.example", roles[1]: f"{loser}@club.example"})
        assert svc.endings.concede(gid, roles[1]) is None


def test_a_swiss_tournament_of_six_players_and_three_rounds_runs_to_its_standings(svc):
    _seed_ratings(svc)
    rated = [row["player"] for row in svc.ratings.ladder(ENGINE)]
    assert rated[:2] == ["fay@club.example", "eve@club.example"]
    tid = svc.tournaments.create("Spring season", ENGINE, SCENARIO, PLAYERS, format="swiss", rounds=3, actor="host")
    first = _round_games(svc, tid, 1)
    assert len(first) == 3
    by_rating = sorted(PLAYERS, key=lambda p: (-next((r["rating"] for r in svc.ratings.ladder(ENGINE) if r["player"] == p), 0),
                                               PLAYERS.index(p)))
    assert {frozenset(loads(r["seats"]).values()) for r in first} == {frozenset(by_rating[i::3]) for i in range(3)}, \
        "round 1: the top half by rating meets the bottom half"
    met = set()
    for n in (1, 2, 3):
        games = _round_games(svc, tid, n)
        assert len(games) == 3 and svc.records.tournament(tid)["round"] == n
        seated = [a for r in games for a in loads(r["seats"]).values()]
        assert sorted(seated) == sorted(PLAYERS), f"round {n}: everyone plays once"
        for r in games:
            pair = frozenset(loads(r["seats"]).values())
            assert pair not in met, f"round {n}: {sorted(pair)} met before"
            met.add(pair)
            play_to_end(svc, r["game_id"], salt=f"round{n}")
        assert len(_club_mails(svc, "ann@club.example")) == n, "the standings mailed after each round"
    t = svc.records.tournament(tid)
    assert t["status"] == "finished" and t["round"] == 3
    standings = svc.tournaments.standings(tid)
    assert sum(row["points"] for row in standings) == 9  # nine games, a point each
    assert all(row["played"] == 3 for row in standings)
    assert [row["points"] for row in standings] == sorted((row["points"] for row in standings), reverse=True)
    final = _club_mails(svc, "fay@club.example")[-1]
    # in the language of her latest game: Peaux-Rouges seats its players in French unless told otherwise
    assert svc.records.latest_language("fay@club.example") == "fr"
    assert "Le tournoi Spring season est terminé. Le classement final :" in final
    assert "1. " in final and "@club.example" not in final.split("classement final :")[1].split("/tournaments/")[0]
    # every tournament game was rated: each player has three more games on the ladder
    assert {row["player"]: row["games"] for row in svc.ratings.ladder(ENGINE)}["ann@club.example"] == 1 + 3
    out = pbem("tournament", "show", tid, db=svc.settings.db_path).stdout.decode()
    assert "round 3 of 3, finished" in out and out.count("round 3: ") == 3


def test_the_standings_page_names_players_never_by_address(svc):
    from pbem.web import create_app
    tid = svc.tournaments.create("Autumn", ENGINE, SCENARIO, PLAYERS[:3], format="round_robin", actor="host")
    [game] = _round_games(svc, tid, 1)
    play_to_end(svc, game["game_id"])
    svc.settings = svc.settings.with_(secret_key=svc.settings.secret_key or "k")
    client = create_app(svc, testing=True).test_client()
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "@club.example" not in page and "Autumn" in page and "has a bye" in page
    assert f'href="/games/{game["game_id"]}"' in page and "round 2 of 3" in page
    assert "Autumn" in client.get("/tournaments").get_data(as_text=True)
    assert client.get("/tournaments/nothing").status_code == 404


def test_a_round_robin_meets_everyone_once_and_gives_each_a_bye():
    players = ["a", "b", "c", "d", "e"]
    recs = pairing.records(players, [], [])
    pairs, byes = set(), []
    for n in range(1, 6):
        round_pairs, bye = pairing.round_robin(players, n, recs)
        pairs |= {frozenset(p) for p in round_pairs}
        byes.append(bye)
    assert pairs == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert sorted(byes) == players


def test_swiss_never_pairs_the_same_players_twice_while_another_pairing_exists():
    players = ["a", "b", "c", "d"]
    # a beat b and c beat d in round 1: the leaders a and c meet, then b and d
    recs = pairing.records(players, [("a", "b", "a"), ("c", "d", "c")], [])
    pairs, bye = pairing.swiss(players, 2, recs, {})
    assert {frozenset(p) for p in pairs} == {frozenset("ac"), frozenset("bd")} and bye is None
    # round 3: a beat c, b beat d; a's next by points is b, whom a met: a plays d, c plays b
    recs = pairing.records(players, [("a", "b", "a"), ("c", "d", "c"), ("a", "c", "a"), ("d", "b", "b")], [])
    pairs, _bye = pairing.swiss(players, 3, recs, {})
    assert {frozenset(p) for p in pairs} == {frozenset("ad"), frozenset("bc")}
    assert all(first in "ab" or recs[first].first_roles <= recs[second].first_roles for first, second in pairs)


def test_a_tournament_is_refused_with_the_reason(svc):
    with pytest.raises(ServiceError, match="two-sided scenario"):
        svc.tournaments.create("x", "rummy", "four", PLAYERS[:4])
    with pytest.raises(ServiceError, match="two players at least"):
        svc.tournaments.create("x", ENGINE, SCENARIO, [PLAYERS[0], PLAYERS[0].upper()])
    with pytest.raises(ServiceError, match="1 to 5 rounds"):
        svc.tournaments.create("x", ENGINE, SCENARIO, PLAYERS, rounds=6)
    with pytest.raises(ServiceError, match="not an e-mail address"):
        svc.tournaments.create("x", ENGINE, SCENARIO, ["nobody", PLAYERS[0]])
    assert svc.records.tournaments() == []
