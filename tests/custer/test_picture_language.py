"""The map picture in the reader's language: title, turn and legend in French for a French
reader, while ``picture(view)`` without gettext draws exactly what it drew before pictures
could be translated."""

from __future__ import annotations

import email
import hashlib
import io
from email import policy

import pytest
from PIL import Image

from pbem.dice import Dice
from pbem.engines.base import MODERATOR
from pbem.engines.custer import CusterEngine
from pbem.engines.custer.picture import LEGEND, LEGEND_KEYS, MAIL_COLUMN, PAPER
from pbem.i18n import gettext_for

ENGINE = CusterEngine()
FRENCH = gettext_for("fr")
LEGEND_WORDS = {word for word, *_ in LEGEND_KEYS}


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def seeded_game(scenario: str) -> list[dict]:
    """Every state of one seeded bot game, from the setup to the end."""
    state = ENGINE.setup(scenario, {}, Dice(seed("picture", scenario, "setup")))
    states = [state]
    while ENGINE.outcome(state) is None:
        phase = ENGINE.phase(state)
        orders = {}
        for role in phase.awaited:
            parsed = ENGINE.parse_orders(state, role, ENGINE.bot_orders(state, role, Dice(seed("picture", scenario, phase.id, role))))
            orders[role] = parsed.orders
        state, _ = ENGINE.resolve(state, orders, Dice(seed("picture", scenario, phase.id)))
        states.append(state)
    return states


@pytest.mark.parametrize("scenario,index,role", [("little_bighorn", 6, "us"), ("rosebud", 4, "indians")])
def test_without_gettext_the_picture_is_the_english_one(scenario, index, role):
    """``picture(view)`` draws the English words, as an English reader's gettext does."""
    view = ENGINE.view(seeded_game(scenario)[index], role)
    png = ENGINE.picture(view)
    assert ENGINE.picture(view, gettext=None) == png
    assert ENGINE.picture(view, gettext_for("en")) == png
    assert ENGINE.pictures(view)["map"] == ENGINE.pictures(view, gettext_for("en"))["map"]


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_a_french_reader_gets_the_title_and_legend_in_french_and_the_same_map():
    view = ENGINE.view(seeded_game("little_bighorn")[6], "us")
    english, french = pixels(ENGINE.picture(view)), pixels(ENGINE.picture(view, FRENCH))
    w, h = english.size
    assert french.size == (w, h)
    title, board, legend = (0, 0, w, 34), (0, 34, w, h - LEGEND), (0, h - LEGEND, w, h)
    assert french.crop(board).tobytes() == english.crop(board).tobytes()
    assert french.crop(title).tobytes() != english.crop(title).tobytes()
    assert french.crop(legend).tobytes() != english.crop(legend).tobytes()


def test_every_view_of_a_seeded_game_draws_in_french():
    roles = ("us", "indians", None, MODERATOR)
    for scenario in ("little_bighorn", "rosebud"):
        for i, state in enumerate(seeded_game(scenario)):
            png = ENGINE.picture(ENGINE.view(state, roles[i % len(roles)]), FRENCH)
            assert png[:8] == b"\x89PNG\r\n\x1a\n", (scenario, i)


def test_a_legend_too_long_for_the_map_is_drawn_smaller_inside_it():
    view = ENGINE.view(seeded_game("little_bighorn")[0], "us")
    # "woods WOODS": at the legend's usual size these words would run 25 pixels off the map
    im = pixels(ENGINE.picture(view, lambda msgid: f"{msgid} {msgid.upper()}" if msgid in LEGEND_WORDS else msgid))
    w, h = im.size
    margin = im.crop((w - 22, h - LEGEND, w, h))
    assert [colour for _, colour in margin.getcolors()] == [PAPER], "the legend runs into the right margin"


def mail_pictures(svc, kind: str, to_addr: str) -> dict[str, bytes]:
    """The last such mail's pictures by Content-ID."""
    row = [r for r in svc.store.all("SELECT * FROM outbox ORDER BY id") if r["kind"] == kind and r["to_addr"] == to_addr][-1]
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    return {p["Content-ID"].strip("<>"): p.get_content() for p in msg.walk() if p.get_content_type() == "image/png"}


def mail_picture(svc, kind: str, to_addr: str) -> bytes:
    return mail_pictures(svc, kind, to_addr)["map"]


