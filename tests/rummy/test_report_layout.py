"""How the report's HTML and text are laid out: the picture fits the text column, and
every column of the score table says what it holds."""

from __future__ import annotations

import re

from .helpers import ENGINE, build
from .render import ENV, GAME


def render(view: dict, kind: str, role="p1") -> str:
    return ENV.get_template(f"rummy/report.{kind}.j2").render(
        game=GAME, role=role, lang="en", phase_id="H2.T1", view=view, events=[], orders={}, outcome=None, picture_cid="map")


def a_view(scores: bool) -> dict:
    view = ENGINE.view(build(hands={"p1": ["brave"]}, discard=["scout"]), "p1")
    if scores:
        view["scores"] = [{"hand": 1, "points": {"p1": 12, "p2": -3}, "out": "p1"}]
    return view


def test_the_picture_is_never_wider_than_the_text_column():
    html = render(a_view(False), "html")
    img = re.search(r'<img src="cid:map"[^>]*>', html).group(0)
    assert "max-width:100%" in img and "height:auto" in img


def test_every_column_of_the_score_table_has_a_heading():
    """Before any hand is scored the table has a column a player and the hand's number;
    once hands are scored, the column that says how each ended is headed so."""
    for scores in (False, True):
        html = render(a_view(scores), "html")
        table = re.search(r'<table class="scores">(.*?)</table>', html, re.S).group(1)
        rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
        heading = re.findall(r"<th>(.*?)</th>", rows[0])
        assert all(h.strip() for h in heading), heading
        assert all(len(re.findall(r"<t[hd]>", r)) == len(heading) for r in rows)
        assert ("how the hand ended" in heading) == scores
    text = render(a_view(True), "txt")
    head = next(line for line in text.splitlines() if line.strip().startswith("hand"))
    assert head.rstrip().endswith("how the hand ended")
    assert "you went out" in text and "p1 went out" not in text
    assert "p1 went out" in render(a_view(True), "txt", role="p2")
