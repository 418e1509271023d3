"""Deciding a duel: dice, bonus points, totals, results, retreats."""

from pbem.engines.peaux_rouges import messages as M
from pbem.engines.peaux_rouges.rules import Match

from .conftest import LC, PR, position, run


def roll_event(events):
    return next(e for e in events if e["type"] == "roll")


def result_event(events):
    return next(e for e in events if e["type"] == "result")


def bonuses(events):
    return [(e["args"]["piece"], e["msg"]) for e in events if e["type"] == "bonus"]


def test_both_roll_a_die_and_the_higher_total_wins(engine):
    """"Chaque joueur lancera le dé, et celui qui obtiendra le nombre de points le plus élevé sera le vainqueur"."""
    state = position({"S1": "F9", "I1": "F6"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 3, "target": 5})
    r = roll_event(events)["args"]
    assert (r["attacker_total"], r["target_total"]) == (3, 5)
    res = result_event(events)
    assert res["msg"] == M.WIN_BACK and res["args"]["winner"] == "I1" and res["args"]["loser"] == "S1"
    assert new["pieces"]["S1"] in ("E10", "F10", "G10")  # the loser falls back, away from I1


def test_a_winning_six_eliminates(engine):
    """"Avec un 6, il élimine l'ennemi sur le champ"."""
    state = position({"S1": "F9", "I1": "F6"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 6, "target": 2})
    assert result_event(events)["msg"] == M.WIN_KILL
    assert new["pieces"]["I1"] is None


def test_a_winning_five_or_four_drives_the_loser_back_one_square_away_from_the_shooter(engine):
    """"Avec un 5 ou un 4, il le fait reculer vers une case contiguë" ... "sur une case adjacente opposée à la direction du tir"."""
    for die in (4, 5):
        state = position({"S1": "F9", "I1": "F6"})
        new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": die, "target": 1})
        assert result_event(events)["msg"] == M.WIN_BACK
        assert new["pieces"]["I1"] in ("E5", "F5", "G5")
    # the squares "away": never a step back toward the shooter on either axis
    m = Match.from_state(position({"S1": "D9", "I1": "F6"}))
    away = sorted(m.board.name_of(s) for s in m.retreat_squares("I1", m.pos["S1"]))
    assert away == ["F5", "G5", "G6"]


def test_the_winner_chooses_the_retreat_square(engine):
    """"Dans le cas où il y aurait le choix entre plusieurs cases, le vainqueur décidera"
    (made by the engine for him: no cover for the loser if possible, then reading order)."""
    state = position({"S1": "F9", "I1": "E6"})  # away from F9: D5 D6 E5(woods)
    m = Match.from_state(state)
    squares = m.retreat_squares("I1", m.pos["S1"])
    assert sorted(m.board.name_of(s) for s in squares) == ["D5", "D6", "E5"]
    assert m.board.name_of(m.choose_retreat("I1", squares)) == "D5"  # not into the woods
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 5, "target": 1})
    assert new["pieces"]["I1"] == "D5"


def test_three_or_less_misses(engine):
    """"Quand les résultats obtenus par deux joueurs sont 3, 2 on considère que les coups ont manqué"."""
    state = position({"S1": "F9", "I1": "F6"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 3, "target": 2})
    assert result_event(events)["msg"] == M.WIN_MISS
    assert new["pieces"] == state["pieces"]


def test_a_tie_changes_nothing(engine):
    """"En cas de coup nul, les pièces des adversaires ne bougent pas"."""
    state = position({"S1": "F9", "I1": "F6"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 6, "target": 6})
    assert result_event(events)["msg"] == M.TIE
    assert new["pieces"] == state["pieces"]


def test_a_shot_nobody_answers_is_decided_by_the_shooters_die_alone(engine):
    """"si l'ennemi sur lequel on fait feu n'est pas en mesure de répondre, le feu sera [décidé] par le dé du [tireur]"."""
    state = position({"S1": "F9", "T1": "F6"})  # a tomahawk cannot answer fire at range
    new, events = run(engine, state, "FIRE S1 AT T1", rolls={"attacker": 4})
    assert M.NO_ANSWER_REACH in [e["msg"] for e in events]
    assert roll_event(events)["args"]["target_die"] is None
    assert result_event(events)["msg"] == M.ALONE_BACK
    new, events = run(engine, state, "FIRE S1 AT T1", rolls={"attacker": 6})
    assert result_event(events)["msg"] == M.ALONE_KILL and new["pieces"]["T1"] is None
    new, events = run(engine, state, "FIRE S1 AT T1", rolls={"attacker": 3})
    assert result_event(events)["msg"] == M.ALONE_MISS and new["pieces"]["T1"] == "F6"


