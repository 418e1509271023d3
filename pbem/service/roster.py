"""Players' display names in a game (SET NAME): how reports, press, the status, the console
and the public archive name a side: "us (Jane R.)", or "you" in the player's own mail.

What a name may be (README.md, "Display names"): the name is read in its NFKC form (fullwidth
and other compatibility letters made plain), invisible characters dropped, spaces collapsed;
then it is 1 to 40 characters with at least one visible letter or digit, and it holds

* no address nor link in any script: no @ (nor a look-alike), no "://", no "www.", no "/"
  between words, no word.word the way a domain is written (dots of any script);
* no word that claims authority ("moderator", "admin", "server", "pbem" and their French);
* not a side's title or role id in any language, nor "you": a name labels a side, it cannot
  pass for one;
* no word mixing Latin, Greek and Cyrillic letters ("Сuster" with a Cyrillic С, "Mоderator"
  with a Cyrillic о): such a word reads as another name or a reserved word;
* not another player's name in the game.

Where no name was set the role alone is shown.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from pbem.i18n import N_, available_languages, gettext_for
from pbem.service.part import ServicePart

NAME_MAX = 40
#: dots a domain may be written with: ASCII, and the ideographic and fullwidth ones IDNA reads as dots
_DOTS = ".\u3002\uff0e\uff61"
_ADDRESS_LIKE = re.compile(
    r"[@\uff20\ufe6b]"                      # an at sign, or a look-alike NFKC leaves
    r"|://|\bwww\b"                           # a link
    r"|\w/\w"                                 # a path: bit.ly/x, evil.ru/pbem
    rf"|[^\W_][\w-]*[{_DOTS}][^\W\d_]{{2,}}"   # word.word: a domain in any script (Jane R. and J.R.R. are names)
    r"|\b(?:dot|point)\s+(?:com|net|org|info|biz|io|ly|ru|fr|de|uk|xyz|me|co)\b",  # spelled out: evil dot ru
    re.IGNORECASE)
#: words claiming authority, whole words, as the casefolded name without accents has them
_AUTHORITY = re.compile(r"\b(?:moderat(?:or|eur|rice)s?|admins?|administrat(?:or|eur|rice)s?|server|serveur|pbem|"
                        r"sysop|postmaster|arbitres?|arbiters?|umpires?)\b")
#: characters that show nothing though Unicode counts them as letters or symbols (fillers, blanks)
_FILLERS = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u034f"), None)
_SPACES = re.compile(r"\s+")


def clean_name(text: str) -> str:
    """The name as shown: NFKC (compatibility forms made plain, so a fullwidth @ is an @),
    control, format and filler characters dropped, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text or "").translate(_FILLERS)
    kept = "".join(c for c in text if unicodedata.category(c)[0] != "C" and not 0xFE00 <= ord(c) <= 0xFE0F)
    return _SPACES.sub(" ", kept).strip()


#: the alphabets whose letters look alike (Latin a, Cyrillic а, Greek α ...): a word may use one
_LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def _mixes_look_alike_scripts(name: str) -> bool:
    """Whether a word of ``name`` holds letters of two of the look-alike alphabets."""
    for word in re.findall(r"[^\W\d_]+", name):
        scripts = {unicodedata.name(c, "").split(" ", 1)[0] for c in word}
        if len(scripts.intersection(_LOOK_ALIKE_SCRIPTS)) > 1:
            return True
    return False


