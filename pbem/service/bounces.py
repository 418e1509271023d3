"""What a bounce does (issue 27). Each mail leaves with its own return path (pbem.service.sealing);
the report that comes back to it (pbem.mail.dsn) names the mail, and through it the player.

* A hard bounce (the mail failed for good: 5.x.x) marks the address undeliverable: mail to it
  is withheld from then on (pbem.service.undeliverable), the game's moderators are told (their
  console and a mail), and the other players only that the side "has not received the last
  report". The game goes on: at the deadline its rule for missing orders applies, as for anyone.
  An observer whose address bounces stops receiving the game's reports.
* A soft bounce (delayed, 4.x.x) is recorded and left to the relay, which retries.
* Anything else sent to a return path (an automatic reply, a read receipt, a person) is kept
  and never answered, and a return path whose check is wrong (forged) is never believed.
* A player whose address is marked, writing again with their token from a confirmed address,
  gets the reports they missed (as HISTORY sends them): mail from the marked address itself
  lifts the mark; mail from another confirmed address (SET ADDRESS registers one) moves their
  mail there.

The mail room calls :meth:`Bounces.take` first on every message and :meth:`Bounces.heard_from`
once the sender of a game address is known; both act inside the mail room's transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from pbem.i18n import N_, gettext_for
from pbem.mail.dsn import BOUNCE, Recipient, read_report
from pbem.mail.return_paths import is_return_path, parse_return_path
from pbem.service.clock import to_iso
from pbem.service.history import History
from pbem.service.mail_writer import MailWriter
from pbem.service.part import ConfiguredPart
from pbem.service.roster import Roster

log = logging.getLogger("pbem.bounces")

#: what the other players are told, and nothing more (no address, no reason)
NOT_RECEIVED = N_("%(side)s has not received the last report: mail to them could not be delivered.")


@dataclass(kw_only=True, eq=False)
class Bounces(ConfiguredPart):
    mail: MailWriter
    history: History
    roster: Roster
    notify: Callable[..., None]

    # -- reports coming back ---------------------------------------------------------------------
    def take(self, room) -> bool:
        """Read a message sent to one of our return paths (True), never answering it; False for
        any other message, which the mail room handles as usual."""
        domain = self.settings.mail_domain
        addressed = [a for a in room.msg.recipients if is_return_path(a, domain)]
        if not addressed:
            return False
        room.status = "ignored"
        outbox_id = next((i for i in (parse_return_path(a, self.settings.secret_key, domain) for a in addressed) if i is not None), None)
        if outbox_id is None:
            room.note("mail to a return path whose check is wrong (forged, or changed on the way): not believed, never answered")
            return True
        sent = self.records.sent_mail(outbox_id)
        if sent is None:
            room.note(f"mail to the return path of outbox #{outbox_id}, which is not in the outbox: never answered")
            return True
        report = read_report(room.msg.raw)
        failure = report.first_failure if report.kind == BOUNCE else None
        if failure is None:
            room.note(f"mail to the return path of outbox #{outbox_id} that reports no failed delivery ({report.kind}): never answered")
            return True
        bounce_id = self.records.record_bounce({
            "inbound_id": room.inbound_id, "outbox_id": outbox_id, "address": sent["to_addr"].lower(),
            "permanent": int(report.permanent), "status": failure.status, "diagnostic": failure.diagnostic[:1000],
            "reporter": (report.reporter or "")[:200] or None, "received_at": to_iso(room.now)})
        code = failure.status or "no status code"
        if not report.permanent:
            room.note(f"soft bounce of outbox #{outbox_id} to {sent['to_addr']} ({code}): left to the relay's retries")
            return True
        room.status = "processed"
        room.note(f"hard bounce of outbox #{outbox_id} ({sent['kind']}) to {sent['to_addr']} ({code})")
        self._hard_bounce(room, sent, bounce_id, failure)
        return True

    def _hard_bounce(self, room, sent: dict, bounce_id: int, failure: Recipient) -> None:
        records, address = self.records, sent["to_addr"].lower()
        if records.undeliverable_mark(address) is not None:
            room.note(f"{address} is marked undeliverable already")
            return
        records.mark_undeliverable(address, since=sent["created_at"], bounce_id=bounce_id)
        log.warning("mail to %s bounced for good (%s %s): marked undeliverable, its mail withheld",
                    address, failure.status or "", failure.diagnostic[:200])
        for observer in records.observers_at(address):
            records.remove_observer(observer["id"])
            room.note(f"observer of {observer['game_id']} removed: its address bounces")
        players = records.players_at(address)
        for player in players:
            self._tell_game(player, bounce_id, failure)
        mine = next((p for p in players if p["id"] == sent["player_id"]), players[0] if players else None)
        if mine is not None:
            room.attribute_to(mine)

    def _tell_game(self, player: dict, bounce_id: int, failure: Recipient) -> None:
        """The game's moderators (each by mail, and on the console) and its other players."""
        game_id = player["game_id"]
        self.records.audit(game_id, "server", "undeliverable", "", {"role": player["role"], "bounce": bounce_id}, public=False)
        for moderator in self.records.moderators_of(game_id):
            lang = moderator.get("lang") or "en"
            _ = gettext_for(lang)
            self.mail.queue_message(
                kind="moderator", game_id=None, player=None, to_addr=moderator["email"], lang=lang,
                subject=_("%(game)s: mail to %(role)s bounced") % {"game": game_id, "role": player["role"]},
                template="mail/undeliverable.txt.j2", key=f"undeliverable/{game_id}/{bounce_id}/moderator{moderator['id']}",
                game_id_shown=game_id, role=player["role"], address=player["email"], status=failure.status or "",
                diagnostic=failure.diagnostic, console=f"{self.settings.web_url}/console/games/{game_id}")
        for other in self.records.players(game_id):
            if other["status"] != "active" or other["id"] == player["id"]:
                continue
            _ = gettext_for(other["lang"])
            side = self.roster.labels(game_id, lang=other["lang"]).get(player["role"], player["role"])
            self.mail.queue_message(kind="press", game_id=game_id, player=other, to_addr=other["email"], lang=other["lang"],
                                    subject=_("Notice from the server"), template="mail/notice.txt.j2",
                                    key=f"undeliverable/{game_id}/{bounce_id}/{other['id']}", text=_(NOT_RECEIVED) % {"side": side})
        self.notify("outbox", game_id)

    # -- the player heard from again ---------------------------------------------------------------
    def heard_from(self, room) -> None:
        """A player whose address is marked wrote with their token from a confirmed address:
        the mark no longer stands between them and the game, and the reports they missed go out."""
        player = room.player
        if not room.sender_confirmed or not player or not player["email"] or not room.sender:
            return
        mark = self.records.undeliverable_mark(player["email"])
        if mark is None:
            return
        sender = room.sender.lower()
        if sender == player["email"].lower():
            self.records.lift_undeliverable(mark["id"], why=f"mail from {sender} (inbound #{room.inbound_id})")
            room.note(f"{sender} wrote again: its undeliverable mark is lifted")
        else:
            room.update_player(email=sender)
            room.note(f"the address of {player['role']} was marked undeliverable: their mail goes to {sender}, which wrote")
        self.records.audit(room.game_id, "server", "deliverable again", "", {"role": player["role"]}, public=False)
        missed = [p for p in self.records.resolved_phases(room.game_id) if (p["resolved_at"] or "") >= mark["since"]]
        for phase in missed:
            self.history.resend(room.game_id, room.player, phase, copy=room.inbound_id)
        if missed:
            room.note(f"the reports missed since {mark['since']} sent again: {', '.join(p['label'] for p in missed)}")

    # -- what the console shows --------------------------------------------------------------------
    def marks_of_game(self, game_id: str) -> dict[int, dict]:
        """player id -> the active mark on their address, for the game's active players."""
        return {m["player_id"]: m for m in self.records.undeliverable_players(game_id)}
