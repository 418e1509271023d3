"""A French-speaking player gets every mail in French, with no English left in it.

Two checks:

* the catalog: every message id the mails can show (the core mail templates, the
  service's subjects and problems, and the templates, events, order errors and order
  template comments of Peaux-Rouges, Custer's Last Stand and Little Bighorn Rummy) has
  a French translation that is not empty, not the English left as is, and keeps the
  same placeholders;
* the mails themselves: a whole game of Peaux-Rouges contre Longs-Couteaux played
  through the service, a French player against an English one, plus HELP/AIDE,
  STATUS/ÉTAT, a settings change, an error and a reminder; every mail the French
  player receives (subject, text and HTML) is read word by word against a list of
  English words that are not also French.

Whole games of Custer's Last Stand and of Little Bighorn Rummy are read the same way in
test_i18n_french_games.py.
"""

from __future__ import annotations

import configparser
import email
import hashlib
import html
import re
from email import policy
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.peaux_rouges.bot import bot_orders
from pbem.i18n import LOCALE_DIR, translations
from pbem.resources import templates_dir
from tests.support import mail

ROOT = Path(__file__).resolve().parents[1]
# A named placeholder with its flags and conversion (%(n)s, %(raw)+d, %(value)r).
PLACEHOLDER = re.compile(r"%\((\w+)\)[-+ #0]*\d*[sdrf]")
# Message ids whose French is spelt the same.
SAME_IN_FRENCH = {"DUELS", "village", "Scores", "total", "Message", "%(n)s message(s)", "Phases", "Corrections",
                  "Phase", "Phase %(phase)s", "console"}
# Where the mails' message ids come from: templates/<dir> and pbem/<dir>.
TEMPLATE_DIRS = ("mail", "peaux_rouges", "custer", "rummy")
CODE_DIRS = ("service", "mail", "mail/commands", "engines/peaux_rouges", "engines/custer", "engines/rummy")

LC_ROLE, PR_ROLE = "longs_couteaux", "peaux_rouges"
FR_ADDR, EN_ADDR = "custer@joueurs.example", "gall@players.example"

# Words of English prose that are not French words (so a French text never needs them).
ENGLISH = set("""
the and you your yours with of is are was were been be it its an or to at from this that these those
turn turns orders order fire fires move moves moved wins win won has have had will would not yes no please
game games player players square squares eliminated falls back by for which when where there here
in into out off up down what who how why report reports deadline due send sent reply replies mail mails
help welcome none nothing happened standing answer answers melee flag knives indians chief chiefs soldier
soldiers officer officers rolls against range seed commitment template private address reminder
settings language time zone next over battle losses key picture board arrow blue river ford woods rocks
open ground shot shots hold holds held fight fought must may can cannot could should
than then only also every each both either neither any some all more most less least one two three
""".split())
# Not prose, so not checked: a mail header named in prose (Reply-To), the orders envelope
# the server writes around an order template (ORDERS <game> <phase> ... END: it reads
# ORDRES ... FIN as well), the command-syntax column of the server's HELP (its
# keywords are read in either language), example addresses, hashes and links.
ALLOWED = {"reply-to"}
NOT_PROSE = [
    re.compile(r"\bORDERS \S+ \S+"),
    re.compile(r"^\s*END\s*$", re.M),
    re.compile(r"^(?:ORDERS|PRESS|STATUS|HELP|SET|RESIGN|JOIN|CONFIRM)\b.*?(?=\s{2,}|$)", re.M),
    re.compile(r"\S+@\S+"),
    re.compile(r"https?://\S+"),
    re.compile(r"\b[0-9a-f]{16,}\b"),
]


# -- the catalog --------------------------------------------------------------------------
def _mapping() -> dict:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "babel.cfg")
    return {s: dict(cfg[s]) for s in cfg.sections()}


def _msgids(path: Path, method: str, options: dict) -> set[str]:
    keywords = dict(DEFAULT_KEYWORDS)
    keywords["N_"] = None
    out = set()
    for _lineno, message, _comments, _context in extract_from_file(method, str(path), keywords=keywords,
                                                                    options=options):
        out.add(message if isinstance(message, str) else message[0])
    return out


def shown_msgids() -> dict[str, str]:
    """msgid -> the file it comes from, for everything a player's mail can show."""
    jinja_options = _mapping()["jinja2: templates/**.j2"]
    found: dict[str, str] = {}
    sources = [(p, "jinja2", jinja_options) for d in TEMPLATE_DIRS for p in sorted((templates_dir() / d).glob("*.j2"))]
    sources += [(p, "python", {}) for d in CODE_DIRS for p in sorted((ROOT / "pbem" / d).glob("*.py"))]
    for path, method, options in sources:
        for msgid in _msgids(path, method, options):
            found.setdefault(msgid, str(path.relative_to(ROOT)))
    return found


