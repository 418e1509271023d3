"""The public archive and the games list speak the reader's language (issue 16: a French
observer or moderator got English): the browser's Accept-Language among the languages pbem
offers, English otherwise; the events, the moderation log and the times follow."""

from __future__ import annotations

import pytest
from markupsafe import escape

from pbem.moments import format_moment
from pbem.service.clock import from_iso
from tests.web.conftest import new_game, play_phases

FRENCH_BROWSER = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
ENGLISH_HEADINGS = ("Turn history", "Moderation log", "Sides", "Orders that stood", "No moderator action")


def test_a_french_browser_reads_the_archive_in_french(client, svc, game):
    raw = client.get(f"/games/{game}", headers=FRENCH_BROWSER).get_data(as_text=True)
    page = raw.replace("&#39;", "'")
    assert '<html lang="fr">' in page
    for french in ("Historique des tours", "Journal de modération", "Camps", "création de la partie", "partie créée (",
                   "Événements", "En attente des ordres de"):
        assert french in page, french
    for english in ENGLISH_HEADINGS + ("game created", "Waiting for orders from"):
        assert english not in page, english
    resolved = [ph for ph in svc.records.phase_rows(game) if ph["status"] == "resolved"]
    assert resolved
    for ph in resolved:
        assert f"résolue le {format_moment(from_iso(ph['resolved_at']), 'UTC', 'fr')}" in page
    # The events are the players' own sentences in French, as the French players' reports have them.
    first = svc.public.archive(game, "fr")["history"][-1]["events"]
    assert first and all(str(escape(e["text"])) in raw for e in first)
    assert [e["text"] for e in first] != [e["text"] for e in svc.public.archive(game, "en")["history"][-1]["events"]]


def test_the_games_list_and_a_missing_page_follow_the_browser(client, game):
    games = client.get("/games", headers=FRENCH_BROWSER).get_data(as_text=True)
    assert "<h1>Parties</h1>" in games and "Commencée" in games and game in games
    missing = client.get("/games/nosuch", headers=FRENCH_BROWSER)
    assert missing.status_code == 404 and "Introuvable" in missing.get_data(as_text=True)


@pytest.mark.parametrize("header", [None, "de-DE,de;q=0.9", "en-GB,en;q=0.8,fr;q=0.5"])
def test_a_browser_without_french_first_reads_english(client, game, header):
    page = client.get(f"/games/{game}", headers={"Accept-Language": header} if header else {}).get_data(as_text=True)
    assert '<html lang="en">' in page and "Turn history" in page and "Historique des tours" not in page


@pytest.mark.browser
def test_chromium_in_french_shows_the_archive_in_french(live, browser):
    svc, base = live.svc, live.settings.web_url
    gid = new_game(svc)
    play_phases(svc, gid, 2)
    context = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{base}/games/{gid}")
        assert page.locator("html").get_attribute("lang") == "fr"
        assert page.get_by_role("heading", name="Historique des tours").is_visible()
        assert page.get_by_role("heading", name="Journal de modération").is_visible()
        assert page.get_by_text("création de la partie").first.is_visible()
        page.goto(f"{base}/games")
        assert page.get_by_role("heading", name="Parties").is_visible()
    finally:
        context.close()


def test_the_archive_picture_speaks_the_readers_language(client, game):
    """Rummy and Custer draw words on their pictures: the French reader's picture differs, and
    a cache is told the picture varies with the language asked for."""
    english = client.get(f"/games/{game}/phase/1.png")
    french = client.get(f"/games/{game}/phase/1.png", headers=FRENCH_BROWSER)
    assert english.status_code == french.status_code == 200 and french.data[:4] == b"\x89PNG"
    assert "Accept-Language" in french.headers["Vary"]
    assert french.data != english.data
