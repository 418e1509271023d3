"""A game's history as one player may read it again (HISTORY): the resolved phases, and one
phase's report re-sent as that player received it (their role's view, never another's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pbem.service.mail_writer import MailWriter
from pbem.service.part import ServicePart


@dataclass(kw_only=True, eq=False)
class History(ServicePart):
    mail: MailWriter
    notify: Callable[..., None]

    def phases(self, game_id: str) -> list[dict]:
        """(seq, label, resolved_at) of every resolved phase, in order."""
        return [{"seq": p["seq"], "label": p["label"], "resolved_at": p["resolved_at"]} for p in self.records.resolved_phases(game_id)]

    def find(self, game_id: str, wanted: str) -> dict | None:
        """A resolved phase by its label (any case; the latest of that label) or by its number."""
        rows = self.records.resolved_phases(game_id)
        by_label = [p for p in rows if p["label"].casefold() == wanted.casefold()]
        if by_label:
            return by_label[-1]
        return next((p for p in rows if wanted.isdigit() and p["seq"] == int(wanted)), None)

    def resend(self, game_id: str, player: dict, phase: dict, *, copy: int) -> str | None:
        """Queue the phase's report again for the player's own role (a fresh copy)."""
        with self.records.write():
            nxt = self.records.live_phase(game_id, phase["seq"] + 1)
            # an old report does not ask again for orders to a phase already resolved
            mid = self.mail.queue_report(game_id, player, phase, nxt if nxt and nxt["status"] == "open" else None, copy=copy)
        self.notify("outbox", game_id)
        return mid
