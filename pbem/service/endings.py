"""Ending a game by agreement: a draw every player still in the game accepts before the
next deadline, or a concession in a two-sided game (the other side wins).

Each operation returns None when done, or why it could not be done (a message id the mail
answers with and the web shows); the outcome is recorded like an engine's own
(``games.outcome``: summary message id and its arguments), told to every player and
observer, and shown in the archive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pbem.i18n import N_
from pbem.service.clock import to_iso
from pbem.service.mail_writer import MailWriter
from pbem.service.observers import Observers
from pbem.service.part import ServicePart
from pbem.service.roster import role_labels
from pbem.service.store import dumps, loads

CONCEDED = N_("%(loser)s conceded; %(winner)s win.")
DRAWN = N_("The game ended in a draw agreed by every player.")
#: the outcome told to every player and observer, each in their language
OVER = {CONCEDED: N_("The game is over: %(loser)s conceded; %(winner)s win."),
        DRAWN: N_("The game is over: a draw agreed by every player.")}
#: the same, as the side who conceded and the side who won read it
OVER_CONCEDED_BY_YOU = N_("The game is over: you conceded; %(winner)s win.")
OVER_YOU_WIN = N_("The game is over: %(loser)s conceded; you win.")


LAPSED = N_("The draw %(who)s proposed lapsed: phase %(phase)s was resolved before every player accepted it.")
LAPSED_YOURS = N_("The draw you proposed lapsed: phase %(phase)s was resolved before every player accepted it.")
PROPOSED = N_("%(who)s proposes a draw. It ends the game if every player sends ACCEPT DRAW "
              "before the deadline of %(phase)s; REJECT DRAW or the deadline cancels it.")
PROPOSED_BY_YOU = N_("You propose a draw. It ends the game if every other player sends ACCEPT DRAW "
                     "before the deadline of %(phase)s; REJECT DRAW or the deadline cancels it.")
REJECTED = N_("%(who)s rejected the draw; the game goes on.")
REJECTED_BY_YOU = N_("You rejected the draw; the game goes on.")


def lapse_draw(records, mail: MailWriter, game_id: str, phase: dict) -> None:
    """The phase a draw was proposed in is resolved: the proposal lapses and every player is told
    (called by Phases.close inside its transaction)."""
    row = records.open_draw_row(game_id)
    if row is None or row["phase_row_id"] != phase["id"]:
        return
    records.close_draw(row["id"], "lapsed")
    mail.queue_notice(game_id, LAPSED, serial=f"draw{row['id']}-lapsed", own={row["proposed_by"]: LAPSED_YOURS},
                      args={"who": role_labels(records.players(game_id)).get(row["proposed_by"], row["proposed_by"]), "phase": phase["label"]})


@dataclass(kw_only=True, eq=False)
class Endings(ServicePart):
    mail: MailWriter
    observers: Observers
    notify: Callable[..., None]
    #: told (inside the transaction) that a game has just finished: its result, ratings, tournament
    game_over: Callable[[str], None] = lambda game_id: None

    # -- concession -------------------------------------------------------------------------
    def concede(self, game_id: str, role: str) -> str | None:
        records = self.records
        with records.write():
            refusal = self._not_running(game_id)
            if refusal:
                return refusal
            roles = sorted({p["role"] for p in records.players(game_id)})
            if len(roles) != 2:
                return N_("Only a two-sided game can be conceded; send RESIGN to leave it or PROPOSE DRAW.")
            winner = next(r for r in roles if r != role)
            labels = self._labels(game_id)
            self._finish(game_id, actor=role, action="concede", outcome={
                "winner": winner, "conceded_by": role, "summary": CONCEDED,
                "args": {"loser": labels[role], "winner": labels[winner]}})
        return None

    # -- draws ------------------------------------------------------------------------------
    def open_draw(self, game_id: str) -> dict | None:
        """The draw proposal still open: made during the phase that is open now."""
        row = self.records.open_draw_row(game_id)
        if row is None:
            return None
        phase = self.records.current_phase(game_id)
        if phase is None or phase["id"] != row["phase_row_id"]:  # the deadline passed: it lapsed
            self.records.close_draw(row["id"], "lapsed")
            return None
        row["accepted"] = loads(row["accepted"], [])
        return row

    def propose_draw(self, game_id: str, role: str) -> str | None:
        records = self.records
        with records.write():
            refusal = self._not_running(game_id)
            if refusal:
                return refusal
            if self.open_draw(game_id):
                return N_("A draw is already proposed; answer it with ACCEPT DRAW or REJECT DRAW.")
            phase = records.current_phase(game_id)
            draw_id = records.insert("draws", {"game_id": game_id, "phase_row_id": phase["id"], "proposed_by": role,
                                               "accepted": dumps([role]), "created_at": to_iso(self.now())})
            records.audit(game_id, role, "propose draw", "", {"phase": phase["label"]})
            self.mail.queue_notice(game_id, PROPOSED, serial=f"draw{draw_id}", own={role: PROPOSED_BY_YOU},
                                   args={"who": self._labels(game_id)[role], "phase": phase["label"]})
            self._accept(game_id, role)  # alone in the game: agreed at once
        self.notify("outbox", game_id)
        return None

    def accept_draw(self, game_id: str, role: str) -> str | None:
        with self.records.write():
            if self.open_draw(game_id) is None:
                return N_("No draw is proposed in this game now; send PROPOSE DRAW to propose one.")
            self._accept(game_id, role)
        self.notify("outbox", game_id)
        return None

    def reject_draw(self, game_id: str, role: str) -> str | None:
        records = self.records
        with records.write():
            draw = self.open_draw(game_id)
            if draw is None:
                return N_("No draw is proposed in this game now.")
            records.close_draw(draw["id"], "rejected")
            records.audit(game_id, role, "reject draw", "", {})
            self.mail.queue_notice(game_id, REJECTED, serial=f"draw{draw['id']}-rejected", own={role: REJECTED_BY_YOU},
                                   args={"who": self._labels(game_id)[role]})
        self.notify("outbox", game_id)
        return None

    def _accept(self, game_id: str, role: str) -> None:
        draw = self.open_draw(game_id)
        accepted = draw["accepted"] + ([role] if role not in draw["accepted"] else [])
        self.records.set_draw_accepted(draw["id"], accepted)
        if role != draw["proposed_by"]:
            self.records.audit(game_id, role, "accept draw", "", {})
        in_game = {p["role"] for p in self.records.players(game_id) if p["status"] == "active"}
        if in_game <= set(accepted):
            self.records.close_draw(draw["id"], "agreed")
            self._finish(game_id, actor=role, action="draw", outcome={
                "winner": None, "draw": True, "summary": DRAWN, "args": {}, "accepted_by": sorted(accepted)})

    # -- shared -----------------------------------------------------------------------------
    def _not_running(self, game_id: str) -> str | None:
        g = self.records.game_row(game_id)
        if g is None or g["status"] == "finished" or self.records.current_phase(game_id) is None:
            return N_("The game is over.")
        return None

    def _labels(self, game_id: str) -> dict[str, str]:
        return role_labels(self.records.players(game_id))

    def _finish(self, game_id: str, *, actor: str, action: str, outcome: dict) -> None:
        """The game ends now: outcome recorded, the open phase closed unresolved, everyone told."""
        records, now = self.records, to_iso(self.now())
        phase = records.current_phase(game_id)
        if phase is not None:
            records.end_phase_unresolved(phase["id"])
        records.set_game_status(game_id, "finished", outcome=dumps(outcome), finished_at=now)
        records.audit(game_id, actor, action, "", {"outcome": outcome})
        self.game_over(game_id)
        told = OVER[outcome["summary"]]
        own = {outcome["conceded_by"]: OVER_CONCEDED_BY_YOU, outcome["winner"]: OVER_YOU_WIN} if "conceded_by" in outcome else {}
        self.mail.queue_notice(game_id, told, serial=f"end-{action}", args=outcome["args"], own=own)
        self.observers.tell(game_id, told, serial=f"end-{action}", args=outcome["args"])
        self.notify("phase", game_id)
