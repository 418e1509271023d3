"""A French player's whole game of Custer's Last Stand and of Little Bighorn Rummy,
every mail read.

As for Peaux-Rouges in test_i18n_french.py: a seeded game played through the service
with the bots, one player reading French among English ones, with a first mail holding
a line the reader cannot take, HELP by mail and a reminder; every mail the French player
receives (subject, text and HTML) is read against the list of English words. What a
player must type stays English in a French mail (these two games read English keywords
only), and names are names: units, markers, cards, the game's title.
"""

from __future__ import annotations

import hashlib
import re

import pytest

from pbem.config import Settings
from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.custer import CusterEngine, scenario as custer_scenarios
from pbem.engines.rummy import RummyEngine, cards as rummy_cards
from pbem.i18n import gettext_for
from pbem.mail.addresses import orders_address
from pbem.service.service import Service
from pbem.service.store import loads
from tests.reliability.test_secrets import SeededSecrets
from tests.support import free_port, mail
from tests.test_i18n_french import english_words, parts_of

FR_ADDR = "joueur@joueurs.example"
MAX_PHASES = 400

# What players type: the order keywords of each game, in capitals as the help and the
# templates write them (a capitalised English heading is still read: only these go).
def _any_of(words) -> re.Pattern:
    words = sorted({w for w in words if w}, key=len, reverse=True)
    return re.compile("|".join(r"(?<![\w'-])" + re.escape(w) + r"(?![\w-])" for w in words))


CUSTER_KEYWORDS = _any_of(("MOVE TO VIA DISMOUNT MOUNT EXIT ENTER AT HOLD PASS ATTACK WITH NO ADVANCE ALL ON STANDING "
                           "LOSSES FIRST DEFAULT RETREAT TOWARD AWAY YES").split())
RUMMY_KEYWORDS = _any_of("DRAW DECK DISCARD MELD LAYOFF PLAY ON STEAL FROM NOTHING PICK RAID BRAVES VILLAGE".split()
                         + ["WHAT I DREW"])


# Names: units and markers (both scenarios: the help names Rosebud's), cards, and the
# role ids (the revealed orders are headed [indians]).
CUSTER_NAMES = _any_of(["us", "indians"] + [n for name in custer_scenarios.SCENARIO_NAMES
                                            for sc in [custer_scenarios.load(name)]
                                            for n in [u.name for u in sc.units.values()] + [m.label for m in sc.markers.values()]])
RUMMY_NAMES = _any_of([f"p{i}" for i in range(1, 5)]
                      + [n for k in rummy_cards.KINDS.values() for n in (k["name"], k["short"], k["name"].split(": ")[-1])])
# A list of names in an order is joined by commas, '&' or 'and' (Co. I and Co. L MOVE VIA ...).
NAME_LIST = re.compile(r"\x00(?:\s*(?:,|&|\band\b)\s*\x00)+")
# On the English list but French as well: "zone de contrôle".
FRENCH_TOO = {"zone"}
# English words of these two games, not French either (the shared list is the core mails').
GAME_ENGLISH = set("""
card cards deck draws drew discards melds lays plays steals picks raids goes marker markers unit units hexes
leader leaders retreats advances attacks attacker defender loss wins eliminated captured
""".split())


def leftover_english(text: str, title: str, names: re.Pattern, keywords: re.Pattern) -> list[str]:
    text = text.replace(title, " ")  # the game's name, the same for every player
    text = NAME_LIST.sub(" ", names.sub("\x00", text))
    text = keywords.sub(" ", text)
    words = re.findall(r"[A-Za-zÀ-ÿ]+", text)
    return [w for w in english_words(text) if w.lower() not in FRENCH_TOO] + [w for w in words if w.lower() in GAME_ENGLISH]


def _seed(*parts) -> str:
    return hashlib.sha256(" ".join(map(str, parts)).encode()).hexdigest()


