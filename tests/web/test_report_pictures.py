"""A report's pictures read on a phone and on a desktop: one report of each engine with map
pictures (ACW Miniatures, Last Full Measure, Custer's Last Stand, Peaux-Rouges, Little Bighorn Rummy), as the
service mailed it, shown in Debian's headless Chromium at 420 and 1000 CSS px wide. From each
picture's own layout data (every word's box and font size, carried in its PNG): no two words
overlap, every word that had to be placed was placed, and every word of a picture meant for a
phone (a close-up; the rummy table, drawn at a phone's width) is drawn at least
``LEGIBLE_CSS_PX`` on screen; the page never scrolls sideways.

Why 9 CSS px: the smallest size the mail readers' own fine print uses (Gmail's and Apple Mail's
footers are 9-11 px) and the floor WCAG's examples treat as small but readable; hex numbers
and short names are a few characters, read one at a time (docs/games/lfm.md, "Pictures").

Screenshots of each report at both widths go to tests/web/screenshots/ (copied to docs/games/
beside each game's page)."""

from __future__ import annotations

import base64
import email
import hashlib
import re
from email import policy

import pytest

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.labels import overlaps
from pbem.engines.pictures import layout_of
from tests.core.helpers import address_of, outbox
from tests.support import mail
from tests.web.conftest import SCREENSHOTS

pytestmark = pytest.mark.browser

LEGIBLE_CSS_PX = 9
WIDTHS = (420, 1000)
# engine -> (scenario, players by role, phases the bots play, the reader whose report is shown,
# the pictures a phone must read: all but the whole map, or every one)
GAMES = {
    "acw": ("herbst_woods", {"union": "meade@players.example", "confederate": "lee@players.example"}, 3, "union", "close-ups"),
    "lfm": ("east_cavalry_field", {"csa": "stuart@players.example", "usa": "gregg@players.example"}, 5, "usa", "close-ups"),
    "custer": ("little_bighorn", {"us": "custer@players.example", "indians": "bull@players.example"}, 8, "us", "close-ups"),
    "peaux_rouges": ("little_big_horn", {"longs_couteaux": "lc@players.example", "peaux_rouges": "pr@players.example"}, 6,
                     "longs_couteaux", "close-ups"),
    "rummy": ("two", {"p1": "p1@players.example", "p2": "p2@players.example"}, 8, "p1", "all"),
}


def _seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def played_report(svc, engine_name: str) -> tuple[str, dict[str, bytes]]:
    """The HTML of the last report the reader was mailed, and its pictures by Content-ID."""
    scenario, players, phases, reader, _phone = GAMES[engine_name]
    engine = get_engine(engine_name)
    gid = svc.games.create(engine_name, scenario, players)
    for step in range(phases):
        state = svc.records.game_state(gid)
        phase = svc.records.current_phase(gid)
        for role in engine.phase(state).awaited:
            text = engine.bot_orders(state, role, Dice(_seed(engine_name, step, role)))
            svc.mailroom.receive(mail(players[role], address_of(svc, gid, role), f"ORDERS {gid} {phase['label']}\n{text}\nEND\n"))
        if svc.records.current_phase(gid) and svc.records.current_phase(gid)["id"] == phase["id"]:
            svc.phases.close(gid, reason="test")  # a card player's completed turn closed it already
    row = [r for r in outbox(svc, kind="report") if r["to_addr"] == players[reader]][-1]
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    html = msg.get_body(("html",)).get_content()
    images = {part["Content-ID"].strip("<>"): part.get_content() for part in msg.walk()
              if part.get_content_type() == "image/png" and part["Content-ID"]}
    return html, images


def inline(html: str, images: dict[str, bytes]) -> str:
    """The mail's HTML with each ``cid:`` picture as a data URL, named for the test."""
    def data(m):
        cid = m.group(1)
        return f'data-cid="{cid}" src="data:image/png;base64,{base64.b64encode(images[cid]).decode()}"'
    return re.sub(r'src="cid:([^"]+)"', data, html)


@pytest.mark.parametrize("engine_name", sorted(GAMES))
def test_report_pictures_read_at_phone_and_desktop_width(svc, browser, engine_name):
    html, images = played_report(svc, engine_name)
    phone = {name for name in images if GAMES[engine_name][4] == "all" or name != "map"}  # what a phone must read
    assert "map" in images and phone, sorted(images)
    for name, png in images.items():
        layout = layout_of(png)
        assert layout is not None, name
        assert overlaps(layout) == [], (name, overlaps(layout)[:3])
        assert layout["unplaced"] == [], (name, layout["unplaced"])
    page_html = inline(html, images)
    for width in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": 900})
        try:
            page.set_content(page_html)
            page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
            shown = page.evaluate("""Array.from(document.images).map(i => ({
                cid: i.dataset.cid, width: i.clientWidth, natural: i.naturalWidth}))""")
            assert {s["cid"] for s in shown} == set(images)
            wide = page.evaluate("""Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > %d)
                .map(e => e.tagName + ' ' + e.getBoundingClientRect().right + ' ' + e.parentElement.outerHTML.slice(0, 300))""" % width)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, wide[:5]  # no sideways scrolling
            for s in shown:
                scale = s["width"] / s["natural"]
                assert scale <= 1.0001  # never blown up past its pixels
                if s["cid"] not in phone:
                    continue  # the whole map: the close-ups are what a phone reads
                smallest = min(label["size"] for label in layout_of(images[s["cid"]])["labels"])
                assert smallest * scale >= LEGIBLE_CSS_PX, (width, s, smallest)
            SCREENSHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{engine_name}-report-{width}.png"), full_page=True)
        finally:
            page.close()
