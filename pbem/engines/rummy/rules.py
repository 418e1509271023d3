"""Little Bighorn Rummy: a turn's orders carried out on a mutable state (melds, lay-offs,
wild Scouts, single cards, the discard), dealing, and the end of a hand and of the game.

The engine (``engine.py``) copies the state before it calls anything here. Every
action checks all its conditions first and raises :class:`Illegal` before it
changes anything, so an illegal order leaves the state as it was. The state and what
every rule shares are in ``state.py``; the Coup Sticks' steal in ``coup_sticks.py``;
the support cards in ``support.py``.
"""

from __future__ import annotations

import hashlib

from pbem.engines.base import event
from pbem.engines.rummy import cards as C
from pbem.engines.rummy.coup_sticks import play_coup_stick
from pbem.engines.rummy.messages import N_
from pbem.engines.rummy.options import rule_on
from pbem.engines.rummy.orders import step_lines
from pbem.engines.rummy.state import (Illegal, KEY_LABEL, Unknown, add_to_hand, allies, card_names, custer_to_table,
                                      discardable, draw_from_deck, find_target, group_label, is_meld, keeps_a_discard,
                                      layoff_tables, meld_exists, new_group, new_turn, next_seat, own_group,
                                      remove_from_hand, score_table, sides, table_cards)
from pbem.engines.rummy.support import claim_support, do_pick, play_support, support_allowance

HAND_SIZE = {2: 12, 3: 11, 4: 10}
ESCAPE_POINTS = 4


# -- the cards an order names -------------------------------------------------------------
def _pick_ids(st: dict, p: str, kinds: list[str], purpose: str = "play") -> list[str]:
    """Distinct card ids in p's hand for the kinds named (``drawn`` = the card drawn this turn)."""
    hand = st["hands"][p]
    t = st["turn"]
    used: list[str] = []
    for k in kinds:
        if k == "drawn":
            d = t["drawn"]
            if d is None:
                raise Illegal(N_("you have drawn no card this turn"))
            if d.startswith(C.UNKNOWN):
                raise Unknown()
            if d not in hand or d in used:
                raise Illegal(N_("the card you drew is no longer in your hand"))
            if purpose == "play" and d in t["picked"]:
                raise Illegal(N_("%(card)s was picked from the discard pile this turn: it may not be played before your next turn"), card=C.name(d))
            used.append(d)
            continue
        cands = [c for c in hand if C.KIND_OF.get(c) == k and c not in used]
        if not cands:
            if any(c.startswith(C.UNKNOWN) and c not in used for c in hand) and _may_be_unseen(st, p, k):
                raise Unknown()  # it may be a card drawn this turn: checked once the cards are seen
            raise Illegal(N_("you do not hold %(card)s"), card=C.name(k))
        if purpose == "play":
            ok = [c for c in cands if c not in t["picked"]]
            if not ok:
                raise Illegal(N_("%(card)s was picked from the discard pile this turn: it may not be played before your next turn"), card=C.name(k))
            ok.sort(key=lambda c: c != t["taken"])
        else:
            ok = sorted(cands, key=lambda c: c == t["taken"])
        used.append(ok[0])
    return used


def _may_be_unseen(st: dict, p: str, k: str) -> bool:
    """Whether a card of kind ``k`` may be among those p has not seen: not every copy lies
    where p sees it (p's hand, the tables, the pile's visible cards). Other hands are not
    looked at: the answer must not depend on them."""
    seen = [c for c in st["hands"][p] if C.KIND_OF.get(c) == k]
    seen += [c for q in st["roles"] for g in st["tables"][q] for c in table_cards(g) if C.KIND_OF.get(c) == k]
    seen += [c for c in st["discard"] if C.KIND_OF.get(c) == k]
    return len(seen) < C.KINDS[k]["count"]