def _skeleton(text: str) -> str:
    """The name as it is compared with titles and reserved words: casefolded, accents dropped,
    everything but letters and digits made one space."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return " ".join(re.findall(r"[^\W_]+", plain))


def name_problem(name: str, reserved: set[str] = frozenset()) -> str | None:
    """Why a cleaned name cannot be used (a message id with ``%(max)d``), or None; ``reserved``:
    the skeletons of what a name may not be (the game's side titles and role ids, "you")."""
    if not name:
        return N_("A name cannot be empty.")
    if len(name) > NAME_MAX:
        return N_("A name is at most %(max)d characters.")
    if _ADDRESS_LIKE.search(name):
        return N_("A name must not look like an e-mail or web address: the other players would read it.")
    if not any(c.isalnum() for c in name):
        return N_("A name needs at least one letter or digit.")
    if _mixes_look_alike_scripts(name):
        return N_("A name must not mix Latin, Greek and Cyrillic letters in one word: it could pass for another name.")
    skeleton = _skeleton(name)
    if _AUTHORITY.search(skeleton):
        return N_("A name must not claim to speak for the server or its moderators.")
    if skeleton in reserved:
        return N_("A name must not be a side's title, a role or \"you\": the other players would take it for one.")
    return None


def side_label(role: str, name: str | None) -> str:
    """How a side is named to others: the role, and the player's chosen name when there is one."""
    return f"{role} ({name})" if name else role


YOU = N_("you")


def _as_is(role: str) -> str:
    return role


def role_labels(players: list[dict], title: Callable[[str], str] = _as_is) -> dict[str, str]:
    """role -> its label, from a game's player rows (oldest first): the side's title (the engine's
    ``role_title``; the role id by default) and the name of whoever holds it now."""
    out: dict[str, str] = {}
    for p in players:
        if p["status"] == "active" or p["role"] not in out:
            out[p["role"]] = side_label(title(p["role"]), shown_name(p["name"]) if p["status"] == "active" else "")
    return out


def shown_name(name: str | None) -> str:
    """A stored name as others read it: one stored before the rules it breaks (an address) is not shown."""
    return name if name and clean_name(name) == name and name_problem(name) is None else ""


def labels_for_reader(players: list[dict], reader_role: str | None, lang: str, title: Callable[[str], str] = _as_is) -> dict[str, str]:
    """role -> its label as one reader reads it: "you" for the reader's own role."""
    out = role_labels(players, title)
    if reader_role in out:
        out[reader_role] = gettext_for(lang)(YOU)
    return out


def named_sides(players: list[dict], reader_role: str | None, lang: str, title: Callable[[str], str] = _as_is) -> list[str]:
    """Every side as a report lists it ("US (you)", "Indians (Sitting Bull)"), or [] when no player chose a name."""
    if not any(p["name"] for p in players if p["status"] == "active"):
        return []
    labels = labels_for_reader(players, None, lang, title)
    if reader_role in labels:
        labels[reader_role] = side_label(title(reader_role), gettext_for(lang)(YOU))
    return list(labels.values())


@dataclass(kw_only=True, eq=False)
class Roster(ServicePart):
    """Display names: set one, and read every side's label in a game."""

    name_max = NAME_MAX

    def reserved_names(self, game_id: str) -> set[str]:
        """The skeletons a name in this game may not have: every side's title in every language,
        every role id, and "you" as each language writes it."""
        engine = self.engine(self.records.game_row(game_id)["engine"])
        roles = {p["role"] for p in self.records.players(game_id)}
        words = set(roles)
        for lang in (None, *available_languages()):
            gettext = gettext_for(lang)
            words.add(gettext(YOU))
            words.update(engine.role_title(role, gettext) for role in roles)
        return {_skeleton(w) for w in words}

    def set_name(self, game_id: str, player_id: int, text: str, *, actor: str) -> str | None:
        """Give the player a display name; None when done, else why not (a message id, ``%(max)d``)."""
        name = clean_name(text)
        if not name and (text or "").strip():  # only invisible characters
            return N_("A name needs at least one letter or digit.")
        problem = name_problem(name, self.reserved_names(game_id))
        if problem:
            return problem
        records = self.records
        with records.write():
            taken = [p for p in records.players(game_id) if p["id"] != player_id and p["status"] == "active"
                     and p["name"].casefold() == name.casefold()]
            if taken:
                return N_("Another player of this game already uses that name.")
            records.update("players", player_id, {"name": name})
            records.audit(game_id, actor, "set name", "", {"player": player_id, "name": name})
        return None

    def labels(self, game_id: str, *, reader_role: str | None = None, lang: str = "en") -> dict[str, str]:
        """role -> how it is named to a reader: its label, "you" for the reader's own role."""
        engine = self.engine(self.records.game_row(game_id)["engine"])
        gettext = gettext_for(lang)
        return labels_for_reader(self.records.players(game_id), reader_role, lang, lambda role: engine.role_title(role, gettext))
