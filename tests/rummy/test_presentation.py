"""The report: the picture, the mail text and HTML, HELP."""

import re

from pbem.dice import Dice
from pbem.engines.base import MODERATOR
from pbem.engines.rummy import orders as O
from pbem.engines.rummy.picture import CARD_H

from .helpers import ENGINE, build, group, play
from .render import help_text, report

CARD_ROW = CARD_H + 8  # one row of cards in the picture


def _midgame(scenario="four", phases=70):
    st = ENGINE.setup(scenario, {}, Dice("0d" * 32))
    events = []
    for i in range(phases):
        p = st["player"]
        res = ENGINE.parse_orders(st, p, ENGINE.bot_orders(st, p, Dice(f"{i:064x}")))
        st, events = ENGINE.resolve(st, {p: res.orders}, Dice(f"{i + 5000:064x}"))
    return st, events


def test_the_picture_shows_every_table_the_discard_top_and_the_hand():
    st, _ = _midgame()
    for role in st["roles"] + [None, MODERATOR]:
        png = ENGINE.picture(ENGINE.view(st, role))
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # how fast a picture is drawn: benchmarks/rummy_picture.py
    # a player's picture is taller than an observer's: it has the hand
    from PIL import Image
    import io
    mine = Image.open(io.BytesIO(ENGINE.picture(ENGINE.view(st, "p1"))))
    theirs = Image.open(io.BytesIO(ENGINE.picture(ENGINE.view(st, None))))
    assert mine.size[0] == theirs.size[0] and mine.size[1] > theirs.size[1]


def test_the_picture_of_a_crowded_table():
    tables = {"p1": [group("co-C", "C-commander", "C-guidon", "C-trooper", "C-trooper", "C-trooper", wild=True),
                     group("staff", "banner", "bugler", "bugler"), {"key": "chief", "cards": ["gall"], "on": ["coup-stick"]},
                     {"key": "custer", "cards": ["custer"], "on": ["bugler", "bugler"]},
                     {"key": "bv", "cards": ["brave", "brave", "brave", "village"]}, {"key": "lone", "cards": ["village"]},
                     group("scouts", "scout", "scout", "scout"), {"key": "support", "cards": ["sabers", "luck", "mules"]}]}
    st = build(hands={"p1": ["brave"] * 8 + ["E-trooper"] * 5 + ["hump"]}, tables=tables)
    assert ENGINE.picture(ENGINE.view(st, "p1"))[:4] == b"\x89PNG"


def test_reports_render_for_every_role_and_the_text_says_what_the_html_says():
    st, events = _midgame("teams")
    for role in st["roles"] + [None, MODERATOR]:
        parts = report(st, events, role, phase_id="H1.T70")
        text, html = parts["text"], parts["html"]
        assert "Scores" in text and "<table" in html and 'src="cid:map"' in html
        plain = re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").replace("&amp;", "&")
        words = lambda s: set(re.findall(r"[A-Za-z][\w'.-]*", s))
        assert words(plain) - words(text) <= {"alt"}, words(plain) - words(text)
        if role in st["roles"]:
            assert "Your hand" in text
        else:
            assert "Your hand" not in text


def test_the_score_table_runs_across_hands():
    st = build(hands={"p1": ["brave"]}, totals={"p1": 20, "p2": 7}, hand_no=2)
    st["scores"] = [{"hand": 1, "points": {"p1": 20, "p2": 7}, "out": "p1", "ended": "out"}]
    st, events, _ = play(st, "DISCARD Brave")
    text = report(st, events, "p2", phase_id="H1.T5b")["text"]
    lines = [line.split() for line in text.splitlines()]
    assert ["1", "20", "7", "p1", "went", "out"] in lines
    assert ["2", "5", "0", "p1", "went", "out"] in lines
    assert ["total", "25", "7"] in lines


def test_the_final_report_names_the_winner():
    st = build(hands={"p1": ["brave"]}, totals={"p1": 149, "p2": 3})
    st, events, _ = play(st, "DISCARD Brave")
    text = report(st, events, "p2")["text"]
    assert "The game is over." in text and "p1 wins with 154 points after 1 hands." in text


def test_help_lists_the_orders_and_its_examples_parse():
    text = help_text()
    examples = [line.strip() for line in text.splitlines() if line.startswith("    ")]
    assert len(examples) > 20
    for line in examples:
        order = re.split(r"\s{2,}", line)[0]
        O.parse_segment(order, ["p1", "p2", "p3", "p4"])  # raises if unreadable
    for word in ("DRAW DECK", "MELD", "LAYOFF", "PLAY", "STEAL", "PICK", "RAID", "DISCARD"):
        assert word in text


def test_the_picture_of_a_player_looking_through_the_pile_shows_it_to_that_player():
    """A Cavalry Special's player sees the pile laid out in the picture while picking; the
    same view without the pile (what any other role's view holds) draws no such row."""
    from PIL import Image
    import io
    st = build(hands={"p1": ["mules", "brave", "E-trooper"]}, discard=["scout", "gall", "hump", "C-commander"])
    st, _, _ = play(st, "PLAY Bring Pack Mules")
    view = ENGINE.view(st, "p1")
    looking = Image.open(io.BytesIO(ENGINE.picture(view)))
    covered = Image.open(io.BytesIO(ENGINE.picture(dict(view, this_turn=dict(view["this_turn"], pile=None)))))
    assert looking.size[1] == covered.size[1] + 24 + CARD_ROW
