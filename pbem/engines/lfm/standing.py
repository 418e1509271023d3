"""Standing orders: what a side decides during the other side's player turn (and for the
attacks it does not assign itself), with the documented defaults. A side changes them in
any mail it sends (a STANDING block); they hold until changed.

``artillery``: auto (each battery not given a FIRE order fires at the best target it can
see: nearest, then clearest line, then most SP) or hold.
``evade``: retreat before combat for eligible cavalry: auto (when the odds against it are
2-1 or worse), always, never.
``stand``: a stack in NR terrain on a retreat result: auto (stays when the attack was at 3-2 or
less, falls back at 2-1 or more: holding against odds it cannot survive round after round
only loses the stack), yes (always stays), no (always retreats).
``retreat``: hexes a retreat goes, 1 or 2 (default 2: the second hex breaks contact, so the
attacker advancing into the hex left is not next to it again).
``toward``: a hex retreats head for, among the hexes the retreat rules allow (None: the
opposite hex, then the one furthest from the enemy).
``advance``: advance after combat into a vacated hex: yes (the largest stack that took part),
all (every stack that took part, into the hex or one beside it: rule 10.4), no.
``pursue``: when the other side's attack is thrown back (AR, AE), the defending stack
advances into a hex the attacker left (10.1.b): no (default: a defender holds its ground), yes.
``withdraw``: voluntary retreat after a combat round: none, disorganized (stacks with a D
marker still adjacent to the enemy fall back), all.
``attack``: the standing combat order for attacks nobody assigned: weakest (every stack
in a ZOC attacks the weakest adjacent enemy hex) or strongest.
``losses``: units to take first when a loss must be chosen (else the smallest fitting one).
"""

from __future__ import annotations

STAND_ODDS = ("1-3", "1-2", "1-1", "3-2")  # STAND AUTO holds NR terrain against these odds

DEFAULTS = {"artillery": "auto", "evade": "auto", "stand": "auto", "retreat": 2, "toward": None, "advance": "yes",
            "pursue": "no", "withdraw": "none", "attack": "weakest", "losses": []}
CHOICES = {"artillery": ("auto", "hold"), "evade": ("auto", "always", "never"), "stand": ("auto", "yes", "no"),
           "retreat": (1, 2), "advance": ("yes", "all", "no"), "pursue": ("no", "yes"),
           "withdraw": ("none", "disorganized", "all"), "attack": ("weakest", "strongest")}


def effective(written: dict) -> dict:
    out = dict(DEFAULTS)
    out.update({k: v for k, v in (written or {}).items() if k in DEFAULTS})
    return out
