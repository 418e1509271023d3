"""Morale (section 9): a d6 plus the unit's current rating and the temporary modifiers of
the moment; permanent changes are made the moment their cause happens.

Results of a check (designed, data/acw/tables/morale.json): 6 or more stands, 4 or 5
falls back in good order, 3 or less routs. A loser of close combat falls back on 6 or
more and routs below (10 E). A check "to pass" (closing into combat, supporting, pulling
away, rallying) needs 6 or more.
"""

from __future__ import annotations

from pbem.engines.base import event

from . import officers
from .messages import N_
from .rules import table as rules_table


def rating(ctx, uid: str) -> int:
    return int(ctx.state["units"][uid]["rating"])


def roll(ctx, uid: str, why: str, mods: list[tuple[str, int]], staff: bool = True, about: str | None = None) -> tuple[int, int, list, list]:
    """Roll one check: (d6, total, the modifiers used, the officers whose bonus counted). The
    dice label names the other unit involved (``about``) by its id, not its name."""
    mods = [m for m in mods if m[1]]
    helped = []
    if staff:
        for oid in officers.in_front_rank(ctx, uid):  # staff add their bonus from the front rank (5 C)
            bonus = officers.morale_bonus(ctx, oid)
            if bonus:
                mods.append((f"{ctx.scenario.officers[oid]['name']} attached", bonus))
                helped.append(oid)
    band = ctx.state.get("band", {}).get(ctx.state["units"][uid]["side"])
    if band == "wavering":
        mods.append(("army wavering", rules_table("morale")["temporary"]["army_wavering"]))
    key = why.replace(ctx.name(about), about) if about else why
    d6 = ctx.dice.roll(6, ctx.label("morale", uid, key, ctx.state.get("phase_step", "")))
    total = d6 + rating(ctx, uid) + sum(v for _, v in mods)
    return d6, total, mods, helped


def _text(mods) -> str:
    return "".join(f" {'+' if v >= 0 else '-'} {abs(v)} ({name})" for name, v in mods)


RESULT_WORDS = {"stand": "it stood", "fall_back": "it fell back", "rout": "it routed"}


def check(ctx, uid: str, why: str, mods: list[tuple[str, int]] | None = None, staff: bool = True,
          about: str | None = None) -> str:
    """A check after fire or when charged: ``stand``, ``fall_back`` or ``rout``."""
    d6, total, used, helped = roll(ctx, uid, why, list(mods or []), staff, about)
    results = rules_table("morale")["results"]
    result = "stand" if total >= results["stand"] else "fall_back" if total >= results["fall_back"] else "rout"
    ctx.emit(event("morale", N_("%(unit)s checked morale (%(why)s): d6 %(d6)s + rating %(rating)s%(mods)s = %(total)s (%(stand)s or more stands, %(fall_back)s or more falls back, less routs): %(result_text)s."),
                   unit=ctx.name(uid), id=uid, why=why, d6=d6, rating=rating(ctx, uid), mods=_text(used),
                   modifiers=[[n, v] for n, v in used], total=total, result=result, result_text=RESULT_WORDS[result],
                   stand=results["stand"], fall_back=results["fall_back"],
                   about_ids=[about] if about else [], officer_ids=helped))
    return result


def passes(ctx, uid: str, why: str, mods: list[tuple[str, int]] | None = None, staff: bool = True,
           need: int | None = None, about: str | None = None) -> bool:
    """A check that passes on 6 or more (or ``need``)."""
    need = rules_table("morale")["results"]["stand"] if need is None else need
    d6, total, used, helped = roll(ctx, uid, why, list(mods or []), staff, about)
    ok = total >= need
    ctx.emit(event("morale", N_("%(unit)s checked morale (%(why)s): d6 %(d6)s + rating %(rating)s%(mods)s = %(total)s, needing %(need)s or more: %(result_text)s."),
                   unit=ctx.name(uid), id=uid, why=why, d6=d6, rating=rating(ctx, uid), mods=_text(used),
                   modifiers=[[n, v] for n, v in used], total=total, need=need, result="passes" if ok else "fails", result_text="passed" if ok else "failed",
                   about_ids=[about] if about else [], officer_ids=helped))
    return ok


def alter(ctx, uid: str, key: str) -> None:
    """A permanent change (9 E), made the moment its cause happens."""
    perm = rules_table("morale")["permanent"]
    u = ctx.state["units"][uid]
    before = u["rating"]
    after = max(perm["floor"], min(u["initial"] + perm["ceiling_above_initial"], before + perm[key]))
    if after == before:
        return
    u["rating"] = after
    ctx.emit(event("morale_change", N_("%(unit)s's morale rating went from %(before)s to %(after)s for good (%(why)s)."),
                   unit=ctx.name(uid), id=uid, before=before, after=after, why=key.replace("_", " ")))
