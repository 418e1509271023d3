"""Rule options: where the rulebook's text is ambiguous, the most literal reading is the
default and the other reading an option a game may choose at creation (its reasoning is
in docs/games/custer.md). Each option is off by default.
"""

from __future__ import annotations

RULE_OPTIONS: dict[str, bool] = {
    # any drawn marker may be passed, not only one whose leader or tribe has another marker in the cup
    "pass_any_marker": False,
    # a beaten attacker retreats only to hexes farther from the hex it attacked, never beside it
    "attacker_retreat_farther_only": False,
    # the +1 CF of a dismounted unit counts only in defence
    "dismount_bonus_in_defence_only": False,
}


def rule_options(options: dict | None) -> dict[str, bool]:
    """Every rule option's value for a new game: the defaults, overridden by ``options``."""
    options = options or {}
    return {name: bool(options.get(name, default)) for name, default in RULE_OPTIONS.items()}


def option(state: dict, name: str) -> bool:
    """The option's value in a game's state (games set up before the option existed get its default)."""
    return bool((state.get("options") or {}).get(name, RULE_OPTIONS[name]))
