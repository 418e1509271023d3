"""Support cards: one a turn; draw two, pick two, Hóka Héy, Sabers."""

from pbem.engines.rummy import cards as C
from pbem.engines.rummy import coup_sticks
from pbem.engines.rummy import state as S

from pbem.dice import Dice

from .helpers import ENGINE, SEED, build, errors, group, hand, play, table, texts

B3 = ("brave", "brave", "brave")


def test_one_support_card_per_turn():
    """"EACH PLAYER MAY PLAY ONLY ONE SUPPORT CARD PER TURN"."""
    st = build(hands={"p1": ["luck", "mules", "brave", "brave"]}, discard=["gall", "hump"])
    assert errors(st, "PLAY Custer's Luck Gives Out\nPLAY Bring Pack Mules") == [
        "only one support card per turn (you played Custer's Luck Gives Out)"]


def test_draw_two_cards_that_may_be_played_at_once():
    """"The player of this card draws two extra cards into their hand immediately ... The
    cards drawn from the deck may be played this action phase!" By mail the two cards are
    told privately and the turn waits for the rest of the orders."""
    st = build(hands={"p1": ["reno", "brave", "brave", "hump", "crow-king"], "p2": ["scout"]}, deck_top=["brave", "gall"])
    new, events, _ = play(st, "PLAY Reno's Charge Repulsed")
    assert "You draw Brave, Gall." in texts(events, "p1")
    assert not any("Gall" in t for t in texts(events, "p2"))
    assert ENGINE.phase(new).awaited == ("p1",) and ENGINE.phase(new).id.endswith("c")
    assert table(new, "p1") == [("support", ["reno"])]  # "The Card stays on the player's table"
    new, _, _ = play(new, "MELD Brave, Brave, Brave\nPLAY Gall\nDISCARD Hump")
    assert table(new, "p1") == [("support", ["reno"]), ("braves", list(B3)), ("chief", ["gall"])]


def test_draw_two_redraws_past_custer():
    st = build(hands={"p1": ["luck", "brave"]}, deck_top=["custer", "gall", "hump"])
    new, events, _ = play(st, "PLAY Custer's Luck")
    assert hand(new, "p1") == ["brave", "gall", "hump"] and ("custer", ["custer"]) in table(new, "p1")


def test_pick_two_from_the_discard_pile_not_playable_this_phase():
    """"The player of this card immediately looks through the Discard Pile, picks any two
    cards, and places the cards in their hand. The chosen cards may NOT be played to the
    table in this same Action Phase, but one may be used as a discard"."""
    st = build(hands={"p1": ["garry-owen", "brave", "brave", "scout"]}, discard=["brave", "gall", "village", "hump"])
    new, events, res = play(st, "PLAY Garry Owens\nPICK Brave, Gall\nDISCARD Gall")
    assert res.canonical == "PLAY Garry Owens\nPICK Brave, Gall\nDISCARD Gall"
    assert hand(new, "p1") == ["brave", "brave", "brave", "scout"]
    assert [C.KIND_OF[c] for c in new["discard"]] == ["village", "hump", "gall"]
    # the orders check does not see under the pile's top: a picked card played at once is
    # refused when the orders are carried out
    new, events, _ = play(st, "PLAY Garry Owens\nPICK Brave, Gall\nMELD Brave, Brave, Brave")
    assert "Order not carried out (MELD Brave, Brave, Brave): Brave was picked from the discard pile this turn: " \
           "it may not be played before your next turn" in texts(events, "p1")
    # once the pile is shown (the card played without a PICK) the check sees it
    shown, _, _ = play(st, "PLAY Garry Owens")
    assert errors(shown, "PICK Brave, Gall\nMELD Brave, Brave, Brave") == [
        "Brave was picked from the discard pile this turn: it may not be played before your next turn"]
    assert errors(shown, "PICK Sabers") == ["there is no Sabers in the discard pile"]
    assert errors(shown, "DISCARD Scout") == ["look through the discard pile and PICK your cards before you discard"]


def test_pick_two_waits_for_the_pick_and_by_default_takes_the_two_most_valuable_cards():
    """Played without a PICK, the card shows its player the pile and the turn waits; if no
    PICK comes by the deadline the server takes the two most valuable cards and discards."""
    st = build(hands={"p1": ["last-stand", "brave"]}, discard=["brave", "C-commander", "village", "sitting-bull", "scout"])
    new, events, _ = play(st, "PLAY Custer's Last Stand")
    assert ENGINE.phase(new).awaited == ("p1",) and new["turn"]["pick_pending"]
    assert ENGINE.parse_orders(new, "p1", "DISCARD Brave").missing  # the PICK is still wanted
    template = ENGINE.parse_orders(new, "p1", ENGINE.order_template(new, "p1"))
    assert template.errors == [] and template.canonical == "PICK Sitting Bull, Co. C Commander\nDISCARD Brave"
    after, events = ENGINE.resolve(new, {}, Dice(SEED))
    assert hand(after, "p1") == ["C-commander", "sitting-bull"] and ENGINE.phase(after).awaited == ("p2",)
    assert "p1 sent no more orders in time: the server picked the two most valuable cards of the discard pile and discarded for them." \
        in texts(events, "p2")


