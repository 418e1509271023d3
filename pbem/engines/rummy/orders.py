"""Reading a player's mail: order text -> canonical steps, and steps -> text.

One order per line, or several on a line separated by ``;``. Keywords are
case-insensitive; cards are named as players write them. A step is JSON::

    {"op": "draw", "from": "deck" | "discard"}
    {"op": "meld", "cards": [kind, ...]}
    {"op": "layoff", "cards": [kind, ...], "on": role | None}
    {"op": "wild", "card": "scout" | "drawn", "company": "C", "owner": role | None}
    {"op": "play", "cards": [kind, ...], "on": None | "custer" | chief kind | "braves" | "braves 2",
     "owner": role | None, ["steal": {"from": role, "cards": [...]} | {"nothing": true}],
     ["pick": [kind, ...]], ["raid": {role: "bv" | "braves" | "none"}]}
    {"op": "discard", "cards": [kind | "drawn", ...]}
    {"op": "pick", "pick": [kind, ...]}    (a PICK once the pile has been shown)
    {"op": "meld_drawn"}                   (MELD WHAT I DREW)

``drawn`` stands for the card drawn in the draw phase (known only once drawn). Orders
may also name cards the player expects to draw: they are checked once drawn.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from pbem.engines.base import AMBIGUOUS, ILLEGAL, SYNTAX, OrderError
from pbem.engines.rummy import cards as C
from pbem.engines.rummy.messages import N_

KEYWORDS = ("draw", "take", "meld", "layoff", "lay off", "add", "play", "steal", "pick", "raid", "discard")
DRAWN_WORDS = {"drawn", "drawn card", "the drawn card", "the card drawn", "card drawn", "it"}
WHAT_I_DREW = {"what i drew", "what i draw", "what i drew this turn", "what was drawn", "drawn cards", "the drawn cards",
               "the cards drawn", "cards drawn", "the cards i drew", "the cards i draw", "my drawn cards"}
_IF_POSSIBLE = re.compile(r"\s+(?:if (?:possible|i can|it can|they can|it makes a meld|they make a meld))$")
_SPLIT_CARDS = re.compile(r"\s*(?:,|\+|\band\b|&)\s*", re.I)
_COUNT_BEFORE = re.compile(r"^(\d+)\s*[x\u00d7*]?\s+(.+)$", re.I)
_COUNT_AFTER = re.compile(r"^(.+?)\s*[x\u00d7*]\s*(\d+)$", re.I)
_POSSESSIVE = re.compile(r"^(p\d+)\s*'?\s*s\s+(.+)$|^(p\d+)'s\s+(.+)$", re.I)


class ParseFail(Exception):
    def __init__(self, reason: str, kind: str = SYNTAX, hint: str | None = None, **args):
        super().__init__(reason)
        self.reason, self.kind, self.suggestion, self.args_ = reason, kind, hint, args


def _card_list(text: str, allow_drawn: bool = True) -> list[str]:
    items = [x for x in _SPLIT_CARDS.split(text.strip()) if x.strip()]
    if not items:
        raise ParseFail(N_("name the cards"))
    out: list[str] = []
    for item in items:
        item = item.strip()
        n = 1
        m = _COUNT_BEFORE.match(item) or None
        if m:
            n, item = int(m.group(1)), m.group(2)
        else:
            m = _COUNT_AFTER.match(item)
            if m:
                item, n = m.group(1), int(m.group(2))
        if n < 1 or n > 18:
            raise ParseFail(N_("%(n)s is not a card count"), n=n)
        key = C.norm(item)
        if key in DRAWN_WORDS:
            if not allow_drawn:
                raise ParseFail(N_("name the card here: 'drawn' does not apply"), )
            if n != 1:
                raise ParseFail(N_("there is only one drawn card"))
            out.append("drawn")
            continue
        k, suggestion = C.match(item)
        if k is None and re.fullmatch(r"(?:(?:co|company) )?(trooper|guidon|commander)s?", key):
            raise ParseFail(N_("which company's %(card)s?"), AMBIGUOUS, hint=N_("write it with its letter, e.g. %(suggestion)s"),
                            card=item, suggestion="Co. C " + key.split()[-1].rstrip("s").capitalize())
        if k is None and key in ("chief", "chiefs", "a chief"):
            raise ParseFail(N_("which chief?"), AMBIGUOUS, hint=N_("name him, e.g. %(suggestion)s"), suggestion="Gall")
        if k is None:
            if suggestion:
                raise ParseFail(N_("unknown card %(card)s"), hint=N_("did you mean %(suggestion)s?"), card=item, suggestion=suggestion)
            raise ParseFail(N_("unknown card %(card)s"), card=item)
        out.extend([k] * n)
    return out


def _role(text: str, roles) -> str:
    key = text.strip().lower()
    if key in roles:
        return key
    close = difflib.get_close_matches(key, roles, n=1, cutoff=0.5)
    if close:
        raise ParseFail(N_("there is no player %(player)s"), hint=N_("did you mean %(suggestion)s?"), player=text.strip(), suggestion=close[0])
    raise ParseFail(N_("there is no player %(player)s"), player=text.strip())


def _split_owner(text: str, roles) -> tuple[str, str | None]:
    """'p3's Braves' / 'Braves of p3' -> ('Braves', 'p3')."""
    t = text.strip()
    m = re.match(r"^(p\d+)\s*(?:'|\u2019)?s\s+(.+)$", t, re.I)
    if m and m.group(1).lower() in roles:
        return m.group(2), m.group(1).lower()
    m = re.match(r"^(.+?)\s+(?:of|on)\s+(p\d+)$", t, re.I)
    if m:
        return m.group(1), _role(m.group(2), roles)
    return t, None