# -- the turn ---------------------------------------------------------------------------
def do_draw(st: dict, p: str, source: str, events: list) -> None:
    t = st["turn"]
    if t["stage"] != "draw":
        raise Illegal(N_("you have already drawn this turn"))
    if source == "discard":
        if not st["discard"]:
            raise Illegal(N_("the discard pile is empty: draw from the deck"))
        c = st["discard"].pop()
        add_to_hand(st, p, c)
        t["taken"] = t["drawn"] = c
        t["stage"] = "play"
        events.append(event("draw", N_("%(player)s takes %(card)s from the discard pile."), player=p, card=C.name(c), id=c, source="discard"))
        return
    if not st["deck"]:
        raise Illegal(N_("the deck is empty"))
    events.append(event("draw", N_("%(player)s draws from the deck."), player=p, source="deck"))
    c = draw_from_deck(st, p, events)
    t["drawn"] = c
    t["stage"] = "play"
    if c is not None and not c.startswith(C.UNKNOWN):
        events.append(event("drawn", N_("You draw %(card)s."), to=[p], player=p, card=C.name(c), id=c))
    if not st["deck"]:
        events.append(event("deck_out", N_("%(player)s has drawn the last card of the deck: the hand ends after this turn."), player=p))


def do_meld(st: dict, p: str, kinds: list[str], events: list) -> None:
    ids = _pick_ids(st, p, kinds)
    if len(ids) < 3:
        raise Illegal(N_("a meld needs three cards or more"))
    keys = [C.set_key(c) for c in ids]
    for c, k in zip(ids, keys):
        if k is None:
            raise Illegal(N_("%(card)s is not a set card: it cannot be melded"), card=C.name(c))
    braves = [c for c, k in zip(ids, keys) if k == "braves"]
    villages = [c for c, k in zip(ids, keys) if k == "villages"]
    scouts = [c for c, k in zip(ids, keys) if k == "scouts"]
    company = {k for k in keys if k.startswith("co-")}
    wild = None
    if len(braves) == 3 and len(villages) == 1 and len(ids) == 4:
        key = "bv"
    elif len(set(keys)) == 1:
        key = keys[0]
    elif len(company) == 1 and len(scouts) >= 1 and len(company) + 1 == len(set(keys)):
        key = next(iter(company))
        naturals = [c for c in ids if C.set_key(c) == key]
        if len(scouts) > 1:
            raise Illegal(N_("only one Scout may join a company as a wild card"))
        if len(naturals) < 3:
            raise Illegal(N_("a Scout joins only a full company meld: three company cards or more besides the Scout"))
        if _company_has_scout(st, key):
            raise Illegal(N_("%(company)s already has its Scout on a table: one Scout per company"), company="Co. " + key[3:])
        wild = scouts[0]
        ids = naturals
    else:
        raise Illegal(N_("a meld is three or more cards of one category (one company, Staff, Scouts, Braves or Villages), or three Braves and a Village"))
    keeps_a_discard(st, p, ids + ([wild] if wild else []))
    remove_from_hand(st, p, ids + ([wild] if wild else []))
    if key == "bv":
        g = new_group(st, p, "bv", braves + villages)
    elif wild:
        g = new_group(st, p, key, ids, wild=wild)
    else:
        g = new_group(st, p, key, ids)
    events.append(event("meld", N_("%(player)s melds %(cards)s."), player=p, cards=card_names(table_cards(g)),
                        ids=table_cards(g), group=group_label(st["tables"][p], g)))


def do_meld_drawn(st: dict, p: str, events: list) -> None:
    """MELD WHAT I DREW: every meld the cards drawn this turn (the draw, a draw-two's two
    cards) make with the hand; a drawn set card that makes none is laid off where it fits;
    the rest stay in hand. Never refused: what cannot be done is not done, and said."""
    t = st["turn"]
    hand = st["hands"][p]
    drawn = [c for c in dict.fromkeys(([t["drawn"]] if t["drawn"] else []) + t.get("extra", [])) if c in hand]
    if any(c.startswith(C.UNKNOWN) for c in drawn):
        raise Unknown()
    played = []
    for key in dict.fromkeys(C.set_key(c) for c in drawn if C.set_key(c) and c not in t["picked"]):
        same = [c for c in C.sort_cards(hand) if C.set_key(c) == key and c not in t["picked"]]
        if len(same) == len([c for c in hand if discardable(st, c)]):
            same = same[:-1]  # keep a card to discard
        try:
            if len(same) >= 3:
                do_meld(st, p, [C.kind(c) for c in same], events)
            else:
                mine = [c for c in drawn if C.set_key(c) == key and c in hand]
                do_layoff(st, p, [C.kind(c) for c in mine], None, events)
        except Illegal:
            continue
        played.append(key)
    if not played:
        events.append(event("meld_drawn", N_("None of the cards you drew makes a meld or fits one on a table: they stay in your hand."),
                            to=[p], player=p))


