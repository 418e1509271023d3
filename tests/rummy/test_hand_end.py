"""The discard that ends every turn, and the two ways a hand ends."""

from pbem.engines.rummy import cards as C

from .helpers import ENGINE, build, errors, play, texts


def test_every_turn_ends_with_a_discard():
    """"the player MUST end their turn by playing one card face up to the Discard Pile.
    Once a player discards, it is the next player's turn"."""
    st = build(hands={"p1": ["brave", "gall", "hump"], "p2": ["scout"]})
    new, _, _ = play(st, "PLAY Gall")
    assert new["player"] == "p1" and ENGINE.phase(new).awaited == ("p1",)
    new, _, _ = play(new, "DISCARD Brave")
    assert new["player"] == "p2" and new["turn"]["stage"] == "draw"
    assert errors(st, "DISCARD Brave\nPLAY Gall") == ["your turn ended with the discard: nothing more can be played"]
    assert errors(st, "DISCARD Brave, Hump") == ["discard exactly one card (one or two only after Hóka Héy)"]


def test_no_orders_by_the_deadline_draw_and_discard_the_drawn_card():
    """By mail: a player who sends nothing in time draws from the deck and discards the
    drawn card; everyone is told it was done for them."""
    st = build(hands={"p1": ["brave", "gall"], "p2": ["scout"]}, stage="draw", deck_top=["hump"])
    orders = ENGINE.default_orders(st, "p1")
    from pbem.dice import Dice
    new, events = ENGINE.resolve(st, {}, Dice("00" * 32))
    assert new["player"] == "p2" and C.KIND_OF[new["discard"][-1]] == "hump"
    public = texts(events, "p2")
    assert public[0] == "p1 sent no orders in time: the server drew from the deck and discarded the drawn card for them."
    new2, _ = ENGINE.resolve(st, {"p1": orders}, Dice("00" * 32))
    assert new2 == new
    # at the play step: the drawn card goes, or the first card if the drawn one was played
    st = build(hands={"p1": ["brave", "gall", "hump"]}, drawn="gall")
    new, events = ENGINE.resolve(st, {}, Dice("00" * 32))
    assert C.KIND_OF[new["discard"][-1]] == "gall"
    assert "p1 sent no more orders in time: the server discarded for them." in texts(events, "p2")


def test_the_last_card_of_the_deck_ends_the_hand_after_that_turn():
    """"When a player draws the last card of the Draw Deck ... That player finishes his or
    her actions, normally, and then discards, and the hand is ended"."""
    st = build(hands={"p1": ["brave", "gall", "hump"], "p2": ["scout"]}, stage="draw",
               tables={"p2": [{"key": "custer", "cards": ["custer"]}]})
    st["discard"].extend(st["deck"][1:])
    st["deck"] = st["deck"][:1]
    new, events, _ = play(st, "DRAW DECK")
    assert new["hand_no"] == 1 and "p1 has drawn the last card of the deck: the hand ends after this turn." in texts(events)
    new, events, _ = play(new, "PLAY Gall\nDISCARD Brave")
    assert new["hand_no"] == 2 and new["scores"][0]["ended"] == "deck" and new["scores"][0]["out"] is None
    assert new["scores"][0]["points"] == {"p1": 2, "p2": -20}  # no bonus card: nobody went out
    assert "Hand 1 ends: the deck is exhausted." in texts(events)


def test_a_player_goes_out_by_discarding_the_last_card():
    """"A player goes out by discarding their last card"."""
    st = build(hands={"p1": ["brave", "gall"], "p2": ["scout"]})
    new, events, _ = play(st, "PLAY Gall\nDISCARD Brave")
    assert new["scores"][0]["out"] == "p1" and new["scores"][0]["points"]["p1"] == 2 + 5
    assert "Hand 1 ends: p1 went out." in texts(events)


def test_phase_ids_are_unique_and_name_hand_turn_and_step():
    from pbem.dice import Dice
    st = ENGINE.setup("three", {}, Dice("01" * 32))
    seen = set()
    for i in range(60):
        ph = ENGINE.phase(st)
        assert ph.id not in seen
        seen.add(ph.id)
        text = "DRAW DECK" if i % 3 == 0 else ENGINE.order_template(st, ph.awaited[0])
        st, _, _ = play(st, text, seed=f"{i:064x}")
    assert {i.split(".")[0] for i in seen} >= {"H1"}


def test_play_moves_clockwise_round_the_table():
    """"Play moves in clockwise order"; "Once a player discards, it is the next player's
    turn. Play continues around the table in a clockwise direction until the hand ends".
    Clockwise is p1, p2, p3, then p1 again."""
    st = build("three", hands={"p1": ["brave", "gall"], "p2": ["scout", "hump"], "p3": ["village", "crow-king"]})
    seen = []
    for _ in range(4):
        seen.append(st["player"])
        st, _, _ = play(st, "DRAW DECK\nDISCARD drawn" if st["turn"]["stage"] == "draw" else "DISCARD drawn"
                        if st["turn"]["drawn"] else f"DISCARD {C.name(C.KIND_OF[st['hands'][st['player']][0]])}")
    assert seen == ["p1", "p2", "p3", "p1"] and st["hand_no"] == 1
