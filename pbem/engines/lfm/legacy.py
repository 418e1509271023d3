"""Rules versions this release still replays (`pbem verify`): version 2 resolved every phase
as version 3 does, but its result did not name the phase it resolved and some events were
worded in the present tense ("5th Michigan retreat")."""

from __future__ import annotations

# version 3's message -> version 2's
V2_MESSAGES = {
    "%(firers)s fired at %(target)s (%(target_name)s): %(sp)s SP, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(n)s cohesion check(s).":
        "%(firers)s fire at %(target)s (%(target_name)s): %(sp)s SP, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(n)s cohesion check(s).",
    "%(names)s charged %(target)s from %(frm)s: cohesion %(att_cr)s against %(def_cr)s, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(result)s.":
        "%(names)s charge %(target)s from %(frm)s: cohesion %(att_cr)s against %(def_cr)s, column %(column)s; roll %(roll)s%(drm_text)s = %(modified)s: %(result)s.",
    "%(names)s rode into %(hex)s.": "%(names)s ride into %(hex)s.",
    "%(names)s at %(hex)s retreated before combat.": "%(names)s at %(hex)s retreat before combat.",
    "%(names)s advanced from %(frm)s into %(hex)s.": "%(names)s advance from %(frm)s into %(hex)s.",
    "%(names)s stopped at %(hex)s: %(why)s.": "%(names)s stop at %(hex)s: %(why)s.",
    "%(names)s retreated off the map from %(frm)s (%(why)s); they may return next turn.":
        "%(names)s retreat off the map from %(frm)s (%(why)s); they may return next turn.",
    "%(names)s retreated %(frm)s -> %(path)s (%(why)s)%(d_text)s.": "%(names)s retreat %(frm)s -> %(path)s (%(why)s)%(d_text)s.",
    "%(names)s held %(hex)s: NR terrain need not retreat (rule 9.1.d).": "%(names)s hold %(hex)s: NR terrain need not retreat (rule 9.1.d).",
    "Initiative, turn %(turn)s: %(text)s; first to move: %(first)s (%(how)s).":
        "Initiative, turn %(turn)s: %(text)s; %(first)s moves first (%(how)s).",
    "Turn 1: first to move, as the scenario sets: %(first)s.": "Turn 1: %(first)s moves first, as the scenario sets.",
    "%(names)s %(done)s %(path)s (%(mp)s MP%(road)s)%(why)s.": "%(names)s %(verb)s %(path)s (%(mp)s MP%(road)s)%(why)s.",
    "%(names)s %(done)s.": "%(names)s %(verb)s.",
}


def as_v2(state: dict, events: list[dict]) -> None:
    """A version 3 result and its events made what version 2 gave (in place)."""
    state["last"].pop("resolved", None)
    for ev in events:
        ev["msg"] = V2_MESSAGES.get(ev["msg"], ev["msg"])
        if ev["type"] in ("move", "mount", "dismount"):
            ev["args"].pop("done", None)  # the past tense, new in 3
