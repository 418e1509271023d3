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
from types import MappingProxyType
from typing import Any, Callable, Mapping

from pbem.dice import Dice
from pbem.engines.aids import PlayerAids

MODERATOR = "moderator"
"""The pseudo-role that sees everything (``view(state, MODERATOR)``)."""

SYNTAX, ILLEGAL, AMBIGUOUS = "syntax", "illegal", "ambiguous"


def _identity(msgid: str) -> str:
    return msgid


def titled(titles: dict[str, str], role: str, gettext: Callable[[str], str] | None = None) -> str:
    """``Engine.role_title`` from a table of msgids by role; a role not in it keeps its id."""
    title = titles.get(role)
    return (gettext or _identity)(title) if title else role


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
    ``warnings``: lines taken that may still fail, depending on what happens first (the
    other side, the dice), each ``{"line", "text", "msg", "args"}``; the acknowledgement
    shows them under WARNINGS. A line certain to fail is an error instead.
    """

    orders: Any
    canonical: str
    errors: list[OrderError] = field(default_factory=list)
    missing: list[str | dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def noted(self) -> list[str | dict]:
        """What a submission records beside its errors: ``missing``, then each warning marked
        ``"warning": True`` (the acknowledgement tells them apart)."""
        return list(self.missing) + [dict(w, warning=True) for w in self.warnings]


def warning(line: int, text: str, msg: str, **args: Any) -> dict:
    """One ``ParseResult.warnings`` entry: ``msg`` a message id filled from ``args``."""
    return {"line": line, "text": text, "msg": msg, "args": args}


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    roles: tuple[str, ...]
    description: str = ""
    options: dict = field(default_factory=dict)  # option name -> default value


class StateFormatError(ValueError):
    """A stored state whose format an engine cannot read nor bring forward."""


SIMULTANEOUS, SEQUENTIAL = "simultaneous", "sequential"


@dataclass(frozen=True)
class Phase:
    """The phase a state is in.

    ``id`` is what players write in ``ORDERS <game> <phase>``; it must change
    every time the game moves on, so a quoted old block is recognised as stale.
    ``mode``: ``simultaneous`` (every awaited role orders, then one resolve) or
    ``sequential`` (one role at a time: it awaits at most one role). It is checked
    here and stored with the phase's record (the ``phases.mode`` column); nothing
    else branches on it. ``immediate``: resolve as soon as every awaited role has
    submitted, without waiting for the deadline (a card player's draw, say).
    ``deadline``: the name of one of the engine's ``deadline_kinds`` (``phase`` for
    the game's normal deadline, ``turn`` for the shorter one a single player's turn
    gets); the service refuses to open a phase that names a kind its engine does
    not declare.
    """

    id: str
    awaited: tuple[str, ...]
    mode: str = SIMULTANEOUS
    immediate: bool = False
    deadline: str = "phase"

    def __post_init__(self) -> None:
        if self.mode not in (SIMULTANEOUS, SEQUENTIAL):
            raise ValueError(f"phase {self.id}: mode must be {SIMULTANEOUS!r} or {SEQUENTIAL!r}, not {self.mode!r}")
        if self.mode == SEQUENTIAL and len(self.awaited) > 1:
            raise ValueError(f"phase {self.id}: a sequential phase awaits one role at most, not {list(self.awaited)}")


@dataclass(frozen=True)
class DeadlineKind:
    """A kind of deadline an engine's phases may name (``Phase.deadline``).

    Each game stores one timing per kind its engine declares (a duration or a
    clock time, see ``pbem.service.timing``); ``hours`` is the length used when
    the game's creator gives none for this kind."""

    name: str
    hours: float
    description: str = ""


#: the styles of play ``Engine.bot_orders`` knows: random but legal; a cautious stand-in for an absent player
RANDOM_PLAY, CAUTIOUS_PLAY = "random", "cautious"


def without_orders(text: str, words: tuple[str, ...]) -> str:
    """A bot's order text without the lines that hold any of ``words`` (order words, any case, whole
    words): how an engine's cautious stand-in drops what a careful player would not risk."""
    drop = {w.casefold() for w in words}
    kept = [line for line in text.splitlines()
            if line.lstrip().startswith("#") or not drop & {w.strip(",;:").casefold() for w in line.split()}]
    return "\n".join(kept)


