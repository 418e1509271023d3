"""Hidden information: each report shows its own hand; others see only hand sizes, the
tables and the discard pile's top card (the pile is covered: only the player of a Cavalry
Special looks through it, while picking); nobody sees the deck's order."""

import re

import pytest

from pbem.dice import Dice
from pbem.engines.base import MODERATOR
from pbem.engines.rummy import cards as C

from .helpers import ENGINE, build, play
from .render import report

SCENARIOS = ["two", "three", "four", "teams"]
TOKEN = re.compile(r"[A-Za-z][\w-]*")


def _games(scenario, phases, seed=1):
    """(state after, events, phase id) for each phase of a bot game."""
    st = ENGINE.setup(scenario, {}, Dice(f"{seed:064x}"))
    yield st, [], "setup"
    for i in range(phases):
        ph = ENGINE.phase(st)
        if not ph.awaited:
            return
        p = ph.awaited[0]
        res = ENGINE.parse_orders(st, p, ENGINE.bot_orders(st, p, Dice(f"{seed * 7919 + i:064x}")))
        st, events = ENGINE.resolve(st, {p: res.orders}, Dice(f"{seed * 104729 + i:064x}"))
        yield st, events, ph.id


def _ids(ev):
    args = ev["args"]
    return ([args["id"]] if isinstance(args.get("id"), str) else []) + list(args.get("ids") or [])


def _pattern(words):
    words = sorted(set(words), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w-])") if words else None


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_report_shows_another_players_cards_or_the_deck(scenario):
    """Every role's report (mail text, HTML, JSON attachment), after every phase of a
    bot game, names no card id held by another player or lying in the deck, and no card
    name found only there. (When a hand ends, the events of the finished hand, the revealed
    deal among them, speak of cards now shuffled into the new deck: they are left out here;
    the reveal is tested in test_dealing.)"""
    for st, events, _ in _games(scenario, 100):
        # when a hand ended in this phase, the events before the new deal speak of cards
        # since shuffled back into the deck: they tell nothing of the new hand
        deal = [i for i, e in enumerate(events) if e["type"] == "deal"]
        events = events[deal[0]:] if deal else events
        # cards this phase's public events name (a discard, a raid, the top card taken) are known to all
        public = {c for e in events if "to" not in e for c in _ids(e)}
        for role in st["roles"] + [None]:
            own = [] if role is None else st["hands"][role]
            # the pile under its top is covered, but for the player looking through it this phase
            looked = {c for e in events if e["type"] == "pile" and role in e.get("to", ()) for c in _ids(e)}
            shown = set(own) | set(st["discard"][-1:]) | public | looked | {
                c for p in st["roles"] for g in st["tables"][p] for c in g["cards"] + g.get("on", []) + ([g["wild"]] if g.get("wild") else [])}
            secret = [c for p in st["roles"] if p != role for c in st["hands"][p] if c not in public] + st["deck"] + \
                [c for c in st["discard"][:-1] if c not in public | looked]
            assert not shown & set(secret)
            secret_ids = set(secret)
            names = {C.name(c) for c in secret} - {C.name(c) for c in shown}
            for part, text in report(st, events, role).items():
                leaked = set(TOKEN.findall(text)) & secret_ids
                assert not leaked, (role, part, leaked)
                for name in names:
                    if name in text:
                        found = _pattern([name]).search(text)
                        assert not found, (role, part, found.group(0))


def _scramble(st, role, seed):
    """The same game as ``role`` knows it: the cards ``role`` cannot see (the other hands,
    the deck, the discard pile under its top card) dealt out again."""
    t = st["turn"]
    public = {t["taken"]}
    others = [p for p in st["roles"] if p != role]
    looking = role == st["player"] and t.get("pick_pending")
    covered = [] if looking else st["discard"][:-1]
    pool = list(st["deck"]) + covered + [c for p in others for c in st["hands"][p] if c not in public]
    pool = Dice(f"{seed:064x}").shuffle(pool, "scramble")
    new = dict(st, hands=dict(st["hands"]), deck=pool[:len(st["deck"])])
    rest = pool[len(st["deck"]):]
    new["discard"] = rest[:len(covered)] + (st["discard"][len(covered):])
    rest = rest[len(covered):]
    for p in others:
        keep = [c for c in st["hands"][p] if c in public]
        n = len(st["hands"][p]) - len(keep)
        new["hands"][p] = keep + rest[:n]
        rest = rest[n:]
    if role is None or role != st["player"]:
        new["turn"] = dict(t, drawn=None)
    return new


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_view_does_not_change_when_the_unseen_cards_change(scenario):
    """The strongest form of the rule: deal the cards a role cannot see (the other hands
    and the deck) out again, and that role's view and picture stay the same."""
    for n, (st, events, _) in enumerate(_games(scenario, 100, seed=5)):
        for role in st["roles"] + [None]:
            other = _scramble(st, role, n)
            if role is not None and role != st["player"]:
                st_cmp = dict(st, turn=dict(st["turn"], drawn=None))
            else:
                st_cmp = st
            assert ENGINE.view(other, role) == ENGINE.view(st_cmp, role)
            if n == 60:
                assert ENGINE.picture(ENGINE.view(other, role)) == ENGINE.picture(ENGINE.view(st, role))


