"""A random but legal player: it plans on a copy of the state in which the deck is hidden.

All its chance comes from the dice: one draw per mail seeds a small xorshift
generator for the mail's many little choices (a SHA-256 per choice would make
the bulk random-play runs several times slower)."""

from __future__ import annotations

from pbem.dice import Dice
from pbem.engines.rummy import cards as C
from pbem.engines.rummy import coup_sticks
from pbem.engines.rummy import rules as R
from pbem.engines.rummy import state as S
from pbem.engines.rummy.orders import steps_text


def _candidates(st: dict, p: str) -> list[dict]:
    """Plays worth trying now (most are legal; the caller tries them on the copy)."""
    hand = [c for c in st["hands"][p] if not c.startswith(C.UNKNOWN)]
    t = st["turn"]
    playable = [c for c in hand if c not in t["picked"]]
    out: list[dict] = []
    by_key: dict[str, list[str]] = {}
    for c in playable:
        k = C.set_key(c)
        if k:
            by_key.setdefault(k, []).append(C.kind(c))
    melds = {g["key"] for q in S.layoff_tables(st, p) for g in st["tables"][q] if len(g["cards"]) >= 3}
    for k, kinds in by_key.items():
        if len(kinds) >= 3:
            out.append({"op": "meld", "cards": kinds})
            if len(kinds) > 3:
                out.append({"op": "meld", "cards": kinds[:3]})
            if k.startswith("co-") and "scouts" in by_key:
                out.append({"op": "meld", "cards": kinds + ["scout"]})
        if k in melds:
            for kind in dict.fromkeys(kinds):
                out.append({"op": "layoff", "cards": [kind], "on": None})
    if len(by_key.get("braves", [])) >= 3 and by_key.get("villages"):
        out.append({"op": "meld", "cards": ["brave"] * 3 + ["village"]})
    side = S.allies(st, p)
    mine = [g for q in side for g in st["tables"][q]]
    if "scouts" in by_key:
        for g in mine:
            if g["key"].startswith("co-") and not g.get("wild") and g["key"] in melds:
                out.append({"op": "wild", "card": "scout", "company": g["key"][3:], "owner": None})
    for c in dict.fromkeys(playable):
        cat = C.category(c)
        k = C.kind(c)
        if cat == "chief":
            out.append({"op": "play", "cards": [k], "on": None, "owner": None})
        elif cat == "coup_stick":
            for g in mine:
                if g["key"] == "chief" and g["cards"][0] != C.SITTING_BULL and not g["on"]:
                    out.append({"op": "play", "cards": [k], "on": g["cards"][0], "owner": None})
        elif cat == "sundance":
            out.append({"op": "play", "cards": [k], "on": C.SITTING_BULL, "owner": None})
        elif cat == "village":
            if any(g["key"] == "braves" and len(g["cards"]) == 3 for g in mine):
                out.append({"op": "play", "cards": [k], "on": "braves", "owner": None})
        elif cat == "staff":
            if any(g["key"] == "custer" for g in mine):
                out.append({"op": "play", "cards": [k], "on": "custer", "owner": None})
        elif cat in C.SUPPORT and t["support"] is None:
            out.append({"op": "play", "cards": [k], "on": None, "owner": None})
    return out


