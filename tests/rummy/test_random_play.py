"""Seeded random play: bots play 500 complete games for each player count and for the
team variant. No exception, no stuck turn, every order a bot sends parses cleanly, the
102 cards are all accounted for after every phase (hands, tables, deck, discard pile),
and every hand's scores match a recount from the tables as they stood.

Speed: the 500-game runs play to an agreed target (the rules let players agree their own)
of 60 points with two players, 50 with three, 40 with four (about 40% of the rules'
targets) and 60 for teams (two players' scores added), which makes each game three or
four hands; a
further run plays games to the rules' own targets (150, 125, 100, and 100 for teams). The runs are split in
chunks so pytest-xdist spreads them."""

import hashlib
from collections import Counter

import pytest

from pbem.dice import Dice
from pbem.engines.rummy import cards as C

from .helpers import ENGINE

SCENARIOS = ["two", "three", "four", "teams"]
GAMES = 500
CHUNK = 125
BULK_TARGETS = {"two": 60, "three": 50, "four": 40, "teams": 60}
FULL_GAMES = 30
MAX_PHASES = 20_000
EVENTS_EXPECTED = ["deal", "custer", "draw", "drawn", "meld", "layoff", "wild", "lock", "chief",
                   "coup_stick", "steal", "sundance", "staff", "escape", "support", "raid", "discard", "deck_out",
                   "hand_end", "score", "deal_reveal", "game_end", "waiting", "pile", "pick", "picked", "pick_waits",
                   "meld_drawn"]


def seed(*parts) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def recount(scores: dict) -> dict[str, int]:
    """Each player's points for a finished hand, recounted from its tables by the rules as
    the data README states them, independently of the engine's scoring code."""
    out = {}
    for p, groups in scores["tables"].items():
        total = 0
        for g in groups:
            key, cards = g["key"], g["cards"]
            if key == "bv":
                assert sorted(C.category(c) for c in cards) == ["brave", "brave", "brave", "village"]
                total += 5
            elif key == "lone":
                assert [C.category(c) for c in cards] == ["village"]
                total += 1
            elif key == "scouts":
                total += 2 * len(cards)
            elif key == "custer":
                total += (0 if g["escaped"] else -20) + sum(C.points(c) for c in g["on"])
            else:
                total += sum(C.points(c) for c in cards + g.get("on", []))
                if g.get("wild"):
                    total += 1
        if scores["out"] == p:
            total += 5
        out[p] = total
    return out


def play_game(scenario: str, game: int, target: int | None, seen=None) -> dict:
    options = {"target": target} if target else {}
    st = ENGINE.setup(scenario, options, Dice(seed(scenario, game, "setup")))
    roles = st["roles"]
    hands_seen = 0
    for n in range(MAX_PHASES):
        ph = ENGINE.phase(st)
        if ENGINE.outcome(st):
            break
        assert ph.awaited == (st["player"],) and ph.mode == "sequential" and ph.immediate
        p = ph.awaited[0]
        text = ENGINE.bot_orders(st, p, Dice(seed(scenario, game, n, "bot")))
        res = ENGINE.parse_orders(st, p, text)
        assert res.errors == [], (scenario, game, ph.id, text, [(e.line, e.describe()) for e in res.errors])
        new, events = ENGINE.resolve(st, {p: res.orders}, Dice(seed(scenario, game, n)))
        if seen is not None:
            seen.update(e["type"] for e in events)
        assert ENGINE.phase(new).id != ph.id, f"stuck at {ph.id}"
        cards = sorted(new["deck"] + new["discard"] + [c for q in roles for c in new["hands"][q]] +
                       [c for q in roles for g in new["tables"][q]
                        for c in g["cards"] + g.get("on", []) + ([g["wild"]] if g.get("wild") else [])])
        assert cards == SORTED, (scenario, game, ph.id, "the 102 cards are not all accounted for")
        if len(new["scores"]) > hands_seen:
            hands_seen = len(new["scores"])
            last = new["scores"][-1]
            assert last["points"] == recount(last), (scenario, game, ph.id)
            assert new["totals"] == {q: sum(s["points"][q] for s in new["scores"]) for q in roles}
        st = new
    else:
        pytest.fail(f"{scenario} game {game} did not end in {MAX_PHASES} phases")
    out = ENGINE.outcome(st)
    sides = st["teams"] or [[q] for q in roles]
    totals = {tuple(s): sum(st["totals"][q] for q in s) for s in sides}
    best = max(totals.values())
    assert best >= st["target"] and list(totals.values()).count(best) == 1
    assert totals[next(tuple(s) for s in sides if out["winner"] in s)] == best
    return st


SORTED = sorted(C.ORDER)


@pytest.mark.parametrize("chunk", range(GAMES // CHUNK))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_bots_play_500_complete_games(scenario, chunk):
    hands, seen = 0, Counter()
    for game in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        hands += play_game(scenario, game, BULK_TARGETS[scenario], seen)["hand_no"]
    assert hands >= 2.5 * CHUNK  # games of several hands: the deal and the rotation are exercised
    # the bots reach every part of the rules
    assert set(EVENTS_EXPECTED) <= set(seen), set(EVENTS_EXPECTED) - set(seen)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_bots_play_complete_games_to_the_rules_targets(scenario):
    for game in range(FULL_GAMES):
        st = play_game(scenario, 10_000 + game, None)
        assert st["target"] == {"two": 150, "three": 125, "four": 100, "teams": 100}[scenario]


def test_random_play_is_reproducible():
    a = play_game("three", 7, BULK_TARGETS["three"])
    b = play_game("three", 7, BULK_TARGETS["three"])
    assert a == b