def _company_has_scout(st: dict, key: str) -> bool:
    return any(g["key"] == key and g.get("wild") for q in st["roles"] for g in st["tables"][q])


def _seat_order(st: dict, p: str, tables: list[str]) -> list[str]:
    """``tables`` with p first, then p's partner, then the others clockwise from p."""
    n, i = len(st["roles"]), st["roles"].index(p)
    clockwise = [st["roles"][(i + k) % n] for k in range(n)]
    first = allies(st, p)
    return [q for q in first if q in tables] + [q for q in clockwise if q in tables and q not in first]


def _layoff_meld(st: dict, key: str, tables: list[str]) -> tuple[str, dict] | None:
    """The meld a card of ``key`` joins: the first open meld of its kind on these tables."""
    for q in tables:
        for g in st["tables"][q]:
            if g["key"] == key and is_meld(g):
                return q, g
    return None


def do_layoff(st: dict, p: str, kinds: list[str], on: str | None, events: list) -> None:
    """Laying off: each card joins a meld of its kind already on a table (the rules: "add to
    melds already placed on the table, whether they were placed by you or by another
    player"), on that meld's table, and scores there; your own melds first. Under the house
    rule layoff_to_own_table it goes to your own table beside your cards of its kind."""
    ids = _pick_ids(st, p, kinds)
    tables = layoff_tables(st, p)
    if on is not None:
        if on not in st["roles"]:
            raise Illegal(N_("there is no player %(player)s"), player=on)
        if on not in tables:
            raise Illegal(N_("in the team game you lay off only on your own side's melds, not on %(player)s's"), player=on)
        tables = [on]
    tables = _seat_order(st, p, tables)
    joins = []
    for c in ids:
        key = C.set_key(c)
        if key is None:
            raise Illegal(N_("%(card)s is not a set card: only set cards are laid off"), card=C.name(c))
        if key == "braves" and not meld_exists(st, "braves", tables):
            raise Illegal(N_("no open meld of Braves to lay off on (a locked Braves/Village meld takes no more cards): meld three Braves first"))
        if key == "villages" and not meld_exists(st, "villages", tables):
            raise Illegal(N_("no meld of Villages to lay off on (a Village locks three Braves with PLAY Village ON Braves)"))
        target = _layoff_meld(st, key, tables)
        if target is None:
            if on:
                raise Illegal(N_("there is no meld of %(meld)s on %(player)s's table to lay %(card)s off on"),
                              meld=_key_name(key), card=C.name(c), player=on)
            raise Illegal(N_("there is no meld of %(meld)s on any table you may play on to lay %(card)s off on"),
                          meld=_key_name(key), card=C.name(c))
        joins.append((c, target))
    keeps_a_discard(st, p, ids)
    remove_from_hand(st, p, ids)
    if rule_on(st, "layoff_to_own_table"):
        for c in ids:
            g = own_group(st, p, C.set_key(c))
            if g is None:
                new_group(st, p, C.set_key(c), [c])
            else:
                g["cards"].append(c)
        events.append(event("layoff", N_("%(player)s lays off %(cards)s."), player=p, cards=card_names(ids), ids=ids, owner=p))
        return
    by_group: dict[str, tuple[str, dict, list[str]]] = {}
    for c, (q, g) in joins:
        g["cards"].append(c)
        by_group.setdefault(g["id"], (q, g, []))[2].append(c)
    for q, g, cs in by_group.values():
        events.append(event("layoff", N_("%(player)s lays off %(cards)s on %(owner)s's %(meld)s."), player=p, cards=card_names(cs), ids=cs,
                            owner=q, meld=group_label(st["tables"][q], g)))


def _key_name(key: str) -> str:
    return "Co. " + key[3:] if key.startswith("co-") else KEY_LABEL.get(key, key)


