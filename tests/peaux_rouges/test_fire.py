"""Fire and melee: range, line of fire, the river, who fires when, and answering."""

from pbem.engines.peaux_rouges import messages as M

from .conftest import LC, PR, dice, position, run


def reasons(result):
    return [e.reason for e in result.errors]


def test_firearms_reach_three_squares(engine):
    """"Les armes à feu peuvent atteindre tout ennemi situé à 3 cases de distance du tireur"."""
    state = position({"S1": "F9", "CH1": "F6", "CH2": "F5"})
    assert engine.parse_orders(state, LC, "FIRE S1 AT CH1").ok
    result = engine.parse_orders(state, LC, "FIRE S1 AT CH2")
    assert reasons(result) == [M.E_OUT_OF_RANGE] and result.errors[0].args["range"] == 4


def test_tomahawks_reach_only_an_adjacent_square(engine):
    """"Les cavaliers indiens armés de haches « Tomahawks » ne peuvent atteindre que les adversaires situés sur une case adjacente"."""
    state = position({"T1": "F6", "S1": "F8", "S2": "G7"}, side=PR)
    assert reasons(engine.parse_orders(state, PR, "FIRE T1 AT S1")) == [M.E_TOMAHAWK_RANGE]
    assert engine.parse_orders(state, PR, "MELEE T1 AT S2").ok


def test_woods_or_rocks_between_shooter_and_target_block_the_line_of_fire(engine):
    """"Les combattants sont à couvert du feu de l'ennemi lorsqu'une case de rochers, bois s'interpose entre eux"."""
    state = position({"S1": "E7", "S2": "I8", "CH1": "E4", "CH2": "I5", "I1": "F5"})
    assert reasons(engine.parse_orders(state, LC, "FIRE S1 AT CH1")) == [M.E_BLOCKED]  # woods E5 between
    assert reasons(engine.parse_orders(state, LC, "FIRE S2 AT CH2")) == [M.E_BLOCKED]  # rocks I6 between
    assert engine.parse_orders(state, LC, "FIRE S1 AT I1").ok  # nothing between E7 and F5
    # a piece standing in the woods is not hidden by its own square
    state = position({"S1": "E7", "I1": "E5"})
    assert engine.parse_orders(state, LC, "FIRE S1 AT I1").ok


def test_line_of_fire_is_the_same_both_ways(engine):
    from pbem.engines.peaux_rouges.board import board_for

    board = board_for("little_big_horn")
    for a in range(0, board.size, 7):
        for b in range(0, board.size, 5):
            if 2 <= board.distance(a, b) <= 4:
                assert board.line_blocked(a, b) == board.line_blocked(b, a)
                assert board.fire_distance(a, b) == board.fire_distance(b, a)


def test_the_river_crossed_by_fire_counts_one_extra_square(engine):
    """"l'on peut tirer, par exemple par dessus la rivière ... en comptant celle-ci pour une case supplémentaire"."""
    state = position({"S1": "F5", "S2": "F4", "I1": "F2"})
    result = engine.parse_orders(state, LC, "FIRE S1 AT I1")
    assert reasons(result) == [M.E_OUT_OF_RANGE] and result.errors[0].args["range"] == 4
    new, events = run(engine, state, "FIRE S2 AT I1", rolls={"attacker": 1, "target": 1})
    duel = next(e for e in events if e["type"] == "duel")
    assert duel["msg"] == M.FIRE_RIVER and duel["args"]["range"] == 3


def test_melee_is_fought_first(engine):
    """"ceux qui sont au corps à corps auront priorité ... et seulement après, celui des ennemis qui se trouvent sur des cases plus [éloignées]"."""
    state = position({"S1": "F8", "S2": "D9", "I1": "F7", "I2": "D6"})
    state["standing"][PR]["fire"] = False
    new, events = run(engine, state, "FIRE S2 AT I2\nMELEE S1 AT I1", rolls=[1, 1, 1, 1])
    duels = [e for e in events if e["type"] == "duel"]
    assert [d["args"]["attacker"] for d in duels[:2]] == ["S1", "S2"]
    assert duels[0]["msg"] == M.MELEE
    assert M.MELEE_PHASE in [e["msg"] for e in events]


def test_fire_at_an_adjacent_enemy_is_melee(engine):
    state = position({"S1": "F8", "I1": "F7"})
    result = engine.parse_orders(state, LC, "FIRE S1 AT I1")
    assert result.ok and result.orders["attacks"][0]["melee"] is True
    assert result.canonical == "MELEE S1 AT I1"
    assert reasons(engine.parse_orders(position({"S1": "F8", "I1": "F6"}), LC, "MELEE S1 AT I1")) == [M.E_NOT_ADJACENT]


