"""The host's club page in the console (issue 28): the policies and starting a tournament; a
moderator of some games only does not host the club."""

from __future__ import annotations

from tests.web.conftest import login, post


def test_the_host_sets_a_policy_and_starts_a_tournament_from_the_console(logged_in, svc):
    page = logged_in.get("/console/club/").get_data(as_text=True)
    assert "ratings.stand_in" in page and "creation.open_per_address" in page
    shown = post(logged_in, "/console/club/policy", {"name": "ratings.drawn", "value": "unrated"}, follow=True).get_data(as_text=True)
    assert "ratings.drawn is now unrated." in shown and svc.host.get("ratings.drawn") == "unrated"
    shown = post(logged_in, "/console/club/policy", {"name": "creation.open_per_address", "value": "many"}, follow=True)
    assert "whole number from 0 to 50" in shown.get_data(as_text=True) and svc.host.get("creation.open_per_address") == "2"
    players = "ann@club.example\nbob@club.example\ncyd@club.example\ndee@club.example"
    response = post(logged_in, "/console/club/tournaments", {"name": "Winter", "scenario": "custer/little_bighorn", "players": players,
                                                             "format": "round_robin", "rounds": "", "deadline": "72h", "rated": "on"})
    assert response.status_code == 302 and response.headers["Location"] == "/tournaments/t1"
    [t] = svc.tournaments.list()
    assert (t["name"], t["format"], t["rounds"], t["players"]) == ("Winter", "round_robin", 3, 4)
    assert len([r for r in svc.records.tournament_games("t1") if r["game_id"]]) == 2
    refused = post(logged_in, "/console/club/tournaments", {"name": "Bad", "scenario": "rummy/four", "players": players}, follow=True)
    assert "two-sided scenario" in refused.get_data(as_text=True) and len(svc.tournaments.list()) == 1


def test_a_moderator_of_some_games_does_not_host_the_club(client, svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": "a@x.example", "indians": "b@x.example"})
    svc.moderators.add("limited@pbem.test", "a long enough password", [gid])
    assert login(client, "limited@pbem.test", "a long enough password").status_code == 302
    assert client.get("/console/club/").status_code == 403
