"""The draw phase, Custer drawn from the deck, and the draw-only mail."""

from pbem.engines.rummy import cards as C

from .helpers import ENGINE, build, errors, hand, play, table, texts


def test_draw_from_the_deck_or_take_the_top_discard():
    """"Each player MUST must start his turn by drawing one card from either the top of
    Draw Deck or the Discard Pile"."""
    st = build(hands={"p1": ["brave", "scout"], "p2": ["village"]}, stage="draw",
               discard=["C-guidon", "gall"], deck_top=["hump"])
    new, events, _ = play(st, "DRAW DECK\nDISCARD Brave")
    assert "hump" in hand(new, "p1") and new["deck"][0] != "hump"
    new, events, _ = play(st, "DRAW DISCARD\nDISCARD Brave")
    assert "gall" in hand(new, "p1") and [C.KIND_OF[c] for c in new["discard"]] == ["C-guidon", "brave"]
    assert "p1 takes Gall from the discard pile." in texts(events, "p2")


def test_draw_is_mandatory_before_anything_else():
    st = build(hands={"p1": ["brave", "scout"]}, stage="draw")
    assert any("draw" in r.lower() for r in ENGINE.parse_orders(st, "p1", "MELD Brave").missing)
    assert errors(st, "DRAW DECK\nDRAW DISCARD") == ["you have already drawn this turn"]


def test_custer_drawn_from_the_deck_is_played_at_once_with_a_redraw():
    """"If drawn from the draw deck, it is played immediately to the table and the player
    is allowed to redraw to obtain a new card"."""
    st = build(hands={"p1": ["brave", "scout"]}, stage="draw", deck_top=["custer", "gall"])
    new, events, _ = play(st, "DRAW DECK\nDISCARD drawn")
    assert table(new, "p1") == [("custer", ["custer"])]
    assert [C.KIND_OF[c] for c in new["discard"]] == ["gall"]  # the redraw is "the drawn card"
    public = texts(events, "p2")
    assert any("Custer" in t for t in public) and not any("Gall" in t and "draw" in t for t in public[:-1])


def test_custer_is_never_discarded():
    """"A player may discard any card except the Custer card" (he is never in a hand)."""
    st = build(hands={"p1": ["brave", "scout"]}, tables={"p1": [{"key": "custer", "cards": ["custer"]}]})
    assert errors(st, "DISCARD Custer") == ["you do not hold Lt. Col. Custer"]


def test_the_card_taken_from_the_discard_pile_may_be_discarded_at_once():
    """"A player may discard any card except the Custer card": the card just taken from the
    pile too. The house rule keep_taken_card forbids it (a common rummy convention)."""
    st = build(hands={"p1": ["brave", "scout"]}, stage="draw", discard=["gall"])
    assert errors(st, "DRAW DISCARD\nDISCARD Gall") == [] and errors(st, "DRAW DISCARD\nDISCARD drawn") == []
    st = build(hands={"p1": ["brave", "scout"]}, stage="draw", discard=["gall"], options={"keep_taken_card": True})
    reason = "you may not discard the card you took from the discard pile this turn (house rule keep_taken_card)"
    assert errors(st, "DRAW DISCARD\nDISCARD Gall") == [reason]
    assert errors(st, "DRAW DISCARD\nDISCARD drawn") == [reason]


def test_empty_discard_pile_means_drawing_from_the_deck():
    st = build(hands={"p1": ["brave", "scout"]}, stage="draw", discard=[])
    assert errors(st, "DRAW DISCARD\nDISCARD Brave") == ["the discard pile is empty: draw from the deck"]


def test_a_draw_only_mail_is_answered_at_once_privately_and_the_turn_waits():
    """By mail: a player may send just the draw; the server tells that player (alone) the
    card drawn and waits for the rest of the turn under a new phase id."""
    st = build(hands={"p1": ["brave", "scout"], "p2": ["village"]}, stage="draw", deck_top=["crazy-horse"])
    before = ENGINE.phase(st)
    assert before.awaited == ("p1",) and before.immediate and before.mode == "sequential" and before.deadline == "turn"
    new, events, _ = play(st, "DRAW DECK")
    after = ENGINE.phase(new)
    assert after.awaited == ("p1",) and after.id == before.id + "b"
    assert "You draw Crazy Horse." in texts(events, "p1")
    assert not any("Crazy Horse" in t for t in texts(events, "p2") + texts(events, None))
    new2, events2, _ = play(new, "PLAY Crazy Horse\nDISCARD Brave")
    assert ENGINE.phase(new2).awaited == ("p2",) and ENGINE.phase(new2).id == "H1.T6"
    assert table(new2, "p1") == [("chief", ["crazy-horse"])]


def test_the_action_phase_is_optional():
    """"II. ACTION PHASE – Optional every turn": a turn may be a draw and a discard and
    nothing between, even with melds in hand."""
    st = build(hands={"p1": ["brave", "brave", "brave", "scout"], "p2": ["village"]}, stage="draw", deck_top=["hump"])
    new, _, res = play(st, "DRAW DECK\nDISCARD drawn")
    assert res.errors == [] and table(new, "p1") == []
    assert hand(new, "p1") == ["brave", "brave", "brave", "scout"] and C.KIND_OF[new["discard"][-1]] == "hump"
    assert new["player"] == "p2" and new["turn"]["stage"] == "draw"
