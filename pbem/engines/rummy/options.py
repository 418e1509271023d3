"""The game options of Little Bighorn Rummy: the agreed target and the house rules.

Each house rule is the other reading of a passage the rule text leaves open; its
default (off) is the most literal reading. ``docs/games/rummy.md`` gives the reasons.
A state made before an option existed plays it off.
"""

from __future__ import annotations

HOUSE_RULES = {
    "keep_taken_card": "the card taken from the discard pile may not be discarded the same turn",
    "layoff_to_own_table": "a card laid off goes to the layer's own table and scores there, not to the meld it joins",
    "coup_sticks_are_support": "a Coup Stick or the Sundance counts as the turn's one support card",
    "custer_staff_immune": "the Staff on Custer cannot be stolen",
    "steal_from_opponents_only": "in the team game a Coup Stick steals only from the other team's tables",
}
TEAM_ONLY = ("steal_from_opponents_only",)
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def offered(team_game: bool) -> dict:
    """The options a scenario offers, with their defaults."""
    out: dict = {"target": None}
    out.update({name: False for name in HOUSE_RULES if team_game or name not in TEAM_ONLY})
    return out


def _flag(name: str, value) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(f"option {name} is yes or no, not {value!r}")


def house_rules(options: dict | None, team_game: bool) -> dict[str, bool]:
    """The house rules for the state, from the options a game was created with."""
    options = options or {}
    allowed = offered(team_game)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"no option {', '.join(unknown)} (options: {', '.join(sorted(allowed))})")
    return {name: _flag(name, options.get(name, False)) for name in allowed if name != "target"}


def rule_on(st: dict, name: str) -> bool:
    """Whether the house rule ``name`` is played in this game."""
    return bool(st.get("options", {}).get(name))
