"""A player's own report tells what they did in the second person ("You draw from the
deck.", "... into your hand"), and what another player did to their table ("... from your
table."); the others' reports name the player. In English and French."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pbem.dice import Dice
from pbem.resources import templates_dir
from pbem.service.render import render, visible_events

from .helpers import ENGINE

GAME = {"id": "lbr-1", "title": "Little Bighorn Rummy", "engine": "rummy", "scenario": "four"}
ENGINE_DIR = Path(__file__).resolve().parents[2] / "pbem" / "engines" / "rummy"


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def report(state, events, role, lang="en", kind="txt") -> str:
    return render(f"rummy/report.{kind}.j2", lang, game=GAME, role=role, phase_id="H1.T1", view=ENGINE.view(state, role),
                  events=visible_events(events, role, lang), orders={}, outcome=ENGINE.outcome(state), picture_cid="map")


def event_lines(text: str) -> list[str]:
    return [line[4:] for line in text.splitlines() if line.startswith("  - ")]


def seeded_turns(n: int = 120):
    """(state after, events, the player who acted) for each turn of a seeded four-player game."""
    st = ENGINE.setup("four", {"target": 60}, Dice(seed("you", "setup")))
    for i in range(n):
        if ENGINE.outcome(st):
            return
        p, ph = st["player"], ENGINE.phase(st).id
        res = ENGINE.parse_orders(st, p, ENGINE.bot_orders(st, p, Dice(seed("you", ph, i))))
        st, events = ENGINE.resolve(st, {p: res.orders}, Dice(seed("you", ph)))
        yield st, events, p


def test_the_acting_player_reads_you_and_the_others_read_their_name():
    for st, events, p in seeded_turns():
        own = event_lines(report(st, events, p))
        for ev, line in zip([e for e in visible_events(events, p, "en")], own):
            if ev["args"].get("player") == p:
                assert not re.search(rf"\b{p}\b|\btheir\b|\bthem\b", line), line
        other = next(r for r in st["roles"] if r != p)
        theirs = event_lines(report(st, events, other))
        assert not any(line.startswith("You ") for line in theirs if p in line)


def test_a_french_player_reads_vous():
    for st, events, p in seeded_turns(6):
        if any(e["msg"] == "%(player)s draws from the deck." for e in events):
            assert "Vous tirez une carte de la pioche." in report(st, events, p, "fr")
            assert f"{p} tire une carte de la pioche." in report(st, events, next(r for r in st["roles"] if r != p), "fr")
            assert "Vous tirez une carte de la pioche." in report(st, events, p, "fr", "html")
            return
    raise AssertionError("no draw from the deck in six turns")


def test_every_sentence_turned_to_you_is_one_the_engine_says():
    """The report's second-person forms are keyed by the engine's sentences: each must be one."""
    source = "".join(p.read_text() for p in ENGINE_DIR.glob("*.py"))
    macros = (Path(templates_dir()) / "rummy" / "_macros.txt.j2").read_text()
    keys = re.findall(r'msg == "([^"]+)"', macros)
    assert len(keys) > 30
    for key in keys:
        assert f'N_("{key}")' in source, key
