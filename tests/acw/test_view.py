"""What each side sees (2 B, 16): its own units, and enemy units only in its troops' line of
sight; concealed and reserve units appear to nobody else, in the view, the events a
report shows, the order template or the picture (drawn from the view only)."""

import json

from pbem.engines import get_engine
from pbem.engines.acw import ACWMiniaturesEngine
from pbem.engines.base import MODERATOR, event_visible
from pbem.service.mail_writer import shown_seed

from .fixtures import ScriptedDice, play_turn, small_scenario

RIDGE = {"kind": "hill", "name": "Ridge", "level": 1, "polygon": [[20, 0], [28, 0], [28, 36], [20, 36]],
         "crest": [[24, 0], [24, 36]]}
WOOD = {"kind": "woods", "name": "Wood", "polygon": [[30, 20], [40, 20], [40, 30], [30, 30]]}


def table():
    return small_scenario(
        "view_table", terrain=[RIDGE, WOOD], entries={"Road": {"side": "confederate", "at": [47, 4], "facing": 270}},
        units=[{"id": "blue1", "name": "First Blue", "side": "union", "x": 10, "y": 10, "facing": 90},
               {"id": "grey_seen", "name": "Grey Seen", "side": "confederate", "x": 18, "y": 30, "facing": 270},
               {"id": "grey_behind", "name": "Grey Behind Ridge", "side": "confederate", "x": 34, "y": 8, "facing": 270},
               {"id": "grey_hidden", "name": "Grey In The Wood", "side": "confederate", "x": 36, "y": 25, "facing": 270,
                "concealed": True},
               {"id": "grey_reserve", "name": "Grey Reserve", "side": "confederate", "x": 47, "y": 4, "facing": 270,
                "reserve": True}])


def strings(view) -> str:
    return json.dumps(view)


def test_a_side_sees_only_enemies_in_its_line_of_sight():
    engine = ACWMiniaturesEngine()
    state = engine.setup(table(), {}, ScriptedDice())
    union = engine.view(state, "union")
    ids = {u["id"] for u in union["units"]}
    assert ids == {"blue1", "grey_seen"}
    text = strings(union)
    for hidden in ("Grey Behind Ridge", "Grey In The Wood", "Grey Reserve", "grey_behind", "grey_hidden", "grey_reserve"):
        assert hidden not in text
    grey = engine.view(state, "confederate")
    assert {"grey_seen", "grey_behind", "grey_hidden", "grey_reserve"} <= {u["id"] for u in grey["units"]}


def test_the_observer_sees_only_what_the_other_side_sees_of_each():
    engine = ACWMiniaturesEngine()
    state = engine.setup(table(), {}, ScriptedDice())
    observer = {u["id"] for u in engine.view(state, None)["units"]}
    assert "grey_hidden" not in observer and "grey_reserve" not in observer and "grey_behind" not in observer
    assert {u["id"] for u in engine.view(state, MODERATOR)["units"]} >= {"grey_hidden", "grey_reserve"}


def test_the_enemys_morale_ratings_and_standing_orders_are_not_shown():
    engine = ACWMiniaturesEngine()
    name = table()
    state, _ = play_turn(name, {"confederate": "STANDING Grey Seen: PULL AWAY"})
    union = engine.view(state, "union")
    seen = next(u for u in union["units"] if u["id"] == "grey_seen")
    assert "rating" not in seen and "concealed" not in seen
    assert union["standing"] == {"union": {}}