def test_the_service_draws_players_in_their_language_and_moderators_and_the_public_in_english(svc):
    fr, en = "custer@players.example", "bull@players.example"
    gid = svc.games.create("custer", "little_bighorn", {"us": fr, "indians": en}, languages={"us": "fr"})
    start = svc.records.game_state(gid)
    assert mail_picture(svc, "welcome", fr) == ENGINE.picture(ENGINE.view(start, "us"), FRENCH)
    assert mail_picture(svc, "welcome", en) == ENGINE.picture(ENGINE.view(start, "indians"))
    svc.phases.close(gid)
    now = svc.records.game_state(gid)
    # a report shows the part of the board around the pieces; the pages the whole map
    assert mail_picture(svc, "report", fr) == ENGINE.pictures(ENGINE.view(now, "us"), FRENCH)["map"]
    assert mail_picture(svc, "report", en) == ENGINE.pictures(ENGINE.view(now, "indians"))["map"]
    tokens = {p["role"]: svc.records.token_for(p["id"]) for p in svc.records.players(gid)}
    assert svc.player_pages.picture(gid, tokens["us"]) == ENGINE.picture(ENGINE.view(now, "us"), FRENCH)
    assert svc.player_pages.picture(gid, tokens["indians"]) == ENGINE.picture(ENGINE.view(now, "indians"))
    assert svc.console.picture(gid) == ENGINE.picture(ENGINE.view(now, MODERATOR))
    assert svc.public.picture(gid, 1) == ENGINE.picture(ENGINE.view(now, None))


def test_a_report_after_combats_carries_the_close_ups_beside_the_map(svc):
    """A turn with combats: the report mail holds the map, the close-ups of the reader's own
    sectors and one of the fighting, each shown by the HTML through its Content-ID and named in
    the text; the French reader's are drawn in French, their titles naming the phase resolved."""
    from pbem.engines.pictures import layout_of
    from pbem.mail.addresses import orders_address
    from pbem.service.store import loads
    from tests.support import mail

    fr, en = "custer@players.example", "bull@players.example"
    gid = svc.games.create("custer", "little_bighorn", {"us": fr, "indians": en}, languages={"us": "fr"})
    players = {p["role"]: p for p in svc.records.players(gid)}
    for n in range(30):
        ph = svc.records.current_phase(gid)
        state = loads(ph["state"])
        for role in ENGINE.phase(state).awaited:
            to = orders_address(gid, svc.records.token_for(players[role]["id"]), svc.settings.mail_domain)
            begin, end = ("ORDRES", "FIN") if role == "us" else ("ORDERS", "END")
            body = ENGINE.bot_orders(state, role, Dice(seed("report", ph["label"], role)))
            svc.mailroom.receive(mail(players[role]["email"], to, f"{begin} {gid} {ph['label']}\n{body}\n{end}\n"))
        svc.phases.close(gid)
        if "fight1" in mail_pictures(svc, "report", en):
            break
    else:
        pytest.fail("no combat in 30 phases")
    now = svc.records.game_state(gid)
    for addr, role, gettext in ((fr, "us", FRENCH), (en, "indians", None)):
        pictures = mail_pictures(svc, "report", addr)
        assert pictures == ENGINE.pictures(ENGINE.view(now, role), gettext)
        assert "map" in pictures and "fight1" in pictures and any(name.startswith("sector") for name in pictures)
        row = [r for r in svc.store.all("SELECT * FROM outbox ORDER BY id") if r["kind"] == "report" and r["to_addr"] == addr][-1]
        msg = email.message_from_bytes(row["raw"], policy=policy.default)
        html = msg.get_body(("html",)).get_content()
        text = msg.get_body(("plain",)).get_content()
        for name in pictures:
            assert f'src="cid:{name}"' in html, name
        assert ("gros plans" in text) if role == "us" else ("Close-ups" in text)
        title = next(x["text"] for x in layout_of(pictures["fight1"])["labels"] if x["kind"] == "title")
        resolved = ENGINE.view(now, role)["resolved"]
        assert title.startswith("Combats en ") and title.endswith(f"après {resolved}") if role == "us" else \
            title.startswith("Fighting at ") and title.endswith(f"after {resolved}")