def _target(text: str, roles) -> tuple[str, str | None]:
    """What a PLAY ... ON names: custer, a chief kind, braves [n]; and whose table."""
    what, owner = _split_owner(text, roles)
    key = C.norm(what)
    if key in ("custer", "lt col custer", "col custer", "general custer"):
        return "custer", owner
    m = re.match(r"^(?:three |3 )?braves?(?: meld)?(?: (\d))?$", key)
    if m:
        return ("braves " + m.group(1)) if m.group(1) else "braves", owner
    k, suggestion = C.match(what)
    if k in C.CHIEFS:
        return k, owner
    if k == C.CUSTER:
        return "custer", owner
    if suggestion:
        raise ParseFail(N_("cannot play on %(target)s"), hint=N_("did you mean %(suggestion)s?"), target=what, suggestion=suggestion)
    raise ParseFail(N_("cannot play on %(target)s: name Custer, a Chief, or Braves"), target=what)


def _category_key(text: str) -> str | None:
    key = C.norm(text)
    key = re.sub(r"\s*(meld|\d)$", "", key)
    words = {"staff": "staff", "scouts": "scouts", "scout": "scouts", "braves": "braves", "brave": "braves",
             "villages": "villages", "village": "villages"}
    return words.get(key)


def _company(text: str) -> str | None:
    key = C.norm(text)
    m = re.match(r"^(?:co|company|coy)?\s*([a-z])(?: meld)?$", key)
    if m and m.group(1).upper() in C.COMPANIES:
        return m.group(1).upper()
    return None


def parse_segment(seg: str, roles) -> dict:
    """One order (a line, or a part of a line between semicolons) -> a step."""
    step = _parse_cached(seg, tuple(roles))
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in step.items()}


