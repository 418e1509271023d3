"""Deployment by the players (game option free_deployment, section 2): units anywhere within 24
inches of their own edge, concealed only out of the enemy's sight, up to a third of the army
in reserve by whole brigades; a refused placement leaves the unit where the scenario put it."""

import hashlib

from pbem.dice import Dice
from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.base import event_visible


def deploying(name="herbst_woods"):
    engine = ACWMiniaturesEngine()
    return engine, engine.setup(name, {"free_deployment": True}, Dice("ab" * 32))


def deploy(engine, state, texts):
    orders = {}
    for role, text in texts.items():
        parsed = engine.parse_orders(state, role, text)
        assert parsed.ok, [(e.text, e.reason % e.args) for e in parsed.errors]
        orders[role] = parsed.orders
    return engine.resolve(state, orders, Dice("ef" * 32))


def test_the_game_opens_with_a_deployment_phase_whose_template_holds_everything():
    engine, state = deploying()
    assert engine.phase(state).id == "D" and engine.phase(state).awaited == ("union", "confederate")
    before = {k: dict(v) for k, v in state["units"].items()}
    after, _ = deploy(engine, state, {r: engine.order_template(state, r) for r in ("union", "confederate")})
    assert engine.phase(after).id == "T1"
    assert all(after["units"][k][f] == before[k][f] for k in before for f in ("x", "y", "facing", "status"))


def test_units_deploy_within_24_inches_of_their_own_edge():
    """2 B: units are placed anywhere within 24 inches of their own table edge."""
    engine, state = deploying()
    after, events = deploy(engine, state, {"union": "2nd Wisconsin: AT 66,20 FACING W LINE\n7th Wisconsin: AT 30,30"})
    assert (after["units"]["wis2"]["x"], after["units"]["wis2"]["formation"]) == (66.0, "line")
    assert after["units"]["wis7"]["x"] == state["units"]["wis7"]["x"]
    assert any(e["type"] == "deploy_refused" and "outside the deployment zone" in e["args"]["why"] for e in events)


def test_reserves_go_by_whole_brigades_up_to_a_third_of_the_army():
    """2 C: up to a third of an army may be off the table as reserves, entering by brigades."""
    engine, state = deploying("mcphersons_ridge")
    bad = engine.parse_orders(state, "union", "76th New York: RESERVE")
    assert not bad.ok and bad.errors[0].args["suggestion"] == "Cutler's Brigade"
    after, events = deploy(engine, state, {"union": "Cutler's Brigade: RESERVE\nHall's Battery: RESERVE"})
    assert after["units"]["ny76"]["status"] == "formed" and after["units"]["hall"]["status"] == "reserve"
    assert any(e["type"] == "deploy_refused" and e["args"]["brigade"] == "Cutler's Brigade" for e in events)


def test_a_unit_in_sight_of_the_enemy_cannot_be_concealed():
    """2 B: only units in woods, towns or behind hills, out of the enemy's sight, are concealed."""
    engine, state = deploying()
    after, events = deploy(engine, state, {"union": "2nd Wisconsin: AT 66,20 CONCEALED\nCalef's Battery: AT 50,5 UNLIMBERED CONCEALED"})
    assert after["units"]["wis2"]["concealed"] is True
    assert after["units"]["calef"]["concealed"] is False
    assert any(e["type"] == "deploy_refused" and e["args"]["unit"] == "Calef's Battery" for e in events)


def test_placements_are_told_only_to_their_side():
    engine, state = deploying()
    _, events = deploy(engine, state, {"union": "2nd Wisconsin: AT 66,20"})
    placed = [e for e in events if e["type"] == "deployed"]
    assert placed and not any(event_visible(e, "confederate") for e in placed)


def test_bot_games_with_free_deployment_end_without_error():
    engine = ACWMiniaturesEngine()
    for game in range(2):
        seed = lambda *p: hashlib.sha256("/".join(map(str, ("deploy", game) + p)).encode()).hexdigest()  # noqa: E731
        state = engine.setup("herbst_woods", {"free_deployment": True}, Dice(seed("setup")))
        for _ in range(12):
            if engine.outcome(state):
                break
            phase = engine.phase(state)
            orders = {}
            for role in phase.awaited:
                parsed = engine.parse_orders(state, role, engine.bot_orders(state, role, Dice(seed(phase.id, role))))
                assert parsed.ok, parsed.errors
                orders[role] = parsed.orders
            state, _ = engine.resolve(state, orders, Dice(seed(phase.id)))
            assert engine.validate_state(state) == []
        assert engine.outcome(state) is not None