def test_a_piece_that_must_retreat_and_cannot_is_eliminated(engine):
    """"Si le combattant mis dans l'obligation de reculer, n'est pas à même de le faire ... il sera éliminé d'emblée du jeu"."""
    state = position({"S1": "A10", "I1": "B8"}, side=PR)  # away from B8 is off the board
    new, events = run(engine, state, "FIRE I1 AT S1", rolls={"attacker": 5, "target": 1})
    assert result_event(events)["msg"] == M.WIN_NO_ROOM and new["pieces"]["S1"] is None
    # boxed in by the enemy
    state = position({"S1": "F8", "I1": "F6", "I2": "E9", "I3": "F9", "I4": "G9"}, side=PR)
    new, events = run(engine, state, "FIRE I1 AT S1", rolls={"attacker": 4, "target": 1})
    assert new["pieces"]["S1"] is None


def test_bonus_foot_on_parapets_in_rocks_or_in_woods(engine):
    """POINTS DE BONIFICATION: "Les fantassins sur les cases servant de parapets ... dans les rochers ... dans un bosquet : 1 point"."""
    state = position({"S1": "G7", "I1": "E5", "I2": "I6"})
    state["standing"][PR]["fire"] = False
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 1, "target": 1})
    assert bonuses(events) == [("S1", M.BONUS_PARAPET), ("I1", M.BONUS_WOODS)]
    assert roll_event(events)["args"]["attacker_total"] == 2 and roll_event(events)["args"]["target_total"] == 2
    new, events = run(engine, state, "FIRE S1 AT I2", rolls={"attacker": 1, "target": 1})
    assert bonuses(events) == [("S1", M.BONUS_PARAPET), ("I2", M.BONUS_ROCKS)]
    # riders get nothing from a parapet
    state = position({"S1": "F9", "CH1": "H7"})
    new, events = run(engine, state, "FIRE S1 AT CH1", rolls={"attacker": 1, "target": 1})
    assert bonuses(events) == []


def test_bonus_cavalry_in_melee(engine):
    """"La cavalerie dans la lutte au corps à corps : 1 point"."""
    state = position({"T1": "F7", "S1": "F8"}, side=PR)
    state["standing"][LC]["fire"] = False  # S1 defends, then does not attack T1 in its turn's fire
    new, events = run(engine, state, "MELEE T1 AT S1", rolls={"attacker": 2, "target": 2})
    assert bonuses(events) == [("T1", M.BONUS_CAVALRY)]
    r = roll_event(events)["args"]
    assert (r["attacker_total"], r["target_total"]) == (3, 2)
    # a chief shooting at range is not in melee
    state = position({"CH1": "F6", "S1": "F9"}, side=PR)
    new, events = run(engine, state, "FIRE CH1 AT S1", rolls={"attacker": 2, "target": 2})
    assert bonuses(events) == []


def test_the_sheets_arithmetic_two_plus_one_three_plus_one_five_plus_one(engine):
    """"2 + 1 = 3", "3 + 1 = 4", "5 + 1 = 6" — "Se souvenir que : ce sont les totaux qui décident".
    A soldier on a parapet shooting at a tomahawk rider (who cannot answer at range)."""
    state = position({"S1": "G7", "T1": "J7"})
    outcomes = {}
    for die in (2, 3, 5):
        new, events = run(engine, state, "FIRE S1 AT T1", rolls={"attacker": die})
        r = roll_event(events)["args"]
        outcomes[die] = (r["attacker_die"], r["attacker_bonus"], r["attacker_total"], result_event(events)["msg"])
    assert outcomes[2] == (2, 1, 3, M.ALONE_MISS)  # 2 + 1 = 3: still a miss
    assert outcomes[3] == (3, 1, 4, M.ALONE_BACK)  # 3 + 1 = 4: a miss turned into a push-back
    assert outcomes[5] == (5, 1, 6, M.ALONE_KILL)  # 5 + 1 = 6: a push-back turned into a kill
    # the same 5 from open ground only drives back
    new, events = run(engine, position({"S1": "G8", "T1": "J8"}), "FIRE S1 AT T1", rolls={"attacker": 5})
    assert result_event(events)["msg"] == M.ALONE_BACK


def test_every_duel_shows_both_dice_bonus_points_totals_and_result(engine):
    from pbem.engines.base import event_text

    state = position({"S1": "G7", "I1": "E5"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 4, "target": 2})
    lines = [event_text(e) for e in events]
    assert "Fire: S1 (G7) at I1 (E5), range 2." in lines
    assert "S1: +1, foot on a parapet of the camp." in lines
    assert "I1: +1, foot in the woods." in lines
    assert "S1 rolls 4 + 1 = 5; I1 rolls 2 + 1 = 3." in lines
    assert "S1 wins with 5: I1 falls back from E5 to D4." in lines


