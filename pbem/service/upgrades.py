"""Games that outlast a release: each game and phase records the engine's rules version and
state format it was played under; when pbem is upgraded, a running game's state is brought to
the new format (``Engine.migrate_state``) before anything reads it again.

A phase row's ``state`` and ``result_state`` are both in its ``state_format``; its
``rules_version`` is the one it was (or will be) resolved with.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from pbem.engines import Engine, UnknownEngine
from pbem.engines.base import StateFormatError
from pbem.service.adjudication import state_hash
from pbem.service.part import ServicePart
from pbem.service.store import dumps, loads

log = logging.getLogger("pbem.upgrades")


def versions_of(engine: Engine) -> dict:
    """The columns that say which rules and state format a row was made with."""
    return {"rules_version": engine.rules_version, "state_format": engine.state_format}


def starting_state(engine: Engine, row: dict) -> dict:
    """A phase row's starting state in ``engine``'s state format."""
    return engine.migrate_state(loads(row["state"]), row["state_format"])


def result_state(engine: Engine, row: dict) -> dict:
    """A resolved phase row's result in ``engine``'s state format."""
    return engine.migrate_state(loads(row["result_state"]), row["state_format"])


@dataclass(kw_only=True, eq=False)
class Upgrades(ServicePart):
    """Bringing running games to the installed engines' rules version and state format."""

    def upgrade_all(self) -> list[str]:
        """Upgrade every running game played under other versions than its engine's; the ids
        of the games upgraded. A game whose engine is missing or cannot migrate its state is
        logged and left as it was (the others still go)."""
        upgraded = []
        for g in self.records.running_games_versions():
            try:
                engine = self.engine(g["engine"])
            except UnknownEngine:
                log.warning("game %s: engine %s is not installed; not upgraded", g["id"], g["engine"])
                continue
            if (g["rules_version"], g["state_format"]) == (engine.rules_version, engine.state_format):
                continue
            try:
                if self.upgrade(g["id"]):
                    upgraded.append(g["id"])
            except StateFormatError:
                log.exception("game %s: its state could not be brought to %s's state format %s",
                              g["id"], g["engine"], engine.state_format)
        return upgraded

    def upgrade(self, game_id: str) -> bool:
        """Bring one game's open phase to its engine's state format and rules version, in one
        transaction, and log it in the game's public log. False when there was nothing to do."""
        records = self.records
        with records.write():
            g = records.game_row(game_id)
            engine = self.engine(g["engine"])
            new = versions_of(engine)
            old = {"rules_version": g["rules_version"], "state_format": g["state_format"]}
            if old == new:
                return False
            details = {"from": old, "to": new}
            ph = records.current_phase(game_id)
            if ph is not None and ph["state_format"] != engine.state_format:
                before = loads(ph["state"])
                after = engine.migrate_state(before, ph["state_format"])
                problems = engine.validate_state(after)
                if problems:
                    raise StateFormatError(f"the migrated state of {game_id} {ph['label']} is not playable: {'; '.join(problems)}")
                records.update("phases", ph["id"], {"state": dumps(after), **new})
                # The orders standing for the phase, read again against the new shape of the same position.
                for role, sub in records.standing_orders(ph["id"]).items():
                    parsed = engine.parse_orders(after, role, sub["text"])
                    records.set_submission_orders(sub["id"], parsed.orders, parsed.canonical)
                details.update(phase=ph["label"], seq=ph["seq"], state_before_sha256=state_hash(before),
                               state_after_sha256=state_hash(after))
            elif ph is not None:
                records.update("phases", ph["id"], {"rules_version": engine.rules_version})
            records.update("games", game_id, new)
            records.audit(game_id, "server", "upgrade",
                          f"{engine.name}: rules version {old['rules_version']} to {new['rules_version']}, "
                          f"state format {old['state_format']} to {new['state_format']}", details)
        return True
