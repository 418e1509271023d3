"""The moderators' console speaks the moderator's language (issue 16: a French moderator got
English): the moderator's own setting (`pbem moderator add --lang`), else the browser's
Accept-Language among the languages pbem speaks, else English. Pages, flash messages,
form errors, the login page and the error pages follow; an English moderator's console is
unchanged."""

from __future__ import annotations

import pytest

from pbem.service.errors import ServiceError
from tests.web.conftest import MOD_EMAIL, MOD_PASSWORD, csrf_token, login, new_game, play_phases, post

FRENCH_BROWSER = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
ENGLISH_BROWSER = {"Accept-Language": "en-GB,en;q=0.9"}

# page -> (French words it must show, English words it showed before)
CONSOLE_PAGES = {
    "/console/": (("Tableau de bord", "Parties", "en cours", "Échéance", "Dernier courriel"),
                  ("Dashboard", "running", "Last mail", "draft corrections")),
    "/console/games/{game}": (("Position actuelle", "Calendrier", "Nouvelle échéance", "Absences et observateurs",
                               "Remplacer un joueur", "Avis à tous les joueurs", "Courriels reçus", "Journal de modération",
                               "création de la partie", "Vérifier par rejeu"),
                              ("Position now", "Timing", "New deadline", "Replace a player", "Notice to every player",
                               "Mail in", "Moderation log", "create game", "Verify replay")),
    "/console/games/{game}/phases/1": (("Dés", "Graine", "Événements", "Ordres appliqués", "Accusé de réception",
                                        "Courriel tel que reçu"),
                                       ("Dice", "Seed", "Events", "Orders that stood", "Acknowledgement", "Mail as received")),
    "/console/games/{game}/phases/1/correct": (("Corriger la phase", "Modifier les ordres", "Rejuger", "Ordres corrigés"),
                                               ("Correct phase", "Amend orders", "Re-adjudicate", "Corrected orders")),
    "/console/games/{game}/adjust": (("Ajuster l'état à la main", "Vérifier et appliquer", "Annuler"),
                                     ("Adjust the state by hand", "Check and apply", "Cancel")),
    "/console/games/{game}/verify": (("Vérification par rejeu", "tout concorde", "en ligne de commande"),
                                     ("Replay check", "all agree", "from the command line")),
    "/console/games/{game}/outbox": (("Courriels envoyés", "Mis en file", "Remise"), ("Mail out", "Queued", "Delivery")),
}


def _page(client, url: str, headers: dict) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return response.get_data(as_text=True).replace("&#39;", "'")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("url", sorted(CONSOLE_PAGES))
def test_each_console_page_speaks_the_browsers_language(logged_in, game, url, lang):
    """French for a French browser; for an English one, the English the console always had."""
    french, english = CONSOLE_PAGES[url]
    shown, hidden = (french, english) if lang == "fr" else (english, french)
    page = _page(logged_in, url.format(game=game), FRENCH_BROWSER if lang == "fr" else ENGLISH_BROWSER)
    assert f'<html lang="{lang}">' in page
    for word in shown:
        assert word in page, word
    for word in hidden:
        assert word not in page, word


def test_the_console_picture_is_drawn_in_the_moderators_language(logged_in, game):
    english = logged_in.get(f"/console/games/{game}/map.png", headers=ENGLISH_BROWSER)
    french = logged_in.get(f"/console/games/{game}/map.png", headers=FRENCH_BROWSER)
    assert english.status_code == french.status_code == 200 and french.data[:4] == b"\x89PNG"
    assert french.data != english.data


def test_the_moderators_own_language_wins_over_the_browser(svc, client, game):
    svc.moderators.add(MOD_EMAIL, MOD_PASSWORD, lang="fr")
    login(client)
    assert '<html lang="fr">' in _page(client, "/console/", ENGLISH_BROWSER)
    svc.moderators.add(MOD_EMAIL, MOD_PASSWORD, lang="en")  # a new password ends the session: log in again
    login(client)
    page = _page(client, f"/console/games/{game}", FRENCH_BROWSER)
    assert '<html lang="en">' in page and "Position now" in page and "Position actuelle" not in page


def test_a_moderator_language_pbem_does_not_speak_is_refused(svc):
    with pytest.raises(ServiceError, match="does not speak 'xx'"):
        svc.moderators.add(MOD_EMAIL, MOD_PASSWORD, lang="xx")


def test_flash_messages_and_form_errors_are_french(logged_in, game):
    logged_in.environ_base["HTTP_ACCEPT_LANGUAGE"] = FRENCH_BROWSER["Accept-Language"]  # every request of this browser
    url = f"/console/games/{game}"
    done = post(logged_in, f"{url}/deadline", {"when": "+24h", "reason": "un joueur voyage"}, token_from=url, follow=True)
    page = done.get_data(as_text=True).replace("&#39;", "'")
    assert "L'échéance de" in page and "est maintenant le" in page
    refused = post(logged_in, f"{url}/pause", {"reason": ""}, token_from=url, follow=True)
    assert "Une raison est obligatoire." in refused.get_data(as_text=True)
    bad = post(logged_in, f"{url}/deadline", {"when": "demain", "reason": "x"}, token_from=url, follow=True)
    assert "Impossible de lire 'demain'" in bad.get_data(as_text=True).replace("&#39;", "'")
    # the service's refusal, a message id, in the moderator's language
    running = post(logged_in, f"{url}/resume", {"reason": "reprise"}, token_from=url, follow=True)
    assert "seule une partie en pause ou en attente peut être reprise" in running.get_data(as_text=True)
    past = post(logged_in, f"{url}/deadline", {"when": "2001-01-01 12:00", "reason": "x"}, token_from=url, follow=True)
    assert "la nouvelle échéance est dans le passé" in past.get_data(as_text=True)