class Table:
    """One seeded game on a fresh service, each role writing from its own address."""

    def __init__(self, tmp_path_factory, engine: str, scenario: str, addresses: dict[str, str], french: str,
                 options: dict | None = None):
        base = tmp_path_factory.mktemp(engine)
        self.svc = Service(Settings(db_path=base / "pbem.db", maildir=base / "outbox", mail_domain="pbem.test",
                                    smtp_port=free_port(), http_port=free_port(),
                                    replies_per_address_per_hour=1_000_000)).init()
        self.addresses, self.french = addresses, french
        self.gid = self.svc.games.create(engine, scenario, addresses, options=options, languages={french: "fr"})
        self.engine = get_engine(engine)
        self.sent: set[tuple[str, str]] = set()

    def player(self, role: str) -> dict:
        return next(p for p in self.svc.records.players(self.gid) if p["role"] == role)

    def send(self, role: str, body: str, subject: str = "orders") -> None:
        to = orders_address(self.gid, self.svc.records.token_for(self.player(role)["id"]), self.svc.settings.mail_domain)
        self.svc.mailroom.receive(mail(self.addresses[role], to, body, subject=subject))

    def orders(self, role: str, text: str) -> None:
        label = self.svc.records.current_phase(self.gid)["label"]
        begin, end = ("ORDRES", "FIN") if role == self.french else ("ORDERS", "END")
        self.send(role, f"{begin} {self.gid} {label}\n{text.rstrip()}\n{end}\n")
        self.sent.add((role, label))

    def play_out(self, seed: str) -> None:
        """Bot orders for every awaited role (but orders already sent) to the end of the game."""
        for n in range(MAX_PHASES):
            ph = self.svc.records.current_phase(self.gid)
            if ph is None:
                return
            state = loads(ph["state"])
            for role in self.engine.phase(state).awaited:
                if (role, ph["label"]) not in self.sent:
                    self.orders(role, self.engine.bot_orders(state, role, Dice(_seed(seed, role, ph["label"], n))))
            current = self.svc.records.current_phase(self.gid)
            if current is not None and current["id"] == ph["id"]:
                self.svc.phases.close(self.gid, reason="test", actor="test")

    def finish(self) -> dict:
        """What the test reads: the game's title, its outcome and every mail, by reader."""
        g = self.svc.records.game(self.gid)
        out = {"title": g["title"], "outcome": self.engine.outcome(self.svc.records.game_state(self.gid)),
               "mails": {addr: self.svc.store.all("SELECT * FROM outbox WHERE to_addr = ? ORDER BY id", (addr,))
                         for addr in self.addresses.values()}}
        self.svc.close()
        return out


def _seeded(mp: pytest.MonkeyPatch) -> None:
    fake = SeededSecrets(1876)
    mp.setattr("pbem.service.games.secrets", fake)
    mp.setattr("pbem.service.phases.secrets", fake)


