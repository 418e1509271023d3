"""Little Bighorn Rummy: the state, and what every rule shares: seats and sides, the
groups on the tables and their points, the hand, the deck, the turn record.

State (plain JSON)::

    roles, teams (None or [[p1, p3], [p2, p4]]), scenario, target
    hand_no, turn_no, step, first (who began this hand), player (whose turn)
    hands {role: [card ids]}        secret: each role sees its own
    deck [card ids], deck[0] on top secret: nobody sees it
    discard [card ids], last on top covered: all see the top card, the pile only
                                    its Cavalry Special's player (pick_pending)
    tables {role: [group]}          public
    options {house rule: bool}      see options.py
    turn {stage draw|play, drawn, taken, support, picked, pick_pending, extra (a draw-two's cards),
          hoka, done, out}
    sundance (bool: the Sundance is on Sitting Bull this hand)
    gid (next group number), deal {hand, phase, labels, decks} (secret until the hand ends)
    scores [{hand, points {role: n}, detail, out, ended, tables (as they stood)}], totals {role: n}
    outcome (None or the outcome dict)

A table group: ``{"id": "g4", "key": k, "cards": [...]}`` with ``key`` one of
``co-C`` (a company; ``wild`` holds its Scout), ``staff``, ``scouts``, ``braves``,
``villages``, ``bv`` (three Braves and a Village, locked), ``lone`` (a raided
Village), ``chief`` (``on`` holds its Coup Stick or Sundance), ``custer`` (``on``
holds the Staff played on him, ``escaped``), ``support`` (the support cards played).
"""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.rummy import cards as C
from pbem.engines.rummy.messages import N_
from pbem.engines.rummy.options import rule_on

SET_KEYS = ("staff", "scouts", "braves", "villages")
KEY_LABEL = {"staff": "Staff", "scouts": "Scouts", "braves": "Braves", "villages": "Villages",
             "bv": "Braves/Village", "lone": N_("Raided Village"), "custer": "Custer", "support": N_("Support cards")}


class Illegal(Exception):
    """An order the rules forbid: ``msg`` is a message id, ``args`` its arguments.
    ``part`` names the choice line it belongs to (steal, pick, raid) if not the order itself."""

    def __init__(self, msg: str, part: str | None = None, **args):
        super().__init__(msg % args if args else msg)
        self.msg, self.args_, self.part = msg, args, part


class Unknown(Exception):
    """The orders check met a card it cannot see (the card drawn from the deck)."""


# -- seats and sides ----------------------------------------------------------------
def allies(st: dict, p: str) -> list[str]:
    """p and, in the team game, p's partner (p first)."""
    if st.get("teams"):
        for team in st["teams"]:
            if p in team:
                return [p] + [q for q in team if q != p]
    return [p]


def opponents(st: dict, p: str) -> list[str]:
    """The other side, in seat order starting after p."""
    mine = allies(st, p)
    n, i = len(st["roles"]), st["roles"].index(p)
    seq = [st["roles"][(i + k) % n] for k in range(1, n)]
    return [q for q in seq if q not in mine]


def layoff_tables(st: dict, p: str) -> list[str]:
    """Whose melds p may lay off on: everyone's; in the team game only p's side."""
    return allies(st, p) if st.get("teams") else list(st["roles"])


def sides(st: dict) -> list[list[str]]:
    return [list(t) for t in st["teams"]] if st.get("teams") else [[p] for p in st["roles"]]


def next_seat(st: dict, p: str) -> str:
    roles = st["roles"]
    return roles[(roles.index(p) + 1) % len(roles)]


# -- groups ---------------------------------------------------------------------------
def group_label(groups: list[dict], g: dict) -> str:
    key = g["key"]
    if key == "chief":
        return C.name(g["cards"][0])
    base = "Co. " + key[3:] if key.startswith("co-") else KEY_LABEL.get(key, key)
    same = [x for x in groups if x["key"] == key]
    if len(same) > 1:
        return f"{base} {same.index(g) + 1}"
    return base


def new_group(st: dict, p: str, key: str, cards: list[str], **extra) -> dict:
    g = {"id": f"g{st['gid']}", "key": key, "cards": list(cards)}
    g.update(extra)
    st["gid"] += 1
    st["tables"][p].append(g)
    return g


def is_meld(g: dict) -> bool:
    """An established meld others may lay off on: three or more of one kind, not locked."""
    return (g["key"].startswith("co-") or g["key"] in SET_KEYS) and len(g["cards"]) >= 3