@lru_cache(maxsize=8192)
def _parse_cached(seg: str, roles: tuple[str, ...]) -> dict:
    """Reads the order's keyword and hands the rest of the line to that order's reader."""
    text = seg.strip()
    low = text.lower()
    m = re.match(r"^([a-z]+(?:\s+off)?)\b\s*(.*)$", low)
    if not m:
        raise ParseFail(N_("cannot read this order"))
    word, rest = m.group(1), text[m.end(1):].strip()
    if word in ("lay off", "layoff", "add"):
        word = "layoff"
    elif word.endswith(" off"):
        raise ParseFail(N_("cannot read this order"))
    reader = _ORDER_READERS.get(word)
    if reader is not None:
        return reader(rest, roles)
    close = difflib.get_close_matches(word, KEYWORDS, n=1, cutoff=0.6)
    if close:
        raise ParseFail(N_("unknown order %(word)s"), hint=N_("did you mean %(suggestion)s?"), word=word.upper(), suggestion=close[0].upper())
    raise ParseFail(N_("unknown order %(word)s"), word=word.upper())


def _read_draw(rest: str, roles) -> dict:
    """DRAW / TAKE: from the deck or the discard pile."""
    r = C.norm(rest)
    r = re.sub(r"^(from|the|a|card|one)\s+", "", r)
    r = re.sub(r"^(from|the|a|card|one)\s+", "", r)
    if "discard" in r or r in ("top discard", "up card", "upcard"):
        return {"op": "draw", "from": "discard"}
    if r in ("", "deck", "draw deck", "stock", "pile", "draw pile", "top of deck", "deck top", "top of the deck", "from deck"):
        return {"op": "draw", "from": "deck"}
    raise ParseFail(N_("draw from where? Write DRAW DECK or DRAW DISCARD"))


def _read_meld(rest: str, roles) -> dict:
    """MELD cards (a new meld on one's own table), MELD Staff ON Custer, or MELD WHAT I DREW."""
    if _IF_POSSIBLE.sub("", C.norm(rest)) in WHAT_I_DREW:
        return {"op": "meld_drawn"}
    body, on = _split_on(rest)
    cards = _card_list(body)
    if on is not None:
        target, owner = _target(on, roles)
        if target != "custer":
            raise ParseFail(N_("a meld goes to your own table; only Staff are melded ON Custer"))
        return {"op": "play", "cards": cards, "on": "custer", "owner": owner}
    return {"op": "meld", "cards": cards}


def _read_layoff(rest: str, roles) -> dict:
    """LAYOFF / LAY OFF / ADD cards [ON a player, a company, a meld, Braves or Custer]."""
    body, on = _split_on(rest)
    cards = _card_list(body)
    if on is None:
        return {"op": "layoff", "cards": cards, "on": None}
    what, owner = _split_owner(on, roles)
    if owner is None and C.norm(what) in roles:
        return {"op": "layoff", "cards": cards, "on": C.norm(what)}
    company = _company(what)
    if company and len(cards) == 1 and cards[0] in ("scout", "drawn"):
        return {"op": "wild", "card": cards[0], "company": company, "owner": owner}
    key = "co-" + company if company else _category_key(what)
    if key is not None:
        return _layoff_on_meld(cards, key, what, owner)
    target, towner = _target(on, roles)
    if target == "custer":
        return {"op": "play", "cards": cards, "on": "custer", "owner": towner}
    raise ParseFail(N_("cannot lay off on %(target)s"), target=on)


def _layoff_on_meld(cards: list[str], key: str, what: str, owner: str | None) -> dict:
    """A layoff ON a named meld (a company, Staff, Scouts, Braves, Villages): a Village on
    Braves is played there; other cards must belong to that meld."""
    if key == "braves" and cards in (["village"], ["drawn"]):
        n = re.search(r"(\d)$", C.norm(what))
        return {"op": "play", "cards": cards, "on": "braves" + (" " + n.group(1) if n else ""), "owner": owner}
    if all(k == "drawn" or C.set_key(k) == key for k in cards):
        return {"op": "layoff", "cards": cards, "on": owner}
    raise ParseFail(N_("these cards do not belong to a meld of %(target)s"), kind=ILLEGAL, target=what)


