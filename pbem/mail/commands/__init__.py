"""The mail commands: one module per command, each declaring ``COMMAND``, a
:class:`pbem.mail.command_syntax.MailCommand` (keywords, argument parser, handlers, help lines);
a module for commands that share their state and handlers (PROPOSE/ACCEPT/REJECT DRAW)
declares them as a tuple, ``COMMANDS``.

Every module of this package is a command: :data:`REGISTRY` finds them all, so adding a
command is adding its module (docs/mail-commands.md walks through one). The parser, the mail
room's dispatch, the HELP mail and the fuzz test all read the registry.
"""

from __future__ import annotations

import importlib
import pkgutil

from pbem.mail.answer_kinds import answer_kind
from pbem.mail.command_syntax import GAME_ADDRESS, GENERAL_ADDRESS, HelpLine, MailCommand

__all__ = ["REGISTRY", "Registry"]


class Registry:
    """The declared commands, by rank, and their keywords."""

    def __init__(self, commands: list[MailCommand]):
        self.commands = sorted(commands, key=lambda c: (c.rank, c.name))
        self._blocks = frozenset(c.name for c in self.commands if c.block)
        self._by_name: dict[str, MailCommand] = {}
        self._by_keyword: dict[str, MailCommand] = {}
        for command in self.commands:
            if command.name in self._by_name:
                raise ValueError(f"two mail commands are named {command.name}")
            self._by_name[command.name] = command
            answer_kind(command.answer)  # a kind not in pbem.mail.answer_kinds is refused here
            for word in command.all_keywords():
                other = self._by_keyword.setdefault(word.casefold(), command)
                if other is not command:
                    raise ValueError(f"the keyword {word} is declared by both {other.name} and {command.name}")

    def __iter__(self):
        return iter(self.commands)

    def names(self) -> set[str]:
        return set(self._by_name)

    def named(self, name: str) -> MailCommand | None:
        return self._by_name.get(name)

    def by_keyword(self, word: str) -> MailCommand | None:
        """The command a keyword starts, whatever its case (the word in NFC form)."""
        return self._by_keyword.get(word.casefold())

    def keywords(self) -> list[str]:
        """Every keyword of every command, as declared."""
        return [word for command in self.commands for word in command.all_keywords()]

    def blocks(self) -> frozenset[str]:
        """Names of the commands whose body runs to END."""
        return self._blocks

    def keyword_language(self, word: str) -> str | None:
        command = self.by_keyword(word)
        if command is None:
            return None
        return next((lang for lang, words in command.keywords.items() if word.casefold() in {w.casefold() for w in words}), None)

    def help_lines(self) -> list[HelpLine]:
        """The lines of a game's HELP mail, in rank order."""
        return [line for command in self.commands if GAME_ADDRESS in command.addresses for line in command.help]

    def general_help_lines(self) -> list[HelpLine]:
        """The lines of the general address's HELP mail, in rank order."""
        return [line for command in self.commands if GENERAL_ADDRESS in command.addresses for line in command.general_help]

    def general_commands(self) -> list[MailCommand]:
        """The commands read at the general address, by rank: the first of them in a mail is answered."""
        return [c for c in self.commands if GENERAL_ADDRESS in c.addresses]


def _declared() -> list[MailCommand]:
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        declared = getattr(module, "COMMANDS", None) or (getattr(module, "COMMAND", None),)
        if not all(isinstance(c, MailCommand) for c in declared):
            raise TypeError(f"{module.__name__} declares no COMMAND (a MailCommand) nor COMMANDS (a tuple of them)")
        found.extend(declared)
    return found


REGISTRY = Registry(_declared())
