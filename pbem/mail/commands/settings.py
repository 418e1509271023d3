"""SET <setting> <value> (RÉGLER, REGLER): a player's own settings in a game (time zone, language,
reminders, a second address).

Each setting is one entry of :data:`SETTINGS`: the words that name it, how its value is read,
how it is stored and its HELP lines. Canonical ``args``: ``["TZ", "Europe/Paris"]`` (the zone's
canonical name), ``["LANG", "fr"]``, ``["REMINDERS", "off" | "12h"]``, ``["ADDRESS", "bob@example.org"]``
(normalised), ``["NAME", "Jane R."]`` (the words as typed, joined by one space), ``["STAND-IN", "on" | "off"]``
(issue 28: whether the engine's cautious stand-in gives your orders at a deadline you miss).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pbem.i18n import N_, available_languages, gettext_for
from pbem.mail.addresses import normalise_address
from pbem.mail.command_syntax import Command, HelpLine, MailCommand, Reading, valid_zone

_OFF = ("off", "none", "no", "0", "non", "aucun", "aucuns", "désactivé", "desactive")
_HOURS = re.compile(r"(\d{1,4})\s*(?:h|hours?|heures?)?")


@dataclass(frozen=True)
class Setting:
    words: tuple[str, ...]  #: what names the setting after SET, in every language (any case)
    usage: str  #: its shape, for the usage of SET
    read: Callable[[Reading, str, str], Command]  #: (reading, key, value typed) -> the command, canonical value or a problem
    store: Callable[..., bool]  #: (context, value) -> stores it; False when it answered the player itself
    help: tuple[HelpLine, ...] = ()


def _read_zone(reading: Reading, key: str, value: str) -> Command:
    zone = valid_zone(value)
    if zone is None:
        return reading.with_problem([key, value], N_("unknown time zone %(value)r; use a name such as Europe/Paris or America/New_York"), value=value)
    return reading.take([key, zone])


def _read_language(reading: Reading, key: str, value: str) -> Command:
    lang, langs = value.casefold(), available_languages()
    if lang not in langs:
        return reading.with_problem([key, lang], N_("unknown language %(value)r; choose one of: %(langs)s"), value=value, langs=", ".join(langs))
    return reading.take([key, lang])


def _read_reminders(reading: Reading, key: str, value: str) -> Command:
    v = value.casefold()
    if v in _OFF:
        return reading.take([key, "off"])
    m = _HOURS.fullmatch(v)
    if m and 1 <= int(m.group(1)) <= 168:
        return reading.take([key, f"{int(m.group(1))}h"])
    return reading.with_problem([key, value], N_("reminders must be 'off' or a number of hours before the deadline from 1h to 168h, not %(value)r"),
                                value=value)


def _read_address(reading: Reading, key: str, value: str) -> Command:
    address = normalise_address(value)
    if address is None:
        return reading.with_problem([key, value], N_("%(value)r is not an e-mail address"), value=value)
    return reading.take([key, address])


def _store_zone(ctx, zone: str) -> bool:
    ctx.update_player(tz=zone)
    return True


def _store_language(ctx, lang: str) -> bool:
    ctx.update_player(lang=lang)
    return True


def _store_reminders(ctx, value: str) -> bool:
    ctx.update_player(reminder_hours=0 if value == "off" else int(value.rstrip("h")))
    return True


def _store_address(ctx, address: str) -> bool:
    """A second address counts once confirmed from the first: the player gets a code to send back."""
    code = ctx.add_unconfirmed_address(address)
    _ = gettext_for(ctx.player["lang"])
    ctx.mail_reply("ack", "mail/confirm_address.txt.j2", _("Confirm your second address"), player=ctx.player, email=address, code=code,
                   answer="confirmation")
    return False


def _read_name(reading: Reading, key: str, value: str) -> Command:
    return reading.take([key, value])  # the service checks it (length, no address) and answers why not


def _store_name(ctx, name: str) -> bool:
    """The player's display name in this game: others read "us (Jane R.)" instead of the role alone."""
    refusal = ctx.svc.roster.set_name(ctx.game_id, ctx.player["id"], name, actor=ctx.player["role"])
    if refusal:
        ctx.refuse()
        ctx.mail_problem(ctx.player, refusal, N_("Choose a name of plain words, such as SET NAME Jane R."), max=ctx.svc.roster.name_max)
        return False
    ctx.update_player(name=ctx.svc.records.player(ctx.player["id"])["name"])  # the ack shows the name as stored
    return True


