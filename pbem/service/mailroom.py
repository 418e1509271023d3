"""Mail in: keep the raw bytes, decide who sent it and what it asks, answer.

What each command does is declared in pbem.mail.commands; this module decides which
handler runs and is the context the handlers act through (:class:`MessageHandling`).

Who may order: the From header proves nothing. Orders count only with a valid,
unrevoked token in the address they were sent to *and* a From address
registered to that token's player. A valid token from another address holds
the orders until the registered player confirms them. Refusals and warnings go
to the registered player, never to whoever sent the mail.

Backscatter: anyone can write any From, so mail without a valid token is answered only
where an answer is needed (HELP, JOIN: :data:`ANSWERED_WITHOUT_TOKEN`) or as a warning to
a registered player; such answers never quote the mail's subject, body or file names, and
are counted apart from answers to mail with a valid token, per address and for all
addresses together (``stranger_replies_per_hour``).

Every answer goes through one brake (pbem.service.answers): one mail causes at most one
answer of each kind to an address, and each counts against the address's, the kind's and the
game's hourly budgets. A command whose handling raises is undone alone: the mail's other
commands are carried out, and the sender is told which one failed.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import sqlite3
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from pbem.engines import all_engines
from pbem.i18n import N_, gettext_for
from pbem.mail.addresses import parse_orders_address
from pbem.mail.command_parser import find_commands, quotes_a_command
from pbem.mail.command_syntax import UNKNOWN
from pbem.mail.commands import REGISTRY
from pbem.mail.inbound import parse_message
from pbem.mail.reply_text import new_text
from pbem.moments import format_moment
from pbem.service import orders_intake
from pbem.service.part import ConfiguredPart
from pbem.service.phases import Phases
from pbem.service.clock import from_iso, to_iso
from pbem.service.errors import TemporaryFailure
from pbem.service.answers import Answers
from pbem.service.store import dumps

log = logging.getLogger("pbem.mailroom")

#: commands of the general address whose answer a sender without a token needs: those declared
#: ``answers_strangers`` (HELP, JOIN, CONFIRM of a held role, LIST, OBSERVE, and UNOBSERVE to an address that was watching)
ANSWERED_WITHOUT_TOKEN = frozenset(c.name for c in REGISTRY if c.answers_strangers)


#: a submission's status as an acknowledgement's note names it
STATUS_WORDS = {"accepted": N_("accepted"), "partial": N_("accepted in part"), "rejected": N_("rejected")}


def _each_once(commands: list) -> list:
    """The commands without the lines that repeat an earlier one word for word (the first kept)."""
    seen: dict[tuple, object] = {}
    for cmd in commands:
        seen.setdefault((cmd.name, tuple(cmd.args), cmd.body), cmd)
    return list(seen.values())


class _PastDeadline(Exception):
    """Addressed games' open phases past their deadline, found before anything was written."""

    def __init__(self, phases: list[tuple[str, dict]]):
        super().__init__(", ".join(game_id for game_id, _ in phases))
        self.phases = phases