PHASE_DEADLINE = DeadlineKind("phase", 48, "the game's normal deadline")
TURN_DEADLINE = DeadlineKind("turn", 24, "the shorter deadline of a single player's turn (a card player, an activation)")


@dataclass(frozen=True)
class ViewLayout:
    """How an engine's views are laid out, for the pages and the dispute diff.

    Paths are view keys joined by dots; ``*`` stands for any one key (a role's
    entry in ``tables``, say); list positions are not part of a path (the cards
    of each meld in ``tables.*.melds`` share the path ``tables.*.melds.cards``).

    ``hand``: the view key that holds the viewing role's own hidden cards (the
    player's page shows it under "Your hand"), or None when the game has no hand.
    ``keyed``: list path -> the field that identifies each item of that list
    (units by ``id``, pieces by ``code``); the dispute diff names an item by that
    field (``units[custer].hex``), so a reordered list does not read as a change.
    ``itemized``: lists of plain values compared item by item (the rows of a text
    map). Any other list of plain values is one value (a hand, a cup of markers);
    any other list of dicts or lists is compared by position.
    """

    hand: str | None = None
    keyed: Mapping[str, str] = field(default_factory=dict)
    itemized: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Read-only: one layout is shared by every game of the engine.
        object.__setattr__(self, "keyed", MappingProxyType(dict(self.keyed)))
        object.__setattr__(self, "itemized", tuple(self.itemized))

    def key_of(self, path: str) -> str | None:
        """The identifying field of the list at ``path`` (a path without list positions)."""
        for pattern, key in self.keyed.items():
            if path_matches(pattern, path):
                return key
        return None

    def is_itemized(self, path: str) -> bool:
        return any(path_matches(pattern, path) for pattern in self.itemized)


def path_matches(pattern: str, path: str) -> bool:
    """Whether a view path without list positions (``tables.p1.cards``) fits a ViewLayout
    pattern (``tables.*.cards``: ``*`` is any one key)."""
    want, have = pattern.split("."), path.split(".")
    return len(want) == len(have) and all(w in ("*", h) for w, h in zip(want, have))


@dataclass(frozen=True)
class HowToWin:
    """How a game is won, for the welcome, HELP and each report (``Engine.how_to_win``); every
    text already in the reader's language.

    ``conditions``: the scenario's victory conditions, one sentence each. ``score``: the standing
    now (``"Confederates 12 VP, Union 7 VP"``). ``needs``: (side as players read it, what it
    needs to win) for each side. ``decided``: once the game is over, what decided it."""

    conditions: tuple[str, ...]
    score: str = ""
    needs: tuple[tuple[str, str], ...] = ()
    decided: str | None = None


