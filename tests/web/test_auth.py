"""Who sees what: moderators log in; every console page and action needs it."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import MOD_EMAIL, MOD_PASSWORD, csrf_token, login, new_game, post

MODERATOR_PREFIXES = ("/console",)


def _fill(rule, game_id: str) -> str:
    values = {"game_id": game_id, "seq": "1", "draft_id": "1", "inbound_id": "1", "filename": "console.css", "when": "start"}
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: values[m.group(1)], rule.rule)


def moderator_rules(app):
    rules = [r for r in app.url_map.iter_rules() if r.rule.startswith(MODERATOR_PREFIXES)]
    assert len(rules) >= 20, "the console's routes are all under /console"
    return rules


def test_every_moderator_route_gives_a_visitor_nothing(client, app, game, svc):
    """Enumerates the URL map, so a new console route cannot be forgotten."""
    secret_bits = [svc.records.game(game)["title"], "@players.example", svc.records.current_phase(game)["seed"]]
    for rule in moderator_rules(app):
        url = _fill(rule, game)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if method == "GET":
                response = client.get(url)
                assert response.status_code == 302, (url, response.status_code)
                assert response.headers["Location"].startswith("/login"), url
            else:
                # Without a session (and so without a valid CSRF token) an action is refused outright.
                token = csrf_token(client, "/login")
                response = client.open(url, method=method, data={"csrf_token": token, "reason": "x", "role": "us", "text": "x"})
                assert response.status_code in (400, 401), (url, response.status_code)
            body = response.get_data(as_text=True)
            for bit in secret_bits:
                assert bit not in body, (url, bit)


def test_public_routes_are_only_the_archive_the_pictures_and_token_pages(app):
    public = sorted(r.rule for r in app.url_map.iter_rules() if not r.rule.startswith(MODERATOR_PREFIXES))
    assert public == sorted([
        "/", "/games", "/games/<game_id>", "/games/<game_id>/phase/<int:seq>.png", "/login", "/logout",
        "/play/<game_id>/<token>", "/play/<game_id>/<token>/map.png", "/play/<game_id>/<token>/picture/<name>.png",
        "/play/<game_id>/<token>/report/<int:seq>.json",
        "/static/<path:filename>",
        "/unsubscribe/<kind>/<int:row_id>/<sig>",  # a signed one-click link from an observer's mail or a reminder (issue 27)
        "/ladder", "/ladder/<engine>", "/tournaments", "/tournaments/<tournament_id>", "/open-games",  # a club's (issue 28)
    ])


def test_login_and_logout(client, moderator, game):
    assert client.get("/console/").status_code == 302
    response = login(client)
    assert response.status_code == 302 and response.headers["Location"] == "/console/"
    page = client.get("/console/").get_data(as_text=True)
    assert game in page and MOD_EMAIL in page
    # logout is a POST with the CSRF token; a GET does nothing
    assert client.get("/logout").status_code == 405
    assert client.post("/logout").status_code == 400
    post(client, "/logout", {})
    assert client.get("/console/").status_code == 302


def test_login_redirects_back_to_the_page_asked_for_but_never_off_site(client, moderator, game):
    response = client.get(f"/console/games/{game}")
    assert response.headers["Location"] == f"/login?next=/console/games/{game}"
    token = csrf_token(client, "/login")
    response = client.post(f"/login?next=/console/games/{game}", data={"email": MOD_EMAIL, "password": MOD_PASSWORD, "csrf_token": token})
    assert response.headers["Location"] == f"/console/games/{game}"
    post(client, "/logout", {})
    token = csrf_token(client, "/login")
    response = client.post("/login?next=//evil.example/x", data={"email": MOD_EMAIL, "password": MOD_PASSWORD, "csrf_token": token})
    assert response.headers["Location"] == "/console/"


def test_wrong_password_and_bad_input_say_what_is_wrong(client, moderator):
    response = login(client, password="wrong password")
    assert response.status_code == 401
    assert "Wrong address or password" in response.get_data(as_text=True)
    token = csrf_token(client, "/login")
    response = client.post("/login", data={"email": "", "password": "", "csrf_token": token})
    assert response.status_code == 400 and "Enter your address" in response.get_data(as_text=True)
    response = client.post("/login", data={"email": "nobody", "password": "x", "csrf_token": token})
    assert response.status_code == 400 and "not an email address" in response.get_data(as_text=True)
    assert client.get("/console/").status_code == 302


def test_session_cookie_is_httponly_and_samesite_lax(client, moderator):
    response = login(client)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain http on loopback; Secure when the base URL is https


def test_five_failures_lock_the_address_from_that_ip_for_fifteen_minutes(client, app, moderator, svc):
    for _ in range(5):
        assert login(client, password="nope nope").status_code == 401
    response = login(client)  # even the right password is refused now
    assert response.status_code == 429
    assert "Too many failed attempts" in response.get_data(as_text=True)
    assert svc.store.one("SELECT COUNT(*) AS n FROM login_failures")["n"] == 5
    # another IP is not locked out
    other = app.test_client()
    token = csrf_token(other, "/login")
    response = other.post("/login", data={"email": MOD_EMAIL, "password": MOD_PASSWORD, "csrf_token": token},
                          environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert response.status_code == 302
    # after the window the address may try again
    from datetime import timedelta
    later = svc.now() + timedelta(minutes=16)
    svc.clock = lambda: later
    assert login(client).status_code == 302
    assert svc.store.one("SELECT COUNT(*) AS n FROM login_failures WHERE ip = '127.0.0.1'")["n"] == 0


def test_a_password_reset_ends_open_sessions(client, moderator, svc):
    assert login(client).status_code == 302
    assert client.get("/console/").status_code == 200
    svc.moderators.add(MOD_EMAIL, "a brand new password")
    assert client.get("/console/").status_code == 302


def test_a_moderator_limited_to_some_games_sees_only_those(client, svc, game):
    other = new_game(svc)
    svc.moderators.add("limited@pbem.test", "limited password", games=[other])
    assert login(client, "limited@pbem.test", "limited password").status_code == 302
    page = client.get("/console/").get_data(as_text=True)
    assert f">{other}<" in page and f">{game}<" not in page
    assert client.get(f"/console/games/{other}").status_code == 200
    for url in (f"/console/games/{game}", f"/console/games/{game}/phases/1", f"/console/games/{game}/map.png",
                f"/console/games/{game}/phases/1/correct", f"/console/games/{game}/adjust"):
        assert client.get(url).status_code == 403, url
    response = post(client, f"/console/games/{game}/pause", {"reason": "mine now"})
    assert response.status_code == 403
    assert svc.records.game(game)["status"] == "active"


def test_moderator_pages_are_not_cached_and_carry_security_headers(logged_in, game):
    response = logged_in.get(f"/console/games/{game}")
    assert response.headers["Cache-Control"] == "no-store"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("action", ["pause", "notice", "close"])
def test_csrf_is_enforced_on_every_form(logged_in, game, svc, action):
    before = svc.store.one("SELECT COUNT(*) AS n FROM audit")["n"]
    response = logged_in.post(f"/console/games/{game}/{action}", data={"reason": "no token", "text": "hello"})
    assert response.status_code == 400
    assert "The form could not be used" in response.get_data(as_text=True)
    response = logged_in.post(f"/console/games/{game}/{action}", data={"reason": "forged", "text": "hello", "csrf_token": "forged"})
    assert response.status_code == 400
    assert svc.store.one("SELECT COUNT(*) AS n FROM audit")["n"] == before
    assert svc.records.game(game)["status"] == "active"
