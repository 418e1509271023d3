"""The public archive and the players' token pages: what anyone may read,
never a hidden plan, an order of the open phase or a seed not yet revealed;
and every bit of player-supplied text shown escaped."""

from __future__ import annotations

from markupsafe import escape

from tests.support import mail
from tests.web.conftest import address_of, player_email, post, send_orders

SECRET_ORDERS = "# SECRET-PLAN-42\nON Custer:\n  Custer MOVE TO 0101\n"
SCRIPT = "<script>alert('pwned')</script>"


def test_the_archive_shows_history_pictures_public_events_and_the_moderation_log(client, svc, game):
    page = client.get(f"/games/{game}").get_data(as_text=True)
    g = svc.records.game(game)
    assert str(escape(g["title"])) in page
    for ph in svc.records.phase_rows(game):
        if ph["status"] == "resolved":
            assert ph["label"] in page and ph["seed"] in page, "resolved phases show their revealed seed"
            assert f"/games/{game}/phase/{ph['seq']}.png" in page
    assert "Turn history" in page and "Moderation log" in page and "game created" in page
    picture = client.get(f"/games/{game}/phase/1.png")
    assert picture.status_code == 200 and picture.data[:4] == b"\x89PNG"
    assert client.get(f"/games/{game}/phase/99.png").status_code == 404
    assert client.get("/games/nosuch").status_code == 404
    assert game in client.get("/games").get_data(as_text=True)


def test_the_archive_never_shows_open_orders_unrevealed_seeds_addresses_or_private_log(client, logged_in, svc, game):
    send_orders(svc, game, "us", SECRET_ORDERS)
    svc.games.send_notice(game, "Play nicely.", actor="mod@pbem.test")
    current = svc.records.current_phase(game)
    setup_seed = next(a for a in svc.store.all("SELECT details FROM audit WHERE action = 'setup seed'"))["details"]
    post(logged_in, "/logout", {})
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert current["commitment"] in page, "the open phase's commitment is public"
    assert current["seed"] not in page, "its seed is not, until the phase is resolved"
    assert "SECRET-PLAN-42" not in page and "MOVE TO 0101" not in page
    assert "@players.example" not in page and "mod@pbem.test" not in page
    import json
    assert json.loads(setup_seed)["setup_seed"] not in page
    assert "press" not in [a["action"] for a in svc.public.audit_log(game)]


def test_a_player_page_opens_only_with_that_players_live_token(client, svc, game):
    us = next(p for p in svc.records.players(game) if p["role"] == "us")
    indians = next(p for p in svc.records.players(game) if p["role"] == "indians")
    send_orders(svc, game, "us", SECRET_ORDERS)
    token = svc.records.token_for(us["id"])
    response = client.get(f"/play/{game}/{token}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "your role: <strong>us</strong>" in page and "MOVE TO 0101" in page, "a player's own orders for the open phase"
    assert address_of(svc, game, "us") in page
    assert response.headers["Cache-Control"] == "no-store" and response.headers["Referrer-Policy"] == "no-referrer"
    other = client.get(f"/play/{game}/{svc.records.token_for(indians['id'])}").get_data(as_text=True)
    assert "MOVE TO 0101" not in other and "SECRET-PLAN-42" not in other, "never another player's open orders"
    assert svc.records.current_phase(game)["seed"] not in page + other
    picture = client.get(f"/play/{game}/{token}/map.png")
    assert picture.status_code == 200 and picture.data[:4] == b"\x89PNG"
    for bad in (f"/play/{game}/{token[:-1]}x", f"/play/{game}/nosuchtoken", f"/play/othergame/{token}",
                f"/play/{game}/{'a' * 200}", f"/play/{game}/nosuchtoken/map.png"):
        assert client.get(bad).status_code == 404, bad
    svc.games.rotate_token(game, "us", actor="mod@pbem.test", reason="leaked")
    assert client.get(f"/play/{game}/{token}").status_code == 404, "a revoked token opens nothing"
    assert client.get(f"/play/{game}/{token}/map.png").status_code == 404


def test_player_supplied_text_is_always_shown_escaped(logged_in, svc, game):
    """<script> in orders, press, names, subjects and display names."""
    with svc.store.write():
        svc.store.execute("UPDATE players SET name = ? WHERE game_id = ? AND role = 'indians'", (SCRIPT, game))
    # orders: the line the engine cannot read is quoted back in the errors
    send_orders(svc, game, "us", SECRET_ORDERS + SCRIPT, subject=SCRIPT, from_name=SCRIPT)
    # press between players
    raw = mail(player_email("indians"), address_of(svc, game, "indians"), f"PRESS ALL\n{SCRIPT}\nEND\n", subject="press " + SCRIPT)
    assert svc.mailroom.receive(raw)["status"] == "processed"
    inbound = [r["id"] for r in svc.store.all("SELECT id FROM inbound WHERE game_id = ? ORDER BY id DESC LIMIT 2", (game,))]
    seq = svc.records.current_phase(game)["seq"]
    us = next(p for p in svc.records.players(game) if p["role"] == "us")
    pages = {
        "dashboard": "/console/", "game": f"/console/games/{game}", "phase": f"/console/games/{game}/phases/{seq}",
        "press mail": f"/console/games/{game}/inbound/{inbound[0]}", "orders mail": f"/console/games/{game}/inbound/{inbound[1]}",
        "archive": f"/games/{game}", "player": f"/play/{game}/{svc.records.token_for(us['id'])}",
    }
    shown = 0
    for name, url in pages.items():
        response = logged_in.get(url)
        assert response.status_code == 200, name
        html = response.get_data(as_text=True)
        assert "<script>alert" not in html, name
        assert "alert(&#39;pwned&#39;)" in html or "alert('pwned')" not in html, name
        shown += "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;" in html
    assert shown >= 6, "the text is shown (escaped) on nearly every page"
    assert "&lt;script&gt;" in logged_in.get(f"/console/games/{game}").get_data(as_text=True), "the player's name"
