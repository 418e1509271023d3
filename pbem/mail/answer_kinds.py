"""The kinds of answer a mail can cause: the one list of them.

Every answer the server mails because a mail came in goes through one brake
(pbem.service.answers): it counts against the receiving address's hourly budget, the budget
of the game it is about, and for mail without a valid token the budget of every such answer
together; and one mail causes at most one answer of each kind to any address, so several
lines of one command in one mail are answered together.

A new command that answers with a new kind of mail adds its kind here and names it in its
declaration (``MailCommand(answer="tables", ...)``); the registry refuses a kind not listed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AnswerKind:
    name: str
    what: str  #: what such an answer is (docs, and the moderators' reading of the outbox)
    #: a lower hourly limit of its own, per address, below the shared one (a large answer)
    per_address_per_hour: int | None = None


ANSWER_KINDS: dict[str, AnswerKind] = {k.name: k for k in (
    AnswerKind("acknowledgement", "orders taken (ORDERS, standing orders, held orders confirmed)"),
    AnswerKind("confirmation", "a code to send back: orders held from another address, a second address, and its outcome"),
    AnswerKind("join_code", "JOIN: the code that takes the held role"),
    AnswerKind("new_game", "NEW GAME: the code that makes the game asked for, or why it cannot be (with the right choices)"),
    AnswerKind("observer_confirmation", "OBSERVE and UNOBSERVE: the code to send back, and that reports start or stop"),
    AnswerKind("history", "HISTORY: the list of phases, or a report mailed again (a whole report: its own lower limit)",
               per_address_per_hour=6),
    AnswerKind("tables", "TABLES: the game's designed tables, as text and a page to print (a large mail: its own lower limit)",
               per_address_per_hour=6),
    AnswerKind("status", "STATUS"),
    AnswerKind("help", "HELP"),
    AnswerKind("list", "LIST"),
    AnswerKind("ratings", "RATINGS: the ladder, and the sender's place on it"),
    AnswerKind("settings", "SET"),
    AnswerKind("absence", "ABSENCE"),
    AnswerKind("draw", "ACCEPT DRAW"),
    AnswerKind("error", "what in a mail could not be used, and why"),
    AnswerKind("reply", "any other answer (and, counted alike, answers queued before the kinds were recorded)"),
)}


def answer_kind(name: str) -> AnswerKind:
    """The declared kind ``name``; a KeyError names the list to add it to."""
    try:
        return ANSWER_KINDS[name]
    except KeyError:
        raise KeyError(f"no answer kind {name!r}: add it to pbem.mail.answer_kinds.ANSWER_KINDS") from None