def test_hidden_units_moves_stay_out_of_the_other_sides_events_and_template():
    engine = ACWMiniaturesEngine()
    name = table()
    state, events = play_turn(name, {"confederate": "Grey Behind Ridge: MOVE 3 BEARING 0\nGrey Reserve: ENTER AT Road"},
                              {"T1 response confederate_bde": 1, "T1 response union_bde": 1})
    union_events = " ".join(json.dumps(e) for e in events if event_visible(e, "union"))
    assert "Grey Behind Ridge" not in union_events and "Grey Reserve" not in union_events
    assert any(e["type"] == "move" and e["args"]["unit"] == "Grey Behind Ridge" for e in events if event_visible(e, "confederate"))
    template = engine.order_template(state, "union")
    assert "Grey Behind Ridge" not in template and "Grey Reserve" not in template and "Grey Seen" in template
    assert "Grey Behind Ridge" not in strings(engine.view(state, "union"))


def test_a_concealed_unit_that_fires_is_revealed():
    engine = ACWMiniaturesEngine()
    name = small_scenario("view_fire", units=[
        {"id": "b", "side": "union", "x": 10, "y": 18, "facing": 90},
        {"id": "g", "side": "confederate", "x": 20, "y": 18, "facing": 270, "concealed": True}])
    state = engine.setup(name, {}, ScriptedDice())
    assert "g" not in {u["id"] for u in engine.view(state, "union")["units"]}
    state, events = play_turn(name, {}, {"T1 fire standing g": 1}, state=state)
    assert any(e["type"] == "revealed" for e in events)
    assert "g" in {u["id"] for u in engine.view(state, "union")["units"]}


def test_the_picture_is_drawn_from_the_view():
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, ScriptedDice())
    png = engine.picture(engine.view(state, "confederate"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert engine.picture(engine.view(state, "confederate")) == png
    assert engine.picture(engine.view(state, "union")) != png


def test_resolve_does_not_mutate_its_input():
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, ScriptedDice())
    before = json.dumps(state, sort_keys=True)
    engine.resolve(state, {"union": engine.parse_orders(state, "union", "Iron Brigade: LINE; ADVANCE").orders}, ScriptedDice())
    assert json.dumps(state, sort_keys=True) == before


def test_a_hidden_units_morale_is_its_own_sides_business():
    """A router's panic makes a friend behind the crest check morale: the other side, which
    cannot see that friend, does not read the check."""
    engine = ACWMiniaturesEngine()
    name = small_scenario("view_panic", terrain=[RIDGE], units=[
        {"id": "b", "name": "Blue", "side": "union", "x": 10, "y": 18, "facing": 90},
        {"id": "g", "name": "Grey Front", "side": "confederate", "x": 20, "y": 18, "facing": 270},
        {"id": "h", "name": "Grey Hidden", "side": "confederate", "x": 27, "y": 16, "facing": 270}])
    state = engine.setup(name, {}, ScriptedDice())
    state["units"]["g"]["rating"] = 1
    state, events = play_turn(name, {"union": "Blue: FIRE"}, {"T1 fire standing b": 6, "T1 fire standing g": 1,
                                                               "T1 morale g casualties from fire D": 1}, state=state)
    checks = [e for e in events if e["type"] == "morale" and e["args"]["unit"] == "Grey Hidden"]
    assert checks and all(not event_visible(e, "union") and event_visible(e, "confederate") for e in checks)


def test_the_setup_seed_stays_sealed_while_the_game_goes_on():
    """Initial morale ratings come from the set-up dice and are hidden from the other side, so
    the set-up seed is not published before the game ends."""
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, ScriptedDice())
    assert engine.secret_seeds(state) == ["setup"]
    assert engine.secret_seeds(dict(state, over=True)) == []


def test_a_sealed_seed_is_explained_in_the_games_own_words():
    """Mail and pages show, instead of the sealed set-up seed, what it rolled (the initial
    morale ratings), not rummy's words about cards; once the battle is over the seed shows."""
    engine = ACWMiniaturesEngine()
    state = engine.setup("herbst_woods", {}, ScriptedDice())
    phase = {"label": "setup", "seed": "ab" * 32}
    note = shown_seed(engine, state, phase)
    assert "initial morale" in note and "card" not in note and phase["seed"] not in note
    assert "moral initial" in shown_seed(engine, state, phase, "fr")
    assert "cards still in play" in get_engine("rummy").sealed_seed_note
    assert shown_seed(engine, dict(state, over=True), phase) == phase["seed"]


