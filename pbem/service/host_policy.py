"""The host's policies for a club (issue 28): how conceded, drawn and stand-in games are rated, and
who may start a game by mail (NEW GAME), how many open games one address may start, whether
creation is closed, and how long an open game waits for its players.

Each policy is a named setting with its choices and default (:data:`POLICIES`), stored in the
database's ``settings`` table (``policy.<name>``), so the CLI (`pbem host set`) and the console
change the running server's at once. README.md, "Clubs", lists them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pbem.mail.addresses import normalise_address
from pbem.service.errors import ServiceError
from pbem.service.part import ServicePart


@dataclass(frozen=True)
class Policy:
    name: str
    default: str
    what: str
    choices: tuple[str, ...] = ()  #: the values it takes; empty: a number (``low``..``high``) or a list of addresses
    low: int = 0
    high: int = 0
    addresses: bool = False

    def read(self, value: str) -> str:
        """The value in its stored form, or a ServiceError naming what it takes."""
        value = (value or "").strip()
        if self.choices:
            if value.lower() not in self.choices:
                raise ServiceError(f"{self.name} is one of {', '.join(self.choices)}, not {value!r}")
            return value.lower()
        if self.addresses:
            words = [w for w in value.replace(",", " ").split() if w]
            found = [normalise_address(w) for w in words]
            if None in found:
                raise ServiceError(f"{self.name} is a list of addresses; {words[found.index(None)]!r} is not one")
            return ",".join(sorted({a.lower() for a in found}))
        if not value.isdigit() or not self.low <= int(value) <= self.high:
            raise ServiceError(f"{self.name} is a whole number from {self.low} to {self.high}, not {value!r}")
        return str(int(value))


POLICIES: dict[str, Policy] = {p.name: p for p in (
    Policy("ratings.conceded", "loss", "a conceded game: rated as the conceding side's loss, or not rated", ("loss", "unrated")),
    Policy("ratings.drawn", "draw", "a drawn game (agreed, or a tie the rules give): rated as a draw, or not rated", ("draw", "unrated")),
    Policy("ratings.stand_in", "exclude_if_decided",
           "a game in which a stand-in gave orders for an absent player: rated (count), never rated (exclude), or not rated "
           "when the stand-in played its last phase (exclude_if_decided)", ("count", "exclude", "exclude_if_decided")),
    Policy("creation", "open", "whether players may start games by mail (NEW GAME)", ("open", "closed")),
    Policy("creators", "anyone", "who may start a game by mail: anyone, players (an address that plays or played a game here), "
           "or list (the addresses in creators.list)", ("anyone", "players", "list")),
    Policy("creators.list", "", "the addresses that may start a game when creators is 'list'", addresses=True),
    Policy("creation.open_per_address", "2", "how many games one address may have waiting for players at once", low=0, high=50),
    Policy("creation.lapse_hours", "168", "how long a game started by mail waits for its players before it lapses", low=1, high=2160),
)}


@dataclass(kw_only=True, eq=False)
class HostPolicy(ServicePart):
    #: told the name of a policy that changed (the ratings are recomputed when a rating policy does)
    changed: Callable[[str], None]

    def get(self, name: str) -> str:
        policy = POLICIES[name]
        stored = self.records.store.get_setting(f"policy.{name}")
        return policy.default if stored is None else stored

    def number(self, name: str) -> int:
        return int(self.get(name))

    def addresses(self, name: str) -> set[str]:
        return {a for a in self.get(name).split(",") if a}

    def all(self) -> dict[str, str]:
        return {name: self.get(name) for name in POLICIES}

    def set(self, name: str, value: str, *, actor: str) -> str:
        """Change one policy (a ServiceError for an unknown one or a value it does not take); the value stored."""
        policy = POLICIES.get(name)
        if policy is None:
            raise ServiceError(f"there is no policy {name!r} (policies: {', '.join(POLICIES)})")
        stored = policy.read(value)
        with self.records.write():
            old = self.get(name)
            self.records.store.set_setting(f"policy.{name}", stored)
            self.records.audit(None, actor, "host policy", "", {"policy": name, "old": old, "new": stored}, public=False)
            if old != stored:
                self.changed(name)
        return stored