def do_wild(st: dict, p: str, kind: str, company: str, owner: str | None, events: list) -> None:
    (c,) = _pick_ids(st, p, [kind])
    key = "co-" + company
    if C.category(c) != "scout":
        if C.set_key(c) == key:  # "LAYOFF drawn ON Co. C" when the drawn card is a Co. C card
            do_layoff(st, p, [kind], None, events)
            return
        raise Illegal(N_("only a Scout is a wild card"))
    g = _wild_target(st, p, key, owner)
    if g.get("wild"):
        raise Illegal(N_("Co. %(company)s already has its Scout"), company=company)
    if not meld_exists(st, key, layoff_tables(st, p)):
        raise Illegal(N_("a Scout joins only a full company: Co. %(company)s is not melded three cards strong on any table you may play on"), company=company)
    if _company_has_scout(st, key):
        raise Illegal(N_("Co. %(company)s already has its Scout on a table: one Scout per company"), company=company)
    keeps_a_discard(st, p, [c])
    remove_from_hand(st, p, [c])
    g["wild"] = c
    q = next(q for q in st["roles"] if any(x is g for x in st["tables"][q]))
    events.append(event("wild", N_("%(player)s adds a Scout to %(owner)s's Co. %(company)s as a wild card."), player=p, owner=q, company=company, id=c))


def _wild_target(st: dict, p: str, key: str, owner: str | None) -> dict:
    """The company a wild Scout joins: a card of that company on your own side's table ("if
    they have or add one of that melded ... Company on their own table"); failing that, and
    unless laying off goes to your own table (house rule), a full company meld on a table you
    may lay off on ("One Scout may be added as a wild card to a full ... company meld")."""
    company = key[3:]
    side = allies(st, p)
    own_table = rule_on(st, "layoff_to_own_table")
    if owner is not None and owner not in side and (own_table or owner not in layoff_tables(st, p)):
        if own_table:
            raise Illegal(N_("a Scout joins a company card on your own side's table"))
        raise Illegal(N_("in the team game you lay off only on your own side's melds, not on %(player)s's"), player=owner)
    mine = [owner] if owner in side else [] if owner else side  # any card of the company here; elsewhere a full meld
    g = next((x for q in mine for x in st["tables"][q] if x["key"] == key), None)
    if g is None and not own_table:
        found = _layoff_meld(st, key, [owner] if owner else _seat_order(st, p, layoff_tables(st, p)))
        g = found[1] if found else None
    if g is None:
        if own_table:
            raise Illegal(N_("there is no Co. %(company)s card on your table for the Scout to join: lay one down first"), company=company)
        raise Illegal(N_("there is no Co. %(company)s card on your table, nor a meld of Co. %(company)s on a table you may play on, for the Scout to join"),
                      company=company)
    return g


def do_play(st: dict, p: str, step: dict, events: list, dry: bool = False) -> None:
    kinds = step["cards"]
    ids = _pick_ids(st, p, kinds)
    cats = {C.category(c) for c in ids}
    on = step.get("on")
    owner = step.get("owner")
    if len(ids) > 1 and cats != {"staff"}:
        raise Illegal(N_("play one card at a time (several only for Staff played on Custer)"))
    c = ids[0]
    cat = C.category(c)
    if cat == "staff":
        if on not in (None, "custer"):
            raise Illegal(N_("Staff cards are played on Custer (or melded)"))
        _staff_on_custer(st, p, ids, owner, events)
        return
    if cat == "chief":
        if on is not None:
            raise Illegal(N_("a Chief is played alone to your table"))
        keeps_a_discard(st, p, ids)
        remove_from_hand(st, p, ids)
        new_group(st, p, "chief", [c], on=[])
        events.append(event("chief", N_("%(player)s plays the chief %(card)s."), player=p, card=C.name(c), id=c))
        return
    if cat == "coup_stick":
        play_coup_stick(st, p, c, step, events)
        return
    if cat == "sundance":
        if on not in (None, C.SITTING_BULL):
            raise Illegal(N_("the Sundance is played only on Sitting Bull"))
        q, g = find_target(st, p, owner, lambda g: g["key"] == "chief" and g["cards"][0] == C.SITTING_BULL, "Sitting Bull")
        if any(C.category(x) == "sundance" for x in g["on"]):
            raise Illegal(N_("the Sundance is already on Sitting Bull"))
        support_allowance(st, c)
        keeps_a_discard(st, p, ids)
        remove_from_hand(st, p, ids)
        claim_support(st, c)
        g["on"].append(c)
        st["sundance"] = True
        events.append(event("sundance", N_("%(player)s plays the Sundance on Sitting Bull: from now on no Custer can escape this hand."), player=p, owner=q))
        return
    if cat == "village":
        if on is None or not on.startswith("braves"):
            raise Illegal(N_("a single Village is played ON three Braves (PLAY Village ON Braves); to lay it off on a meld of Villages write LAYOFF"))
        _village_on_braves(st, p, c, on, owner, events)
        return
    if cat in C.SUPPORT:
        if on is not None:
            raise Illegal(N_("%(card)s is played alone"), card=C.name(c))
        play_support(st, p, c, step, events, dry)
        return
    if C.set_key(c):
        raise Illegal(N_("%(card)s is a set card: MELD it or LAYOFF it"), card=C.name(c))
    raise Illegal(N_("%(card)s cannot be played"), card=C.name(c))