def _read_play(rest: str, roles) -> dict:
    """PLAY cards [ON Custer, a Chief or Braves]."""
    body, on = _split_on(rest)
    cards = _card_list(body)
    if on is None:
        return {"op": "play", "cards": cards, "on": None, "owner": None}
    target, owner = _target(on, roles)
    return {"op": "play", "cards": cards, "on": target, "owner": owner}


def _read_steal(rest: str, roles) -> dict:
    """STEAL cards FROM a player, or STEAL NOTHING (after a Coup Stick)."""
    if C.norm(rest) in ("nothing", "none", "no cards"):
        return {"op": "steal", "steal": {"nothing": True}}
    mm = re.match(r"^(.*)\s+from\s+(\S+)(?:'s)?(?:\s+table)?$", rest, re.I)
    if not mm:
        raise ParseFail(N_("write STEAL <cards> FROM <player> (or STEAL NOTHING)"))
    who = mm.group(2)
    who = re.sub(r"(?:'|\u2019)s$", "", who)
    return {"op": "steal", "steal": {"from": _role(who, roles), "cards": _card_list(mm.group(1), allow_drawn=False)}}


def _read_pick(rest: str, roles) -> dict:
    """PICK cards (after a Pick Two, or once the pile has been shown)."""
    return {"op": "pick", "pick": _card_list(rest, allow_drawn=False)}


def _read_raid(rest: str, roles) -> dict:
    """RAID a player's BRAVES, BRAVES/VILLAGE or NOTHING (after Sabers)."""
    mm = re.match(r"^(\S+)\s*(.*)$", rest)
    if not mm:
        raise ParseFail(N_("write RAID <player> BRAVES, RAID <player> BRAVES/VILLAGE or RAID <player> NOTHING"))
    who = _role(re.sub(r"(?:'|\u2019)s$", "", mm.group(1)), roles)
    what = C.norm(mm.group(2))
    if what in ("braves village", "braves village meld", "bv", "village", "braves and village", "braves village set"):
        return {"op": "raid", "raid": {who: "bv"}}
    if what in ("braves", "brave", "", "braves meld"):
        return {"op": "raid", "raid": {who: "braves"}}
    if what in ("nothing", "none", "no braves"):
        return {"op": "raid", "raid": {who: "none"}}
    raise ParseFail(N_("raid what? BRAVES, BRAVES/VILLAGE or NOTHING"))


def _read_discard(rest: str, roles) -> dict:
    """DISCARD cards."""
    return {"op": "discard", "cards": _card_list(rest)}


# an order's keyword (LAY OFF and ADD read as LAYOFF) -> its reader: (rest of the line, roles) -> step
_ORDER_READERS = {
    "draw": _read_draw, "take": _read_draw, "meld": _read_meld, "layoff": _read_layoff, "play": _read_play,
    "steal": _read_steal, "pick": _read_pick, "raid": _read_raid, "discard": _read_discard,
}


def _split_on(text: str) -> tuple[str, str | None]:
    parts = re.split(r"\s+on\s+", text, maxsplit=1, flags=re.I)
    if len(parts) == 2:
        return parts[0], parts[1]
    return text, None


# -- steps -> text -----------------------------------------------------------------------------------
def _card_names(kinds: list[str]) -> str:
    return ", ".join("drawn" if k == "drawn" else C.name(k) for k in kinds)


def _target_name(on: str) -> str:
    if on == "custer":
        return "Custer"
    if on.startswith("braves"):
        return "Braves" + on[6:]
    return C.name(on)