@dataclass(kw_only=True, eq=False)
class MailRoom(ConfiguredPart):
    """Mail in: every message stored, its sender and commands decided, answered."""

    phases: Phases
    notify: Callable[..., None]
    # The whole service, which the mail commands' handlers act through (``ctx.svc``:
    # pbem/mail/commands/ and docs/mail-commands.md); the mail room itself uses only its fields.
    service: Any
    # In `pbem serve` a phase that every awaited role has ordered is resolved by the
    # scheduler, so the SMTP answer does not wait for the turn's reports to be drawn;
    # alone (tests, `pbem ingest`) it is resolved before receive() returns.
    defer_immediate_closes: bool = False

    def receive(self, raw: bytes, *, via: str = "smtp", envelope_from: str | None = None, envelope_to=()) -> dict:
        """Store one inbound message and act on it. Never loses it: on a bug the raw
        bytes are kept with status 'error'; when nothing can be stored, raises
        :class:`TemporaryFailure`."""
        now = self.now()
        sha = hashlib.sha256(raw).hexdigest()
        msg = parse_message(raw, envelope_from=envelope_from, envelope_to=list(envelope_to))
        addressed = sorted({a[0] for a in (parse_orders_address(r, self.settings.mail_domain) for r in msg.recipients) if a})
        row = {
            "received_at": to_iso(now), "via": via, "envelope_from": envelope_from, "envelope_to": dumps(list(envelope_to)),
            "message_id": msg.message_id, "from_addr": msg.from_addr, "subject": (msg.subject or "")[:500],
            "sha256": sha, "raw": raw, "status": "processing",
        }
        try:
            return self._store_and_handle(msg, row, now, addressed, overdue_closed=False)
        except _PastDeadline as past:  # nothing was written: those phases close first, then the mail is read
            self._close_overdue_phases(past.phases)
            return self._store_and_handle(msg, row, now, addressed, overdue_closed=True)

    def _store_and_handle(self, msg, row: dict, now, addressed: list[str], *, overdue_closed: bool) -> dict:
        """Store the message and act on it in one transaction. Raises :class:`_PastDeadline`
        (before writing anything) when an addressed game's open phase is past its deadline and
        ``overdue_closed`` does not say that closing it was tried already."""
        room = MessageHandling(self.service, msg, now)
        try:
            with self.records.write():
                overdue = self._read_open_phases(room, addressed)
                if overdue and not overdue_closed:
                    raise _PastDeadline(overdue)
                if msg.message_id and self.records.seen_message_id(msg.message_id):
                    row.update(status="duplicate", note="the same Message-ID was received before")
                    inbound_id = self.records.insert("inbound", row)
                    return {"status": "duplicate", "inbound_id": inbound_id}
                room.inbound_id = self.records.insert("inbound", row)
                room.run()
                self.records.update("inbound", room.inbound_id, {
                    "status": room.status, "note": "; ".join(room.notes)[:2000] or None,
                    "game_id": room.game_id, "player_id": room.player["id"] if room.player else None,
                })
        except _PastDeadline:
            raise
        except sqlite3.OperationalError as exc:  # locked, disk full, I/O: let the sender retry
            raise TemporaryFailure(str(exc)) from exc
        except Exception:
            log.exception("inbound message failed")
            try:
                with self.records.write():
                    row.update(status="error", note=traceback.format_exc()[-2000:])
                    inbound_id = self.records.insert("inbound", row)
            except sqlite3.OperationalError as exc:
                raise TemporaryFailure(str(exc)) from exc
            return {"status": "error", "inbound_id": inbound_id}
        for game_id in room.games_to_close_now:
            if self.defer_immediate_closes:
                self.notify("close_now", game_id)
                continue
            try:
                self.phases.close_ready(game_id)
            except Exception:
                log.exception("immediate close of %s failed", game_id)
        if room.deadline_moved:
            self.notify("phase", room.game_id)
        self.notify("outbox", room.game_id)
        return {"status": room.status, "inbound_id": room.inbound_id, "notes": room.notes, "replies": room.replies}

    def _read_open_phases(self, room: MessageHandling, addressed: list[str]) -> list[tuple[str, dict]]:
        """Read the open phase of each addressed game (the handling's first command uses it);
        those past their deadline, as (game id, phase)."""
        overdue = []
        for game_id in addressed:
            phase = room.open_phases[game_id] = self.records.current_phase(game_id)
            deadline = from_iso(phase["deadline"]) if phase else None
            if deadline is not None and deadline <= self.now():
                overdue.append((game_id, phase))
        return overdue

    def _close_overdue_phases(self, overdue: list[tuple[str, dict]]) -> None:
        """Orders are judged against the deadline, and nobody is told they are late while the
        phase is open: an addressed game's phase past its deadline that has not closed yet (the
        scheduler's close is on its way, or a fault delays it) is closed first. When it cannot
        be closed now (database locked, disk full), the message is not taken either: the
        sender's mail server delivers it again later (TemporaryFailure)."""
        for game_id, phase in overdue:
            try:
                self.phases.close(game_id, phase_row_id=phase["id"])
            except sqlite3.OperationalError as exc:
                raise TemporaryFailure(f"the phase of {game_id} past its deadline could not be closed first: {exc}") from exc
            except Exception:  # an engine fault: the mail is still taken, the phase stays open
                log.exception("closing the overdue phase of %s before reading a mail failed", game_id)


