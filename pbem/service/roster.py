"""Players' display names in a game (SET NAME): how reports, press, the status, the console
and the public archive name a side: "us (Jane R.)", or "you" in the player's own mail.

A name is plain text a player chose; it never shows an address: a name that looks like one
is refused, and where no name was set the role alone is shown.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from pbem.i18n import N_, gettext_for
from pbem.service.part import ServicePart

NAME_MAX = 40
_ADDRESS_LIKE = re.compile(r"@|://|\bwww\.|\.(?:com|org|net|fr|de|uk|io)\b", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def clean_name(text: str) -> str:
    """The name as shown: control and format characters dropped, spaces collapsed."""
    kept = "".join(c for c in unicodedata.normalize("NFC", text or "") if unicodedata.category(c)[0] != "C")
    return _SPACES.sub(" ", kept).strip()


def name_problem(name: str) -> str | None:
    """Why a cleaned name cannot be used (a message id with ``%(max)d``), or None."""
    if not name:
        return N_("A name cannot be empty.")
    if len(name) > NAME_MAX:
        return N_("A name is at most %(max)d characters.")
    if _ADDRESS_LIKE.search(name):
        return N_("A name must not look like an e-mail or web address: the other players would read it.")
    if not any(c.isalnum() for c in name):
        return N_("A name needs at least one letter or digit.")
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
            out[p["role"]] = side_label(title(p["role"]), p["name"] if p["status"] == "active" else "")
    return out


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

    def set_name(self, game_id: str, player_id: int, text: str, *, actor: str) -> str | None:
        """Give the player a display name; None when done, else why not (a message id, ``%(max)d``)."""
        name = clean_name(text)
        problem = name_problem(name)
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