def meld_exists(st: dict, key: str, tables) -> bool:
    return any(g["key"] == key and len(g["cards"]) >= 3 for q in tables for g in st["tables"][q])


def card_value(g: dict, cid: str) -> int:
    """What a card is worth where it lies."""
    key = g["key"]
    if g.get("wild") == cid:
        return 1
    if key == "scouts":
        return 2
    if key == "bv":
        return 2 if C.category(cid) == "village" else 1
    if key == "lone":
        return 1
    return C.points(cid)


def group_points(g: dict) -> int:
    key = g["key"]
    if key == "custer":
        return (0 if g.get("escaped") else C.points(C.CUSTER)) + sum(C.points(c) for c in g["on"])
    if key == "chief":
        return sum(C.points(c) for c in g["cards"] + g["on"])
    total = sum(card_value(g, c) for c in g["cards"])
    if g.get("wild"):
        total += 1
    return total


def score_table(st: dict, p: str) -> tuple[int, list[dict]]:
    detail = []
    groups = st["tables"][p]
    for g in groups:
        detail.append({"group": group_label(groups, g), "points": group_points(g)})
    return sum(d["points"] for d in detail), detail


def table_cards(g: dict) -> list[str]:
    return g["cards"] + g.get("on", []) + ([g["wild"]] if g.get("wild") else [])


def own_group(st: dict, p: str, key: str) -> dict | None:
    for g in st["tables"][p]:
        if g["key"] == key:
            return g
    return None


# -- hands ------------------------------------------------------------------------------
def discardable(st: dict, c: str) -> bool:
    """Any card may be discarded; under the house rule keep_taken_card, not the one taken from the pile."""
    return not (rule_on(st, "keep_taken_card") and c == st["turn"]["taken"])


def keeps_a_discard(st: dict, p: str, used: list[str]) -> None:
    left = [c for c in st["hands"][p] if c not in used and discardable(st, c)]
    if not left:
        raise Illegal(N_("you must keep a card to discard: a player goes out only by discarding the last card"))


def remove_from_hand(st: dict, p: str, ids: list[str]) -> None:
    hand = st["hands"][p]
    for c in ids:
        hand.remove(c)


def card_names(ids) -> str:
    return ", ".join(C.name(c) for c in ids)


def add_to_hand(st: dict, p: str, cid: str) -> None:
    st["hands"][p].append(cid)


def find_target(st: dict, p: str, owner: str | None, pred, what: str) -> tuple[str, dict]:
    side = allies(st, p)
    if owner is not None and owner not in side:
        if st.get("teams"):
            raise Illegal(N_("you play on %(what)s only on your own table or your partner's"), what=what)
        raise Illegal(N_("you play on %(what)s only on your own table"), what=what)
    for q in ([owner] if owner else side):
        for g in st["tables"][q]:
            if pred(g):
                return q, g
    if st.get("teams"):
        raise Illegal(N_("there is no %(what)s on your table or your partner's"), what=what)
    raise Illegal(N_("there is no %(what)s on your table"), what=what)


# -- the deck -------------------------------------------------------------------------
def custer_to_table(st: dict, p: str, events: list, when: str) -> None:
    st["hands"][p] = [c for c in st["hands"][p] if c != C.CUSTER]
    new_group(st, p, "custer", [C.CUSTER], on=[], escaped=False)
    if when == "deal":
        events.append(event("custer", N_("%(player)s was dealt Lt. Col. Custer and plays him to the table at once, then draws a card to replace him."), player=p))
    else:
        events.append(event("custer", N_("%(player)s drew Lt. Col. Custer and plays him to the table at once, then draws again."), player=p))


def draw_from_deck(st: dict, p: str, events: list) -> str | None:
    """The top card of the deck into p's hand; Custer goes to p's table and p draws again.
    None when the deck ran out."""
    deck = st["deck"]
    while deck:
        c = deck.pop(0)
        if c == C.CUSTER:
            custer_to_table(st, p, events, "draw")
            continue
        add_to_hand(st, p, c)
        return c
    return None


# -- the turn ---------------------------------------------------------------------------
def new_turn() -> dict:
    return {"stage": "draw", "drawn": None, "taken": None, "support": None, "picked": [], "pick_pending": False,
            "extra": [], "hoka": False, "done": False, "out": False}