_ON = ("on", "yes", "oui", "1", "activé", "active")


def _read_stand_in(reading: Reading, key: str, value: str) -> Command:
    v = value.casefold()
    if v in _ON or v in _OFF:
        return reading.take([key, "on" if v in _ON else "off"])
    return reading.with_problem([key, value], N_("SET STAND-IN takes on or off, not %(value)r"), value=value)


def _store_stand_in(ctx, choice: str) -> bool:
    """on: the stand-in gives the player's orders at every deadline they miss; off: never, whatever the game's rule."""
    ctx.svc.stand_ins.choose(ctx.game_id, ctx.player, choice)
    ctx.player = ctx.svc.records.player(ctx.player["id"])  # the ack shows the choice as stored
    return True


SETTINGS: dict[str, Setting] = {
    "TZ": Setting(("tz", "timezone", "fuseau"), "SET TZ <zone>", _read_zone, _store_zone,
                  (HelpLine(N_("SET TZ Europe/Paris"), N_("your time zone")),)),
    "LANG": Setting(("lang", "language", "langue"), "SET LANG <en|fr>", _read_language, _store_language,
                    (HelpLine(N_("SET LANG fr"), N_("your language (en, fr)")),)),
    "REMINDERS": Setting(("reminders", "reminder", "rappels", "rappel"), "SET REMINDERS <off|Nh>", _read_reminders, _store_reminders,
                         (HelpLine(N_("SET REMINDERS 12h | off"), N_("reminder before the deadline")),)),
    "ADDRESS": Setting(("address", "adresse", "email"), "SET ADDRESS <email>", _read_address, _store_address,
                       (HelpLine(N_("SET ADDRESS you@example.org"), N_("register a second address (confirmed from this one)")),)),
    "NAME": Setting(("name", "nom"), "SET NAME <display name>", _read_name, _store_name,
                    (HelpLine(N_("SET NAME Jane R."), N_("the name the other players and the archive show for you")),)),
    "STAND-IN": Setting(("stand-in", "standin", "stand_in", "remplaçant", "remplacant"), "SET STAND-IN <on|off>", _read_stand_in,
                        _store_stand_in,
                        (HelpLine(N_("SET STAND-IN on | off"), N_("whether a cautious stand-in gives your orders when you miss a deadline")),)),
}
_KEY_OF = {word: key for key, setting in SETTINGS.items() for word in setting.words}


def read(reading: Reading) -> Command | None:
    args = reading.args
    key = _KEY_OF.get(args[0].casefold().rstrip(":")) if args else None
    if key is None:
        return reading.wrong_shape()
    values = args[1:]
    if key in ("ADDRESS", "NAME") and len(values) > 1:
        values = [" ".join(values)]  # SET ADDRESS Bob <bob@example.org>, SET NAME Jane R.
    if len(values) != 1:
        if not reading.explicit and values:
            return None  # "set tz and lang later" is prose
        return reading.with_problem([key, *values], N_("SET %(key)s takes one value"), key=key)
    return SETTINGS[key].read(reading, key, values[0])


def change_setting(ctx, cmd: Command) -> None:
    key, value = cmd.args
    if SETTINGS[key].store(ctx, value):
        ctx.mail_reply("ack", "mail/settings.txt.j2", gettext_for(ctx.player["lang"])(N_("Settings changed")), player=ctx.player)


def _usage() -> str:
    shapes = [s.usage for s in SETTINGS.values()]
    return ", ".join(shapes[:-1]) + " or " + shapes[-1]


COMMAND = MailCommand(
    name="SET",
    keywords={"en": ("SET",), "fr": ("RÉGLER", "REGLER")},
    read=read,
    usage=_usage(),
    rank=50,
    on_game_address=change_setting,
    answer="settings",
    help=tuple(line for setting in SETTINGS.values() for line in setting.help),
)
