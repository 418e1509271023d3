"""The shipped scenarios are consistent: every unit on the table and clear of the others,
every brigade on a card, objectives and entries where they should be, reserves at most a
third of an army (2 C), and concealed units out of the enemy's sight at the start (2 B)."""

import json

import pytest

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine, scenario as scenarios
from pbem.engines.acw.situation import Context
from pbem.engines.acw.visibility import visible_enemies

SHIPPED = scenarios.available()


def test_both_scenarios_are_shipped():
    assert {"herbst_woods", "mcphersons_ridge"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_scenario_is_consistent(name):
    sc = scenarios.load(name)
    engine = ACWMiniaturesEngine()
    state = engine.setup(name, {}, Dice("cd" * 32))
    assert engine.validate_state(state) == []
    ctx = Context(sc, state, None, [])
    shapes = {uid: ctx.layout(uid).footprint for uid in ctx.on_table()}
    for uid, shape in shapes.items():
        assert sc.table.bounds.contains(shape), uid
        for other, o in shapes.items():
            assert other == uid or not shape.intersects(o), (uid, other)
    carded = {b for c in sc.cards for b in c.get("brigades", [])}
    assert {u["brigade"] for u in sc.units.values()} <= carded
    assert all(b["general"] is None or b["general"] in sc.officers for b in sc.brigades.values())
    assert all(o["name"] in sc.table.landmarks for o in sc.objectives)
    assert all(e["side"] in sc.roles and sc.table.contains(*e["at"]) for e in sc.entries.values())
    for side in sc.roles:
        army = [u for u in sc.units.values() if u["side"] == side]
        assert 3 * sum(1 for u in army if u.get("reserve")) <= len(army), side
        assert sum(1 for c in sc.cards if c["side"] == side and c.get("staff")) == 1
        hidden = {uid for uid, u in sc.units.items() if u["side"] == side and u.get("concealed")}
        assert not hidden & visible_enemies(sc, {**state, "units": {k: dict(v, concealed=False) for k, v in state["units"].items()}},
                                            sc.enemy(side)), "concealed units must start out of the enemy's sight"


def test_each_side_is_named_as_its_role_title_everywhere_a_player_reads_it():
    """A side's name in a scenario (cards, effectiveness, the report's headings, the order
    template, the outcome) is the role title mails and pages use: "Union", "Confederates"."""
    engine = ACWMiniaturesEngine()
    for name in scenarios.available():
        sc = scenarios.load(name)
        assert sc.side_names == {role: engine.role_title(role) for role in sc.roles}, name


def test_options_are_the_scenarios_settings_and_bad_ones_are_refused_plainly():
    """The optional rules are scenario settings: McPherson's Ridge plays the supply wagons unless
    a game turns them off, Herbst Woods does not unless one turns them on; an unknown option or
    a value that is not true or false is refused with the reason, never guessed."""
    engine = ACWMiniaturesEngine()
    assert engine.scenarios()["mcphersons_ridge"].options["supply_wagons"] is True
    assert engine.scenarios()["herbst_woods"].options["supply_wagons"] is False
    assert engine.setup("mcphersons_ridge", {}, Dice("ab" * 32))["wagons"]
    assert engine.setup("mcphersons_ridge", {"supply_wagons": False}, Dice("ab" * 32))["wagons"] == {}
    assert set(engine.setup("herbst_woods", {"supply_wagons": True}, Dice("ab" * 32))["wagons"]) == {"wadsworth_train", "heth_train"}
    with pytest.raises(ValueError, match="take true or false"):
        engine.setup("herbst_woods", {"supply_wagons": "no"}, Dice("ab" * 32))
    with pytest.raises(ValueError, match="unknown option"):
        engine.setup("herbst_woods", {"wagons": True}, Dice("ab" * 32))


def test_a_reading_option_takes_one_of_its_readings_and_both_scenarios_play_the_share_of_start():
    """18 A and the range chart are read literally by default (effectiveness_percent=literal,
    sharpshooter_range=chart); both shipped scenarios play effectiveness as a share of the
    army's points at the start (their armies are far smaller than the 33 units of 100 points);
    a reading the clause does not have is refused with the ones it has."""
    engine = ACWMiniaturesEngine()
    from pbem.engines.acw.engine import OPTIONS

    assert OPTIONS["effectiveness_percent"] == "literal" and OPTIONS["sharpshooter_range"] == "chart"
    for name in ("herbst_woods", "mcphersons_ridge"):
        assert engine.scenarios()[name].options["effectiveness_percent"] == "share_of_start"
        assert engine.setup(name, {}, Dice("ab" * 32))["effectiveness"] == {"union": 100, "confederate": 100}
    literal = engine.setup("herbst_woods", {"effectiveness_percent": "literal"}, Dice("ab" * 32))
    assert literal["effectiveness"] == {"union": 18, "confederate": 18}  # six units, 3 points each
    with pytest.raises(ValueError, match="effectiveness_percent is one of literal, share_of_start"):
        engine.setup("herbst_woods", {"effectiveness_percent": "half"}, Dice("ab" * 32))


def test_a_game_begun_under_rules_3_keeps_the_readings_it_was_played_under():
    """State format 1 to 2: a running game is brought forward with the readings of its rules
    (effectiveness as a share of the start, sharpshooters' 30 inches with the optional rule only)
    and its attached officers in the front rank."""
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, Dice("ab" * 32))
    old = json.loads(json.dumps(state))
    for key in ("effectiveness_percent", "sharpshooter_range"):
        del old["options"][key]
    old["officers"]["meredith"].update(attached="wis2")
    for o in old["officers"].values():
        o.pop("in_rank", None)
    new = engine.migrate_state(old, 1)
    assert new["options"]["effectiveness_percent"] == "share_of_start"
    assert new["options"]["sharpshooter_range"] == "optional_rule"
    assert new["officers"]["meredith"]["in_rank"] == "front" and "in_rank" not in old["officers"]["meredith"]
    assert engine.validate_state(new) == []
