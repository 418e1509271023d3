"""The order syntax: reading, errors with line numbers and suggestions, the canonical text."""

from pbem.dice import Dice
from pbem.engines.base import AMBIGUOUS, ILLEGAL, SYNTAX

from .helpers import ENGINE, build, group, play


def _parse(st, text, role=None):
    return ENGINE.parse_orders(st, role or st["player"], text)


def test_keywords_are_case_insensitive_and_orders_may_share_a_line():
    st = build(hands={"p1": ["brave", "brave", "brave", "gall", "hump"]}, stage="draw", discard=["scout"])
    res = _parse(st, "draw discard; meld brave, BRAVE, Braves\n# a comment\n\n play GALL ; discard hump.")
    assert res.errors == []
    assert res.canonical == "DRAW DISCARD\nMELD Brave, Brave, Brave\nPLAY Gall\nDISCARD Hump"
    assert res.orders == {"steps": [
        {"op": "draw", "from": "discard"}, {"op": "meld", "cards": ["brave"] * 3},
        {"op": "play", "cards": ["gall"], "on": None, "owner": None}, {"op": "discard", "cards": ["hump"]}]}


def test_card_names_as_players_write_them_with_counts():
    st = build(hands={"p1": ["C-trooper"] * 3 + ["bugler"] * 2 + ["garry-owen", "hump"]})
    assert _parse(st, "MELD 3 x C Trooper").canonical == "MELD Co. C Trooper, Co. C Trooper, Co. C Trooper"
    assert _parse(st, "meld co c troopers x3").canonical == "MELD Co. C Trooper, Co. C Trooper, Co. C Trooper"
    assert _parse(st, "MELD Trooper C, trooper c and company C trooper").errors == []
    assert _parse(st, "play garryowen").canonical == "PLAY Garry Owens"


def test_the_canonical_text_reads_back_to_the_same_orders():
    st = build(hands={"p1": ["gall", "coup-stick", "mules", "scout", "brave", "hump", "village"]},
               tables={"p1": [group("co-C", "C-trooper", "C-trooper", "C-guidon"), group("braves", "brave", "brave", "brave")],
                       "p2": [group("co-E", "E-trooper", "E-guidon", "E-commander")]},
               discard=["sabers", "crow-king"], stage="draw")
    text = ("take discard; PLAY Gall; play coup stick on gall; steal e guidon from P2; "
            "lay off scout on co c; play village on braves; discard hump")
    res = _parse(st, text)
    assert res.errors == [], [e.describe() for e in res.errors]
    again = _parse(st, res.canonical)
    assert again.orders == res.orders and again.canonical == res.canonical


def test_errors_name_the_line_the_reason_the_kind_and_a_suggestion():
    st = build(hands={"p1": ["C-trooper", "C-trooper", "C-guidon", "hump"]})
    res = _parse(st, "MELD Co. C Troper, Co. C Trooper, Co. C Guidon\nDRWA DECK\nPLAY Gall\nMELD Trooper, Guidon, Trooper")
    by_line = {e.line: e for e in res.errors}
    assert by_line[1].kind == SYNTAX and by_line[1].describe() == "unknown card Co. C Troper"
    assert by_line[1].describe_suggestion() == "did you mean Co. C Trooper?"
    assert by_line[2].kind == SYNTAX and by_line[2].describe_suggestion() == "did you mean DRAW?"
    assert by_line[3].kind == ILLEGAL and by_line[3].describe() == "you do not hold Gall"
    assert by_line[3].text == "PLAY Gall"
    assert by_line[4].kind == AMBIGUOUS and by_line[4].describe_suggestion() == "write it with its letter, e.g. Co. C Trooper"
    assert res.orders == {"steps": []}


def test_cards_still_to_be_drawn_are_written_drawn_or_named():
    """An order may name the card expected from the deck: it is checked once drawn (so is
    one that says ``drawn``); before the draw a card not held is refused at once."""
    st = build(hands={"p1": ["brave", "brave", "hump"]}, stage="draw")
    assert _parse(st, "DRAW DECK\nMELD Brave, Brave, Brave").errors == []
    res = _parse(st, "DRAW DECK\nMELD Brave, Brave, drawn\nDISCARD Hump")
    assert res.errors == [] and res.canonical == "DRAW DECK\nMELD Brave, Brave, drawn\nDISCARD Hump"
    st = build(hands={"p1": ["brave", "brave", "hump"]})
    assert [e.describe() for e in _parse(st, "MELD Brave, Brave, Brave").errors] == ["you do not hold Brave"]
    # a card whose every copy lies in sight cannot come from the deck: refused at once
    st = build(hands={"p1": ["brave", "hump"]}, tables={"p2": [{"key": "chief", "cards": ["gall"]}]}, stage="draw")
    assert [e.describe() for e in _parse(st, "DRAW DECK\nPLAY Gall").errors] == ["you do not hold Gall"]