def _staff_on_custer(st: dict, p: str, ids: list[str], owner: str | None, events: list) -> None:
    q, g = find_target(st, p, owner, lambda g: g["key"] == "custer", "Custer")
    keeps_a_discard(st, p, ids)
    remove_from_hand(st, p, ids)
    g["on"].extend(ids)
    events.append(event("staff", N_("%(player)s plays %(cards)s on Custer."), player=p, cards=card_names(ids), ids=ids, owner=q))
    pts = sum(C.points(x) for x in g["on"])
    if not g["escaped"]:
        if st["sundance"]:
            events.append(event("no_escape", N_("The Sundance has been played: Custer cannot escape (the Staff on him still score).")))
        elif pts >= ESCAPE_POINTS:
            g["escaped"] = True
            events.append(event("escape", N_("Custer escapes: %(points)s points of Staff are on him. He no longer counts -20 this hand."), points=pts, owner=q))


def _village_on_braves(st: dict, p: str, c: str, on: str, owner: str | None, events: list) -> None:
    which = on.split()[1:]
    n = int(which[0]) if which and which[0].isdigit() else None
    side = allies(st, p)
    if owner is not None and owner not in side:
        raise Illegal(N_("a Village locks three Braves on your own side's table only"))
    cands = []
    for q in ([owner] if owner else side):
        braves = [g for g in st["tables"][q] if g["key"] == "braves"]
        if n is not None:
            if 1 <= n <= len(braves):
                cands.append((q, braves[n - 1]))
        else:
            cands.extend((q, g) for g in braves)
    fit = [(q, g) for q, g in cands if len(g["cards"]) == 3]
    if not fit:
        if cands:
            raise Illegal(N_("a Village locks a meld of exactly three Braves"))
        raise Illegal(N_("there is no meld of three Braves on your table for the Village"))
    q, g = fit[0]
    keeps_a_discard(st, p, [c])
    remove_from_hand(st, p, [c])
    g["key"] = "bv"
    g["cards"].append(c)
    events.append(event("lock", N_("%(player)s plays a Village on three Braves: a locked Braves/Village meld worth 5."), player=p, owner=q))


# -- the discard ----------------------------------------------------------------------------------
def do_discard(st: dict, p: str, kinds: list[str], events: list) -> None:
    t = st["turn"]
    hand = st["hands"][p]
    if t["hoka"]:
        gone = list(hand)
        hand.clear()
        st["discard"].extend(gone)
        t["done"] = t["out"] = True
        events.append(event("discard", N_("%(player)s discards %(cards)s and goes out."), player=p, cards=card_names(gone), ids=gone, out=True))
        return
    if len(kinds) != 1:
        raise Illegal(N_("discard exactly one card (one or two only after Hóka Héy)"))
    if t.get("pick_pending"):
        raise Illegal(N_("look through the discard pile and PICK your cards before you discard"))
    (c,) = _pick_ids(st, p, kinds, purpose="discard")
    if not discardable(st, c):
        raise Illegal(N_("you may not discard the card you took from the discard pile this turn (house rule keep_taken_card)"))
    hand.remove(c)
    st["discard"].append(c)
    t["done"] = True
    if not hand:
        t["out"] = True
        events.append(event("discard", N_("%(player)s discards %(card)s, the last card in hand, and goes out."), player=p, card=C.name(c), id=c, out=True))
    else:
        events.append(event("discard", N_("%(player)s discards %(card)s."), player=p, card=C.name(c), id=c, out=False))