def test_dice_labels_are_structural(engine):
    """Each die is drawn under a label naming the turn, the shooter, its shot and its target."""
    from .conftest import FixedDice

    state = position({"S1": "F9", "C": "G9", "I1": "F6"})
    d = FixedDice([1, 1, 1, 1, 1, 1])
    parsed = engine.parse_orders(state, LC, "FIRE S1 AT I1\nFIRE C AT I1\nFIRE C AT I1")
    engine.resolve(state, {LC: parsed.orders}, d)
    assert d.seen[:4] == ["T1.LC S1 shot 1 at I1 attacker", "T1.LC S1 shot 1 at I1 target",
                          "T1.LC C shot 1 at I1 attacker", "T1.LC C shot 2 at I1 attacker"]


def test_the_winners_order_names_the_retreat_square_in_either_language(engine):
    """"le vainqueur décidera sur laquelle le vaincu devra se replier": RETREAT / REPLI on the
    attack line, several squares meaning the first that is open when the duel is fought."""
    state = position({"S1": "F9", "I1": "E6"})  # away from F9: D5 D6 E5(woods)
    for text in ("FIRE S1 AT I1 RETREAT E5", "TIRER S1 SUR I1 REPLI E5", "tirer s1 sur i1 recul e5",
                 "FIRE S1 AT I1 RETREAT TO E5", "TIRER S1 SUR I1 REPLI EN E5"):
        result = engine.parse_orders(state, LC, text)
        assert result.ok and result.orders["attacks"][0]["retreat"] == ["E5"]
    assert engine.parse_orders(state, LC, "TIRER S1 SUR I1 REPLI E5").canonical == "TIRER S1 SUR I1 REPLI E5"
    new, events = run(engine, state, "FIRE S1 AT I1 RETREAT E5 D6", rolls={"attacker": 5, "target": 1})
    assert new["pieces"]["I1"] == "E5"  # into the woods, because the winner says so


def test_advance_and_retreat_words_go_together_in_any_order(engine):
    state = position({"T1": "F6", "S1": "F7"}, side=PR)
    for text in ("MELEE T1 AT S1 ADVANCE RETREAT G8", "MELEE T1 AT S1 RETREAT G8 ADVANCE"):
        result = engine.parse_orders(state, PR, text)
        assert result.ok and result.canonical == "MELEE T1 AT S1 ADVANCE RETREAT G8"
    state["standing"][LC]["fire"] = False
    new, events = run(engine, state, "MÊLÉE T1 SUR S1 AVANCER REPLI G8", rolls=[4, 1])
    assert new["pieces"]["S1"] == "G8" and new["pieces"]["T1"] == "F7"


def test_a_retreat_square_no_longer_open_falls_back_to_the_engines_choice(engine):
    """With one piece a square (option stacking=one), S1 falling back into G8 closes it to S2,
    whom the second order also sends there: the engine chooses for the winner and says so."""
    state = position({"T1": "F6", "S1": "F7", "T2": "H6", "S2": "H7"}, side=PR, options={"stacking": "one"})
    state["standing"][LC]["fire"] = False
    result = engine.parse_orders(state, PR, "MELEE T1 AT S1 RETREAT G8\nMELEE T2 AT S2 RETREAT G8")
    assert result.ok
    new, events = run(engine, state, "MELEE T1 AT S1 RETREAT G8\nMELEE T2 AT S2 RETREAT G8", rolls=[4, 1, 4, 1])
    refused = [e for e in events if e["msg"] == M.RETREAT_REFUSED]
    assert [(e["args"]["loser"], e["args"]["squares"], e["args"]["to_sq"]) for e in refused] == [("S2", "G8", "H8")]
    assert (new["pieces"]["S1"], new["pieces"]["S2"]) == ("G8", "H8")


def test_a_retreat_word_counts_only_if_the_attacker_wins(engine):
    """A RETREAT word is the attacker's choice for when it wins; if the defender wins, the
    engine chooses the attacker's square for it."""
    state = position({"T1": "F6", "S1": "F7"}, side=PR)
    state["standing"][LC]["fire"] = False
    new, events = run(engine, state, "MELEE T1 AT S1 RETREAT G8", rolls=[1, 5])
    assert new["pieces"]["T1"] == "F5" and new["pieces"]["S1"] == "F7"  # E5 is woods
    assert M.RETREAT_REFUSED not in [e["msg"] for e in events]


def test_a_retreat_word_for_a_target_with_nowhere_to_go_is_refused(engine):
    state = position({"T1": "C9", "S1": "C10"}, side=PR)
    assert [e.reason for e in engine.parse_orders(state, PR, "MELEE T1 AT S1 RETREAT B10").errors] == [
        M.E_RETREAT_NONE]
    assert [e.reason for e in engine.parse_orders(state, PR, "MELEE T1 AT S1 RETREAT").errors] == [
        M.E_RETREAT_FORM]