def test_an_order_that_fails_on_the_drawn_card_is_skipped_and_told_privately():
    st = build(hands={"p1": ["brave", "brave", "hump"], "p2": ["scout"]}, stage="draw", deck_top=["gall"])
    new, events, _ = play(st, "DRAW DECK\nMELD Brave, Brave, drawn\nDISCARD Hump")
    private = [e for e in events if e["type"] == "skipped"]
    assert private and private[0]["to"] == ["p1"]
    assert new["player"] == "p2"
    assert len(new["hands"]["p1"]) == 3  # brave, brave, gall


def test_choices_follow_the_card_that_forces_them():
    st = build(hands={"p1": ["coup-stick", "sabers", "brave"]}, tables={"p1": [{"key": "chief", "cards": ["hump"]}]})
    (err,) = _parse(st, "STEAL Brave FROM p2").errors
    assert err.kind == ILLEGAL and err.describe() == "STEAL must come right after the PLAY of a Coup Stick"
    (err,) = _parse(st, "PLAY Sabers\nRAID p9 BRAVES").errors
    assert err.describe() == "there is no player p9" and err.line == 2


def test_not_your_turn():
    st = build(hands={"p1": ["brave"], "p2": ["brave"]})
    res = _parse(st, "DRAW DECK", role="p2")
    assert [e.describe() for e in res.errors] == ["it is not your turn: p1 is to play"]
    assert _parse(st, "# nothing", role="p2").errors == []


def test_order_template_parses_and_means_the_default():
    """The template sent with each report parses without error and stands for what the
    server would do: draw from the deck and discard the drawn card."""
    for scenario in ("two", "teams"):
        st = ENGINE.setup(scenario, {}, Dice("09" * 32))
        for i in range(30):
            for role in st["roles"]:
                res = _parse(st, ENGINE.order_template(st, role), role=role)
                assert res.errors == [] and res.missing == []
            p = st["player"]
            tmpl = _parse(st, ENGINE.order_template(st, p))
            a, _ = ENGINE.resolve(st, {p: tmpl.orders}, Dice("00" * 32))
            b, _ = ENGINE.resolve(st, {}, Dice("00" * 32))
            assert a == b
            st, _, _ = play(st, "DRAW DECK" if i % 2 else ENGINE.order_template(st, p), seed=f"{i:064x}")


def test_order_template_lists_the_hand_with_names_players_can_type():
    st = build(hands={"p1": ["C-trooper", "C-trooper", "hoka-hey"]}, stage="draw", discard=["gall"])
    tmpl = ENGINE.order_template(st, "p1")
    assert "# Your hand: Co. C Trooper x2, Hóka Héy" in tmpl
    assert "# Top of the discard pile: Gall" in tmpl
    assert _parse(st, "DRAW DECK\nMELD Co. C Trooper x2, drawn").errors == []


def test_resolve_does_not_change_its_input():
    st = ENGINE.setup("four", {}, Dice("0a" * 32))
    import json
    before = json.dumps(st, sort_keys=True)
    for i in range(40):
        p = st["player"]
        text = ENGINE.bot_orders(st, p, Dice(f"{i:064x}"))
        res = _parse(st, text)
        frozen = json.dumps(st, sort_keys=True)
        new, _ = ENGINE.resolve(st, {p: res.orders}, Dice(f"{i + 99:064x}"))
        assert json.dumps(st, sort_keys=True) == frozen
        st = new
    assert before != json.dumps(st, sort_keys=True)


def test_meld_what_i_drew_and_a_pick_of_their_own_read_back():
    """MELD WHAT I DREW (also 'MELD DRAWN CARDS IF POSSIBLE') and a PICK once the pile is
    shown are orders of their own, with a canonical text."""
    st = build(hands={"p1": ["reno", "brave", "hump"]})
    res = _parse(st, "PLAY Reno's Charge Repulsed\nmeld drawn cards if possible\nDISCARD Hump")
    assert res.errors == [] and res.canonical == "PLAY Reno's Charge Repulsed\nMELD WHAT I DREW\nDISCARD Hump"
    assert res.orders["steps"][1] == {"op": "meld_drawn"}
    assert [e.describe() for e in _parse(st, "PICK Gall").errors] == [
        "PICK must come right after the PLAY of Bring Pack Mules, Garry Owens or Custer's Last Stand"]
    st = build(hands={"p1": ["mules", "brave", "hump"]}, discard=["gall", "scout"])
    shown, _, _ = play(st, "PLAY Bring Pack Mules")
    res = _parse(shown, "pick gall; discard hump")
    assert res.errors == [] and res.canonical == "PICK Gall\nDISCARD Hump" and res.missing == []
