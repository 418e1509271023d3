"""Custer's Last Stand for players: the player aids (combat, losses, terrain, movement points,
the scenario's VP) from the numbers the rules read, in English and in French; how to win (the
scenario's VP, the end, the score and what each side needs) in the welcome and the reports."""

import email
from email import policy

from pbem.dice import Dice
from pbem.engines.custer import CusterEngine
from pbem.engines.custer.combat import CAP, losses_for_margin
from pbem.engines.custer.scenario import HEX_MOVE_COST, MOVEMENT_POINTS
from pbem.i18n import gettext_for
from tests.core.helpers import outbox

ENGINE = CusterEngine()


def setup(scenario="little_bighorn"):
    return ENGINE.setup(scenario, {}, Dice("00" * 32))


def test_the_aids_are_the_rules_numbers():
    aids = ENGINE.player_aids(setup())
    assert aids.available == ("COMBAT", "LOSSES", "TERRAIN", "MOVEMENT", "VP")
    assert f"at most {CAP} either way" in aids.text
    losses = ENGINE.player_aids(setup(), "losses").text
    assert [line.split()[-1] for line in losses.splitlines() if line[:1].isdigit()] == \
        [str(losses_for_margin(m)) for m in (0, 4, 7)]
    assert "woods                  2" in aids.text and HEX_MOVE_COST["woods"] == 2
    assert f"warriors      {MOVEMENT_POINTS['warriors']}" in aids.text
    assert "Indians  exits       village       1" in aids.text  # the Little Big Horn's villages led off
    assert "exits" not in ENGINE.player_aids(setup("rosebud"), "VP").text.split("Indians", 1)[-1]
    assert ENGINE.player_aids(None).available == ("COMBAT", "LOSSES", "TERRAIN", "MOVEMENT")  # no scenario: no VP


def test_the_aids_in_french():
    fr = gettext_for("fr")
    aids = ENGINE.player_aids(setup(), "PERTES", "fr", fr)
    assert aids.tables == ("PERTES",) and "AIDES DE JEU" in aids.text and "pertes du perdant" in aids.text
    assert "Pertes (PERTES)" in aids.html and aids.available == ("COMBATS", "PERTES", "TERRAINS", "MOUVEMENT", "PV")


def test_how_to_win_little_big_horn():
    state = setup()
    win = ENGINE.how_to_win(state, "indians")
    text = " ".join(win.conditions)
    assert "US score, for each enemy unit eliminated: tribe leader 4, warriors 2, village 3 VP." in text
    assert "A US leader hit counts as eliminated." in text
    assert "After turn 14, a side 1 VP or more ahead wins; otherwise Indians win." in text
    assert win.score == "US 0 VP, Indians 0 VP"
    assert win.needs[0][0] == "Indians" and "to keep the US less than 1 VP ahead" in win.needs[0][1]
    over = dict(state, over=True, result={"winner": "us", "why": "turn limit reached after turn %(turn)s",
                                          "why_args": {"turn": 14}, "vp": {"us": 9, "indians": 4}})
    assert ENGINE.how_to_win(over, None).decided == \
        "The game is over (turn limit reached after turn 14): the US win with 9 VP for the US and 4 for the Indians."


def test_the_welcome_in_french_says_how_to_win(svc):
    svc.games.create("custer", "little_bighorn", {"us": "custer@joueurs.example", "indians": "gall@players.example"},
                     languages={"us": "fr", "indians": "en"})
    welcome = email.message_from_bytes(outbox(svc, kind="welcome", to_addr="custer@joueurs.example")[-1]["raw"],
                                       policy=policy.default).get_body(("plain",)).get_content()
    assert "COMMENT GAGNER" in welcome and "Un chef américain touché compte comme éliminé." in welcome
