"""The one interface every game implements.

A game is pure functions over plain JSON-able state (dicts, lists, str, int,
float, bool, None). An engine never touches mail, the database, the clock or
the ``random`` module: all chance comes from the :class:`pbem.dice.Dice` passed
to ``setup`` and ``resolve``, so a phase replays bit for bit.

Texts meant for players (events, order errors) are English message ids with
``%(name)s`` placeholders plus their arguments; the presentation layer
translates them with gettext (see ``pbem.i18n``), so engines stay language-free.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from pbem.dice import Dice

MODERATOR = "moderator"
"""The pseudo-role that sees everything (``view(state, MODERATOR)``)."""

SYNTAX, ILLEGAL, AMBIGUOUS = "syntax", "illegal", "ambiguous"


def _identity(msgid: str) -> str:
    return msgid


def format_message(msg: str, args: dict | None, translate: Callable[[str], str] = _identity) -> str:
    """``translate(msg) % args``, tolerant of a translation that drops a placeholder."""
    text = translate(msg)
    if not args:
        return text
    try:
        return text % args
    except (KeyError, ValueError, TypeError):
        return msg % args


def event(type: str, msg: str, *, to: list[str] | None = None, **args: Any) -> dict:
    """An event: what happened, for the report and the JSON attachment.

    ``to`` lists the roles that may see it; None means every role and observers.
    ``args`` must be JSON-able; they are also the event's machine-readable data.
    """
    ev = {"type": type, "msg": msg, "args": args}
    if to is not None:
        ev["to"] = list(to)
    return ev


def event_text(ev: dict, translate: Callable[[str], str] = _identity) -> str:
    return format_message(ev["msg"], ev.get("args"), translate)


def event_visible(ev: dict, role: str | None) -> bool:
    to = ev.get("to")
    return to is None or role == MODERATOR or (role is not None and role in to)


@dataclass(frozen=True)
class OrderError:
    """One line the parser could not take, split as python-chess does.

    kind: ``syntax`` (cannot be read), ``illegal`` (read, but the rules forbid
    it), ``ambiguous`` (read, but could mean more than one thing).
    ``reason`` and ``suggestion`` are message ids with ``%(name)s`` placeholders
    filled from ``args``.
    """

    line: int
    text: str
    reason: str
    kind: str = SYNTAX
    suggestion: str | None = None
    args: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)

    def describe(self, translate: Callable[[str], str] = _identity) -> str:
        return format_message(self.reason, self.args, translate)

    def describe_suggestion(self, translate: Callable[[str], str] = _identity) -> str | None:
        if not self.suggestion:
            return None
        return format_message(self.suggestion, self.args, translate)


@dataclass
class ParseResult:
    """What ``parse_orders`` returns.

    ``orders``: canonical orders, JSON-able, exactly what ``resolve`` takes for
    this role. ``canonical``: those orders written back as text, in the order
    syntax, for the acknowledgement (sent back, it parses to the same orders).
    ``errors``: every line that was not taken. ``missing``: what the orders still
    lack (for example an activation marker with no orders), each a message id or
    ``{"msg": message id, "args": {...}}`` (the arguments language-neutral).
    """

    orders: Any
    canonical: str
    errors: list[OrderError] = field(default_factory=list)
    missing: list[str | dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    roles: tuple[str, ...]
    description: str = ""
    options: dict = field(default_factory=dict)  # option name -> default value


@dataclass(frozen=True)
class Phase:
    """The phase a state is in.

    ``id`` is what players write in ``ORDERS <game> <phase>``; it must change
    every time the game moves on, so a quoted old block is recognised as stale.
    ``mode``: ``simultaneous`` (every awaited role orders, then one resolve) or
    ``sequential`` (one role at a time). ``immediate``: resolve as soon as every
    awaited role has submitted, without waiting for the deadline (a card
    player's draw, say). ``deadline``: ``phase`` for the game's normal deadline,
    ``turn`` for the shorter one a single player's turn gets.
    """

    id: str
    awaited: tuple[str, ...]
    mode: str = "simultaneous"
    immediate: bool = False
    deadline: str = "phase"


class Engine:
    """Base class: subclass it and implement every method that raises."""

    name: str = ""
    title: str = ""
    languages: tuple[str, ...] = ("en",)
    reveals_orders: bool = True
    """Whether every role's orders are shown to all once a phase is resolved."""

    def scenarios(self) -> dict[str, Scenario]:
        raise NotImplementedError

    def roles(self, scenario: str, options: dict | None = None) -> tuple[str, ...]:
        return self.scenarios()[scenario].roles

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        raise NotImplementedError

    def phase(self, state: dict) -> Phase:
        raise NotImplementedError

    def awaited(self, state: dict) -> tuple[str, ...]:
        return self.phase(state).awaited

    def parse_orders(self, state: dict, role: str, text: str) -> ParseResult:
        raise NotImplementedError

    def default_orders(self, state: dict, role: str) -> Any:
        """The orders that stand for a role that sent none (hold / standing orders)."""
        raise NotImplementedError

    def resolve(self, state: dict, orders: dict[str, Any], dice: Dice) -> tuple[dict, list[dict]]:
        """The new state and the events, in order. Must not mutate ``state``."""
        raise NotImplementedError

    def view(self, state: dict, role: str | None) -> dict:
        """A whitelist of what ``role`` may see (None: an observer; MODERATOR: all)."""
        raise NotImplementedError

    def outcome(self, state: dict) -> dict | None:
        """None while the game goes on; else {"winner": role or None, "summary": msg, "args": {...}, "scores": {...}}."""
        raise NotImplementedError

    def order_template(self, state: dict, role: str, lang: str | None = None, gettext=None) -> str:  # noqa: ANN001
        """Pre-filled orders for the next phase; sent back unchanged, they parse
        without error and mean 'everything holds' (standing orders). ``lang`` picks
        the keywords of an engine whose order syntax has several languages;
        ``gettext`` translates the comments (English without it), as for pictures."""
        raise NotImplementedError

    def bot_orders(self, state: dict, role: str, dice: Dice) -> str:
        """Order text a random but legal player would mail for the current phase
        (random-play tests and the demo campaign). All choice from ``dice``."""
        raise NotImplementedError

    def picture(self, view: dict, gettext: Callable[[str], str] | None = None) -> bytes | None:
        """A PNG of the map or table drawn from a view (never from the state).

        Words drawn on it are English message ids passed through ``gettext`` (the
        reader's catalog; None draws them in English), like ``event_text``."""
        return None

    def validate_state(self, state: dict) -> list[str]:
        """Problems that make a state unplayable (for a moderator's manual edit)."""
        return []

    def public_state(self, state: dict) -> dict | None:
        """The whole state when it holds no secret (so a player may replay a
        phase offline from report attachments), else None."""
        return None