class MessageHandling:
    """One inbound message's handling, inside the receiving transaction: who sent it, which
    command handlers run, and the context they act through (docs/mail-commands.md lists what
    a handler may use: the attributes and methods below without a leading underscore)."""

    registry = REGISTRY  #: the declared mail commands

    def __init__(self, svc, msg, now):
        self.svc, self.msg, self.now = svc, msg, now  # svc: the Service, whose parts the handlers call
        self.store = svc.store  # inside the receiving transaction
        self.sender: str | None = msg.from_addr
        self.inbound_id: int | None = None
        self.status = "processed"
        self.notes: list[str] = []
        self.replies = 0
        self.game_id: str | None = None
        self.game: dict | None = None  # the games row of the token's game, read once
        self.player: dict | None = None  # the player the message is from (or is about)
        self.sender_confirmed = False  # the From address is a confirmed address of that player
        self.authenticated = False  # the mail came with a valid token (anyone can write a From)
        self.answering: str | None = None  # the general address's command being answered
        self.read_from: str | None = None  # the attached file the commands came from
        self.games_to_close_now: list[str] = []  # games whose immediate phase has every order it awaits
        self.deadline_moved = False
        self.current_token: str | None = None  # the player's orders address token, read with the token sent
        # game id -> its open phase (None: over) as read when the transaction began; it serves the
        # first command only (a command may change the phase: later ones read it again)
        self.open_phases: dict[str, dict | None] = {}
        self.spec = None  # the declaration of the command being carried out: its answers' kind
        self.answering_lang: str | None = None  # the language of the general address's command being answered
        self.answers = Answers(self)  # what this mail is answered, queued once its commands are carried out

    # -- the outcome, recorded on the inbound row ----------------------------------------------------
    def note(self, text: str) -> None:
        self.notes.append(text)

    def refuse(self, note: str | None = None) -> None:
        if self.status != "error":  # a command that failed stays visible as one
            self.status = "refused"
        if note:
            self.notes.append(note)

    def attribute_to(self, player: dict) -> None:
        """The message concerns this player and their game."""
        self.game_id, self.player = player["game_id"], player

    # -- mail out ------------------------------------------------------------------------------------
    def mail_reply(self, kind: str, template: str, subject: str, *, player: dict | None = None, to_addr: str | None = None,
                   lang: str = "en", answer: str | None = None, about: str | None = None, **ctx) -> None:
        """Answer this message: to a player (in their language, in the game's thread) or to a bare
        address. ``kind``: the outbox kind ('ack', 'error'); ``answer``: the answer kind
        (pbem.mail.answer_kinds; by default the command's own); ``about``: the game a stranger's
        answer names (its budget). Queued when the mail's handling is over, through the brake."""
        to_addr = player["email"] if player else to_addr
        if player is None and self.answering not in ANSWERED_WITHOUT_TOKEN:
            self.notes.append(f"no reply to {to_addr or '?'}: nobody asked for an answer a stranger needs")
            return
        if not to_addr:
            self.notes.append("no reply: the mail has no usable sender address")
            return
        answer = answer or (self.spec.answer if self.spec else "reply")
        self.answers.add_text(answer, to_addr, player=player, lang=player["lang"] if player else lang,
                              game_id=self.game_id if player else about, subject=subject, template=template, mail_kind=kind, ctx=ctx)

    def acknowledge(self, submission: dict, phase: dict, *, notes: list[str], new_orders: bool, line: int = 0) -> None:
        """The acknowledgement of an orders block (one per mail: the last block's, noting the others);
        ``new_orders``: orders that stand and are new, whose acknowledgement the brake never holds."""
        player, svc, msgid, game, token = self.player, self.svc, self.msg.message_id, self.game, self.current_token
        _ = gettext_for(player["lang"])
        describe = _(N_("the block at line %(line)d, %(status)s")) % {"line": line, "status": _(STATUS_WORDS.get(submission["status"], submission["status"]))}

        def make(lines: list[str], marks: dict) -> str | None:
            return svc.mail_writer.queue_ack(self.game_id, player, submission, phase, msgid, notes=notes + lines, game=game, token=token,
                                             marks=marks)
        self.answers.add_acknowledgement(player["email"], player=player, game_id=self.game_id, describe=describe, make=make,
                                         new_orders=new_orders)

    def answer_with_mail(self, make: Callable[[], str | None], *, to_addr: str | None = None, lang: str = "en",
                         about: str | None = None) -> None:
        """An answer that is a whole mail of its own (HISTORY's report, the tables), queued by
        ``make`` once the brake lets it go: to the player, or with ``to_addr`` to a bare address
        (the general address: ``lang`` the keyword's, ``about`` the game it names)."""
        kind = self.spec.answer if self.spec else "reply"
        if to_addr is None:
            self.answers.add_mail(kind, self.player["email"], player=self.player, lang=self.player["lang"],
                                  game_id=self.game_id, make=make)
        elif self.answering not in ANSWERED_WITHOUT_TOKEN:
            self.notes.append(f"no reply to {to_addr}: nobody asked for an answer a stranger needs")
        else:
            self.answers.add_mail(kind, to_addr, player=None, lang=lang, game_id=about, make=make)

    def mail_problem(self, player: dict | None, problem: str, advice: str = "", *, to_addr: str | None = None,
                     lang: str | None = None, about: str | None = None, **args) -> None:
        """Mail an error answer: what was wrong and what to do (message ids), in the reader's language
        (a player's; for a bare address, ``lang``: the language of the keyword it typed; ``about``:
        the game it names)."""
        lang = player["lang"] if player else (lang or "en")
        _ = gettext_for(lang)
        # Mail without a valid token may be forged: quoting its subject or file names would
        # relay the forger's words to whoever the From names.
        quoted = self.authenticated
        self.mail_reply("error", "mail/error.txt.j2", _("Your mail could not be used"), player=player, to_addr=to_addr,
                        lang=lang, answer="error", about=about, problem=_(problem) % args if args else _(problem),
                        advice=(_(advice) % args if args else _(advice)) if advice else "",
                        quoted_subject=(self.msg.subject or "") if quoted else "", problems=self.msg.problems if quoted else [])

    def mail_problem_to_sender(self, problem: str, advice: str = "", *, lang: str | None = None, about: str | None = None,
                               **args) -> None:
        """Mail an error answer to a sender we cannot tie to any player: generic, nothing about any game
        (``about``: the game the refused command named, whose budget it counts against)."""
        if self.sender:
            self.mail_problem(None, problem, advice, to_addr=self.sender, lang=lang, about=about, **args)
        else:
            self.notes.append("no reply: the mail has no usable sender address")

    def mail_player(self, player: dict, *, kind: str, template: str, subject: str, key: str, **ctx) -> None:
        """Mail another player of the game (press): not an answer to this message, so not braked;
        every block of the mail to one player goes in one mail (``key``: the first one's)."""
        self.answers.add_relay(player, mail_kind=kind, key=key, subject=subject, template=template, ctx=ctx)

    def tell_every_player(self, msgid: str, *, serial: str, args: dict) -> None:
        """A notice from the server to every active player of the game, each in their language."""
        self.svc.mail_writer.queue_notice(self.game_id, msgid, serial=serial, args=args)

    def deadline_text(self, phase: dict) -> str:
        """A phase's deadline as the player reads it (their time zone and language)."""
        return self.svc.mail_writer.deadline_text(phase, self.player)

    def game_help_text(self) -> str:
        """The engine's help for the game (its order syntax), in the player's language."""
        return self.svc.mail_writer.help_text(self.game["engine"], self.svc.mail_writer.game_header(self.game_id), self.player["lang"])

    @staticmethod
    def hosted_engines() -> list[tuple[str, str, list[str]]]:
        """(engine name, title, scenarios) of every game this server hosts."""
        return [(name, e.title, sorted(e.scenarios())) for name, e in all_engines().items()]

    # -- changes a command makes ---------------------------------------------------------------------
    def update_player(self, **fields) -> None:
        self.svc.records.update("players", self.player["id"], fields)
        self.player = self.svc.records.player(self.player["id"])

    def add_unconfirmed_address(self, email: str) -> str:
        """Register a second address for the player; it counts once confirmed with the code returned."""
        code = secrets.token_hex(4)
        self.svc.records.insert("addresses", {"player_id": self.player["id"], "email": email, "confirm_code": code, "created_at": to_iso(self.now)})
        return code

    def confirm_address(self, code: str) -> bool:
        """CONFIRM <code> for a second address; False when no address of the player waits for it."""
        address = self.svc.records.unconfirmed_address(self.player["id"], code)
        if address is None:
            return False
        self.svc.records.confirm_address(address["id"])
        self.mail_reply("ack", "mail/settings.txt.j2", gettext_for(self.player["lang"])(N_("Address confirmed")), player=self.player,
                        answer="confirmation")
        return True

    def take_orders(self, cmd) -> None:
        """Orders from an address not registered to the player are held until confirmed."""
        orders_intake.take_orders(self, cmd, held=not self.sender_confirmed)

    def confirm_held_orders(self, code: str) -> bool:
        return orders_intake.confirm_held_orders(self, code)

    def registered_players(self) -> list[dict]:
        """Active players, in any game, whose confirmed address sent this message."""
        if not self.sender:
            return []
        return self.svc.records.registered_players(self.sender)

    # -- the decision ----------------------------------------------------------------------------------
    def run(self) -> None:
        self._decide()
        self.answers.send()  # through the brake, once every command is carried out

    def _decide(self) -> None:
        msg = self.msg
        if self.svc.bounces.take(self):  # sent to one of our return paths: read by pbem.service.bounces, never answered
            return
        if msg.automatic:
            self.status = "ignored"
            self.notes.append(f"automatic mail ({msg.automatic}): never answered")
            return
        if len(msg.raw) > self.svc.settings.max_message_bytes:
            self.refuse("message larger than the limit")
            registered = self.registered_players()  # a stranger is not answered: the From may be forged
            if registered:
                self.mail_problem(registered[0], N_("Your message is larger than this server accepts (%(limit)d bytes)."),
                                  limit=self.svc.settings.max_message_bytes)
            else:
                self.notes.append("no reply: a stranger's mail")
            return
        addressed = [parse_orders_address(a, self.svc.settings.mail_domain) for a in msg.recipients]
        addressed = [a for a in addressed if a]
        commands = self._read_commands()
        if addressed:
            self._at_game_address(addressed[0], commands)
        else:
            self._at_general_address(commands)

    def _read_commands(self) -> list:
        commands = find_commands(new_text(self.msg.text or ""), self.msg.subject or "")
        if commands:
            return commands
        # orders sent as an attached file: read when the mail itself holds no command
        for name, attached in self.msg.text_attachments:
            commands = find_commands(attached, "")
            if commands:
                self.read_from = name
                self.notes.append(f"commands read from the attached file {name}")
                return commands
        return []

    def _at_game_address(self, addressed: tuple[str, str], commands) -> None:
        if not self._identify_token_owner(*addressed):
            return
        self.svc.bounces.heard_from(self)  # a player whose address bounced writes again: pbem.service.bounces
        if self.sender_confirmed and self.svc.stand_ins.heard_from(self.game_id, self.player):  # the seat is theirs again
            self.player = self.svc.records.player(self.player["id"])
        player = self.player
        if not commands:
            self.refuse("no command found")
            if self.sender_confirmed and quotes_a_command(self.msg.text or ""):
                self.mail_problem(player, N_("Your mail only quotes the order template: quoted lines (those starting with >) are not read."),
                                  N_("Copy the template without the > marks, between a line 'ORDERS %(game)s <phase>' and a line 'END', "
                                     "above the quoted text. Send HELP for the order syntax."), game=self.game_id)
            elif self.sender_confirmed:
                self.mail_problem(player, N_("No command was found in your mail."),
                                  N_("Orders go between a line 'ORDERS %(game)s <phase>' and a line 'END'. Send HELP for the order syntax."), game=self.game_id)
            return
        once, skipped = set(), []
        unique = _each_once(commands)
        if len(unique) < len(commands):
            self.note(f"{len(commands) - len(unique)} lines repeating an earlier one word for word: carried out once")
        for cmd in unique:
            spec = self.registry.named(cmd.name)
            if spec is not None and spec.once_per_mail and not cmd.problems:
                if cmd.name in once:
                    skipped.append(cmd)
                    continue
                once.add(cmd.name)
            self._safely(cmd.name, lambda: self._carry_out(cmd))
            self.open_phases.clear()  # the command may have changed the phase: the next one reads it again
        if skipped and self.sender_confirmed:
            self.spec = None
            self.mail_problem(player, N_("Only one %(command)s is carried out per mail, the first; these lines were not: %(lines)s."),
                              N_("Send each in a mail of its own."), command=skipped[0].name,
                              lines="; ".join(" ".join([c.name, *c.args]) for c in skipped[:10]) + ("; ..." if len(skipped) > 10 else ""))

    def _safely(self, name: str, carry_out: Callable[[], None]) -> None:
        """Carry out one command (or one kind, at the general address); if it raises, what it wrote
        and the answers it asked for are undone, the mail is marked 'error' with the traceback, the
        sender told, and the mail's other commands are still carried out."""
        answers, player, closes, moved = self.answers.mark(), self.player, list(self.games_to_close_now), self.deadline_moved
        try:
            with self.store.savepoint():
                carry_out()
        except sqlite3.OperationalError:
            raise  # locked, disk full: the whole mail is refused for now, and its sender's server sends it again
        except Exception:
            log.exception("the command %s of inbound mail %s failed", name, self.inbound_id)
            self.answers.rollback(answers)
            self.player, self.games_to_close_now[:], self.deadline_moved = player, closes, moved
            self.status = "error"
            self.note(f"{name} failed:\n" + traceback.format_exc()[-1500:])
            failed = N_("The server failed while carrying out your command %(command)s, and did nothing of it; a moderator has been told. "
                        "The other commands of your mail were carried out.")
            if self.authenticated and self.sender_confirmed:
                self.mail_problem(self.player, failed, command=name)
            elif not self.authenticated:
                self.mail_problem_to_sender(failed, lang=self.answering_lang, command=name)

    def _identify_token_owner(self, game_id: str, token: str) -> bool:
        """Set the player whose valid token the message was sent with; False (refused, and the
        registered player told where there is one) when the token is unknown or withdrawn."""
        holder = self.svc.records.token_holder(token, self.sender or "")
        tok = holder["token"] if holder else None
        game = self.game = self.svc.records.game_row(game_id)
        if game is None or tok is None or tok["game_id"] != game_id:
            self.refuse("unknown token" if game else "unknown game")
            self.game_id = game["id"] if game else None
            # Tell a registered player of that game who appears to have sent it; nobody else.
            for p in self.registered_players():
                if p["game_id"] == game_id:
                    self.game_id = game_id
                    self.mail_problem(p, N_("A mail naming your address reached game %(game)s with an orders address that is not valid, so it was refused."),
                                      N_("Send orders by replying to the latest mail from the game: its Reply-To address is your own orders address."), game=game_id)
                    break
            return False
        self.game_id = game_id
        player = holder["player"]
        if tok["revoked_at"] or player["status"] != "active":
            self._refuse_withdrawn_token(tok, player)
            return False
        self.player = player
        self.authenticated = True
        self.sender_confirmed = holder["address_confirmed"]
        self.current_token = holder["current_token"]
        return True

    def _refuse_withdrawn_token(self, tok: dict, player: dict) -> None:
        current = self.svc.records.active_player(self.game_id, player["role"])
        self.refuse("revoked token")
        if current:
            self.player = current
            self.mail_problem(current, N_("Someone sent a mail to game %(game)s with an orders address that was withdrawn on %(when)s (sender: %(sender)s). It was refused."),
                              N_("Nothing to do if it was not you. Use the orders address in the latest mail from the game."),
                              game=self.game_id, when=format_moment(from_iso(tok["revoked_at"]), current["tz"], current["lang"])
                              if tok["revoked_at"] else "-", sender=self.sender or "?")

    def open_phase(self, game_id: str) -> dict | None:
        """The open phase of a game (None when it is over), inside the receiving transaction."""
        if game_id in self.open_phases:
            return self.open_phases[game_id]
        return self.svc.records.current_phase(game_id)

    def _carry_out(self, cmd) -> None:
        """One command sent with the player's token, by its declaration's game-address handler."""
        spec, player = self.registry.named(cmd.name), self.player
        self.spec = spec
        if cmd.name == UNKNOWN:  # a word in capitals near a command's: name the command probably meant
            self.note(f"not a command: {cmd.args[0]}")
            if self.sender_confirmed:
                msgid, args = cmd.problem_ids[0]
                self.mail_problem(player, msgid, N_("Send HELP for the commands."), **args)
            return
        if not self.sender_confirmed and not spec.any_sender:
            self.refuse(f"{cmd.name} from an unregistered address")
            self.mail_problem(player, N_("A mail from %(sender)s, which is not registered to you, asked for %(command)s in game %(game)s with your orders address. It was refused."),
                              N_("If it was you, send it from your registered address, or register this one with SET ADDRESS."),
                              sender=self.sender or "?", command=cmd.name, game=self.game_id)
        elif cmd.problems and not spec.reports_own_problems:
            # The command could not be read as written (unknown zone, missing argument...).
            self.refuse()
            _ = gettext_for(player["lang"])
            self.mail_reply("error", "mail/error.txt.j2", _("Your mail could not be used"), player=player, answer="error",
                            problem=_(N_("The command %(command)s could not be carried out.")) % {"command": cmd.name},
                            advice="", quoted_subject=self.msg.subject or "", problems=cmd.problems_in(_))
        elif spec.on_game_address is None:  # a command only the general address reads
            self.mail_problem(player, N_("The command %(command)s is not known."), N_("Send HELP for the commands."), command=cmd.name)
        else:
            spec.on_game_address(self, cmd)

    def _at_general_address(self, commands) -> None:
        """Without a token only the general address's commands are read; the first declared of
        them found in the mail is answered (a JOIN before anything else)."""
        for spec in self.registry.general_commands():
            sent = [c for c in commands if c.name == spec.name]
            if sent:
                self.answering, self.spec, self.answering_lang = spec.name, spec, sent[0].lang
                unique = _each_once(sent)
                if len(unique) < len(sent):
                    self.note(f"{len(sent) - len(unique)} repeated {spec.name} lines: carried out once")
                readable = [c for c in unique if not c.problems or spec.reports_own_problems]
                if len(readable) < len(unique):  # the shape is wrong: the usage, never the words sent (a stranger's)
                    self.refuse(f"{len(unique) - len(readable)} {spec.name} lines of the wrong shape")
                    self.mail_problem_to_sender(N_("%(name)s takes: %(usage)s"), lang=self.answering_lang, name=spec.name, usage=spec.usage)
                if readable:
                    self._safely(spec.name, lambda: spec.on_general_address(self, readable))
                return
        self.refuse("no token and no command")
        self.mail_problem_to_sender(N_("This server only reads game mail, and this message was not addressed to any game."),
                                    N_("Reply to the latest mail from your game, or send HELP."))
