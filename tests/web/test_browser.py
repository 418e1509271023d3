"""End to end in a real headless Chromium (Debian's, driven by Playwright)
against `pbem serve` on loopback, with an SMTP sink as the outside world.

Screenshots of the main pages go to tests/web/screenshots/ (desktop 1280x800
and phone 375x740) for a person to look at."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pbem.engines import get_engine
from tests.support import text_of, to
from tests.web.conftest import ENGINE, MOD_EMAIL, MOD_PASSWORD, SCREENSHOTS, new_game, play_phases, player_email

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
CONSOLE_WIDTH = {"width": 1000, "height": 800}  # a laptop's window: the console must work whole at it
PHONE = {"width": 375, "height": 740}
REASON = "The parser misread Custer's orders: he was to hold at 2018"
WATCHER = "watcher@elsewhere.example"

# the picture's width once it has loaded: decode() waits for the load and fails on a broken one
LOADED_WIDTH = "img => img.decode().then(() => img.naturalWidth)"


def _shot(page, name: str, full: bool = True) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full)


def _login(page, base: str) -> None:
    page.goto(base + "/console/")
    assert "/login" in page.url
    page.fill("#email", MOD_EMAIL)
    page.fill("#password", MOD_PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(base + "/console/")


def _game(live) -> str:
    gid = new_game(live.svc)
    play_phases(live.svc, gid, 2)
    return gid


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide on a {page.viewport_size['width']}px screen"


def test_log_in_amend_readjudicate_read_the_difference_publish_and_mail(live, sink, browser):
    """At 1000 px: the phases table's review / correct column in sight; the correction page with
    the phase's events and its maps (before, after, after the draft); publishing asked and
    confirmed by a second form (no script dialog); the correction mailed to the players and to
    an observer, and listed on the Verify page and by `pbem verify`."""
    svc, base = live.svc, live.settings.web_url
    gid = _game(live)
    svc.observers.observe(gid, WATCHER, svc.observers.confirmation_code(gid, WATCHER), lang="en")
    context = browser.new_context(viewport=CONSOLE_WIDTH)
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        _login(page, base)
        assert page.locator("#games").get_by_text(gid, exact=True).is_visible()
        _shot(page, "dashboard-desktop", full=False)

        page.get_by_role("link", name=gid, exact=True).click()
        page.wait_for_url(f"{base}/console/games/{gid}")
        assert page.locator("#map img").evaluate(LOADED_WIDTH) > 0
        _shot(page, "game-desktop", full=False)
        review = page.locator("#phases tr", has_text="T1").get_by_role("link", name="Review / correct")
        review.scroll_into_view_if_needed()
        wrap = page.locator("#phases .table-wrap").evaluate(
            "w => ({scroll: w.scrollWidth, client: w.clientWidth, right: w.getBoundingClientRect().right})")
        box = review.bounding_box()
        assert wrap["scroll"] <= wrap["client"], f"the phases table scrolls sideways at 1000 px: {wrap}"
        assert box["x"] >= 0 and box["x"] + box["width"] <= min(wrap["right"], CONSOLE_WIDTH["width"]), (box, wrap)
        review.click()
        page.wait_for_url(f"{base}/console/games/{gid}/phases/1/correct")
        # what the phase did, before anything is amended: its events and its maps
        events = [e["text"] for e in svc.console.phase(gid, 1)["events"]]
        shown = page.locator("#phase-events #events li").all_inner_texts()
        assert events and shown == events
        for picture in ("#map-start", "#map-result"):
            assert page.locator(picture).evaluate(LOADED_WIDTH) > 0, picture
        first = next(p for p in svc.records.phase_rows(gid) if p["seq"] == 1)
        template = get_engine(ENGINE).order_template(json.loads(first["state"]), "us")  # Custer holds
        page.fill("#text-us", template)
        page.fill("#reason-us", REASON)
        page.click("button:has-text('Amend orders of us')")
        assert page.get_by_text("amended in the draft", exact=True).is_visible()

        page.click("button:has-text('Re-adjudicate T1')")
        page.wait_for_selector("#difference")
        assert page.locator("#diff-table").get_by_text("units[custer].hex").is_visible()
        assert page.locator("#event-diff li.gone").count() > 0 and page.locator("#event-diff li.new").count() > 0
        before, after = (page.locator("#diff-table tr", has_text="units[custer].hex").locator(f"td.{c}").inner_text() for c in ("before", "after"))
        assert before != after and after == "2018"
        assert page.locator("#map-draft").evaluate(LOADED_WIDTH) > 0
        page.locator("#difference").scroll_into_view_if_needed()
        _shot(page, "correct-desktop")

        # publishing asks first, with a second form; nothing is published by the first
        page.fill("#publish-reason", REASON)
        page.click("button:has-text('Publish the correction')")
        confirm = page.locator("#confirm-publish")
        assert confirm.is_visible() and REASON in confirm.inner_text()
        assert "2 player(s) and 1 observer(s)" in confirm.inner_text()
        assert svc.records.phase_revisions(gid, 1)[0]["revision"] == 0 and not [p for p in svc.records.phase_revisions(gid, 1) if p["revision"]]
        _shot(page, "publish-confirm-desktop", full=False)
        confirm.get_by_role("button", name="Yes, publish and mail").click()
        page.wait_for_url(f"{base}/console/games/{gid}")
        assert page.locator(".flash.ok", has_text="T1 is corrected").is_visible()
        assert dialogs == [], "no script dialog asked anything"

        for role in ("us", "indians"):
            msg = sink.wait_for(to(player_email(role), "correction"), timeout=15)[0]["msg"]
            assert msg["X-PBEM-Kind"] == "correction"
            assert REASON in text_of(msg) and f"units[custer].hex: {before} -> {after}" in text_of(msg)
        watched = sink.wait_for(lambda r: to(WATCHER, "observer")(r) and "Correction to T1" in (r["msg"]["Subject"] or ""), timeout=15)
        text = text_of(watched[0]["msg"])
        assert REASON in text and f"units[custer].hex: {before} -> {after}" in text and "for observers" in text

        page.goto(f"{base}/console/games/{gid}/phases/1")
        assert page.locator("#revisions").is_visible(), "the corrected phase keeps its earlier revision"
        _shot(page, "phase-desktop", full=False)
        page.goto(f"{base}/console/games/{gid}/verify")
        listed = page.locator("#corrections li.correction").all_inner_texts()
        assert len(listed) == 1 and listed[0].startswith(f"T1: corrected by {MOD_EMAIL}") and REASON in listed[0], listed
        page.goto(f"{base}/games/{gid}")
        assert page.locator("#moderation").get_by_text(REASON).is_visible()
        assert svc.verifier.verify_game(gid)["ok"]
        cli = subprocess.run([sys.executable, "-m", "pbem.cli", "verify", "--db", str(live.settings.db_path), gid],
                             capture_output=True, text=True, timeout=120)
        assert cli.returncode == 0 and f"correction: T1: corrected by {MOD_EMAIL}" in cli.stdout and REASON in cli.stdout, cli.stdout + cli.stderr
    finally:
        context.close()


def test_the_console_on_a_phone(live, browser):
    svc, base = live.svc, live.settings.web_url
    gid = _game(live)
    first = next(p for p in svc.records.phase_rows(gid) if p["seq"] == 1)
    draft = svc.disputes.amend_orders(gid, 1, "us", get_engine(ENGINE).order_template(json.loads(first["state"]), "us"), REASON, MOD_EMAIL)
    svc.disputes.readjudicate(draft["id"])
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        _login(page, base)
        _no_sideways_scroll(page)
        _shot(page, "dashboard-phone")
        for name, url in (("game", f"/console/games/{gid}"), ("phase", f"/console/games/{gid}/phases/1"),
                          ("correct", f"/console/games/{gid}/phases/1/correct")):
            page.goto(base + url)
            _no_sideways_scroll(page)
            _shot(page, f"{name}-phone", full=False)
        page.locator("#difference").scroll_into_view_if_needed()
        assert page.locator("#diff-table").get_by_text("units[custer].hex").is_visible()
        _shot(page, "difference-phone", full=False)
        # an action from the phone: extend the deadline
        page.goto(f"{base}/console/games/{gid}")
        page.fill("#when", "+12h")
        page.fill("#deadline-reason", "travelling")
        page.click("button:has-text('Change deadline')")
        assert page.locator(".flash.ok", has_text="The deadline of").is_visible()
        page.wait_for_load_state("load")
        _shot(page, "action-phone", full=False)
    finally:
        context.close()


def test_the_public_archive_and_a_players_page(live, browser):
    svc, base = live.svc, live.settings.web_url
    gid = _game(live)
    token = svc.records.token_for(next(p for p in svc.records.players(gid) if p["role"] == "us")["id"])
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        try:
            page.goto(f"{base}/games/{gid}")
            assert page.get_by_role("heading", name="Turn history").is_visible()
            assert page.locator("#current img").evaluate(LOADED_WIDTH) > 0
            assert "Log out" not in page.content()
            _no_sideways_scroll(page)
            _shot(page, f"archive-{size}", full=False)
            page.goto(f"{base}/play/{gid}/{token}")
            assert page.get_by_text("your role:").is_visible()
            _no_sideways_scroll(page)
            _shot(page, f"play-{size}", full=False)
            assert page.goto(f"{base}/play/{gid}/not{token}").status == 404
        finally:
            context.close()
