"""Little Bighorn Rummy for players: the cards with their points and counts and the points to
win (player aids, English and French), how the game is won with the scores and what each side
needs; the reader's own table listed first."""

from pbem.dice import Dice
from pbem.engines.rummy import cards as C
from pbem.engines.rummy.engine import RummyEngine as Engine
from pbem.i18n import gettext_for

ENGINE = Engine()


def setup():
    scenario = next(iter(ENGINE.scenarios()))
    return ENGINE.setup(scenario, {}, Dice("00" * 32))


def test_the_cards_and_the_targets_from_the_card_data():
    aids = ENGINE.player_aids(setup())
    assert aids.available == ("CARDS", "TARGETS")
    for k in C.DATA["kinds"]:
        assert any(line.startswith(k["name"] + " ") and line.split()[-2:] == [str(k["points"]), str(k["count"])]
                   for line in aids.text.splitlines()), k["name"]
    assert f"{sum(k['count'] for k in C.DATA['kinds'])} cards in all." in aids.text
    fr = ENGINE.player_aids(setup(), "cibles", "fr", gettext_for("fr"))
    assert fr.tables == ("CIBLES",) and "Points pour gagner" in fr.text


def test_how_to_win_the_target_and_what_each_side_needs():
    state = setup()
    role = state["roles"][1]
    win = ENGINE.how_to_win(state, role)
    assert f"The first side with {state['target']} points or more" in win.conditions[1]
    assert win.needs[0] == (role, f"{state['target']} points more to reach {state['target']}")
