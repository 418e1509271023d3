"""The game's rule options: readings of the sheet that players may choose between.

The French sheet is a damaged scan and leaves some rules open; the default of each
option is its most literal reading, and docs/games/peaux_rouges.md gives the source
and the reasoning for each. A game's options are fixed when it is created (scenario
options, ``--option KEY=VALUE``) and kept in the state under ``"options"``.
"""

from __future__ import annotations

# option -> (default, every accepted value)
RULE_OPTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    # "deux coups consécutifs": two attacks a turn at any enemies ("separate"), or the
    # second shot straight after the first at the same enemy ("consecutive").
    "leader_shots": ("separate", ("separate", "consecutive")),
    # "ne pourra être déplacé que par un soldat": the soldier pieces only, or any Long Knife.
    "flag_carriers": ("soldiers", ("soldiers", "long_knives")),
    # "Les fantassins sur les cases servant de parapets": all foot, or only the camp's defenders.
    "parapet_bonus": ("all_foot", ("all_foot", "long_knives")),
    # The British edition's limits (3 foot, 2 riders, 1 + 1), or one piece a square throughout.
    "stacking": ("british", ("british", "one")),
}


def default_options() -> dict[str, str]:
    return {name: default for name, (default, _) in RULE_OPTIONS.items()}


def rule_options(given: dict | None) -> dict[str, str]:
    """The rule options of a new game: the defaults with ``given`` applied.
    Unknown names are left to other layers (the turn limit is not a rule option);
    a bad value for a known option raises ValueError naming the accepted values."""
    out = default_options()
    for name, value in (given or {}).items():
        if name not in RULE_OPTIONS:
            continue
        accepted = RULE_OPTIONS[name][1]
        if value not in accepted:
            raise ValueError(f"option {name} must be one of {', '.join(accepted)}, not {value!r}")
        out[name] = value
    return out


def options_of(state: dict) -> dict[str, str]:
    """A state's rule options (a state saved before options existed plays by the defaults)."""
    return {**default_options(), **(state.get("options") or {})}


__all__ = ["RULE_OPTIONS", "default_options", "rule_options", "options_of"]