def wagon_table():
    """The view table with the optional supply wagons: a grey one behind the ridge, one in the open."""
    return small_scenario(
        "view_wagons", terrain=[RIDGE, WOOD],
        units=[{"id": "blue1", "name": "First Blue", "side": "union", "x": 10, "y": 10, "facing": 90},
               {"id": "grey_seen", "name": "Grey Seen", "side": "confederate", "x": 18, "y": 30, "facing": 270}],
        wagons=[{"id": "blue_train", "name": "Blue Train", "side": "union", "x": 3, "y": 20},
                {"id": "grey_hidden_train", "name": "Grey Hidden Train", "side": "confederate", "x": 40, "y": 10},
                {"id": "grey_open_train", "name": "Grey Open Train", "side": "confederate", "x": 16, "y": 20}],
        cards=[{"id": "union_card", "name": "Union Brigade", "side": "union", "brigades": ["union_bde"]},
               {"id": "confederate_card", "name": "Confederate Brigade", "side": "confederate", "brigades": ["confederate_bde"]},
               {"id": "confederate_staff", "name": "Confederate Staff", "side": "confederate", "staff": True}])


def test_enemy_supply_wagons_show_only_in_sight_and_their_drives_stay_private():
    """Supply wagons (optional rule): a side sees its own wagons, the enemy's only while one of
    its units has a line of sight to them (not behind a crest line); a wagon's drive is told to
    its own side only; a unit's ammunition is its own side's business."""
    engine = ACWMiniaturesEngine()
    name = wagon_table()
    state = engine.setup(name, {"supply_wagons": True}, ScriptedDice())
    union = engine.view(state, "union")
    assert {w["id"] for w in union["wagons"]} == {"blue_train", "grey_open_train"}
    assert "Grey Hidden Train" not in strings(union) and "grey_hidden_train" not in strings(union)
    assert {w["id"] for w in engine.view(state, "confederate")["wagons"]} == {"grey_hidden_train", "grey_open_train", "blue_train"}
    assert {w["id"] for w in engine.view(state, None)["wagons"]} == {"grey_open_train", "blue_train"}
    assert "Grey Hidden Train" not in engine.order_template(state, "union")
    state["units"]["grey_seen"]["low_ammunition"] = True
    seen = next(u for u in engine.view(state, "union")["units"] if u["id"] == "grey_seen")
    assert "low_ammunition" not in seen
    state, events = play_turn(name, {"confederate": "Grey Hidden Train: MOVE TO 44,4"}, state=state)
    assert any(e["type"] in ("wagon_move", "wagon_short") for e in events if event_visible(e, "confederate"))
    assert not [e for e in events if event_visible(e, "union") and "Grey Hidden Train" in json.dumps(e)]
    assert "grey_hidden_train" not in strings(engine.view(state, "union"))


def test_a_captured_wagon_is_known_to_both_sides():
    engine = ACWMiniaturesEngine()
    name = wagon_table()
    state = engine.setup(name, {"supply_wagons": True}, ScriptedDice())
    state["wagons"]["grey_hidden_train"]["status"] = "captured"
    union = engine.view(state, "union")
    assert {"id": "grey_hidden_train", "name": "Grey Hidden Train", "side": "confederate", "status": "captured"} in union["wagons"]


SLOPE = {"kind": "hill", "name": "Hill", "level": 1, "polygon": [[0, 0], [13, 0], [13, 36], [0, 36]],
         "crest": [[2, 0], [2, 36]], "forward_slope": [[2, 0], [13, 0], [13, 36], [2, 36]]}