def step_lines(step: dict) -> list[str]:
    op = step["op"]
    if op == "draw":
        return ["DRAW DECK" if step["from"] == "deck" else "DRAW DISCARD"]
    if op == "meld":
        return ["MELD " + _card_names(step["cards"])]
    if op == "layoff":
        return ["LAYOFF " + _card_names(step["cards"]) + (f" ON {step['on']}" if step.get("on") else "")]
    if op == "wild":
        owner = f"{step['owner']}'s " if step.get("owner") else ""
        return [f"LAYOFF {_card_names([step['card']])} ON {owner}Co. {step['company']}"]
    if op == "play":
        line = "PLAY " + _card_names(step["cards"])
        if step.get("on"):
            owner = f"{step['owner']}'s " if step.get("owner") else ""
            line += f" ON {owner}{_target_name(step['on'])}"
        lines = [line]
        if "steal" in step:
            s = step["steal"]
            lines.append("STEAL NOTHING" if s.get("nothing") else f"STEAL {_card_names(s['cards'])} FROM {s['from']}")
        if "pick" in step:
            lines.append("PICK " + _card_names(step["pick"]))
        if "raid" in step:
            word = {"bv": "BRAVES/VILLAGE", "braves": "BRAVES", "none": "NOTHING"}
            lines.extend(f"RAID {q} {word[w]}" for q, w in step["raid"].items())
        return lines
    if op == "discard":
        return ["DISCARD " + _card_names(step["cards"])]
    if op == "pick":
        return ["PICK " + _card_names(step["pick"])]
    if op == "meld_drawn":
        return ["MELD WHAT I DREW"]
    raise ValueError(op)


def steps_text(steps: list[dict]) -> str:
    return "\n".join(line for s in steps for line in step_lines(s))


# -- the whole mail -------------------------------------------------------------------------------------
# a choice line -> (the card it follows, the error when it follows none); one sentence each,
# since an argument is inserted untranslated. A PICK that follows no such PLAY is an order of
# its own: the pick once the pile has been shown (rules.do_pick).
_COMES_AFTER = {
    "steal": ("a Coup Stick", N_("STEAL must come right after the PLAY of a Coup Stick")),
    "raid": ("Sabers", N_("RAID must come right after the PLAY of Sabers")),
}


def read(text: str, roles) -> tuple[list[dict], list[dict], list[OrderError]]:
    """Syntax only: (steps, where, errors); ``where[i]`` = {"line", "text", "parts": {"steal": (line, text)}}."""
    steps: list[dict] = []
    where: list[dict] = []
    errors: list[OrderError] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line = line.split("#", 1)[0] if " #" in line else line
        for seg in line.split(";"):
            seg = seg.strip().rstrip(".")
            if not seg:
                continue
            try:
                step = parse_segment(seg, roles)
            except ParseFail as e:
                errors.append(OrderError(n, raw.strip(), e.reason, e.kind, e.suggestion, e.args_))
                continue
            if step["op"] in ("steal", "pick", "raid"):
                owner = steps[-1] if steps else None
                need = {"steal": "coup_stick", "pick": "pick_two", "raid": "sabers"}[step["op"]]
                ok = owner is not None and owner["op"] == "play" and len(owner["cards"]) == 1 and \
                    owner["cards"][0] != "drawn" and C.KINDS[owner["cards"][0]]["category"] == need
                if not ok and step["op"] == "pick":  # a PICK once the pile has been shown
                    steps.append(step)
                    where.append({"line": n, "text": raw.strip(), "parts": {}})
                    continue
                if not ok:
                    what, reason = _COMES_AFTER[step["op"]]
                    errors.append(OrderError(n, raw.strip(), reason, ILLEGAL, None, {"order": step["op"].upper(), "what": what}))
                    continue
                if step["op"] == "raid":
                    owner.setdefault("raid", {}).update(step["raid"])
                elif step["op"] in owner:
                    errors.append(OrderError(n, raw.strip(), N_("only one %(order)s per card"), ILLEGAL, None, {"order": step["op"].upper()}))
                    continue
                else:
                    owner[step["op"]] = step[step["op"]]
                where[-1]["parts"][step["op"]] = (n, raw.strip())
                continue
            steps.append(step)
            where.append({"line": n, "text": raw.strip(), "parts": {}})
    return steps, where, errors


__all__ = ["read", "steps_text", "step_lines", "parse_segment", "ParseFail", "AMBIGUOUS", "ILLEGAL", "SYNTAX"]