def test_the_catalog_is_a_plain_po_file_with_no_compiled_mo():
    po = LOCALE_DIR / "fr" / "LC_MESSAGES" / "pbem.po"
    assert po.is_file()
    assert not list(LOCALE_DIR.rglob("*.mo"))


def test_the_catalog_defines_each_message_once():
    """Several people append to the catalog; a msgid (with its context) defined twice makes
    msgfmt refuse the file and leaves which translation wins to chance."""
    po = LOCALE_DIR / "fr" / "LC_MESSAGES" / "pbem.po"
    seen: dict[tuple[str | None, str], int] = {}
    duplicates = []
    context = msgid = None
    lines = po.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if line.startswith("msgctxt "):
            context = line[len("msgctxt "):]
        elif line.startswith("msgid "):
            text, k = [line[len("msgid "):]], number
            while k < len(lines) and lines[k].startswith('"'):
                text.append(lines[k])
                k += 1
            msgid = (context, "".join(text))
            context = None
            if msgid in seen:
                duplicates.append(f"line {number} repeats line {seen[msgid]}: {msgid[1][:60]}")
            seen.setdefault(msgid, number)
    assert not duplicates, "\n".join(duplicates)


def web_msgids() -> dict[str, str]:
    """msgid -> the file it comes from, for everything a web page can show: the moderators'
    console, the public archive, a player's page, their error pages and flash messages."""
    found: dict[str, str] = {}
    sources = [(p, "jinja2", _mapping()["jinja2: templates/web/**.html"]) for p in sorted((templates_dir() / "web").glob("*.html"))]
    sources += [(p, "python", {}) for p in sorted((ROOT / "pbem" / "web").glob("*.py"))]
    for path, method, options in sources:
        for msgid in _msgids(path, method, options):
            found.setdefault(msgid, str(path.relative_to(ROOT)))
    return found


def test_every_message_a_mail_can_show_has_a_french_translation():
    found = shown_msgids()
    assert {"templates/custer/help.txt.j2", "pbem/engines/rummy/rules.py"} <= set(found.values())
    _assert_all_french(found)


def test_every_message_a_web_page_can_show_has_a_french_translation():
    """The console in French for a French moderator (issue 16), as the archive and a player's page."""
    found = web_msgids()
    assert {"templates/web/game.html", "templates/web/correct.html", "pbem/web/console.py"} <= set(found.values())
    _assert_all_french(found)


def _assert_all_french(found: dict[str, str]) -> None:
    fr = translations("fr")
    missing, same, broken = [], [], []
    for msgid, where in sorted(found.items()):
        text = fr.gettext(msgid)
        if text == msgid and msgid not in SAME_IN_FRENCH:
            (same if fr._catalog.get(msgid) else missing).append(f"{where}: {msgid!r}")
        elif sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(msgid)) or text.count("%%") != msgid.count("%%"):
            broken.append(f"{where}: {msgid!r} -> {text!r}")
    assert not missing, "no French for:\n" + "\n".join(missing)
    assert not same, "French left identical to the English:\n" + "\n".join(same)
    assert not broken, "placeholders differ:\n" + "\n".join(broken)


# -- the mails ------------------------------------------------------------------------------
def english_words(text: str) -> list[str]:
    for pattern in NOT_PROSE:
        text = pattern.sub(" ", text)
    words = re.findall(r"[A-Za-zÀ-ÿ]+(?:-[A-Za-zÀ-ÿ]+)*", text)
    bad = []
    for w in words:
        low = w.lower()
        if low in ALLOWED:
            continue
        for part in re.split(r"[-']", low):
            if part in ENGLISH:
                bad.append(w)
    return bad


def html_text(body: str) -> str:
    body = re.sub(r"(?is)<(style|script)\b.*?</\1>", " ", body)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def parts_of(raw: bytes) -> dict[str, str]:
    msg = email.message_from_bytes(raw, policy=policy.default)
    out = {"subject": str(msg["Subject"] or "")}
    plain = msg.get_body(("plain",))
    if plain is not None:
        out["text"] = plain.get_content()
    rich = msg.get_body(("html",))
    if rich is not None:
        out["html"] = html_text(rich.get_content())
    return out


def _seed(*parts) -> str:
    return hashlib.sha256(" ".join(map(str, parts)).encode()).hexdigest()