def test_observer_moderator_and_public_state():
    st = ENGINE.setup("three", {}, Dice("0c" * 32))
    assert "hand" not in ENGINE.view(st, None) and "hands" not in ENGINE.view(st, None) and "deck" not in ENGINE.view(st, None)
    mod = ENGINE.view(st, MODERATOR)
    assert [c["id"] for c in mod["deck"]] == st["deck"]
    assert {p: [c["id"] for c in h] for p, h in mod["hands"].items()} == {p: C.sort_cards(h) for p, h in st["hands"].items()}
    assert ENGINE.public_state(st) is None
    assert ENGINE.reveals_orders is False  # orders name cards still held


def test_the_card_drawn_is_told_to_its_drawer_alone():
    for st, events, _ in _games("four", 80, seed=3):
        for ev in events:
            if ev["type"] in ("drawn", "hand", "skipped", "ignored"):
                assert ev.get("to") and len(ev["to"]) == 1
            if ev["type"] == "draw" and ev["args"].get("source") == "deck":
                assert "id" not in ev["args"] and "card" not in ev["args"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_discard_pile_is_covered_by_its_top_card_in_every_view(scenario):
    """"The Discard Pile will remain covered by the top card unless a player plays one of
    the support cards allowing them to select two cards from the discard pile": every view
    shows the top card and the pile's size; the player of that card alone, while picking,
    sees the whole pile; the moderator sees it always."""
    looked = 0
    for st, _, _ in _games(scenario, 150, seed=9):
        for role in st["roles"] + [None]:
            view = ENGINE.view(st, role)
            assert [c["id"] for c in view["discard"]] == st["discard"][-1:] and view["discard_size"] == len(st["discard"])
            assert "discard_pile" not in view
            picking = role == st["player"] and st["turn"]["pick_pending"]
            pile = view["this_turn"]["pile"]
            assert (pile is not None) == bool(picking)
            if picking:
                looked += 1
                assert [c["id"] for c in pile] == st["discard"]
        assert [c["id"] for c in ENGINE.view(st, MODERATOR)["discard_pile"]] == st["discard"]
    assert looked  # the bots played a Cavalry Special and looked


def test_the_pile_is_shown_to_the_cavalry_specials_player_alone():
    """Playing Bring Pack Mules shows its player the pile (the private event, the view, the
    report, the order template); no other role's report, picture or order template names a
    card under the top, before the pick or after it."""
    st = build("three", hands={"p1": ["mules", "brave", "brave"], "p2": ["village"], "p3": ["village"]},
               discard=["gall", "C-commander", "sabers", "scout"])
    under = {"Gall", "Co. C Commander", "Sabers"}
    st1, events1, _ = play(st, "PLAY Bring Pack Mules")
    st2, events2, _ = play(st1, "PICK Gall, Sabers\nDISCARD Brave")
    for state, events in ((st1, events1), (st2, events2)):
        for role in ("p2", "p3", None):
            parts = report(state, events, role)
            parts["template"] = ENGINE.order_template(state, role) if role else ""
            for part, text in parts.items():
                assert not {name for name in under if name in text}, (role, part)
            other = _scramble(state, role, 1)
            assert other["discard"][:-1] != state["discard"][:-1] or len(state["discard"]) < 3
            assert ENGINE.view(other, role) == ENGINE.view(state, role)
            assert ENGINE.picture(ENGINE.view(other, role)) == ENGINE.picture(ENGINE.view(state, role))
    mine = report(st1, events1, "p1")
    assert "You look through the discard pile (bottom to top): Gall, Co. C Commander, Sabers, Scout." in mine["text"]
    assert "You are looking through the discard pile (bottom to top): Gall, Co. C Commander, Sabers, Scout." in mine["text"]
    assert "Gall, Co. C Commander, Sabers, Scout" in ENGINE.order_template(st1, "p1")
    after = ENGINE.view(st2, "p1")  # covered again once picked
    assert after["this_turn"]["pile"] is None and [c["name"] for c in after["discard"]] == ["Brave"]


def test_the_orders_check_tells_nothing_of_the_covered_pile_or_the_deck():
    """Orders are checked against what their writer may see: the same orders get the same
    answer whatever lies under the pile's top card or in the deck (an answer that differed
    would let a player probe them by mail)."""
    hands = {"p1": ["mules", "brave", "brave", "hump"], "p2": ["village"]}
    with_gall = build(hands=hands, discard=["gall", "scout"], deck_top=["brave"], stage="draw")
    without = build(hands=hands, discard=["sabers", "scout"], deck_top=["crow-king"], stage="draw")
    for text in ("DRAW DECK\nPLAY Bring Pack Mules\nPICK Gall, Scout\nDISCARD Gall",
                 "DRAW DECK\nMELD Brave, Brave, Brave\nDISCARD Hump", "DRAW DECK\nPLAY Bring Pack Mules\nDISCARD Hump"):
        a, b = ENGINE.parse_orders(with_gall, "p1", text), ENGINE.parse_orders(without, "p1", text)
        assert (a.orders, a.canonical, [e.to_json() for e in a.errors], a.missing) == \
               (b.orders, b.canonical, [e.to_json() for e in b.errors], b.missing), text
