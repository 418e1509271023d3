"""Answers to one inbound mail, and the one brake every answer goes through.

Commands do not queue their answers: they hand them to the mail's :class:`Answers`, which
queues them when the mail's handling is over, inside the receiving transaction, so that

* one mail causes at most one answer of each kind (:mod:`pbem.mail.answer_kinds`) to any
  address: several lines of one command are answered in one mail holding each line's answer
  (the same answer twice, once); to mail without a valid token, everything to one address is
  one mail, whatever its kinds;
* each answer mail counts once against the budgets of the last hour: its address's (answers to
  mail with a valid token and to mail without one counted apart, so forged mail cannot use up a
  player's answers), its kind's own where it has one (HISTORY), the game's it is about, and for
  mail without a token every such answer together;
* the acknowledgement of new orders always goes (the player must know they count), and counts.

An answer that is a whole mail of its own is not merged: a mail's acknowledgements are one, of
its last orders block, noting the others; a report mailed again (HISTORY) comes from a command
the mail room carries out once per mail.

What a mail relays to the other players (PRESS) is no answer and no brake holds it, but it is
merged alike: one mail to each recipient, holding every block the mail sent them.
"""

from __future__ import annotations

import logging
import sqlite3
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from pbem.i18n import N_, gettext_for
from pbem.mail.answer_kinds import answer_kind
from pbem.service.clock import to_iso
from pbem.service.outbox import (UNAUTHENTICATED, answer_marks, answers_about_game, mark_answer, replies_sent_recently,
                                 unauthenticated_replies_recently)
from pbem.service.render import render

log = logging.getLogger("pbem.mailroom")

#: the subject of one mail holding several answers
MORE = N_("%(subject)s (and %(more)d more answers)")
#: the most answers one mail holds: a mail of a hundred lines is not answered a hundred times over
MAX_PARTS = 10
#: what closes a mail holding the first MAX_PARTS answers
UNANSWERED = N_("%(more)d more lines of your mail were not answered one by one; send fewer in one mail.")
#: the note on a mail's acknowledgement when the mail held several orders blocks
SEVERAL_BLOCKS = N_("Your mail held %(n)d orders blocks; this answers the last one. The others: %(others)s.")


@dataclass
class Part:
    """One command line's answer in a template: merged with the others of its slot."""
    subject: str
    template: str
    ctx: dict
    mail_kind: str  # the outbox kind: "ack" or "error"
    player: dict | None  # the player as the answer shows them (a SET changes them between two lines)


@dataclass
class Pending:
    """What one address gets of one kind (or, to mail without a token, of every kind)."""
    kind: str
    to_addr: str
    player: dict | None
    lang: str
    game_id: str | None  # the game the answer is about: its budget
    parts: list[Part] = field(default_factory=list)
    #: an answer that is a whole mail of its own (a report mailed again): queues it, returns its Message-ID
    make: Callable[[], str | None] | None = None
    always: bool = False  # an acknowledgement of new orders: never withheld
    relay: dict | None = None  # a mail relayed to another player (PRESS), not an answer: its kind and key
    #: the mail's acknowledgements: (how a note names it, make(lines, marks) -> Message-ID, new orders)
    acks: list[tuple] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.parts or self.make or self.acks)