def test_hoka_hey_goes_out_by_discarding_one_or_two_cards():
    """"The player of this card immediately 'goes out' and ends the hand by discarding
    either one OR TWO cards to the Discard Pile"; it is played only by "the player eligible
    to ... immediately discard one or two cards to end the hand"."""
    st = build(hands={"p1": ["hoka-hey", "brave", "gall"], "p2": ["scout"]})
    new, events, res = play(st, "PLAY Hoka Hey\nDISCARD Brave, Gall")
    assert res.canonical == "PLAY Hóka Héy\nDISCARD Brave, Gall"
    assert new["hand_no"] == 2 and new["scores"][0]["out"] == "p1"
    assert new["scores"][0]["points"]["p1"] == 1 + 5  # the Hóka Héy card on the table, the bonus card
    st = build(hands={"p1": ["hoka-hey", "brave", "gall", "hump"]})
    assert errors(st, "PLAY Hoka Hey") == [
        "Hóka Héy is played only when you can then go out by discarding your last one or two cards (you would hold 3)"]
    st = build(hands={"p1": ["hoka-hey", "brave"]})
    new, events, _ = play(st, "PLAY Hoka Hey")  # the discard follows by itself
    assert new["scores"][0]["out"] == "p1"


def test_sabers_remove_up_to_three_braves_from_each_opponents_table():
    """"The player of this card immediately REMOVES up to three Braves (not Chiefs) from
    EACH opponents' scoring table and puts them in the Discard Pile"."""
    st = build("three", hands={"p1": ["sabers", "hump"]}, tables={
        "p1": [group("braves", *B3)],
        "p2": [group("braves", *B3, "brave"), {"key": "chief", "cards": ["gall"]}],
        "p3": [group("braves", "brave", "brave")]})
    new, events, _ = play(st, "PLAY Sabers")
    assert table(new, "p1") == [("braves", list(B3)), ("support", ["sabers"])]
    assert table(new, "p2") == [("braves", ["brave"]), ("chief", ["gall"])]
    assert table(new, "p3") == []
    assert [C.KIND_OF[c] for c in new["discard"]].count("brave") == 5


def test_sabers_raid_a_braves_village_meld_leaving_a_lone_village_worth_one():
    """"A meld of three Braves and a Village is not protected from this card ... The
    VILLAGE will remain on the opponents table, unable to collect or join any other cards
    for the remainder of the hand; empty. But does score one point at Scoring"."""
    bv = {"key": "bv", "cards": ["brave", "brave", "brave", "village"]}
    st = build(hands={"p1": ["sabers", "hump", "village"]}, tables={"p2": [bv, group("braves", *B3)]})
    new, events, _ = play(st, "PLAY Sabers")  # by default the locked meld is raided first
    assert table(new, "p2") == [("lone", ["village"]), ("braves", list(B3))]
    assert S.group_points(new["tables"]["p2"][0]) == 1
    assert any("a lone Village worth 1 remains" in t for t in texts(events))
    new, events, res = play(st, "PLAY Sabers\nRAID p2 BRAVES")
    assert res.canonical == "PLAY Sabers\nRAID p2 BRAVES"
    assert table(new, "p2") == [("bv", ["brave", "brave", "brave", "village"])]
    # the lone Village takes nothing and is not stolen
    st = build(hands={"p1": ["village", "coup-stick", "brave"]}, tables={
        "p1": [{"key": "chief", "cards": ["hump"]}], "p2": [{"key": "lone", "cards": ["village"]}]})
    assert errors(st, "LAYOFF Village")[0].startswith("no meld of Villages")
    assert coup_sticks.stealable(st, "p2") == []


def test_support_cards_may_be_discarded_instead():
    """"Support cards do not have to be played and can be discarded during the Discard Phase"."""
    st = build(hands={"p1": ["sabers", "hump"]})
    new, _, _ = play(st, "DISCARD Sabers")
    assert C.KIND_OF[new["discard"][-1]] == "sabers"


def test_the_cavalry_special_stays_on_the_table_and_scores():
    """"This Special Card stays on the player's table for the remainder of the hand" (the
    Cavalry Special that picks two cards from the discard pile); it scores with the
    table (1, data/rummy/README.md)."""
    st = build(hands={"p1": ["mules", "brave", "scout"]}, discard=["gall", "hump"])
    new, _, _ = play(st, "PLAY Bring Pack Mules\nPICK Gall, Hump\nDISCARD Brave")
    assert table(new, "p1") == [("support", ["mules"])]
    assert S.group_points(new["tables"]["p1"][0]) == 1


def test_a_draw_two_that_takes_the_last_card_of_the_deck_ends_the_hand_after_the_turn():
    """"When a player draws the last card of the Draw Deck ... That player finishes his or
    her actions, normally, and then discards, and the hand is ended": the extra cards of a
    Native American Special count as drawing."""
    st = build(hands={"p1": ["luck", "brave", "scout"], "p2": ["village"]},
               tables={"p2": [{"key": "custer", "cards": ["custer"]}]})
    st["discard"].extend(st["deck"][2:])
    st["deck"] = st["deck"][:2]
    new, events, _ = play(st, "PLAY Custer's Luck Gives Out")
    assert new["deck"] == [] and new["hand_no"] == 1 and ENGINE.phase(new).awaited == ("p1",)
    new, events, _ = play(new, "DISCARD Brave")
    assert new["hand_no"] == 2 and new["scores"][0]["ended"] == "deck"