def test_melee_must_be_answered(engine):
    """"Il est seulement obligatoire de répondre à l'attaque ou au feu ennemi dans le cas du corps à corps"."""
    state = position({"S1": "F8", "I1": "F7"})
    state["standing"][PR]["answer"] = False
    new, events = run(engine, state, "MELEE S1 AT I1", rolls={"attacker": 2, "target": 3})
    roll = next(e for e in events if e["type"] == "roll")
    assert roll["msg"] == M.ROLL_DUEL and roll["args"]["target_die"] == 3


def test_fire_at_range_may_be_answered_or_held(engine):
    """"Lorsque le feu est ouvert à distance ... le joueur peut réserver le tir de son combattant"."""
    state = position({"S1": "F9", "I1": "F6"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls=[2, 5, 1])
    assert next(e for e in events if e["type"] == "roll")["msg"] == M.ROLL_DUEL  # answered by default
    state["standing"][PR]["answer"] = False
    new, events = run(engine, state, "FIRE S1 AT I1", rolls=[2, 1])
    assert M.NO_ANSWER_HELD in [e["msg"] for e in events]
    assert next(e for e in events if e["type"] == "roll")["msg"] == M.ROLL_ALONE
    # ... and the held piece keeps its shot for after the Long Knives' fire
    later = [e for e in events if e["type"] == "duel"]
    assert [d["args"]["attacker"] for d in later] == ["S1", "I1"]


def test_a_held_answer_can_be_set_per_piece(engine):
    state = position({"S1": "F9", "S2": "H9", "I1": "F6", "I2": "H6"})
    state["standing"][PR]["pieces"] = {"I2": False}
    new, events = run(engine, state, "FIRE S1 AT I1\nFIRE S2 AT I2", rolls=[1, 1, 1, 1, 1, 1])
    assert [e["args"]["target"] for e in events if e["msg"] == M.NO_ANSWER_HELD] == ["I2"]


def test_each_piece_fires_once_a_turn_custer_and_his_officers_twice(engine):
    """"Le Général Custer et ses officiers ... ont la faculté de tirer deux coups consécutifs à chaque tour"."""
    state = position({"S1": "F9", "C": "G9", "O1": "H9", "CH1": "F6", "CH2": "G6"})
    result = engine.parse_orders(state, LC, "FIRE S1 AT CH1\nFIRE S1 AT CH2")
    assert reasons(result) == [M.E_ORDERED_TWICE] and result.errors[0].args == {"name": "S1", "first": 1}
    assert engine.parse_orders(state, LC, "FIRE C AT CH1\nFIRE C AT CH2\nFIRE O1 AT CH2\nFIRE O1 AT CH2").ok
    assert reasons(engine.parse_orders(state, LC, "FIRE C AT CH1\nFIRE C AT CH2\nFIRE C AT CH1")) == [M.E_NO_SHOTS]


def test_a_target_answers_only_once(engine):
    """"plusieurs soldats peuvent tirer successivement [sur] le même ennemi; celui-ci ne pourra répondre qu'une fois"."""
    state = position({"S1": "F9", "S2": "G9", "CH1": "G6"})
    new, events = run(engine, state, "FIRE S1 AT CH1\nFIRE S2 AT CH1", rolls=[3, 3, 3])
    rolls = [e for e in events if e["type"] == "roll"]
    assert [r["msg"] for r in rolls] == [M.ROLL_DUEL, M.ROLL_ALONE]
    assert M.NO_ANSWER_ANSWERED in [e["msg"] for e in events]


def test_the_mover_names_targets_then_the_others_unfired_pieces_may_fire(engine):
    """"Une fois que tous les combattants d'un même joueur qui ont effectué le dernier mouvement auront tiré,
    les combattants de l'autre joueur qui n'auraient pas encore ouvert le feu, pourront tirer"."""
    state = position({"S1": "F9", "S2": "H8", "I1": "F6", "I2": "H6"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls=[1, 1, 2, 2])
    duels = [(e["args"]["attacker"], e["args"]["target"]) for e in events if e["type"] == "duel"]
    # I1 answered S1, so only I2 fires afterwards; it aims at the nearest (S2), which may answer
    assert duels == [("S1", "I1"), ("I2", "S2")]
    assert M.REPLY_PHASE_PR in [e["msg"] for e in events]
    state["standing"][PR]["fire"] = False
    new, events = run(engine, state, "FIRE S1 AT I1", rolls=[1, 1])
    assert [e["args"]["attacker"] for e in events if e["type"] == "duel"] == ["S1"]
    assert M.REPLY_HELD_PR in [e["msg"] for e in events]


def test_a_piece_that_has_fired_cannot_answer(engine):
    state = position({"S1": "F9", "I1": "F6", "I2": "G6"})
    new, events = run(engine, state, "FIRE S1 AT I1", rolls=[1, 1, 2])
    assert M.NO_ANSWER_SHOTS in [e["msg"] for e in events]  # I2's shot at S1 goes unanswered


def test_a_piece_that_moved_into_contact_must_fight(engine):
    """"ils devront obligatoirement s'arrêter sur toute case contiguë ... et engager la lutte"."""
    state = position({"S1": "F9", "I1": "F7", "I2": "H6"})
    result = engine.parse_orders(state, LC, "MOVE S1 F8\nFIRE S1 AT I2")
    assert reasons(result) == [M.E_MUST_MELEE]
    result = engine.parse_orders(state, LC, "MOVE S1 F8")
    assert result.ok and result.canonical == "MOVE S1 F8\nMELEE S1 AT I1"
    new, events = engine.resolve(state, {LC: {"moves": [{"piece": "S1", "to": "F8", "flag": False}],
                                              "attacks": [], "standing": []}}, dice("contact"))
    assert M.OBLIGED in [e["msg"] for e in events]


def test_several_pieces_fire_at_one_target_on_one_line(engine):
    """Issue 25: every order form takes a list of pieces where it makes sense; "FIRE S1, S2 AT
    CH1" is the two lines "FIRE S1 AT CH1" and "FIRE S2 AT CH1" ("plusieurs soldats peuvent tirer
    successivement [sur] le même ennemi"), in French as in English."""
    state = position({"S1": "F9", "S2": "G9", "CH1": "G6"})
    one_line = engine.parse_orders(state, LC, "FIRE S1, S2 AT CH1")
    assert one_line.ok, one_line.errors
    assert one_line.orders == engine.parse_orders(state, LC, "FIRE S1 AT CH1\nFIRE S2 AT CH1").orders
    assert engine.parse_orders(state, LC, "TIRER Soldat 1, Soldat 2 SUR CH1").orders == one_line.orders
    twice = engine.parse_orders(state, LC, "FIRE S1, S2 AT CH1\nFIRE S2 AT CH1")
    assert reasons(twice) == [M.E_ORDERED_TWICE] and twice.errors[0].line == 2 and twice.errors[0].args == {"name": "S2", "first": 1}


def test_the_river_counts_one_extra_square_at_a_ford_too(engine):
    """OBSTACLES PROTÉGÉANT DU FEU DE L'ENNEMI ¶2: "l'on peut tirer, par exemple par dessus la
    rivière, qu'elle soit ou non [guéable], en comptant celle-ci pour une case supplémentaire":
    fire across the ford C3 of the test board counts it one square more, as across the river."""
    state = position({"S1": "C5", "S2": "C4", "I1": "C2"})
    result = engine.parse_orders(state, LC, "FIRE S1 AT I1")
    assert reasons(result) == [M.E_OUT_OF_RANGE] and result.errors[0].args["range"] == 4
    new, events = run(engine, state, "FIRE S2 AT I1", rolls={"attacker": 1, "target": 1})
    duel = next(e for e in events if e["type"] == "duel")
    assert duel["msg"] == M.FIRE_RIVER and duel["args"]["range"] == 3


def test_holding_fire_does_not_protect_from_the_shooters_six_or_five_or_four(engine):
    """CES COMBATTANTS TIRENT LES PREMIERS ¶2: the player "peut réserver le tir de son combattant
    ..., ce qui n'empêchera pas que, si l'ennemi, en ouvrant le tir, a obtenu avec le dé le nombre
    suffisant de points (6), celui-ci l'élimine, ou peut le faire rétrograder (avec un 5 ou un 4)"."""
    state = position({"S1": "F9", "I1": "F6"})
    state["standing"][PR]["answer"] = False
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 6, "target": 1})
    assert M.NO_ANSWER_HELD in [e["msg"] for e in events]
    assert new["pieces"]["I1"] is None
    for die in (5, 4):
        new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": die, "target": 1})
        result = next(e for e in events if e["type"] == "result")
        assert result["args"]["loser"] == "I1" and result["args"]["result"] == "retreat"
        assert result["args"]["to_sq"] in ("E5", "F5", "G5")  # away from the shooter
    new, events = run(engine, state, "FIRE S1 AT I1", rolls={"attacker": 3, "target": 1})
    assert next(e for e in events if e["type"] == "result")["args"]["result"] != "retreat"
    assert new["pieces"]["I1"] == "F6"