def fallback_discard(st: dict, p: str) -> str | None:
    """The card discarded for a player who named none that can go: the drawn card, else the first."""
    t = st["turn"]
    hand = st["hands"][p]
    if t["drawn"] in hand and discardable(st, t["drawn"]):
        return t["drawn"]
    rest = [c for c in C.sort_cards(hand) if discardable(st, c)]
    return rest[0] if rest else None


# -- running a mail's orders ---------------------------------------------------------------
def apply_step(st: dict, p: str, step: dict, events: list, dry: bool = False) -> None:
    op = step["op"]
    t = st["turn"]
    if t["done"]:
        raise Illegal(N_("your turn ended with the discard: nothing more can be played"))
    if op == "draw":
        do_draw(st, p, step["from"], events)
        return
    if t["stage"] == "draw":
        raise Illegal(N_("draw first: DRAW DECK or DRAW DISCARD"))
    if op == "discard":
        do_discard(st, p, step["cards"], events)
    elif op == "pick":
        do_pick(st, p, step["pick"], events, dry)
    elif t["hoka"]:
        raise Illegal(N_("after Hóka Héy only the discard of your last cards follows"))
    elif op == "meld":
        do_meld(st, p, step["cards"], events)
    elif op == "layoff":
        do_layoff(st, p, step["cards"], step.get("on"), events)
    elif op == "wild":
        do_wild(st, p, step["card"], step["company"], step.get("owner"), events)
    elif op == "play":
        do_play(st, p, step, events, dry)
    elif op == "meld_drawn":
        do_meld_drawn(st, p, events)
    else:
        raise Illegal(N_("unknown order %(op)s"), op=op)


def run_steps(st: dict, p: str, steps: list[dict], events: list, dry: bool = False, default: bool = False):
    """Carry out a mail's orders in order. Returns (errors, unchecked): errors is
    [(index, Illegal)] for orders not carried out; in a dry run, ``unchecked`` is the
    index from which orders depend on an unseen card (None if every order was checked)."""
    errors: list[tuple[int, Illegal]] = []
    t = st["turn"]
    if steps and t["stage"] == "draw" and steps[0]["op"] != "draw":
        do_draw(st, p, "deck", events)
        events.append(event("auto_draw", N_("%(player)s gave no draw order: drew from the deck."), player=p))
    for i, step in enumerate(steps):
        try:
            apply_step(st, p, step, events, dry)
        except Illegal as e:
            errors.append((i, e))
            if step["op"] == "draw" and t["stage"] == "draw" and st["deck"]:
                do_draw(st, p, "deck", events)  # a draw that cannot be made: the deck instead
            if not dry:
                # reason: the English, as data; reason_msg and reason_args: to show it in the reader's language
                events.append(event("skipped", N_("Order not carried out (%(order)s): %(reason)s"), to=[p], player=p,
                                    order=" / ".join(step_lines(step)), reason=e.msg % e.args_ if e.args_ else e.msg,
                                    reason_msg=e.msg, reason_args=dict(e.args_)))
        except Unknown:
            if dry:
                return errors, i
            raise  # pragma: no cover - only placeholders raise it
        if t["done"] and i + 1 < len(steps) and not dry:
            events.append(event("ignored", N_("Orders after your discard were ignored."), to=[p], player=p))
            break
    if t["hoka"] and not t["done"]:
        do_discard(st, p, [], events)
    if default and not t["done"] and t["stage"] == "play":
        c = fallback_discard(st, p)
        if c is not None:
            do_discard(st, p, [C.KIND_OF[c]] if c != t["drawn"] else ["drawn"], events)
        elif st["hands"][p]:  # only the card taken from the pile is left: it goes back (no turn may hang)
            t["taken"] = None
            do_discard(st, p, [C.KIND_OF[st["hands"][p][0]]], events)
    return errors, None


