"""Peaux-Rouges for players: the player aids (pieces, duels, bonuses) in English and French from
the rules' own numbers; how to win (the flag, the chiefs, Custer and his officers, the turn
limit) with what stands now and what each side needs; the positions of every piece, the
reader's side first."""

from pbem.dice import Dice
from pbem.engines.peaux_rouges import PeauxRougesEngine
from pbem.engines.peaux_rouges.pieces import KINDS
from pbem.i18n import gettext_for
from pbem.service.render import environment

ENGINE = PeauxRougesEngine()


def setup():
    return ENGINE.setup("little_big_horn", {}, Dice("00" * 32))


def test_the_aids_in_english_and_french():
    aids = ENGINE.player_aids(setup())
    assert aids.available == ("PIECES", "DUEL", "BONUS")
    assert f"T1-T3    Tomahawk        Indians      yes      {KINDS['tomahawk'].reach}" in aids.text
    assert "6+              is eliminated" in aids.text
    fr = ENGINE.player_aids(setup(), "duels", "fr", gettext_for("fr"))
    assert fr.tables == ("DUELS",) and "est éliminé" in fr.text and "Les duels (DUELS)" in fr.text


def test_how_to_win_names_the_flag_the_arrows_and_who_is_alive():
    win = ENGINE.how_to_win(setup(), "peaux_rouges")
    assert "blue arrow (B1, O1)" in win.conditions[0] and "draw" in win.conditions[2]
    assert "the flag at H10" in win.score and "chiefs alive: CH1 CH2 CH3" in win.score
    assert win.needs[0] == ("Indians", "enter the flag's square H10 unguarded, or kill C O1 O2")
    fr = ENGINE.how_to_win(setup(), "longs_couteaux", gettext_for("fr"))
    assert fr.needs[0][0] == "Longs-Couteaux" and "porter le drapeau de H10" in fr.needs[0][1]


def test_the_report_lists_every_piece_where_it_is_the_readers_side_first():
    state = setup()
    view = ENGINE.view(state, "peaux_rouges")
    text = environment("en").get_template("peaux_rouges/report.txt.j2").render(
        game={"id": "g"}, role="peaux_rouges", lang="en", phase_id="T1", view=view, events=[], orders={},
        outcome=None, picture_cid=None, how_to_win=ENGINE.how_to_win(state, "peaux_rouges"))
    where = text.split("WHERE THE PIECES ARE", 1)[1]
    assert where.strip().startswith("Indians:") and "HOW TO WIN" in where
    for p in view["pieces"]:
        assert f"{p['code']} ({p['name_en']}) {p['square']}" in where
