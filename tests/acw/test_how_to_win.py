"""How an ACW battle is won, as players read it in the welcome, HELP and every report: the
scenario's objectives with their points, the army-effectiveness bands, the score now (objective
points as the reader's troops can tell them, both armies' effectiveness), what each side needs;
and once the battle is over what decided it (issue 25: "Victory to the Union (objective points:
Confederates 0, Union 0)" never said that army effectiveness broke the tie)."""

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine

ENGINE = ACWMiniaturesEngine()


def fresh(scenario="herbst_woods"):
    return ENGINE.setup(scenario, {}, Dice("5a" * 32))


def ended(state, points, effectiveness, winner, why="turns"):
    state = dict(state, over=True, effectiveness=effectiveness,
                 result={"winner": winner, "why": why, "points": points, "args": {}, "effectiveness": effectiveness})
    return state


def test_the_conditions_name_every_objective_with_its_points_and_the_bands():
    h = ENGINE.how_to_win(fresh(), "union")
    text = " ".join(h.conditions)
    for name, points in (("Herbst Woods", 3), ("McPherson Farm", 2), ("Willoughby Run Bridge", 1)):
        assert f"{name} {points} points" in text
    assert "under 30% it is broken" in text and "After turn 8" in text and "higher army effectiveness" in text
    assert h.score.startswith("objective points Union 0, Confederates 0") and "Union 100%" in h.score
    assert [side for side, _need in h.needs] == ["Union", "Confederates"]  # the reader's own side first
    assert "more objective points than the Confederates after turn 8" in h.needs[0][1]
    assert h.decided is None


def test_a_tie_on_objective_points_says_army_effectiveness_decided():
    state = ended(fresh(), {"confederate": 0, "union": 0}, {"union": 62, "confederate": 45}, "union")
    decided = ENGINE.how_to_win(state, "confederate").decided
    assert "objective points were equal" in decided and "Union 62%, Confederates 45%" in decided
    assert decided.endswith("victory to the Union.")
    outcome = ENGINE.outcome(state)
    summary = outcome["summary"] % outcome["args"]
    assert "army effectiveness: Union 62%, Confederates 45%" in summary and "effectiveness decided" in summary


def test_a_broken_army_and_a_points_win_say_so():
    broken = ended(fresh(), {"union": 2, "confederate": 0}, {"union": 70, "confederate": 24}, "union", why="broken")
    assert "The army of the Confederates broke (effectiveness 24%, under 30%)" in ENGINE.how_to_win(broken, None).decided
    points = ended(fresh(), {"union": 0, "confederate": 3}, {"union": 80, "confederate": 60}, "confederate")
    assert ENGINE.how_to_win(points, "union").decided.startswith("After the last turn the Confederates held more objective points")
    assert ENGINE.how_to_win(points, "union").needs == ()


def test_help_and_reports_carry_it():
    from pbem.service.render import environment
    env = environment("en")
    state = fresh()
    h = ENGINE.how_to_win(state, "union")
    help_text = env.get_template("acw/help.txt.j2").render(game=None, role="union", lang="en", how_to_win=h)
    assert "HOW TO WIN" in help_text and "Herbst Woods 3 points" in help_text
    report = env.get_template("acw/report.txt.j2").render(
        game={"id": "g"}, role="union", lang="en", phase_id="T1", view=ENGINE.view(state, "union"), events=[],
        orders={}, outcome=None, picture_cid=None, how_to_win=h)
    assert "HOW TO WIN" in report and "Union need:" in report