class Answers:
    """The answers one mail causes, queued by :meth:`send` once its commands are carried out."""

    def __init__(self, room):
        self.room = room  # the mail room's MessageHandling: the service, the store, who sent it
        self.pending: dict[tuple, Pending] = {}

    # -- what the commands hand in -------------------------------------------------------------------
    def _slot(self, kind: str, to_addr: str, player: dict | None, lang: str, game_id: str | None) -> Pending:
        answer_kind(kind)  # a kind not declared is a bug: said at once, not when the brake reads it
        key = (to_addr.lower(), kind) if self.room.authenticated else (to_addr.lower(),)
        slot = self.pending.get(key)
        if slot is None:
            slot = self.pending[key] = Pending(kind=kind, to_addr=to_addr, player=player, lang=lang, game_id=game_id)
        return slot

    def add_text(self, kind: str, to_addr: str, *, player: dict | None, lang: str, game_id: str | None,
                 subject: str, template: str, mail_kind: str, ctx: dict) -> None:
        """A template answer: merged with the others of its slot."""
        self._slot(kind, to_addr, player, lang, game_id).parts.append(Part(subject, template, ctx, mail_kind, player))

    def add_mail(self, kind: str, to_addr: str, *, player: dict | None, lang: str, game_id: str | None,
                 make: Callable[[], str | None]) -> None:
        """A whole mail of its own (a report mailed again, the tables); the first of its slot goes."""
        slot = self._slot(kind, to_addr, player, lang, game_id)
        if slot.empty():
            slot.make = make

    def add_acknowledgement(self, to_addr: str, *, player: dict, game_id: str, describe: str,
                            make: Callable[[list[str], dict], str | None], new_orders: bool) -> None:
        """An orders block's acknowledgement: the mail's last one goes, noting the others
        (``describe``: how the note names this block and its outcome)."""
        slot = self._slot("acknowledgement", to_addr, player, player["lang"], game_id)
        slot.acks.append((describe, make, new_orders))
        slot.always = slot.always or new_orders

    def add_relay(self, player: dict, *, mail_kind: str, key: str, subject: str, template: str, ctx: dict) -> None:
        """A mail to another player of the game (PRESS): not braked, one per recipient and mail."""
        slot = self.pending.setdefault(("relay", player["id"]), Pending(kind="reply", to_addr=player["email"], player=player,
                                                                       lang=player["lang"], game_id=None))
        slot.relay = slot.relay or {"kind": mail_kind, "key": key}
        slot.parts.append(Part(subject, template, ctx, mail_kind, player))

    # -- a command that failed takes its answers back ------------------------------------------------
    def mark(self) -> dict:
        return {key: (len(s.parts), len(s.acks), s.make, s.always) for key, s in self.pending.items()}

    def rollback(self, mark: dict) -> None:
        for key in list(self.pending):
            if key not in mark:
                del self.pending[key]
                continue
            slot, (parts, acks, make, always) = self.pending[key], mark[key]
            del slot.parts[parts:], slot.acks[acks:]
            slot.make, slot.always = make, always

    # -- out -----------------------------------------------------------------------------------------
    def send(self) -> None:
        """Queue every answer the brake lets go, and every relayed mail (inside the receiving transaction)."""
        room = self.room
        for slot in self.pending.values():
            if slot.empty():
                continue
            try:  # an answer that cannot be made costs nothing else of the mail (a mail is made before it is written)
                self._send(slot)
            except sqlite3.OperationalError:
                raise  # locked, disk full: the whole mail is refused for now, and sent again
            except Exception:
                log.exception("an answer to inbound mail %s could not be made", room.inbound_id)
                room.status = "error"
                room.note(f"the {slot.kind} answer to {slot.to_addr} could not be made:\n" + traceback.format_exc()[-1500:])
        self.pending.clear()

    def _send(self, slot: Pending) -> None:
        room = self.room
        if slot.relay:
            self._queue_parts(slot, key=slot.relay["key"], mail_kind=slot.relay["kind"], marks=None)
            return
        why_not = self.withheld(slot)
        if why_not:
            room.note(f"no reply to {slot.to_addr}: {why_not}")
            return
        if self._queue(slot, answer_marks(answer=slot.kind, game_id=slot.game_id, cause=None if room.authenticated else UNAUTHENTICATED)):
            room.replies += 1

    def withheld(self, slot: Pending) -> str | None:
        """Why the brake holds this answer back now, or None: it may go."""
        room, address = self.room, slot.to_addr
        settings = room.svc.settings
        if address.lower().rsplit("@", 1)[-1] == settings.mail_domain.lower():
            return "an address of this server"  # never mail ourselves
        if slot.always and room.authenticated:
            return None
        store, now = room.store, room.now
        stranger = not room.authenticated
        limit = settings.stranger_replies_per_address_per_hour if stranger else settings.replies_per_address_per_hour
        if replies_sent_recently(store, address, now, unauthenticated=stranger) >= limit:
            return "rate limit reached"
        own = answer_kind(slot.kind).per_address_per_hour
        if own is not None and replies_sent_recently(store, address, now, unauthenticated=stranger, answer=slot.kind) >= own:
            return f"the limit of {slot.kind} answers reached"
        if slot.game_id and answers_about_game(store, slot.game_id, to_iso(now - timedelta(hours=1))) >= settings.replies_per_game_per_hour:
            return f"the limit of answers about game {slot.game_id} reached"
        if stranger and unauthenticated_replies_recently(store, now) >= settings.stranger_replies_per_hour:
            return "the limit of answers to mail without a token is reached"
        return None

    def _queue(self, slot: Pending, marks: dict) -> str | None:
        room = self.room
        if slot.acks:
            *earlier, (_describe, make, _new) = slot.acks
            _ = gettext_for(slot.lang)
            lines = [_(SEVERAL_BLOCKS) % {"n": len(slot.acks), "others": "; ".join(d for d, _m, _n in earlier)}] if earlier else []
            return make(lines, marks)
        if slot.make is not None:
            mid = slot.make()
            if mid:
                mark_answer(room.store, mid, marks)
            return mid
        errors_only = all(p.mail_kind == "error" for p in slot.parts)
        return self._queue_parts(slot, key=f"answer/in{room.inbound_id}/{slot.kind}/{slot.to_addr.lower()}",
                                 mail_kind="error" if errors_only else "ack", marks=marks, answering=True)

    def _queue_parts(self, slot: Pending, *, key: str, mail_kind: str, marks: dict | None, answering: bool = False) -> str | None:
        """One mail of the slot's parts: the part itself when it is alone, else each different
        part's text (without its footer) under its subject; an answer holds the first MAX_PARTS."""
        room = self.room
        writer = room.svc.mail_writer
        game_id = room.game_id if slot.player else None
        inbound = {"inbound_msgid": room.msg.message_id} if answering else {}
        if len(slot.parts) == 1:
            part = slot.parts[0]
            return writer.queue_message(kind=part.mail_kind, game_id=game_id, player=part.player, to_addr=slot.to_addr,
                                        lang=slot.lang, subject=part.subject, template=part.template, key=key, marks=marks,
                                        **inbound, **part.ctx)
        header = writer.game_header(game_id) if game_id else None
        texts: list[dict] = []
        unanswered = 0
        for p in slot.parts:
            text = {"subject": p.subject, "text": render(p.template, slot.lang, game=header, player=p.player, in_bundle=True, **p.ctx)}
            if text in texts:  # a hundred HELP lines are one help
                continue
            if answering and len(texts) == MAX_PARTS:  # what is relayed is delivered whole: its sender wrote it
                unanswered += 1
                continue
            texts.append(text)
        _ = gettext_for(slot.lang)
        subject = texts[0]["subject"] if len(texts) == 1 else _(MORE) % {"subject": texts[0]["subject"], "more": len(texts) - 1 + unanswered}
        return writer.queue_message(kind=mail_kind, game_id=game_id, player=slot.parts[-1].player, to_addr=slot.to_addr,
                                    lang=slot.lang, subject=subject, template="mail/answers.txt.j2", key=key, marks=marks,
                                    **inbound, parts=texts, unanswered=_(UNANSWERED) % {"more": unanswered} if unanswered else "")
