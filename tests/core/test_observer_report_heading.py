"""An observer's report names its reader as the observers, never as a role it lacks: the
engines' report headings said "report for None" to observers of Last Full Measure, Custer and
ACW games."""

import pytest

from tests.core.helpers import outbox, raw_text

WATCHER = "watcher@elsewhere.example"
GAMES = {
    "lfm": ("east_cavalry_field", {"csa": "stuart@players.example", "usa": "gregg@players.example"}),
    "custer": ("little_bighorn", {"us": "custer@players.example", "indians": "bull@players.example"}),
    "acw": ("herbst_woods", {"union": "meredith@players.example", "confederate": "archer@players.example"}),
}


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_an_observers_report_is_for_the_observers(svc, engine):
    scenario, players = GAMES[engine]
    gid = svc.games.create(engine, scenario, players)
    assert svc.observers.observe(gid, WATCHER, svc.observers.confirmation_code(gid, WATCHER)) is None
    svc.phases.close(gid, reason="test", actor="moderator")
    [report] = outbox(svc, kind="observer", to_addr=WATCHER)
    text = raw_text(report)
    assert "report for None" not in text
    assert "report for observers" in text
