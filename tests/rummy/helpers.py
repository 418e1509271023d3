"""Building Little Bighorn Rummy positions by hand, and playing orders on them."""

from __future__ import annotations

from pbem.dice import Dice
from pbem.engines.base import event_text, event_visible
from pbem.engines.rummy import RummyEngine
from pbem.engines.rummy import cards as C
from pbem.engines.rummy import state as S
from pbem.engines.rummy.engine import SCENARIOS, default_target
from pbem.engines.rummy.options import house_rules

ENGINE = RummyEngine()
SEED = "ab" * 32


class Pool:
    """Hands out card ids by kind, each id once."""

    def __init__(self):
        self.free = list(C.ORDER)

    def take(self, kind: str) -> str:
        for cid in self.free:
            if C.KIND_OF[cid] == kind:
                self.free.remove(cid)
                return cid
        raise ValueError(f"no {kind} left")

    def many(self, kinds) -> list[str]:
        return [self.take(k) for k in kinds]


def build(scenario: str = "two", *, hands: dict | None = None, tables: dict | None = None,
          discard: list | None = None, deck_top: list | None = None, player: str = "p1",
          stage: str = "play", drawn: str | None = None, taken: str | None = None,
          target: int | None = None, totals: dict | None = None, sundance: bool = False,
          hand_no: int = 1, turn: dict | None = None, options: dict | None = None) -> dict:
    """A consistent state: the named cards where they are said to be, every other card
    in the deck below ``deck_top`` (Custer at the very bottom unless placed); ``options``
    the game's house rules."""
    _, roles, teams = SCENARIOS[scenario]
    pool = Pool()
    st_hands = {p: [] for p in roles}
    st_tables = {p: [] for p in roles}
    gid = 1
    for p, groups in (tables or {}).items():
        for g in groups:
            grp = {"id": f"g{gid}", "key": g["key"], "cards": pool.many(g["cards"])}
            gid += 1
            if g["key"].startswith("co-"):
                grp["wild"] = pool.take("scout") if g.get("wild") else None
            if g["key"] in ("chief", "custer"):
                grp["on"] = pool.many(g.get("on", []))
            if g["key"] == "custer":
                grp["escaped"] = bool(g.get("escaped"))
            st_tables[p].append(grp)
    drawn_id = taken_id = None
    for p, kinds in (hands or {}).items():
        st_hands[p] = pool.many(kinds)
    if drawn:
        drawn_id = next(c for c in st_hands[player] if C.KIND_OF[c] == drawn)
    if taken:
        taken_id = next(c for c in st_hands[player] if C.KIND_OF[c] == taken)
        drawn_id = drawn_id or taken_id
    st_discard = pool.many(discard or [])
    top = pool.many(deck_top or [])
    rest = [c for c in pool.free if c != C.CUSTER]
    bottom = [C.CUSTER] if C.CUSTER in pool.free else []
    st = {
        "v": 1, "scenario": scenario, "roles": list(roles), "teams": teams,
        "target": target or default_target(scenario), "options": house_rules(options, bool(teams)),
        "hand_no": hand_no, "turn_no": 5, "step": 1 if stage == "draw" else 2, "first": roles[0], "player": player,
        "hands": st_hands, "tables": st_tables, "deck": top + rest + bottom, "discard": st_discard,
        "turn": dict(S.new_turn(), stage=stage, drawn=drawn_id, taken=taken_id, **(turn or {})),
        "sundance": sundance, "gid": gid,
        "deal": {"hand": hand_no, "phase": "setup", "labels": [f"hand {hand_no} deal"], "decks": [list(C.ORDER)]},
        "scores": [], "totals": dict(totals or {p: 0 for p in roles}), "outcome": None,
    }
    assert ENGINE.validate_state(st) == [], ENGINE.validate_state(st)
    return st


def play(st: dict, text: str, role: str | None = None, seed: str = SEED, allow_errors: bool = False):
    """Parse ``text`` for the player to move (or ``role``) and resolve it: (new state, events, parse result)."""
    role = role or st["player"]
    result = ENGINE.parse_orders(st, role, text)
    if not allow_errors:
        assert result.errors == [], [(e.line, e.describe(), e.args) for e in result.errors]
    new, events = ENGINE.resolve(st, {role: result.orders}, Dice(seed))
    assert ENGINE.validate_state(new) == [], ENGINE.validate_state(new)
    return new, events, result


def errors(st: dict, text: str, role: str | None = None) -> list[str]:
    """The reasons (English, filled in) the parser gives for ``text``."""
    return [e.describe() for e in ENGINE.parse_orders(st, role or st["player"], text).errors]


def texts(events: list[dict], role: str | None = None) -> list[str]:
    return [event_text(ev) for ev in events if event_visible(ev, role)]


def table(st: dict, p: str) -> list[tuple[str, list[str]]]:
    """p's table as (key, [kinds]) pairs, wild Scout and attachments included."""
    out = []
    for g in st["tables"][p]:
        kinds = [C.KIND_OF[c] for c in g["cards"]]
        if g.get("wild"):
            kinds.append("scout(wild)")
        kinds += [C.KIND_OF[c] for c in g.get("on", [])]
        out.append((g["key"], kinds))
    return out


def hand(st: dict, p: str) -> list[str]:
    return sorted(C.KIND_OF[c] for c in st["hands"][p])


def group(key: str, *kinds: str, **extra) -> dict:
    return {"key": key, "cards": list(kinds), **extra}


class FixedDice(Dice):
    """Dice whose shuffles under given labels return a fixed order (everything else as usual)."""

    def __init__(self, orders: dict[str, list[str]], seed: str = SEED):
        super().__init__(seed)
        self.orders = orders

    def shuffle(self, items, label):
        if label in self.orders:
            order = list(self.orders[label])
            assert sorted(order) == sorted(items), label
            self.rolls.append({"for": label, "kind": "shuffle", "value": len(order)})
            return order
        return super().shuffle(items, label)
