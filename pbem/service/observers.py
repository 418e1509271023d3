"""Observers: addresses that receive each phase's public report of a game (OBSERVE), and
the games a newcomer may watch or join (LIST).

An observer sees what the engine shows nobody in particular (``view(state, None)``, the
events every role may see): no hidden hand, no hidden unit, no player's address. Anyone
can write any From, so an address becomes an observer only by sending back the code mailed
to it (as JOIN's newcomer does); until then nothing of it is stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.i18n import N_, gettext_for
from pbem.mail.commands import REGISTRY
from pbem.service.clock import to_iso
from pbem.service.errors import ServiceError
from pbem.service.mail_writer import MailWriter, shown_seed
from pbem.service.outbox import Outgoing
from pbem.service.mailed_codes import is_code, mailed_code
from pbem.service.part import ConfiguredPart
from pbem.service.render import template_exists
from pbem.service.unsubscribe import OBSERVER
from pbem.service.upgrades import result_state


def _unobserve_word(lang: str) -> str:
    """UNOBSERVE as an observer types it (pbem.mail.commands.observe declares it)."""
    keywords = REGISTRY.named("UNOBSERVE").keywords
    return keywords.get(lang, keywords["en"])[0]


@dataclass(kw_only=True, eq=False)
class Observers(ConfiguredPart):
    mail: MailWriter

    def confirmation_code(self, game_id: str, email: str) -> str:
        """The code that proves the address reads its mail: derived, so nothing is stored before it comes back."""
        return mailed_code(self.settings.secret_key, "observe", game_id, email.lower())

    def may_watch(self, game_id: str) -> str | None:
        """None when the game can be watched, else why not (a message id with ``%(game)s``)."""
        g = self.records.game_row(game_id)
        if g is None:
            return N_("There is no game %(game)s here; send LIST for the games you can watch.")
        if not g["observers_allowed"]:
            return N_("Game %(game)s was created closed to observers.")
        if g["status"] == "finished":
            return N_("Game %(game)s is over; its archive is on the web.")
        return None

    def set_open(self, game_id: str, allowed: bool, *, actor: str, reason: str) -> None:
        """A moderator opens the game to observers or closes it (closing stops the reports to every observer)."""
        if not (reason or "").strip():
            raise ServiceError(N_("a reason is required; it goes into the game's public moderation log"))
        records = self.records
        with records.write():
            if records.game_row(game_id) is None:
                raise ServiceError(f"no game {game_id}")
            records.update("games", game_id, {"observers_allowed": int(allowed)})
            if not allowed:
                for row in records.observers(game_id):
                    records.remove_observer(row["id"])
            records.audit(game_id, actor, "observers", reason.strip(), {"allowed": bool(allowed)})

    def observe(self, game_id: str, email: str, code: str, lang: str = "en") -> str | None:
        """Start sending the game's public reports to ``email`` once ``code`` is the one mailed to it."""
        refusal = self.may_watch(game_id)
        if refusal:
            return refusal
        if not is_code(code, self.confirmation_code(game_id, email)):
            return N_("That code is not the one mailed to this address for game %(game)s.")
        records = self.records
        with records.write():
            if records.observer(game_id, email) is None:
                records.insert("observers", {"game_id": game_id, "email": email.lower(), "lang": lang, "created_at": to_iso(self.now())})
                # the count only: an observer's address is nobody else's business
                records.audit(game_id, "observer", "observe", "", {"observers": len(records.observers(game_id))})
        return None

    def unobserve_code(self, game_id: str, email: str) -> str:
        """The code that stops an observer's reports: mailed to the observer only (every report carries it)."""
        return mailed_code(self.settings.secret_key, "unobserve", game_id, email.lower())

    def watches(self, game_id: str, email: str) -> bool:
        return self.records.observer(game_id, email.lower()) is not None

    def unobserve(self, game_id: str, email: str, code: str) -> bool:
        """Stop, once ``code`` is the one mailed to the address; False when it is not, or the
        address was not watching the game (a forged From stops nobody's reports)."""
        if not is_code(code, self.unobserve_code(game_id, email)):
            return False
        records = self.records
        with records.write():
            row = records.observer(game_id, email.lower())
            if row is None:
                return False
            records.remove_observer(row["id"])
        return True

    def tell(self, game_id: str, msgid: str, *, serial: str, args: dict) -> int:
        """A server notice to every observer, each in their language."""
        for row in self.records.observers(game_id):
            _ = gettext_for(row["lang"])
            self.mail.queue_message(kind="observer", game_id=game_id, player=None, to_addr=row["email"], lang=row["lang"],
                                    subject=_("Notice from the server"), template="mail/notice.txt.j2",
                                    key=f"observer-notice/{game_id}/{serial}/{row['id']}", text=_(msgid) % args,
                                    unsubscribe=(OBSERVER, row["id"]))
        return len(self.records.observers(game_id))

    def report_mails(self, game_id: str, phase: dict, next_phase: dict | None, game: dict | None = None,
                     correction: str | None = None) -> list[Outgoing]:
        """Each observer's copy of a resolved phase's public report, not yet queued (``game``:
        the games row as the report shows it, when a close that ends the game prepares it;
        ``correction``: what a moderator's published correction changed, from the public view,
        which this report of the corrected phase then tells)."""
        rows = self.records.observers(game_id)
        engine_name = (game or self.records.game_row(game_id))["engine"] if rows else ""
        mails = []
        if rows:
            engine = self.engine(engine_name)
            state = result_state(engine, phase)
            own = f"{engine_name}/report.txt.j2"
            engine_txt = own if template_exists(own) else "mail/_events.txt.j2"
        by_lang: dict[str, tuple[dict, dict]] = {}  # one public view and seed line per language, for every observer of it
        for row in rows:
            lang = row["lang"]
            if lang not in by_lang:
                by_lang[lang] = (self.mail.report_parts(game_id, None, None, phase, next_phase, lang, game),
                                 dict(phase, seed=shown_seed(engine, state, phase, lang)))
            parts, shown = by_lang[lang]
            _ = gettext_for(lang)
            mails.append(self.mail.message_mail(
                kind="observer", game_id=game_id, player=None, to_addr=row["email"], lang=lang, game=game,
                subject=(_("Correction to %(phase)s (observer)") if correction else _("Report %(phase)s (observer)")) % {"phase": phase["label"]},
                template="mail/observer_report.txt.j2", note=correction,
                key=f"observer{'-correction' if correction else ''}/{game_id}/{phase['seq']}.{phase['revision']}/{row['id']}",
                role=None, phase=shown, phase_id=phase["label"], next_phase=next_phase, view=parts["view"],
                events=parts["events"], orders=parts["orders"], outcome=parts["outcome"], picture_cid=None,
                engine_txt=engine_txt, link=None,
                unsubscribe=(OBSERVER, row["id"]),
                stop_line=f"{_unobserve_word(lang)} {game_id} {self.unobserve_code(game_id, row['email'])}",
            ))
        return mails