class Engine:
    """Base class: subclass it and implement every method that raises.

    Everything the service, the web pages, the mail room and the CLI ask of an
    engine is declared here, with its default; nothing is looked up by ``getattr``
    or guessed from the shape of a view (docs/engine-contract.md)."""

    name: str = ""
    """The engine's entry-point name (``pbem.engines`` group): ``custer``."""
    title: str = ""
    """The game's name as players read it: ``Custer's Last Stand``."""
    option_descriptions: Mapping[str, str] = MappingProxyType({})
    """What each of its scenarios' options does, in a line of English (option name -> text): a game
    started by mail (NEW GAME) offers them, and a wrong option is answered with them. An option
    without one is offered by its name and default alone."""
    languages: tuple[str, ...] = ("en",)
    """Languages the order syntax, templates and catalog cover; the first is a new player's default."""
    reveals_orders: bool = True
    """Whether every role's orders are shown to all once a phase is resolved (False
    when orders name hidden cards)."""
    deadline_kinds: tuple[DeadlineKind, ...] = (PHASE_DEADLINE, TURN_DEADLINE)
    """The deadline kinds the engine's phases name (``Phase.deadline``). A game gets
    one timing per kind; a phase naming any other kind is an error."""
    view_layout: ViewLayout = ViewLayout()
    """Which view keys are a role's hand, and how lists are identified (``ViewLayout``)."""
    rules_version: str = "1"
    """The rules ``resolve`` applies. Change it when a release changes what a phase resolves
    to; each phase records the version it was resolved with and `pbem verify` replays it
    with ``rules(version)``."""
    state_format: int = 1
    """The shape of the state's JSON. Raise it when the shape changes, and teach
    ``migrate_state`` to bring the older formats forward (games in play are upgraded)."""
    sealed_seed_note: str | None = None
    """What mail and pages show instead of a seed ``secret_seeds`` keeps sealed, as a message
    id translated where it is shown (rummy: the dice "dealt the cards still in play"); None:
    the service's generic note."""

    @property
    def draws_pictures(self) -> bool:
        """Whether ``picture`` is implemented (the pages offer a picture link only then)."""
        return type(self).picture is not Engine.picture

    def scenarios(self) -> dict[str, Scenario]:
        """Scenario name -> ``Scenario`` (title, roles, options with their defaults).
        ``pbem engines`` lists them and ``Games.create`` checks a game's scenario and
        roles against them and starts from their options."""
        raise NotImplementedError

    def roles(self, scenario: str, options: dict | None = None) -> tuple[str, ...]:
        """The roles of a scenario (default: the scenario's ``roles``); the demo seats its
        scripted players by it."""
        return self.scenarios()[scenario].roles

    def setup(self, scenario: str, options: dict, dice: Dice) -> dict:
        """The starting state. ``options`` are the scenario's defaults overlaid with the
        game's; chance (a deal, a hidden set-up) comes from ``dice`` (the setup seed)."""
        raise NotImplementedError

    def phase(self, state: dict) -> Phase:
        """The phase ``state`` is in: its id, the awaited roles, its mode and deadline kind.
        Called when a phase opens and whenever the service needs to know who must order."""
        raise NotImplementedError

    def parse_orders(self, state: dict, role: str, text: str) -> ParseResult:
        """Read one role's order block (the lines between ``ORDERS ...`` and ``END``,
        envelope, quotes and signature already stripped). Never raises on bad input:
        every line not taken is an ``OrderError`` in the result."""
        raise NotImplementedError

    def default_orders(self, state: dict, role: str) -> Any:
        """The orders that stand for a role that sent none (hold / standing orders)."""
        raise NotImplementedError

    @property
    def takes_standing_orders(self) -> bool:
        """Whether ``apply_standing`` is implemented (a role the open phase does not await
        may then mail standing orders)."""
        return type(self).apply_standing is not Engine.apply_standing

    def apply_standing(self, state: dict, role: str, orders: Any) -> dict | None:
        """The state with ``role``'s standing orders changed, for a role the open phase does
        not await: ``orders`` are what ``parse_orders`` read from its block. None when they
        hold anything but standing orders (the service then refuses the block as today).
        No dice and no resolve: the service stores the new state in the open phase and
        acknowledges the block. Must not mutate ``state``. Default: no standing orders (None)."""
        return None

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

    def bot_orders(self, state: dict, role: str, dice: Dice, style: str = RANDOM_PLAY) -> str:
        """Order text a player would mail for the current phase; all choice from ``dice``. ``style``:
        ``RANDOM_PLAY`` (the default: random but legal, for random-play tests and the demo) or
        ``CAUTIOUS_PLAY`` (the stand-in for an absent player, issue 28: holds good ground and attacks
        nothing recklessly; each engine says in its bot module what its stand-in does)."""
        raise NotImplementedError

    def picture(self, view: dict, gettext: Callable[[str], str] | None = None) -> bytes | None:
        """A PNG of the map or table drawn from a view (never from the state).

        Words drawn on it are English message ids passed through ``gettext`` (the
        reader's catalog; None draws them in English), like ``event_text``."""
        return None

    def pictures(self, view: dict, gettext: Callable[[str], str] | None = None) -> dict[str, bytes]:
        """The report's pictures by name: ``"map"`` is ``picture``'s (the one the pages
        show); an engine may add others (Custer: ``"sectorB3"``, ``"fight1"``, close-ups of the
        reader's sector and of the turn's combats). A name is a short ASCII word: the mail uses it as the picture's
        Content-ID and file name, and the report templates get it in ``picture_cids``.
        Default: ``picture``'s alone, when there is one."""
        png = self.picture(view, gettext)
        return {"map": png} if png else {}

    def player_aids(self, state: dict | None, table: str | None = None, lang: str | None = None,
                    gettext: Callable[[str], str] | None = None) -> PlayerAids | None:
        """Every designed table of the game (odds, results, modifiers, terrain...), or the one a
        player named (``TABLES CRT``: ``table="CRT"``, any case), as text and printable HTML
        (``pbem.engines.aids``), in ``lang`` through ``gettext``. ``state``: the game's (a
        scenario's own tables), or None for the game's general ones. A name no table answers
        to gives every table, with ``unknown`` set. Default: None (no designed tables)."""
        return None

    def how_to_win(self, state: dict, role: str | None = None,
                   gettext: Callable[[str], str] | None = None) -> HowToWin | None:
        """The scenario's victory conditions, the score now and what each side needs (``role``:
        the reader's, or None), and once the game is over what decided it; shown in the welcome,
        HELP and each report. Default: None (the templates then say nothing of it)."""
        return None

    def finishing_order(self, state: dict, roles: tuple[str, ...]) -> list[tuple[tuple[str, ...], int]]:
        """How the sides of a finished game placed, for ratings and tournaments: (the roles of one
        side, its place), place 1 best, equal places for a tie. ``roles``: the scenario's roles.
        Default, from ``outcome(state)``: no winner (a draw) puts every role first; otherwise the
        winner is first and every other role after it, ordered by the outcome's ``scores`` (higher
        is better) where they give every role one, else all second. An engine whose sides are teams
        (rummy's) or whose scores mean something else overrides it."""
        outcome = self.outcome(state) or {}
        winner = outcome.get("winner")
        if winner not in roles:
            return [((role,), 1) for role in roles]
        others = [role for role in roles if role != winner]
        scores = outcome.get("scores") or {}
        if not all(isinstance(scores.get(role), (int, float)) for role in others):
            return [((winner,), 1)] + [((role,), 2) for role in others]
        others.sort(key=lambda role: -scores[role])
        placed = [((winner,), 1)]
        for i, role in enumerate(others):
            tied = i and scores[role] == scores[others[i - 1]]
            placed.append(((role,), placed[-1][1] if tied else i + 2))
        return placed

    def validate_state(self, state: dict) -> list[str]:
        """Problems that make a state unplayable (for a moderator's manual edit)."""
        return []

    def secret_seeds(self, state: dict) -> list[str]:
        """Labels of the phases whose seeds must stay unpublished in this state:
        the dice that dealt cards still hidden (a seed would let a player recompute
        them). The service shows "sealed" instead of these seeds until they leave
        the list. Default: none (no hidden draw outlives its phase)."""
        return []

    def role_title(self, role: str, gettext: Callable[[str], str] = _identity) -> str:
        """A side as players read it, in the reader's language ("US", "Indiens"): mails and
        pages name a side "<title> (<player's chosen name>)". Default: the role id."""
        return role

    def public_state(self, state: dict) -> dict | None:
        """The whole state when it holds no secret (so a player may replay a
        phase offline from report attachments), else None."""
        return None

    def migrate_state(self, state: dict, from_format: int) -> dict:
        """``state``, stored in format ``from_format``, brought to this engine's
        ``state_format`` (pure, without mutating it). The service upgrades a running game's
        state with it, and `pbem verify` compares states of different formats through it.
        Default: the state itself when the formats agree, else ``StateFormatError``."""
        if from_format == self.state_format:
            return state
        raise StateFormatError(f"{self.name or type(self).__name__} cannot bring a state of format {from_format} "
                               f"to format {self.state_format}")

    def rules(self, version: str) -> "Engine | None":
        """An engine that resolves as rules version ``version`` did, or None when this release
        no longer carries those rules (`pbem verify` then names the phases it cannot replay).
        An engine whose new version changed behaviour keeps the old rules reachable here.
        Default: itself for its own ``rules_version``."""
        return self if version == self.rules_version else None
