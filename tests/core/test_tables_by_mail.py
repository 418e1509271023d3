"""TABLES (AIDES): the game's designed tables by mail, as text in the mail and as a page to print,
in the reader's language; one table by name, or every one with the list of names when the name
is wrong; for players at their game address and for observers at the general address."""

from __future__ import annotations

import email
import smtplib
from email import policy

import pytest

from pbem.engines import all_engines
from pbem.i18n import gettext_for
from pbem.mail.answer_kinds import ANSWER_KINDS
from pbem.server import Server
from tests.core.helpers import IND, US, address_of, new_game, outbox, raw_text
from tests.support import mail, text_of, to

CSA, USA = "stuart@players.example", "gregg@players.example"
WATCHER = "watcher@elsewhere.example"


def _general(svc) -> str:
    return f"pbem@{svc.settings.mail_domain}"


def _parsed(row: dict):
    return email.message_from_bytes(row["raw"], policy=policy.default)


def _text(row: dict) -> str:
    return raw_text(row).replace("\r\n", "\n")


def _page(msg) -> tuple[str, str]:
    """(file name, HTML) of the mail's page to print."""
    [part] = [p for p in msg.iter_attachments() if p.get_content_type() == "text/html"]
    return part.get_filename(), part.get_content()


def test_tables_by_mail_through_the_server_in_english_and_in_french(settings, sink):
    """Over SMTP, as a player sends them: an English player of Last Full Measure asks for the
    combat results table, a French player of Custer's Last Stand for every table (AIDES)."""
    server = Server(settings.with_(smtp_url=sink.url), web=False).start()
    try:
        svc = server.svc
        lfm = svc.games.create("lfm", "east_cavalry_field", {"csa": CSA, "usa": USA})
        custer = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, languages={"indians": "fr"})
        welcomes = sink.wait_for(lambda r: r["kind"] == "welcome", count=4)
        welcome = {r["to"]: text_of(r["msg"]).replace("\r\n", "\n") for r in welcomes}
        assert "Send TABLES for them again, or TABLES ODDS for one of them." in welcome[CSA], "the welcome says how"
        assert "Envoyez AIDES pour les recevoir à nouveau, ou AIDES COMBATS pour l'une d'elles." in welcome[IND]
        with smtplib.SMTP(settings.smtp_host, server.settings.smtp_port, timeout=10) as smtp:
            smtp.sendmail(CSA, [address_of(svc, lfm, "csa")], mail(CSA, address_of(svc, lfm, "csa"), "TABLES CRT\n", subject="tables"))
            smtp.sendmail(IND, [address_of(svc, custer, "indians")], mail(IND, address_of(svc, custer, "indians"), "AIDES\n", subject="aides"))
        english = sink.wait_for(to(CSA, "ack"))[0]["msg"]
        french = sink.wait_for(to(IND, "ack"))[0]["msg"]
    finally:
        server.stop()

    text = text_of(english).replace("\r\n", "\n")
    assert english["Subject"] == f"[{lfm}] Tables of Last Full Measure"
    assert "Combat Results Table (CRT)" in text and "Odds (ODDS)" not in text, "the one table asked for"
    assert "For one table only, send TABLES ODDS" in text
    name, page = _page(english)
    assert name == "player-aids.html" and "<table>" in page and 'id="CRT"' in page and 'id="ODDS"' not in page
    assert english["Reply-To"] == address_of(svc, lfm, "csa"), "in the player's thread: a reply sends orders"

    text = text_of(french).replace("\r\n", "\n")
    assert french["Subject"] == f"[{custer}] Tables de Custer's Last Stand"
    for table in ("PERTES", "TERRAINS", "MOUVEMENT"):
        assert f"({table})" in text
    assert "Pour une seule table, envoyez AIDES COMBATS" in text and "Reply to this mail" not in text
    name, page = _page(french)
    assert name == "aides-de-jeu.html" and "Pertes" in page
    assert not [r for r in sink.received if r["kind"] == "error"]