@pytest.fixture
def french_game(svc):
    from pbem.mail.addresses import orders_address

    gid = svc.games.create("peaux_rouges", "little_big_horn", {LC_ROLE: FR_ADDR, PR_ROLE: EN_ADDR},
                          languages={LC_ROLE: "fr", PR_ROLE: "en"})
    engine = get_engine("peaux_rouges")
    players = {p["role"]: p for p in svc.records.players(gid)}

    def address(role):
        return orders_address(gid, svc.records.token_for(players[role]["id"]), svc.settings.mail_domain)

    def send(role, body, subject="ordres"):
        sender = FR_ADDR if role == LC_ROLE else EN_ADDR
        svc.mailroom.receive(mail(sender, address(role), body, subject=subject))

    # The French player's first turn, with a line the reader cannot take.
    phase = svc.records.current_phase(gid)["label"]
    send(LC_ROLE, f"Voici mes ordres.\n\nORDRES {gid} {phase}\nDÉPLACER S2 G8\nDÉPLACER S1 H9 AVEC DRAPEAU\n"
                  f"DEPLACR S3 J8\nCONSIGNES RIPOSTE oui\nFIN\n")
    # The Indians charge: a chief rides into contact (a melee with bonus points in the report).
    phase = svc.records.current_phase(gid)["label"]
    send(PR_ROLE, f"ORDERS {gid} {phase}\nMOVE CH2 H13\nMELEE CH2 AT S6\nMOVE I3 G5\nEND\n")
    # Then both sides play on (bot orders, in either language) to the end of the battle.
    for step in range(40):
        if engine.outcome(svc.records.game_state(gid)) is not None:
            break
        state = svc.records.game_state(gid)
        role = engine.phase(state).awaited[0]
        phase = svc.records.current_phase(gid)["label"]
        body = bot_orders(state, role, Dice(_seed("i18n", step)), lang="fr" if role == LC_ROLE else "en")
        send(role, f"ORDERS {gid} {phase}\n{body}END\n" if role == PR_ROLE else f"ORDRES {gid} {phase}\n{body}FIN\n")
    assert engine.outcome(svc.records.game_state(gid)) is not None
    # Commands by mail, in French.
    send(LC_ROLE, "AIDE\n", subject="aide")
    send(LC_ROLE, "ÉTAT\n", subject="état")
    send(LC_ROLE, "RÉGLER LANGUE fr\n", subject="réglages")
    send(LC_ROLE, "Bonjour, où en est la partie ?\n", subject="question")
    # A reminder, as the scheduler would send it for an open phase.
    ph = svc.records.phase_rows(gid)[0]
    svc.mail_writer.queue_reminder(gid, svc.records.players(gid)[0] if svc.records.players(gid)[0]["role"] == LC_ROLE
                           else svc.records.players(gid)[1], ph)
    rows = svc.store.all("SELECT * FROM outbox ORDER BY id")
    return gid, rows


def test_a_french_player_gets_every_mail_in_french(french_game):
    gid, rows = french_game
    mine = [r for r in rows if r["to_addr"] == FR_ADDR]
    kinds = {r["kind"] for r in mine}
    assert {"welcome", "ack", "report", "reminder", "error"} <= kinds, kinds
    assert len([r for r in mine if r["kind"] == "report"]) >= 3
    problems = []
    for r in mine:
        for part, text in parts_of(r["raw"]).items():
            bad = english_words(text)
            if bad:
                problems.append(f"{r['kind']} {part}: {sorted(set(bad))}")
    assert not problems, "English words in French mails:\n" + "\n".join(problems)


def test_the_french_mails_say_what_happened_in_french(french_game):
    gid, rows = french_game
    reports = [parts_of(r["raw"])["text"] for r in rows if r["to_addr"] == FR_ADDR and r["kind"] == "report"]
    everything = "\n".join(reports)
    assert "Corps-à-corps : CH2 (H13) contre S6 (I12)." in everything
    assert "CH2 : +1, cavalerie au corps-à-corps." in everything
    assert "S6 : +1, fantassin sur un parapet du camp." in everything
    assert "LA BATAILLE EST TERMINÉE" in everything
    ack = next(parts_of(r["raw"])["text"] for r in rows if r["to_addr"] == FR_ADDR and r["kind"] == "ack")
    assert "DÉPLACER S1 H9 AVEC DRAPEAU" in ack and "vouliez-vous dire DÉPLACER ?" in ack


def test_the_english_player_still_gets_english(french_game):
    gid, rows = french_game
    theirs = [parts_of(r["raw"]) for r in rows if r["to_addr"] == EN_ADDR and r["kind"] == "report"]
    assert theirs and all("WHAT HAPPENED" in p["text"] for p in theirs)
    assert any("Melee: CH2 (H13) against S6 (I12)." in p["text"] for p in theirs)
