"""The roster: who is on the board, what each piece is, and the names players may use.

Piece codes are the same in French and English (S = soldier/soldat, O = officer/officier,
CH = chief/chef, T = tomahawk, I = Indian/Indien), so events and pictures can name
pieces without carrying English into a French report.
"""

from __future__ import annotations

from dataclasses import dataclass

LC = "longs_couteaux"
PR = "peaux_rouges"
ROLES = (LC, PR)
SIDE_CODE = {LC: "LC", PR: "PR"}


@dataclass(frozen=True)
class Kind:
    name: str
    side: str
    mounted: bool
    reach: int  # 3 for firearms, 1 for tomahawks (adjacent only)
    shots: int  # attacks a turn: 2 for Custer and his officers
    en: str
    fr: str


KINDS = {
    "custer": Kind("custer", LC, False, 3, 2, "General Custer", "Général Custer"),
    "officer": Kind("officer", LC, False, 3, 2, "Officer", "Officier"),
    "soldier": Kind("soldier", LC, False, 3, 1, "Soldier", "Soldat"),
    "chief": Kind("chief", PR, True, 3, 1, "Chief", "Chef"),
    "tomahawk": Kind("tomahawk", PR, True, 1, 1, "Tomahawk", "Tomahawk"),
    "indian": Kind("indian", PR, False, 3, 1, "Indian", "Indien"),
}

# (code prefix, kind, count) in roster order.
ROSTER = (
    ("C", "custer", 1),
    ("O", "officer", 2),
    ("S", "soldier", 6),
    ("CH", "chief", 3),
    ("T", "tomahawk", 3),
    ("I", "indian", 6),
)


def _codes() -> dict[str, str]:
    out = {}
    for prefix, kind, count in ROSTER:
        if count == 1:
            out[prefix] = kind
        else:
            for i in range(1, count + 1):
                out[f"{prefix}{i}"] = kind
    return out


PIECES: dict[str, str] = _codes()  # code -> kind name, in roster order
ORDER = {code: i for i, code in enumerate(PIECES)}
LEADERS = ("C", "O1", "O2")
CHIEFS = ("CH1", "CH2", "CH3")


def kind_of(code: str) -> Kind:
    return KINDS[PIECES[code]]


def side_of(code: str) -> str:
    return KINDS[PIECES[code]].side


def other(role: str) -> str:
    return PR if role == LC else LC


def display_name(code: str, lang: str = "en") -> str:
    kind = kind_of(code)
    word = kind.fr if lang == "fr" else kind.en
    number = code.lstrip("CHOSTI") if code != "C" else ""
    return f"{word} {number}".strip()


# Words that name a kind, as written in orders (accents stripped, upper case, no spaces).
KIND_WORDS = {
    "custer": ("CUSTER", "GENERALCUSTER", "GENERAL", "GEN", "C"),
    "officer": ("OFFICER", "OFFICIER", "OFF", "O"),
    "soldier": ("SOLDIER", "SOLDAT", "SOLDIERS", "S"),
    "chief": ("CHIEF", "CHEF", "CH"),
    "tomahawk": ("TOMAHAWK", "TOMAHAWKRIDER", "T"),
    "indian": ("INDIAN", "INDIEN", "WARRIOR", "GUERRIER", "BRAVE", "I"),
}

FRENCH_WORDS = {"SOLDAT", "OFFICIER", "CHEF", "INDIEN", "GUERRIER"}
ENGLISH_WORDS = {"SOLDIER", "SOLDIERS", "OFFICER", "CHIEF", "INDIAN", "WARRIOR", "TOMAHAWKRIDER"}


def aliases() -> dict[str, str]:
    """Every full name a player may write (normalised) -> piece code."""
    out: dict[str, str] = {}
    for code, kind in PIECES.items():
        number = "" if code == "C" else code.lstrip("CHOSTI")
        for word in KIND_WORDS[kind]:
            if number:
                out[f"{word}{number}"] = code
            elif word != "GEN":
                out[word] = code
        out[code] = code
    out["GEN"] = "C"
    return out


ALIASES = aliases()
