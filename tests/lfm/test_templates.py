"""The report and help templates render in both formats on a real turn, with each combat's
arithmetic written out, and the text part says what the HTML says."""

import html
import re

import pytest

from pbem.engines.base import event_text
from pbem.engines.lfm import LastFullMeasureEngine

from .test_view import played


@pytest.fixture(scope="module")
def env():
    from pbem.service.render import environment
    return environment("en")


def context(role="usa"):
    engine = LastFullMeasureEngine()
    state, events = played()
    return {"game": {"id": "ecf1", "title": "ECF", "engine": "lfm", "scenario": state["scenario"]},
            "role": role, "lang": "en", "phase_id": "T1a.C", "view": engine.view(state, role),
            "events": [dict(ev, text=event_text(ev)) for ev in events], "orders": {},
            "outcome": engine.outcome(state), "picture_cid": "map-1"}


def test_the_text_report_writes_out_the_combat_arithmetic(env):
    text = env.get_template("lfm/report.txt.j2").render(**context())
    assert "[Command determination]" in text and "[Combat]" in text
    assert "attacking from 0504: c1; infantry/cavalry 8 SP (counts 8), artillery 0 SP (counts 0) = 8" in text
    assert "odds 8:4, rounded down: column 2-1" in text
    assert "die 3, modified 3 (row 3): DR" in text
    assert "Confederates" in text and "VICTORY POINTS" in text


def test_the_html_report_says_what_the_text_says(env):
    ctx = context()
    text = env.get_template("lfm/report.txt.j2").render(**ctx)
    page = html.unescape(re.sub(r"<[^>]+>", " ", env.get_template("lfm/report.html.j2").render(**ctx)))
    for ev in ctx["events"]:
        assert ev["text"] in text and ev["text"] in page
    assert 'src="cid:map-1"' in env.get_template("lfm/report.html.j2").render(**ctx)


def test_help_renders(env):
    text = env.get_template("lfm/help.txt.j2").render(game={"id": "ecf1"}, lang="en")
    assert "MOVE TO" in text and "CHARGE" in text and "STANDING" in text and "ATTACK <" in text
