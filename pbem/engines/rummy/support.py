"""Little Bighorn Rummy: the support cards (one a turn): the draw-two cards, the
discard-pick cards with the covered pile, Sabers, Hóka Héy."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.rummy import cards as C
from pbem.engines.rummy.messages import N_
from pbem.engines.rummy.options import rule_on
from pbem.engines.rummy.state import (Illegal, Unknown, add_to_hand, card_names, draw_from_deck, keeps_a_discard,
                                      new_group, opponents, own_group, remove_from_hand)

RAID_BRAVES = 3


def support_allowance(st: dict, c: str) -> None:
    """One support card a turn. Coup Sticks and the Sundance are single cards ("You may play
    as many from your hand as you are able each turn") unless the house rule
    coup_sticks_are_support counts them as support cards."""
    t = st["turn"]
    if C.category(c) not in C.SUPPORT and not rule_on(st, "coup_sticks_are_support"):
        return
    if t["support"] is not None:
        raise Illegal(N_("only one support card per turn (you played %(card)s)"), card=C.name(t["support"]))


def claim_support(st: dict, c: str) -> None:
    if C.category(c) in C.SUPPORT or rule_on(st, "coup_sticks_are_support"):
        st["turn"]["support"] = c


def play_support(st: dict, p: str, c: str, step: dict, events: list, dry: bool) -> None:
    t = st["turn"]
    cat = C.category(c)
    support_allowance(st, c)
    if cat == "hoka_hey":
        left = [x for x in st["hands"][p] if x != c]
        if not 1 <= len(left) <= 2:
            raise Illegal(N_("Hóka Héy is played only when you can then go out by discarding your last one or two cards (you would hold %(n)s)"), n=len(left))
    else:
        keeps_a_discard(st, p, [c])
    pick = missing = raid = None
    if cat == "pick_two" and step.get("pick") is not None:
        pick, missing = _choose_pick(st, step["pick"], dry)
    elif cat == "sabers":
        raid = _choose_raid(st, p, step.get("raid"))
    remove_from_hand(st, p, [c])
    g = own_group(st, p, "support")
    if g is None:
        new_group(st, p, "support", [c])
    else:
        g["cards"].append(c)
    t["support"] = c
    if cat == "draw_two":
        events.append(event("support", N_("%(player)s plays %(card)s and draws two cards."), player=p, card=C.name(c), id=c))
        got = []
        for _ in range(2):
            x = draw_from_deck(st, p, events)
            if x is None:
                break
            got.append(x)
        t["extra"] = t.get("extra", []) + got
        if got and not dry:
            events.append(event("drawn", N_("You draw %(cards)s."), to=[p], player=p, cards=card_names(got), ids=got))
        if len(got) < 2:
            events.append(event("deck_short", N_("The deck held only %(n)s of the two cards."), n=len(got)))
        if not st["deck"]:
            events.append(event("deck_out", N_("%(player)s has drawn the last card of the deck: the hand ends after this turn."), player=p))
    elif cat == "pick_two":
        events.append(event("support", N_("%(player)s plays %(card)s and looks through the discard pile."), player=p, card=C.name(c), id=c))
        if not st["discard"]:
            events.append(event("pile_empty", N_("The discard pile is empty: there is nothing to pick.")))
            return
        if not dry:  # the pile, to this player alone: it is covered for everyone else
            events.append(event("pile", N_("You look through the discard pile (bottom to top): %(cards)s."), to=[p], player=p,
                                cards=card_names(st["discard"]), ids=list(st["discard"])))
        if pick is not None and missing is None:
            _take_picks(st, p, pick, events, dry)
            return
        t["pick_pending"] = True
        if missing is not None and not dry:
            events.append(event("pick_waits", N_("%(card)s is not in the discard pile: send PICK with the cards you take from the pile as shown."),
                                to=[p], player=p, card=C.name(missing)))
        elif not dry:
            events.append(event("pick_waits", N_("Send PICK with the one or two cards you take (without it the server takes the two most valuable)."),
                                to=[p], player=p))
    elif cat == "sabers":
        events.append(event("support", N_("%(player)s plays %(card)s."), player=p, card=C.name(c), id=c))
        for q, what in raid:
            _raid(st, q, what, events)
    elif cat == "hoka_hey":
        t["hoka"] = True
        events.append(event("support", N_("%(player)s plays %(card)s and goes out."), player=p, card=C.name(c), id=c))


def most_valuable_two(pile: list[str]) -> list[str]:
    """The server's pick for a player who named none: the two most valuable, the higher first."""
    ranked = sorted(range(len(pile)), key=lambda i: (-C.points(pile[i]), -i))
    return [pile[i] for i in ranked[:2]]


def _choose_pick(st: dict, spec: list[str], dry: bool) -> tuple[list[str], str | None]:
    """The cards the PICK card_names, taken nearest the top; and the first kind named that is not
    in the pile (None if all are). The orders check does not see the covered pile: a card it
    cannot see is checked when the orders are carried out."""
    pile = st["discard"]
    if not 1 <= len(spec) <= 2:
        raise Illegal(N_("pick one or two cards"), part="pick")
    chosen: list[str] = []
    for k in spec:
        cands = [x for x in reversed(pile) if C.KIND_OF.get(x) == k and x not in chosen]
        if not cands:
            if any(x.startswith(C.UNKNOWN) for x in pile):
                raise Unknown()
            if dry:
                raise Illegal(N_("there is no %(card)s in the discard pile"), part="pick", card=C.name(k))
            return chosen, k
        chosen.append(cands[0])
    return chosen, None


def _take_picks(st: dict, p: str, pick: list[str], events: list, dry: bool) -> None:
    t = st["turn"]
    for x in pick:
        st["discard"].remove(x)
        add_to_hand(st, p, x)
    t["picked"].extend(pick)
    t["pick_pending"] = False
    events.append(event("pick", N_("%(player)s takes %(n)s cards from the discard pile into their hand."), player=p, n=len(pick)))
    if not dry:
        events.append(event("picked", N_("You pick %(cards)s (not playable this turn; one may be your discard)."), to=[p], player=p,
                            cards=card_names(pick), ids=list(pick)))


def do_pick(st: dict, p: str, spec: list[str], events: list, dry: bool) -> None:
    """PICK after the pile was shown: the one or two cards taken from it."""
    if not st["turn"].get("pick_pending"):
        raise Illegal(N_("PICK must come right after the PLAY of Bring Pack Mules, Garry Owens or Custer's Last Stand"))
    pick, missing = _choose_pick(st, spec, dry)
    if missing is not None:
        raise Illegal(N_("there is no %(card)s in the discard pile"), card=C.name(missing))
    _take_picks(st, p, pick, events, dry)


def _raid_default(st: dict, q: str) -> str:
    return "bv" if any(g["key"] == "bv" for g in st["tables"][q]) else "braves"


def _choose_raid(st: dict, p: str, spec: dict | None) -> list[tuple[str, str]]:
    spec = spec or {}
    opp = opponents(st, p)
    for q, what in spec.items():
        if q not in opp:
            raise Illegal(N_("Sabers raid only the opponents' tables, not %(player)s's"), part="raid", player=q)
        if what == "bv" and not any(g["key"] == "bv" for g in st["tables"][q]):
            raise Illegal(N_("%(player)s has no Braves/Village meld"), part="raid", player=q)
    return [(q, spec.get(q) or _raid_default(st, q)) for q in opp]


def _raid(st: dict, q: str, what: str, events: list) -> None:
    groups = st["tables"][q]
    removed: list[str] = []
    if what == "none":
        events.append(event("raid", N_("The Sabers spare %(victim)s."), victim=q, ids=[]))
        return
    if what == "bv":
        g = next(x for x in groups if x["key"] == "bv")
        braves = [c for c in g["cards"] if C.category(c) == "brave"]
        removed = braves[:RAID_BRAVES]
        g["cards"] = [c for c in g["cards"] if c not in removed]
        g["key"] = "lone"
    else:
        for g in groups:
            if g["key"] != "braves":
                continue
            while g["cards"] and len(removed) < RAID_BRAVES:
                removed.append(g["cards"].pop())
        st["tables"][q] = [g for g in groups if g["cards"] or g.get("wild")]
    st["discard"].extend(removed)
    if what == "bv":
        events.append(event("raid", N_("The Sabers raid %(victim)s's Braves/Village meld: %(n)s Braves go to the discard pile, a lone Village worth 1 remains."),
                            victim=q, n=len(removed), ids=removed))
    else:
        events.append(event("raid", N_("The Sabers remove %(n)s Braves from %(victim)s's table to the discard pile."), victim=q, n=len(removed), ids=removed))
