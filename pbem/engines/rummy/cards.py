"""The 102 cards of Little Bighorn Rummy (static data in ``data/rummy/cards.json``).

A card has a stable id (``C-trooper-3``, ``brave-12``, ``custer``) and a *kind*
(``C-trooper``, ``brave``, ``custer``): cards of one kind are interchangeable, so
orders name kinds and the engine picks the instance. Players write card names
the way they like (``Co. C Trooper``, ``c trooper``, ``Hoka Hey``): ``match``
turns a name into a kind, with a close-match suggestion when it cannot.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import lru_cache

from pbem.resources import load_json

DATA = load_json("rummy", "cards.json")
KINDS: dict[str, dict] = {k["kind"]: k for k in DATA["kinds"]}
CARDS: dict[str, dict] = {c["id"]: c for c in DATA["cards"]}
ORDER: tuple[str, ...] = tuple(c["id"] for c in DATA["cards"])
"""Every card id in the data file's order: the list the deal shuffles."""
RANK = {cid: i for i, cid in enumerate(ORDER)}
KIND_OF: dict[str, str] = {c["id"]: c["kind"] for c in DATA["cards"]}
SUPPORT = frozenset(DATA["support_categories"])
SET_CATEGORIES = frozenset(DATA["set_categories"])
BONUS_OUT: int = DATA["bonus_out"]
TARGETS: dict[str, int] = DATA["targets"]
COMPANIES: tuple[str, ...] = tuple(sorted({k["company"] for k in DATA["kinds"] if k.get("company")}))
CHIEFS: tuple[str, ...] = tuple(k["kind"] for k in DATA["kinds"] if k["category"] == "chief")
SITTING_BULL = "sitting-bull"
CUSTER = "custer"
UNKNOWN = "?"
"""The kind of a placeholder card (the orders check stands in for unseen cards)."""


def kind(cid: str) -> str:
    return KIND_OF.get(cid, UNKNOWN)


def category(cid: str) -> str:
    k = KIND_OF.get(cid)
    return KINDS[k]["category"] if k else UNKNOWN


def points(cid: str) -> int:
    k = KIND_OF.get(cid)
    return KINDS[k]["points"] if k else 0


def name(cid_or_kind: str) -> str:
    k = KIND_OF.get(cid_or_kind, cid_or_kind)
    return KINDS[k]["name"] if k in KINDS else cid_or_kind


def set_key(cid_or_kind: str) -> str | None:
    """The meld a set card belongs to: ``co-C``, ``staff``, ``scouts``, ``braves``, ``villages``."""
    k = KIND_OF.get(cid_or_kind, cid_or_kind)
    info = KINDS.get(k)
    if info is None:
        return None
    cat = info["category"]
    if cat == "company":
        return "co-" + info["company"]
    return {"staff": "staff", "scout": "scouts", "brave": "braves", "village": "villages"}.get(cat)


def card_view(cid: str) -> dict:
    """What a view shows of one card."""
    info = KINDS[KIND_OF[cid]]
    return {"id": cid, "kind": info["kind"], "name": info["name"], "short": info["short"],
            "cat": info["category"], "points": info["points"]}


def sort_cards(ids) -> list[str]:
    return sorted(ids, key=lambda c: RANK.get(c, 10_000))


# -- names as players write them ------------------------------------------------------
@lru_cache(maxsize=4096)
def norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = text.replace("'", "").replace("\u2019", "")
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(text.split())


def _aliases() -> dict[str, str]:
    out: dict[str, str] = {}

    def add(alias: str, k: str) -> None:
        out.setdefault(norm(alias), k)

    for info in DATA["kinds"]:
        k = info["kind"]
        add(info["name"], k)
        add(k.replace("-", " "), k)
        for a in info.get("aliases", ()):
            add(a, k)
        if info.get("company"):
            letter = info["company"].lower()
            role = k.split("-", 1)[1]
            words = {"commander": ["commander", "cmdr", "captain", "officer", "co"],
                     "guidon": ["guidon", "flag"], "trooper": ["trooper", "troop", "tpr", "soldier"]}[role]
            for w in words:
                for pre in (f"co {letter}", f"co{letter}", f"company {letter}", letter):
                    add(f"{pre} {w}", k)
                add(f"{w} {letter}", k)
                add(f"{w} co {letter}", k)
    for a, k in list(out.items()):  # plurals: "braves", "co c troopers"
        if not a.endswith("s") and KINDS[k]["count"] > 1:
            out.setdefault(a + "s", k)
    return out


ALIASES = _aliases()
_ALIAS_KEYS = sorted(ALIASES)


@lru_cache(maxsize=4096)
def match(text: str) -> tuple[str | None, str | None]:
    """(kind, None) when ``text`` names a card; else (None, suggested name or None)."""
    key = norm(text)
    if not key:
        return None, None
    if key in ALIASES:
        return ALIASES[key], None
    close = difflib.get_close_matches(key, _ALIAS_KEYS, n=1, cutoff=0.75)
    if close:
        return None, KINDS[ALIASES[close[0]]]["name"]
    return None, None
