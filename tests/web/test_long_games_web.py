"""The web shows what issue 16's mail commands do: the console sets the absence allowance and
whether observers may watch; the archive and the console name players by their chosen names
and show a game ended by concession."""

from __future__ import annotations

from datetime import timedelta

from tests.web.conftest import post


def _flash(client, response) -> str:
    assert response.status_code == 302
    return client.get(response.headers["Location"]).get_data(as_text=True)


def test_the_console_changes_the_absence_allowance_and_closes_the_game_to_observers(logged_in, svc, game):
    page = logged_in.get(f"/console/games/{game}").get_data(as_text=True)
    assert 'name="absence_days"' in page and 'value="14"' in page
    shown = _flash(logged_in, post(logged_in, f"/console/games/{game}/policies", {"absence_days": "21", "reason": "summer"}))
    assert "at most 21 days" in shown and "observers not allowed" in shown
    g = svc.records.game(game)
    assert g["absence_days"] == 21 and not g["observers_allowed"]
    assert [a["action"] for a in svc.public.audit_log(game)[:2]] == ["observers", "absence policy"]
    shown = _flash(logged_in, post(logged_in, f"/console/games/{game}/policies", {"absence_days": "many", "reason": "x"}))
    assert "number of days" in shown and svc.records.game(game)["absence_days"] == 21


def test_the_console_lists_declared_absences_and_counts_observers(logged_in, svc, game):
    role = svc.records.players(game)[0]["role"]
    player = svc.records.active_player(game, role)
    today = svc.now().date()
    assert svc.absences.declare(game, player, today + timedelta(days=20), today + timedelta(days=22)) is None
    assert svc.observers.observe(game, "w@elsewhere.example", svc.observers.confirmation_code(game, "w@elsewhere.example")) is None
    page = logged_in.get(f"/console/games/{game}").get_data(as_text=True)
    assert "1 observer(s)" in page and "w@elsewhere.example" not in page
    assert f"<strong>{role}</strong> {(today + timedelta(days=20)).isoformat()}" in page


def test_the_archive_shows_a_conceded_game_and_names_players_by_their_chosen_names(client, logged_in, svc, game):
    roles = [p["role"] for p in svc.records.players(game)]
    player = svc.records.active_player(game, roles[1])
    assert svc.roster.set_name(game, player["id"], "Jane R.", actor=roles[1]) is None
    assert svc.endings.concede(game, roles[0]) is None
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert f"{roles[0]} conceded; {roles[1]} (Jane R.) win." in page
    assert "Jane R." in page and player["email"] not in page
    console = logged_in.get(f"/console/games/{game}").get_data(as_text=True)
    assert "Jane R." in console and "conceded" in console


def test_a_players_page_names_the_players_and_lists_their_absences_in_their_language(client, svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": "a@players.example", "indians": "b@players.example"},
                           languages={"indians": "fr"}, absence_days=10)
    us, ind = (svc.records.active_player(gid, r) for r in ("us", "indians"))
    assert svc.roster.set_name(gid, us["id"], "Jane R.", actor="us") is None
    today = svc.now().date()
    assert svc.absences.declare(gid, ind, today + timedelta(days=5), today + timedelta(days=6)) is None
    page = client.get(f"/play/{gid}/{svc.records.token_for(ind['id'])}").get_data(as_text=True)
    assert "Américains (Jane R.), vous" in page and "a@players.example" not in page  # the engine's title, the name
    assert f"{(today + timedelta(days=5)).isoformat()} – {(today + timedelta(days=6)).isoformat()}" in page
    assert "au plus 10 jours" in page and "RÉGLER NOM" in page