def over_the_screen():
    """A battery on a forward slope fires over its own screening regiment at a regiment 12 inches and
    more beyond it (16 B); the target, on level ground, cannot see back over the screen."""
    return small_scenario("view_unseen_fire", terrain=[SLOPE], width=72, units=[
        {"id": "guns", "name": "Slope Battery", "side": "union", "x": 10, "y": 18, "facing": 90, "arm": "artillery",
         "stands": 3, "formation": "unlimbered"},
        {"id": "screen", "name": "Screen", "side": "union", "x": 20, "y": 18, "facing": 90, "formation": "column"},
        {"id": "target", "name": "Grey Target", "side": "confederate", "x": 40, "y": 18, "facing": 270}])


def test_fire_from_a_unit_the_target_cannot_see_is_told_only_by_its_quarter_and_its_hits():
    """Fog of war (docs/games/acw.md): a side fired on by an enemy its troops cannot see learns the
    kind of fire, the compass point it comes from and the hits, never the firer."""
    state, events = play_turn(over_the_screen(), {"union": "guns: FIRE"}, {"T1 fire artillery guns": 6, "T1 fire standing target": 1})
    fire = [e for e in events if e["type"] == "fire" and e["args"]["firer"] == "Slope Battery"]
    assert fire and all(not event_visible(e, "confederate") and event_visible(e, "union") for e in fire)
    [unseen] = [e for e in events if e["type"] == "fire_unseen"]
    assert unseen["to"] == ["confederate"] and unseen["args"]["direction"] == "west" and unseen["args"]["hits"] > 0
    assert unseen["args"]["what"] == "artillery fire" and "Slope Battery" not in json.dumps(unseen)
    told = json.dumps([e for e in events if event_visible(e, "confederate")])
    assert "Slope Battery" not in told and '"guns"' not in told
    assert "Slope Battery" not in json.dumps(ACWMiniaturesEngine().view(state, "confederate"))


def test_an_event_naming_an_unseen_enemy_is_told_with_the_enemy_masked():
    """Fog of war: a morale check of a seen unit that names an enemy the other side cannot see (the
    battery over the screen, here named as the cause) is told to that side with the name replaced."""
    from pbem.engines.acw import scenario as scenarios
    from pbem.engines.acw.fog import censor
    from pbem.engines.acw.situation import Context
    from pbem.engines.base import event

    engine = ACWMiniaturesEngine()
    name = over_the_screen()
    state = engine.setup(name, {}, ScriptedDice())
    ctx = Context(scenarios.load(name), state, ScriptedDice(), [])
    told = censor(ctx, event("morale", "%(unit)s checks morale (%(why)s).", unit="Grey Target", id="target",
                             why="fired on by Slope Battery", about_ids=["guns"]))
    by_role = {tuple(e.get("to") or ("all",)): e for e in told}
    assert by_role[("union",)]["args"]["why"] == "fired on by Slope Battery"
    masked = by_role[("confederate",)]["args"]
    assert masked["why"] == "fired on by an unseen enemy unit to the west" and masked["about_ids"] == []


def test_an_unseen_units_move_is_neither_told_nor_drawn_to_the_enemy():
    """Fog of war: a regiment that moves out of the enemy's sight is not told to it, and its track is
    not on the enemy's picture; its own side sees both."""
    name = small_scenario("view_hidden_move", terrain=[RIDGE], units=[
        {"id": "blue", "name": "Blue", "side": "union", "x": 10, "y": 10, "facing": 90},
        {"id": "grey", "name": "Grey Mover", "side": "confederate", "x": 34, "y": 20, "facing": 90}])
    state, events = play_turn(name, {"confederate": "grey: MOVE 4 BEARING 90"}, {"T1 response confederate_bde": 1})
    assert not [e for e in events if event_visible(e, "union") and "Grey Mover" in json.dumps(e)]
    engine = ACWMiniaturesEngine()
    assert [m for m in engine.view(state, "confederate")["moves"] if m["unit"] == "grey"]
    assert not [m for m in engine.view(state, "union")["moves"] if m.get("unit") == "grey"]
