"""Dealing, Custer in the deal, the first discard, the first player, verifying the deal."""

import pytest

from pbem.dice import Dice
from pbem.engines.rummy import cards as C
from pbem.engines.rummy import rules as R

from .helpers import ENGINE, FixedDice, build, play, texts


@pytest.mark.parametrize("scenario,size", [("two", 12), ("three", 11), ("four", 10), ("teams", 10)])
def test_dealing_12_11_10_cards(scenario, size):
    """"12 cards per player – 2-player game, 11 cards per player – 3-player game,
    10 cards per player – 4-player game"; the top card of the deck begins the discard pile."""
    for seed in range(8):
        st = ENGINE.setup(scenario, {}, Dice(f"{seed:064x}"))
        roles = st["roles"]
        assert all(len(st["hands"][p]) == size for p in roles)
        assert len(st["discard"]) == 1 and st["discard"][0] != C.CUSTER
        on_table = sum(1 for p in roles for g in st["tables"][p] if g["key"] == "custer")
        assert len(st["deck"]) == 102 - size * len(roles) - 1 - on_table
        assert ENGINE.validate_state(st) == []
        assert ENGINE.phase(st).id == "H1.T1" and ENGINE.phase(st).awaited == ("p1",)


def test_custer_dealt_is_played_at_once_and_replaced():
    """"If a player receives the Lt. Col. Custer Card in their hand they must play it
    face up immediately to their table! That player will then draw another card"."""
    order = list(C.ORDER)
    order.remove(C.CUSTER)
    order.insert(1, C.CUSTER)  # the second card dealt: p2's first
    st = ENGINE.setup("two", {}, FixedDice({"hand 1 deal": order}))
    assert C.CUSTER not in st["hands"]["p2"] and len(st["hands"]["p2"]) == 12
    assert [g["key"] for g in st["tables"]["p2"]] == ["custer"]
    assert st["deck"][0] != order[24]  # the card after the deal went to p2
    assert order[24] in st["hands"]["p2"]


def test_custer_turned_up_as_first_discard_goes_back_and_deck_is_reshuffled():
    """"If Lt. Col George Custer is drawn to begin the Discard Pile, place him back in the
    Draw Deck, reshuffle the deck, and turn over another card"."""
    order = list(C.ORDER)
    order.remove(C.CUSTER)
    order.insert(24, C.CUSTER)  # the first card after a two-player deal
    dice = FixedDice({"hand 1 deal": order})
    st = ENGINE.setup("two", {}, dice)
    assert st["discard"][0] != C.CUSTER
    assert C.CUSTER in st["deck"]
    assert st["deal"]["labels"] == ["hand 1 deal", "hand 1 reshuffle 1"]
    # the reshuffle is of Custer on top of the rest of the deck, under its own label
    expected = Dice(dice.seed_hex).shuffle([C.CUSTER] + order[25:], "hand 1 reshuffle 1")
    assert st["deal"]["decks"][1] == expected
    assert st["discard"] == expected[:1] and st["deck"] == expected[1:]


def test_first_player_and_rotation_between_hands():
    """"The youngest player will start a game ... In two-player games, the opposite player
    should start the next hand. In multiplayer games, rotate the privilege of playing next
    hand clockwise". Seat p1 is the youngest player; clockwise is p1, p2, p3, p4."""
    for scenario, firsts in [("two", ["p1", "p2", "p1"]), ("three", ["p1", "p2", "p3", "p1"]), ("four", ["p1", "p2", "p3", "p4", "p1"])]:
        st = ENGINE.setup(scenario, {}, Dice("00" * 32))
        seen = []
        for h in range(len(firsts)):
            seen.append(st["first"])
            assert st["player"] == st["first"]
            st = dict(st, totals={p: 0 for p in st["roles"]})
            events = []
            R.end_hand(st, None, Dice(f"{h + 1:064x}"), "test", events)
        assert seen == firsts


def test_deal_can_be_verified_after_the_hand():
    """The dice commitment covers the shuffle: the deal's seed stays secret while the hand
    is played; when it ends the engine reveals the deck order and the labels, and anyone
    can recompute the shuffle from the published seed and check the dealt hash."""
    seed = "5a" * 32
    st = ENGINE.setup("two", {}, Dice(seed))
    assert ENGINE.secret_seeds(st) == ["setup"]
    deal_order = Dice(seed).shuffle(list(C.ORDER), "hand 1 deal")
    assert st["deal"]["decks"][0] == deal_order
    # the hand ends when p1 goes out
    st = build(hands={"p1": ["brave"], "p2": ["scout"]})
    st["deal"] = {"hand": 1, "phase": "H0.T9", "labels": ["hand 1 deal"], "decks": [deal_order]}
    new, events, _ = play(st, "DISCARD Brave", seed="77" * 32)
    reveal = [e for e in events if e["type"] == "deal_reveal"]
    assert len(reveal) == 1 and "to" not in reveal[0]
    args = reveal[0]["args"]
    assert args["phase"] == "H0.T9" and args["decks"] == [deal_order]
    assert args["sha256"] == [R.deck_hash(deal_order)]
    # the next hand's deal is committed to (hash) but not shown, and its seed is now the secret one
    deal_events = [e for e in events if e["type"] == "deal"]
    assert deal_events[0]["args"]["sha256"] == R.deck_hash(new["deal"]["decks"][0])
    assert ENGINE.secret_seeds(new) == ["H1.T5b"]
    assert new["deal"]["decks"][0] == Dice("77" * 32).shuffle(list(C.ORDER), "hand 2 deal")
    assert "Hand 2" in " ".join(texts(events))