def test_a_wrong_table_name_gets_every_table_and_their_names(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "TABLES CHARTS\n"))
    row = outbox(svc, to_addr=US)[-1]
    assert row["answer"] == "tables"
    text = _text(row)
    assert "There is no table CHARTS; the tables are: COMBAT, LOSSES, TERRAIN, MOVEMENT, VP." in text
    assert "Combat (COMBAT)" in text and "Losses (LOSSES)" in text, "every table still comes"
    svc.records.update("players", next(p for p in svc.records.players(gid) if p["role"] == "indians")["id"], {"lang": "fr"})
    svc.mailroom.receive(mail(IND, address_of(svc, gid, "indians"), "AIDES TABLEAUX\n"))
    text = _text(outbox(svc, to_addr=IND)[-1])
    assert "Il n'y a pas de table TABLEAUX ; les tables sont : COMBATS, PERTES, TERRAINS, MOUVEMENT, PV." in text


@pytest.mark.parametrize("engine_name", sorted(all_engines()))
def test_every_engine_answers_tables(svc, engine_name):
    """Every engine: its tables and their page to print, or (no designed tables) a line saying so."""
    engine = all_engines()[engine_name]
    scenario = next(iter(engine.scenarios()))
    roles = engine.roles(scenario)
    gid = svc.games.create(engine_name, scenario, {role: f"{role.replace('_', '')}@players.example" for role in roles})
    role = roles[0]
    player = f"{role.replace('_', '')}@players.example"
    lang = next(p for p in svc.records.players(gid) if p["role"] == role)["lang"]
    svc.mailroom.receive(mail(player, address_of(svc, gid, role), "TABLES\n"))
    row = outbox(svc, to_addr=player)[-1]
    assert row["answer"] == "tables" and row["kind"] == "ack", _text(row)
    aids = engine.player_aids(svc.records.game_state(gid), None, lang, gettext_for(lang))
    if aids is None:
        assert "has no printed tables to send" in _text(row) or "pas de tables" in _text(row)
        assert not list(_parsed(row).iter_attachments())
    else:
        assert aids.text.strip() in _text(row)
        assert _page(_parsed(row))[1] == aids.html


def test_an_observer_asks_the_general_address_and_is_not_told_to_send_orders(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(WATCHER, _general(svc), f"TABLES {gid} LOSSES\n"))
    row = outbox(svc, to_addr=WATCHER)[-1]
    assert row["answer"] == "tables" and row["game_id"] == gid
    text = _text(row)
    assert "Losses (LOSSES)" in text and "Combat (COMBAT)" not in text
    assert f"For one table only, send TABLES {gid} COMBAT" in text
    assert "Reply to this mail to send orders" not in text and "Send HELP to the address you wrote to" in text
    assert _parsed(row)["Reply-To"] is None
    # an engine by name: its general tables, for someone choosing a game
    svc.mailroom.receive(mail(WATCHER, _general(svc), "AIDES lfm\n"))
    row = outbox(svc, to_addr=WATCHER)[-1]
    assert row["subject"] == "[pbem] Tables de Last Full Measure" and "(CRT)" in _text(row)


def test_a_game_closed_to_observers_gives_its_tables_to_its_players_only(svc):
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, observers_allowed=False)
    svc.mailroom.receive(mail(WATCHER, _general(svc), f"TABLES {gid}\n"))
    [row] = outbox(svc, to_addr=WATCHER)
    assert row["kind"] == "error" and f"Game {gid} was created closed to observers." in _text(row)
    svc.mailroom.receive(mail(US, _general(svc), f"TABLES {gid}\n"))
    assert outbox(svc, to_addr=US)[-1]["answer"] == "tables", "a player of the game, from their registered address"
    svc.mailroom.receive(mail(WATCHER, _general(svc), "TABLES\nTABLES nosuch\n"))
    row = outbox(svc, to_addr=WATCHER)[-1]
    assert "TABLES takes: TABLES <game> or TABLES <game> <table>" in _text(row)


def test_one_tables_mail_per_mail_and_a_limit_of_its_own_per_hour(svc):
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "TABLES\nTABLES COMBAT\n"))
    first, second = outbox(svc, to_addr=US)[-2:]
    assert first["answer"] == "tables" and second["kind"] == "error"
    assert "Only one TABLES is carried out per mail, the first; these lines were not: TABLES COMBAT." in " ".join(_text(second).split())
    for n in range(10):
        svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), f"TABLES {('COMBAT', 'LOSSES')[n % 2]}\n"))
    assert len([r for r in outbox(svc, to_addr=US) if r["answer"] == "tables"]) == ANSWER_KINDS["tables"].per_address_per_hour