def test_the_service_refusal_stays_english_for_the_cli_and_the_mails(svc, game):
    """str() of a refusal is the English sentence, as the command line and the mails show it."""
    with pytest.raises(ServiceError) as refused:
        svc.games.resume(game, actor="mod@pbem.test", reason="again")
    assert str(refused.value) == "only a paused or waiting game can be resumed"
    with pytest.raises(ServiceError) as too_long:
        svc.disputes.amend_orders(game, 1, "nosuch", "x" * (svc.settings.max_orders_chars + 1), "why", "mod@pbem.test")
    assert str(too_long.value) == f"the orders are {svc.settings.max_orders_chars + 1} characters long; the limit is {svc.settings.max_orders_chars}"


def test_the_login_page_and_its_errors_follow_the_browser(client, moderator):
    page = client.get("/login", headers=FRENCH_BROWSER).get_data(as_text=True)
    assert "Se connecter" in page and "Mot de passe" in page and "Log in" not in page
    wrong = client.post("/login", data={"email": MOD_EMAIL, "password": "not the password",
                                        "csrf_token": csrf_token(client)}, headers=FRENCH_BROWSER)
    assert wrong.status_code == 401 and "Adresse ou mot de passe incorrect." in wrong.get_data(as_text=True)
    english = client.get("/login", headers=ENGLISH_BROWSER).get_data(as_text=True)
    assert "Log in" in english and "Se connecter" not in english


def _logged_in_browser(browser, base: str, locale: str, viewport: dict, login_button: str):
    """A browser context in ``locale`` whose moderator has logged in from the console's
    address (sent to the login page, back to the dashboard): (context, page)."""
    context = browser.new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    page.goto(base + "/console/")
    assert "/login" in page.url
    page.fill("#email", MOD_EMAIL)
    page.fill("#password", MOD_PASSWORD)
    page.get_by_role("button", name=login_button).click()
    page.wait_for_url(base + "/console/")
    return context, page


@pytest.mark.browser
def test_chromium_in_french_and_in_english_shows_the_console_in_each(live, browser):
    """Two moderators' browsers, one set to French and one to English, log in and open the
    same game: each reads the console in its own language."""
    svc, base = live.svc, live.settings.web_url
    gid = new_game(svc)
    play_phases(svc, gid, 2)
    for locale, login_button, headings, absent in (
        ("fr-FR", "Se connecter", ("Tableau de bord", "Calendrier", "Journal de modération", "Phases"), "Timing"),
        ("en-US", "Log in", ("Dashboard", "Timing", "Moderation log", "Phases"), "Calendrier"),
    ):
        context, page = _logged_in_browser(browser, base, locale, {"width": 1280, "height": 800}, login_button)
        try:
            assert page.locator("html").get_attribute("lang") == locale[:2]
            assert page.get_by_role("heading", name=headings[0]).is_visible()
            page.goto(f"{base}/console/games/{gid}")
            for name in headings[1:]:
                assert page.get_by_role("heading", name=name, exact=True).is_visible(), name
            assert page.get_by_role("heading", name=absent, exact=True).count() == 0
            page.goto(f"{base}/console/games/{gid}/phases/1")
            assert page.get_by_role("heading", name="Dés" if locale == "fr-FR" else "Dice", exact=True).is_visible()
        finally:
            context.close()


def test_a_moderator_sets_the_console_language_in_the_console(logged_in, svc, game):
    """The language menu on the dashboard: French for this moderator whatever the browser
    says, until they choose their browser's language again."""
    chosen = post(logged_in, "/console/language", {"lang": "fr"}, follow=True)
    page = chosen.get_data(as_text=True)
    assert '<html lang="fr">' in page and "La console parle maintenant français." in page
    assert svc.records.moderator_by_email(MOD_EMAIL)["lang"] == "fr"
    assert "Position actuelle" in _page(logged_in, f"/console/games/{game}", ENGLISH_BROWSER)
    back = post(logged_in, "/console/language", {"lang": ""}, follow=True)
    assert "The console now follows your browser's language." in back.get_data(as_text=True).replace("&#39;", "'")
    assert svc.records.moderator_by_email(MOD_EMAIL)["lang"] is None
    assert "Position now" in _page(logged_in, f"/console/games/{game}", ENGLISH_BROWSER)
    assert post(logged_in, "/console/language", {"lang": "xx"}).status_code == 400


@pytest.mark.browser
def test_chromium_a_moderator_picks_french_in_the_menu_and_the_pages_fit_a_phone(live, browser):
    """An English browser on a phone: the moderator picks 'français' on the dashboard; the
    console is French from then on, and its longer French words still fit a 375 px screen."""
    svc, base = live.svc, live.settings.web_url
    gid = new_game(svc)
    play_phases(svc, gid, 2)
    context, page = _logged_in_browser(browser, base, "en-US", {"width": 375, "height": 740}, "Log in")
    try:
        page.select_option("#console-lang", "fr")
        page.locator("#language button").click()
        page.wait_for_load_state()
        assert page.get_by_role("heading", name="Tableau de bord").is_visible()
        assert page.get_by_text("La console parle maintenant français.").is_visible()
        for url in ("/console/", f"/console/games/{gid}", f"/console/games/{gid}/phases/1",
                    f"/console/games/{gid}/phases/1/correct", f"/console/games/{gid}/verify"):
            page.goto(base + url)
            assert page.locator("html").get_attribute("lang") == "fr", url
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375, f"{url} is {width}px wide in French on a 375px screen"
    finally:
        context.close()