# -- dealing, hand end, game end ----------------------------------------------------------------
def deal(st: dict, dice, label_phase: str, events: list) -> None:
    """Shuffle the 102 cards and deal the hand ``st["hand_no"]``."""
    h = st["hand_no"]
    roles = st["roles"]
    n = len(roles)
    first = roles[(h - 1) % n]
    label = f"hand {h} deal"
    deck = dice.shuffle(list(C.ORDER), label)
    record = {"hand": h, "phase": label_phase, "labels": [label], "decks": [list(deck)]}
    st.update(first=first, player=first, turn_no=1, step=1, sundance=False, gid=1, turn=new_turn())
    st["hands"] = {p: [] for p in roles}
    st["tables"] = {p: [] for p in roles}
    st["discard"] = []
    seats = [roles[(roles.index(first) + k) % n] for k in range(n)]
    size = HAND_SIZE[n]
    for _ in range(size):
        for p in seats:
            st["hands"][p].append(deck.pop(0))
    st["deck"] = deck
    events.append(event("deal", N_("Hand %(hand)s: %(player)s plays first; each player is dealt %(n)s cards. Deck commitment (SHA-256 of the dealt order): %(sha256)s."),
                        hand=h, player=first, n=size, sha256=deck_hash(record["decks"][0])))
    for p in seats:
        if C.CUSTER in st["hands"][p]:
            custer_to_table(st, p, events, "deal")
            c = st["deck"].pop(0)
            st["hands"][p].append(c)
    k = 0
    while True:
        top = st["deck"].pop(0)
        if top != C.CUSTER:
            st["discard"].append(top)
            events.append(event("first_discard", N_("The first card of the discard pile is %(card)s."), card=C.name(top), id=top))
            break
        k += 1
        label = f"hand {h} reshuffle {k}"
        deck = dice.shuffle([C.CUSTER] + st["deck"], label)
        record["labels"].append(label)
        record["decks"].append(list(deck))
        st["deck"] = deck
        events.append(event("reshuffle", N_("Lt. Col. Custer turned up as the first discard: he goes back into the deck, which is reshuffled (%(label)s)."), label=label))
    for p in seats:
        st["hands"][p] = C.sort_cards(st["hands"][p])
        events.append(event("hand", N_("Your hand: %(cards)s."), to=[p], player=p, cards=card_names(st["hands"][p]), ids=list(st["hands"][p])))
    st["deal"] = record


def deck_hash(order: list[str]) -> str:
    return hashlib.sha256(",".join(order).encode("utf-8")).hexdigest()


def end_turn(st: dict, dice, label_phase: str, events: list) -> None:
    """After the discard: the next player's turn, or the end of the hand."""
    t = st["turn"]
    p = st["player"]
    if t["out"] or not st["deck"]:
        end_hand(st, p if t["out"] else None, dice, label_phase, events)
        return
    st["player"] = next_seat(st, p)
    st["turn_no"] += 1
    st["step"] = 1
    st["turn"] = new_turn()


