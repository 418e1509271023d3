"""A player's own page speaks the player's language, as the mails do; the console
and a public archive asked for without a language preference is in English."""

import re

from pbem.service.clock import from_iso
from pbem.moments import format_moment

FR, EN = "lc@joueurs.example", "pr@players.example"


def _page(client, svc, gid, email):
    player = next(p for p in svc.records.players(gid) if p["email"] == email)
    return client.get(f"/play/{gid}/{svc.records.token_for(player['id'])}").get_data(as_text=True)


def test_a_french_players_page_is_in_french_with_french_orders_and_a_local_deadline(client, svc):
    gid = svc.games.create("peaux_rouges", "little_big_horn", {"longs_couteaux": FR, "peaux_rouges": EN},
                          languages={"longs_couteaux": "fr", "peaux_rouges": "en"}, timezones={"longs_couteaux": "Europe/Paris"})
    page = _page(client, svc, gid, FR)
    assert '<html lang="fr">' in page
    for french in ("votre rôle :", "Ce que vous voyez", "Vos comptes rendus", "Vos ordres", "Fuseau horaire",
                   "Envoyez vos ordres avant l'échéance", "RÉGLER LANGUE fr"):
        assert french in page.replace("&#39;", "'"), french
    template = re.search(r"<pre>(ORDRES .*?)</pre>", page, re.S)
    assert template and template.group(1).rstrip().endswith("FIN"), "the order template in the player's own envelope"
    deadline = from_iso(svc.records.current_phase(gid)["deadline"])
    assert format_moment(deadline, "Europe/Paris", "fr") in page, "the deadline in the player's zone and language"
    assert format_moment(deadline, "UTC", "fr") not in page
    for english in ("your role:", "What you see", "Your orders", "Send your orders before the deadline", "No report yet"):
        assert english not in page, english


def test_an_english_player_reads_english(client, svc):
    # the Long Knives move first: the English player is the one awaited, with a template
    gid = svc.games.create("peaux_rouges", "little_big_horn", {"longs_couteaux": EN, "peaux_rouges": FR},
                          languages={"longs_couteaux": "en", "peaux_rouges": "fr"})
    page = _page(client, svc, gid, EN)
    assert '<html lang="en">' in page
    assert "your role:" in page and "What you see" in page and "Ce que vous voyez" not in page
    assert "<pre>ORDERS " in page and "ORDRES" not in page


def test_the_public_archive_stays_english_after_a_french_page(client, svc):
    gid = svc.games.create("peaux_rouges", "little_big_horn", {"longs_couteaux": FR, "peaux_rouges": EN},
                          languages={"longs_couteaux": "fr", "peaux_rouges": "en"})
    _page(client, svc, gid, FR)
    archive = client.get(f"/games/{gid}").get_data(as_text=True)
    assert '<html lang="en">' in archive and ">Games<" in archive
