"""Little Bighorn Rummy: a Chief's Coup Stick and the steal it makes."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.rummy import cards as C
from pbem.engines.rummy.messages import N_
from pbem.engines.rummy.options import rule_on
from pbem.engines.rummy.state import (Illegal, allies, card_names, card_value, find_target, group_points,
                                      keeps_a_discard, new_group, opponents, own_group, remove_from_hand, table_cards)
from pbem.engines.rummy.support import claim_support, support_allowance

STEAL_POINTS = 3


def stealable(st: dict, q: str) -> list[dict]:
    """The cards a Coup Stick may take from q's table, each with its worth there.
    Immune: Braves/Village melds (and a raided Village), a Chief with a Coup Stick,
    Custer himself (and the Staff on him under the house rule custer_staff_immune).
    A Chief goes with his Sundance, if any."""
    units = []
    for g in st["tables"][q]:
        key = g["key"]
        if key == "custer":
            if not rule_on(st, "custer_staff_immune"):  # "it is possible to steal one or more of their Staff"
                units.extend({"kind": C.kind(c), "value": C.points(c), "gid": g["id"], "card": c, "staff": True} for c in g["on"])
            continue
        if key in ("bv", "lone"):
            continue
        if key == "chief":
            if any(C.category(x) == "coup_stick" for x in g["on"]):
                continue
            units.append({"kind": C.kind(g["cards"][0]), "value": group_points(g), "gid": g["id"], "card": g["cards"][0], "chief": True})
            continue
        for c in g["cards"]:
            units.append({"kind": C.kind(c), "value": card_value(g, c), "gid": g["id"], "card": c})
        if g.get("wild"):
            units.append({"kind": C.kind(g["wild"]), "value": 1, "gid": g["id"], "card": g["wild"]})
    return units


def best_steal(units: list[dict]) -> list[dict]:
    """The most points up to three, fewest cards, first on the table first."""
    ones = [u for u in units if u["value"] == 1]
    twos = [u for u in units if u["value"] == 2]
    threes = [u for u in units if u["value"] == 3]
    for combo in ([threes[:1]] if threes else []) + ([twos[:1] + ones[:1]] if twos and ones else []) \
            + ([ones[:3]] if len(ones) >= 3 else []) + ([twos[:1]] if twos else []) \
            + ([ones[:2]] if len(ones) >= 2 else []) + ([ones[:1]] if ones else []):
        return combo
    return []


def default_steal(st: dict, p: str) -> tuple[str | None, list[dict]]:
    """The steal made when the orders name none: the most points up to three; between
    tables that offer as much, the fewest cards, then the opponent with the highest total
    score, then the next in seat order."""
    best_q, best, best_key = None, [], None
    for i, q in enumerate(opponents(st, p)):
        units = best_steal(stealable(st, q))
        v = sum(u["value"] for u in units)
        key = (v, -len(units), st["totals"].get(q, 0), -i)
        if v > 0 and (best_key is None or key > best_key):
            best_q, best, best_key = q, units, key
    return best_q, best


def _choose_steal(st: dict, p: str, spec: dict | None) -> tuple[str | None, list[dict]]:
    if spec is None:
        return default_steal(st, p)
    if spec.get("nothing"):
        return None, []
    q = spec["from"]
    if q not in st["roles"]:
        raise Illegal(N_("there is no player %(player)s"), part="steal", player=q)
    if q == p:
        raise Illegal(N_("a Coup Stick steals from another player's table"), part="steal")
    if q in allies(st, p) and rule_on(st, "steal_from_opponents_only"):
        raise Illegal(N_("a Coup Stick steals from an opponent's table"), part="steal")
    units = stealable(st, q)
    chosen: list[dict] = []
    for k in spec["cards"]:
        cands = [u for u in units if u["kind"] == k and u not in chosen]
        if not cands:
            if any(c for g in st["tables"][q] for c in table_cards(g) if C.kind(c) == k):
                if rule_on(st, "custer_staff_immune"):
                    raise Illegal(N_("%(card)s on %(player)s's table is immune to theft (a Braves/Village meld, a Chief with a Coup Stick, Custer and his Staff)"),
                                  part="steal", card=C.name(k), player=q)
                raise Illegal(N_("%(card)s on %(player)s's table is immune to theft (a Braves/Village meld, a raided Village, a Chief with a Coup Stick, Custer himself)"),
                              part="steal", card=C.name(k), player=q)
            raise Illegal(N_("%(player)s has no %(card)s on the table to steal"), part="steal", card=C.name(k), player=q)
        cands.sort(key=lambda u: -u["value"])
        chosen.append(cands[0])
    total = sum(u["value"] for u in chosen)
    if total > STEAL_POINTS:
        raise Illegal(N_("a Coup Stick steals at most three points' worth of cards (these are worth %(points)s)"), part="steal", points=total)
    return q, chosen


def play_coup_stick(st: dict, p: str, c: str, step: dict, events: list) -> None:
    on = step.get("on")
    if on is None or on not in C.CHIEFS:
        raise Illegal(N_("a Coup Stick is played ON a Chief: PLAY Coup Stick ON <chief>"))
    if on == C.SITTING_BULL:
        raise Illegal(N_("a Coup Stick may not be played on Sitting Bull"))
    q, g = find_target(st, p, step.get("owner"), lambda g: g["key"] == "chief" and g["cards"][0] == on, C.name(on))
    if any(C.category(x) == "coup_stick" for x in g["on"]):
        raise Illegal(N_("%(chief)s already has a Coup Stick: one per Chief"), chief=C.name(on))
    support_allowance(st, c)
    keeps_a_discard(st, p, [c])
    victim, units = _choose_steal(st, p, step.get("steal"))
    remove_from_hand(st, p, [c])
    claim_support(st, c)
    g["on"].append(c)
    events.append(event("coup_stick", N_("%(player)s plays a Coup Stick on %(chief)s."), player=p, chief=C.name(on), owner=q))
    if not units:
        if step.get("steal", {}) and step["steal"].get("nothing"):
            events.append(event("steal", N_("%(player)s steals nothing."), player=p, points=0, ids=[]))
        else:
            events.append(event("steal", N_("There is nothing %(player)s may steal."), player=p, points=0, ids=[]))
        return
    moved = _take_units(st, victim, units)
    for item in moved:
        _place(st, p, item)
    ids = [i for item in moved for i in item["cards"]]
    events.append(event("steal", N_("%(player)s steals %(cards)s (%(points)s points) from %(victim)s's table."),
                        player=p, victim=victim, cards=card_names(ids), ids=ids, points=sum(u["value"] for u in units)))


def _take_units(st: dict, q: str, units: list[dict]) -> list[dict]:
    moved = []
    groups = st["tables"][q]
    for u in units:
        g = next(x for x in groups if x["id"] == u["gid"])
        if u.get("chief"):
            groups.remove(g)
            moved.append({"chief": True, "cards": [g["cards"][0]] + g["on"]})
            continue
        if u.get("staff"):
            g["on"].remove(u["card"])
        elif g.get("wild") == u["card"]:
            g["wild"] = None
        else:
            g["cards"].remove(u["card"])
        moved.append({"cards": [u["card"]]})
    st["tables"][q] = [g for g in groups if g["cards"] or g.get("wild")]
    return moved


def _place(st: dict, p: str, item: dict) -> None:
    """A stolen card onto the thief's table, beside cards of its kind."""
    if item.get("chief"):
        new_group(st, p, "chief", item["cards"][:1], on=item["cards"][1:])
        return
    c = item["cards"][0]
    key = C.set_key(c)
    if key is None:
        key = "support"
    g = own_group(st, p, key)
    if g is None:
        new_group(st, p, key, [c])
    else:
        g["cards"].append(c)