def end_hand(st: dict, out: str | None, dice, label_phase: str, events: list) -> None:
    h = st["hand_no"]
    if out:
        events.append(event("hand_end", N_("Hand %(hand)s ends: %(player)s went out."), hand=h, player=out, how="out"))
    else:
        events.append(event("hand_end", N_("Hand %(hand)s ends: the deck is exhausted."), hand=h, player=None, how="deck"))
    points, detail = {}, {}
    for p in st["roles"]:
        total, d = score_table(st, p)
        if p == out:
            d.append({"group": "Bonus for going out", "points": C.BONUS_OUT})
            total += C.BONUS_OUT
        points[p], detail[p] = total, d
        st["totals"][p] += total
        events.append(event("score", N_("%(player)s scores %(points)s this hand (total %(total)s)."), player=p, points=total,
                            total=st["totals"][p], detail=d))
    st["scores"].append({"hand": h, "points": points, "detail": detail, "out": out, "ended": "out" if out else "deck",
                         "tables": {p: [_copy_group(g) for g in st["tables"][p]] for p in st["roles"]}})
    rec = st["deal"]
    events.append(event("deal_reveal", N_("Hand %(hand)s was dealt with the dice of phase %(phase)s (labels: %(labels)s): its seed may now be published, and the deck orders are in this event's data so anyone can check the deal."),
                        hand=h, phase=rec["phase"], labels=", ".join(rec["labels"]), label_list=rec["labels"], decks=rec["decks"],
                        sha256=[deck_hash(d) for d in rec["decks"]]))
    totals = side_totals(st)
    reached = [(s, v) for s, v in totals if v >= st["target"]]
    if reached:
        top = max(v for _, v in totals)
        leaders = [s for s, v in totals if v == top]
        if len(leaders) == 1:
            side = leaders[0]
            st["outcome"] = {
                "winner": side[0],
                "summary": (N_("Team %(team)s wins with %(points)s points after %(hands)s hands.") if len(side) > 1
                            else N_("%(winner)s wins with %(points)s points after %(hands)s hands.")),
                "args": {"winner": side[0], "team": " & ".join(side), "members": side, "points": top, "hands": h, "target": st["target"]},
                "scores": dict(st["totals"]),
            }
            st["turn"] = new_turn()
            st["turn"]["done"] = True
            events.append(event("game_end", st["outcome"]["summary"], **st["outcome"]["args"]))
            return
        events.append(event("tie", N_("%(n)s sides are level on %(points)s points past the target: another hand is played."), n=len(leaders), points=top))
    st["hand_no"] = h + 1
    deal(st, dice, label_phase, events)


def side_totals(st: dict) -> list[tuple[list[str], int]]:
    return [(s, sum(st["totals"][p] for p in s)) for s in sides(st)]


def new_game(scenario: str, roles: list[str], teams, target: int, dice, events: list, rules: dict | None = None) -> dict:
    st = {
        "v": 1, "scenario": scenario, "roles": list(roles), "teams": teams, "target": target, "options": dict(rules or {}),
        "hand_no": 1, "turn_no": 1, "step": 1, "first": roles[0], "player": roles[0],
        "hands": {}, "tables": {}, "deck": [], "discard": [], "turn": new_turn(), "sundance": False, "gid": 1,
        "deal": None, "scores": [], "totals": {p: 0 for p in roles}, "outcome": None,
    }
    deal(st, dice, "setup", events)
    return st


def _copy_group(g: dict) -> dict:
    d = dict(g)
    d["cards"] = list(g["cards"])
    if "on" in g:
        d["on"] = list(g["on"])
    return d


def copy_state(st: dict) -> dict:
    """A copy safe to change: every list and dict the rules change is copied; the
    parts they only ever replace (the deal record, finished hands' scores) are shared."""
    out = dict(st)
    out["hands"] = {p: list(h) for p, h in st["hands"].items()}
    out["tables"] = {p: [_copy_group(g) for g in gs] for p, gs in st["tables"].items()}
    out["deck"] = list(st["deck"])
    out["discard"] = list(st["discard"])
    turn = dict(st["turn"])
    turn["picked"] = list(turn["picked"])
    turn["extra"] = list(turn.get("extra", []))
    out["turn"] = turn
    out["totals"] = dict(st["totals"])
    out["scores"] = list(st["scores"])
    return out


_PLACEHOLDERS = tuple(f"{C.UNKNOWN}{i}" for i in range(len(C.ORDER)))


def dry_copy(st: dict) -> dict:
    """A copy in which what the player to move cannot see is replaced by placeholders: the
    deck, and the discard pile under its top card (unless that player is looking through it):
    to check orders without seeing them."""
    out = copy_state(st)
    out["deck"] = list(_PLACEHOLDERS[:len(st["deck"])])
    if st["discard"] and not st["turn"].get("pick_pending"):
        under = len(st["discard"]) - 1
        out["discard"] = list(_PLACEHOLDERS[len(st["deck"]):len(st["deck"]) + under]) + [st["discard"][-1]]
    out["deal"] = None
    return out


def all_cards(st: dict) -> list[str]:
    """Every card where it is: hands, tables, deck, discard pile (the 102, each once)."""
    out = list(st["deck"]) + list(st["discard"])
    for p in st["roles"]:
        out.extend(st["hands"][p])
        for g in st["tables"][p]:
            out.extend(table_cards(g))
    return out