class _Rng:
    """xorshift64*, seeded from one dice draw; the same interface as the dice for the bot."""

    def __init__(self, seed: int):
        self.x = seed or 0x9E3779B97F4A7C15

    def below(self, n: int, label: str = "") -> int:
        x = self.x
        x ^= (x >> 12)
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= (x >> 27)
        self.x = x
        return ((x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF) % n

    def shuffle(self, items: list, label: str = "") -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def _choices(st: dict, p: str, step: dict, rng, lab: str) -> dict:
    """Sometimes spell out the choice a card forces (else the server's default stands)."""
    if step["op"] != "play":
        return step
    cat = C.KINDS[step["cards"][0]]["category"]
    if cat == "coup_stick":
        r = rng.below(4, lab + " steal")
        if r == 0:
            q, units = coup_sticks.default_steal(st, p)
            if units:
                step["steal"] = {"from": q, "cards": [u["kind"] for u in units]}
        elif r == 1:
            opp = S.opponents(st, p)
            q = opp[rng.below(len(opp), lab + " steal from")]
            units = coup_sticks.best_steal(coup_sticks.stealable(st, q))
            step["steal"] = {"from": q, "cards": [u["kind"] for u in units][:1]} if units else {"nothing": True}
    elif cat == "pick_two" and st["discard"] and not st["discard"][-1].startswith(C.UNKNOWN) \
            and rng.below(2, lab + " pick") == 0:
        step["pick"] = [C.kind(st["discard"][-1])]  # the top card, the one it can see; else it looks first
    elif cat == "sabers" and rng.below(2, lab + " raid") == 0:
        raid = {}
        for q in S.opponents(st, p):
            opts = ["braves", "none"] + (["bv"] if any(g["key"] == "bv" for g in st["tables"][q]) else [])
            raid[q] = opts[rng.below(len(opts), lab + " raid " + q)]
        step["raid"] = raid
    return step


def _after_draw_two(st: dict, p: str, rng) -> list[dict]:
    """After a draw-two, unseen cards: stop and look (the server shows them), or go on in
    the same mail with MELD WHAT I DREW and a discard of a card that order never plays."""
    if rng.below(2) == 0:
        return []
    t = st["turn"]
    keep = [c for c in st["hands"][p] if not c.startswith(C.UNKNOWN) and C.set_key(c) is None and S.discardable(st, c)]
    if not keep:
        return [{"op": "meld_drawn"}]
    c = keep[rng.below(len(keep))]
    return [{"op": "meld_drawn"}, {"op": "discard", "cards": ["drawn" if c == t["drawn"] else C.kind(c)]}]


def bot_orders(st: dict, p: str, dice: Dice, cautious: bool = False) -> str:
    """A random but legal turn. ``cautious`` (the stand-in for an absent player, issue 28): the same
    choices but never an action card (no PLAY: nothing stolen, picked from the pile or raided from
    another table); it draws, melds, lays off and discards, and keeps its action cards in hand."""
    if st.get("outcome") or p != st["player"]:
        return ""
    lab = f"bot H{st['hand_no']}.T{st['turn_no']}.{st['step']} {p}"
    rng = _Rng(dice.below(1 << 62, lab))
    steps: list[dict] = []
    if st["turn"].get("pick_pending"):  # the pile is shown: take one or two of it
        pile = rng.shuffle(list(st["discard"]), lab + " pick cards")
        steps.append({"op": "pick", "pick": [C.kind(x) for x in pile[:1 + rng.below(2)]]})
        scratch = R.dry_copy(st)
        R.apply_step(scratch, p, steps[0], [], dry=True)
    elif st["turn"]["stage"] == "draw":
        src = "discard" if st["discard"] and rng.below(5) == 0 else "deck"
        if src == "deck" and rng.below(4) == 0:
            return "DRAW DECK"  # only the draw: see the card, then play
        step = {"op": "draw", "from": src}
        scratch = R.dry_copy(st)
        R.apply_step(scratch, p, step, [])
        steps.append(step)
    else:
        scratch = R.dry_copy(st)
    t = scratch["turn"]
    for _ in range(12):
        if rng.below(10) < 2:
            break
        cands = [c for c in _candidates(scratch, p) if not (cautious and c["op"] == "play")]
        done = False
        while cands:
            step = cands.pop(rng.below(len(cands)))
            step = _choices(scratch, p, step, rng, lab)
            try:
                R.apply_step(scratch, p, step, [], dry=True)
            except S.Illegal:
                continue
            steps.append(step)
            done = True
            break
        if not done:
            break
        if t["hoka"]:
            steps.append({"op": "discard", "cards": [C.kind(c) for c in scratch["hands"][p] if not c.startswith(C.UNKNOWN)] or ["drawn"]})
            return steps_text(steps)
        if t.get("pick_pending"):
            return steps_text(steps)  # look through the pile before picking
        if any(c.startswith(C.UNKNOWN) and c != t["drawn"] for c in scratch["hands"][p]):
            return steps_text(steps + _after_draw_two(scratch, p, rng))
    hand = scratch["hands"][p]
    options = [c for c in hand if S.discardable(scratch, c)]
    c = options[rng.below(len(options))]
    steps.append({"op": "discard", "cards": ["drawn" if c == t["drawn"] else C.kind(c)]})
    return steps_text(steps)