@pytest.fixture(scope="module")
def custer(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        _seeded(mp)
        table = Table(tmp_path_factory, "custer", "little_bighorn",
                      {"us": FR_ADDR, "indians": "bull@players.example"}, french="us")
        # The French player's first orders, with a line naming a unit that does not exist.
        first, *rest = table.engine.bot_orders(table.svc.records.game_state(table.gid), "us",
                                               Dice(_seed("custer", "first"))).splitlines()
        table.orders("us", "\n".join([first, "  Co. Q MOVE TO 0303", *rest]))
        table.send("us", "AIDE\n", subject="aide")
        table.svc.mail_writer.queue_reminder(table.gid, table.player("us"), table.svc.records.current_phase(table.gid))
        table.play_out("custer")
        return table.finish()


# A PNG of one pixel: the pictures' words are tested apart (tests/rummy/test_picture_language.py),
# and drawing the tables for every report of every turn would make most of this game's time.
ONE_PIXEL_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                              "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


@pytest.fixture(scope="module")
def rummy(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        _seeded(mp)
        mp.setattr("pbem.engines.rummy.picture.draw", lambda view, gettext=None: ONE_PIXEL_PNG)
        addresses = {f"p{i}": f"rummy{i}@players.example" for i in range(1, 5)}
        addresses["p1"] = FR_ADDR
        table = Table(tmp_path_factory, "rummy", "four", addresses, french="p1", options={"target": 1})
        # p1 opens the hand: a draw, a meld of the drawn card that cannot be carried out
        # (reported once the card is seen) and a misspelt order; the rest of the turn waits.
        table.orders("p1", "DRAW DECK\nMELD drawn, drawn, drawn\nDRAWW DECK\n")
        table.send("p1", "AIDE\n", subject="aide")
        table.svc.mail_writer.queue_reminder(table.gid, table.player("p1"), table.svc.records.current_phase(table.gid))
        table.play_out("rummy")
        return table.finish()


def _problems(game: dict, names: re.Pattern, keywords: re.Pattern) -> list[str]:
    problems = []
    for r in game["mails"][FR_ADDR]:
        for part, text in parts_of(r["raw"]).items():
            bad = leftover_english(text, game["title"], names, keywords)
            if bad:
                problems.append(f"{r['kind']} {part}: {sorted(set(bad))}")
    return problems


def _texts(game: dict, kind: str, addr: str = FR_ADDR) -> str:
    return "\n".join(parts_of(r["raw"]).get("text", "") for r in game["mails"][addr] if r["kind"] == kind)


def test_a_french_player_of_custers_last_stand_gets_every_mail_in_french(custer):
    assert custer["outcome"] is not None
    kinds = [r["kind"] for r in custer["mails"][FR_ADDR]]
    assert {"welcome", "ack", "report", "reminder"} <= set(kinds), kinds
    assert kinds.count("report") >= 14  # every turn of the battle
    problems = _problems(custer, CUSTER_NAMES, CUSTER_KEYWORDS)
    assert not problems, "English words in French mails:\n" + "\n".join(problems)


def test_the_french_custer_mails_say_what_happened_in_french(custer):
    reports, acks = _texts(custer, "report"), _texts(custer, "ack")
    for said in ("CE QUI S'EST PASSÉ", "Début du tour 2 : les Américains tirent", "Tirage 1 :", "Combat en ",
                 "Différentiel : ", "POINTS DE VICTOIRE", "LA BATAILLE EST TERMINÉE", "La partie est terminée (limite de tours"):
        assert said in reports, said
    assert "Co. Q MOVE TO 0303" in acks and "aucune unité « Co. Q »" in acks
    welcome = _texts(custer, "welcome")
    assert "# Little Big Horn, tour 1 sur 14 (phase T1) : vous tirez" in welcome
    assert "CUSTER'S LAST STAND : COMMENT ÉCRIRE VOS ORDRES" in welcome + _texts(custer, "help") + acks


def test_a_french_player_of_little_bighorn_rummy_gets_every_mail_in_french(rummy):
    assert rummy["outcome"] is not None
    kinds = [r["kind"] for r in rummy["mails"][FR_ADDR]]
    assert {"welcome", "ack", "report", "reminder"} <= set(kinds), kinds
    problems = _problems(rummy, RUMMY_NAMES, RUMMY_KEYWORDS)
    assert not problems, "English words in French mails:\n" + "\n".join(problems)


def test_the_french_rummy_mails_say_what_happened_in_french(rummy):
    reports, acks = _texts(rummy, "report"), _texts(rummy, "ack")
    # p1's own reports tell what p1 did in the second person
    for said in ("Vous tirez une carte de la pioche.", "Vous piochez ", "Vous défaussez ",
                 "Ordre non exécuté (MELD drawn, drawn, drawn) : la carte que vous avez piochée n'est plus dans votre main",
                 "Fin de la manche 1", "La manche 1 a été distribuée avec les dés de la phase setup", "l'emporte avec"):
        assert said in reports, said
    assert "DRAWW DECK" in acks and "ordre inconnu : DRAWW (vouliez-vous dire DRAW ?)" in acks
    assert "# Votre main : " in _texts(rummy, "welcome")


def test_the_english_players_still_get_english(custer, rummy):
    custer_en = _texts(custer, "report", "bull@players.example")
    assert "WHAT HAPPENED" in custer_en and "Combat at " in custer_en and "Draw 1: " in custer_en
    rummy_en = _texts(rummy, "report", "rummy2@players.example")
    assert "p1 draws from the deck." in rummy_en and "Hand 1 ends" in rummy_en


@pytest.mark.parametrize("engine", [CusterEngine(), RummyEngine()], ids=["custer", "rummy"])
def test_an_order_template_in_french_means_what_the_english_one_means(engine):
    scenario = "little_bighorn" if engine.name == "custer" else "four"
    state = engine.setup(scenario, {}, Dice(_seed(engine.name, "setup")))
    for n in range(6):
        for role in engine.phase(state).awaited:
            french = engine.order_template(state, role, gettext=gettext_for("fr"))
            assert french != engine.order_template(state, role)  # its comments are French
            read_fr = engine.parse_orders(state, role, french)
            read_en = engine.parse_orders(state, role, engine.order_template(state, role))
            assert read_fr.ok and read_fr.orders == read_en.orders
        orders = {role: engine.parse_orders(state, role, engine.bot_orders(state, role, Dice(_seed(engine.name, n, role)))).orders
                  for role in engine.phase(state).awaited}
        state, _ = engine.resolve(state, orders, Dice(_seed(engine.name, "resolve", n)))
