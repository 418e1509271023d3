"""The club's public pages (issue 28) in a real headless Chromium against `pbem serve`: the ladder,
the open games and a tournament's standings, at 420 px wide (a phone) and on a desktop; players
are named, never shown by address; nothing scrolls sideways."""

from __future__ import annotations

import pytest

from tests.clubs.test_games_by_mail import code_in, last_text, send_general
from tests.web.conftest import SCREENSHOTS

pytestmark = pytest.mark.browser

PHONE = {"width": 420, "height": 860}
DESKTOP = {"width": 1280, "height": 800}


def _club(svc) -> dict:
    """Rated games finished, a player named, a game started by mail waiting for players, a tournament."""
    players = [f"member{n}@club.example" for n in range(4)]
    for n in range(3):
        gid = svc.games.create("custer", "little_bighorn", {"us": players[n], "indians": players[n + 1]})
        if n == 0:
            assert svc.roster.set_name(gid, svc.records.active_player(gid, "us")["id"], "Marcus Reno", actor="us") is None
        assert svc.endings.concede(gid, "indians") is None
    send_general(svc, "starter@club.example", "NEW GAME rummy three AS p2 DEADLINE 72h OPTIONS target=200\n")
    send_general(svc, "starter@club.example", f"CONFIRM {code_in(last_text(svc, 'starter@club.example'))}\n")
    [waiting] = svc.open_games.waiting()
    tid = svc.tournaments.create("Long Winter Season of the Club", "custer", "rosebud", players, format="round_robin", actor="host")
    return {"waiting": waiting, "tournament": tid}


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide on a {page.viewport_size['width']}px screen"


def test_the_ladder_open_games_and_standings_pages_work_at_420_px(live, browser):
    made = _club(live.svc)
    base = live.settings.web_url
    waiting = made["waiting"]
    SCREENSHOTS.mkdir(exist_ok=True)
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=viewport, is_mobile=size == "phone")
        page = context.new_page()
        try:
            page.goto(base + "/ladder/custer")
            rows = page.locator("#ladder tbody tr")
            assert rows.count() == 4
            assert rows.first.get_by_text("Marcus Reno").is_visible(), "the best rated, by the name he chose"
            assert "@club.example" not in page.content()
            assert page.get_by_role("link", name="Every game").is_visible()
            _no_sideways_scroll(page)
            page.screenshot(path=str(SCREENSHOTS / f"ladder-{size}.png"), full_page=True)

            page.goto(base + "/open-games")
            card = page.locator(f"#game-{waiting['id']}")
            assert card.is_visible()
            join = card.get_by_text(f"JOIN {waiting['id']} {waiting['code']}")
            assert join.is_visible() and join.bounding_box()["x"] + join.bounding_box()["width"] <= viewport["width"]
            assert "p1, p3" in card.inner_text() and "starter@club.example" not in page.content()
            _no_sideways_scroll(page)
            page.screenshot(path=str(SCREENSHOTS / f"open-games-{size}.png"), full_page=True)

            page.goto(base + f"/tournaments/{made['tournament']}")
            assert page.locator("#standings tbody tr").count() == 4
            assert page.get_by_text("round 1 of 3").is_visible() and "@club.example" not in page.content()
            _no_sideways_scroll(page)
            page.screenshot(path=str(SCREENSHOTS / f"tournament-{size}.png"), full_page=True)
        finally:
            context.close()
