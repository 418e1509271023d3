"""The shipped scenarios load, pass the data checks and give templates that parse."""

import pytest

from pbem.dice import Dice
from pbem.engines.custer import CusterEngine, scenario as scenarios


@pytest.mark.parametrize("name", scenarios.SCENARIO_NAMES)
def test_shipped_scenario_is_playable(name):
    sc = scenarios.load(name)
    assert scenarios.check(sc) == []
    assert len(sc.draws["us"]) >= sc.turns and len(sc.draws["indians"]) >= sc.turns
    engine = CusterEngine()
    assert name in engine.scenarios()
    state = engine.setup(name, {}, Dice("00" * 32))
    assert engine.validate_state(state) == []
    for role in sc.roles:
        result = engine.parse_orders(state, role, engine.order_template(state, role))
        assert result.ok, result.errors
