"""Fog of war: what each side, and an observer, may be told of an event at the moment it
happens (docs/games/acw.md, "What each side sees"; data/acw/README.md, "Fog of war").

An event names units, officers and wagons by id in its args: its subject (``id``, else
``officer_id``, else ``wagon_id``) and the others (``target_id``, ``other_id``, ``enemy_id``,
``unit_id``, ``attacker_ids``, ``defender_ids``, ``unit_ids``, ``about_ids``, ``officer_ids``).
A side is told an event whole when its troops see every enemy it names at that moment, by
the engine's own line of sight (``visibility``); its own units, officers and wagons it always
knows. When only another unit is hidden from it, it is told the event with that unit's name
replaced by "an unseen enemy unit to the <compass point>" (of its own unit in the event). When
the subject itself is hidden it is told nothing, except what a unit learns when an enemy it
cannot see fires on it: the kind of fire, the compass point it comes from, and the hits
(``fire_unseen``). An observer is told an event only when every unit, officer and wagon it
names is seen by its enemy; none of the masked or unseen-fire variants.
"""

from __future__ import annotations

import math
import re

from pbem.engines.base import event

from .geometry import bearing_to
from .messages import N_
from .situation import GONE
from .visibility import position_key, unit_seen, visible_officers, visible_wagons

UNIT_KEYS = ("target_id", "other_id", "enemy_id", "unit_id")
UNIT_LISTS = ("attacker_ids", "defender_ids", "unit_ids", "about_ids")
OFFICER_LISTS = ("officer_ids",)
COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


def named(ev: dict) -> tuple[tuple[str, str] | None, list[tuple[str, str]]]:
    """(the subject as (kind, id), every other (kind, id) the event names)."""
    args = ev["args"]
    subject = (("unit", args["id"]) if args.get("id") else ("officer", args["officer_id"]) if args.get("officer_id")
               else ("wagon", args["wagon_id"]) if args.get("wagon_id") else None)
    others = [("unit", args[k]) for k in UNIT_KEYS if args.get(k)]
    others += [("unit", u) for k in UNIT_LISTS for u in args.get(k) or []]
    others += [("officer", o) for k in OFFICER_LISTS for o in args.get(k) or []]
    if subject and subject[0] != "officer" and args.get("officer_id"):
        others.append(("officer", args["officer_id"]))
    if subject and subject[0] != "wagon" and args.get("wagon_id"):
        others.append(("wagon", args["wagon_id"]))
    return subject, [o for o in dict.fromkeys(others) if o != subject]


class Moment:
    """Who sees what now; each question asked once, and only when an event needs it."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._key = None
        self._officers: dict = {}
        self._wagons: dict = {}

    def key(self) -> str:
        if self._key is None:
            self._key = position_key(self.ctx.state)
        return self._key

    def side_of(self, kind: str, ident: str) -> str:
        return self.ctx.state[{"unit": "units", "officer": "officers", "wagon": "wagons"}[kind]][ident]["side"]

    def sees(self, role: str | None, kind: str, ident: str) -> bool:
        """Whether ``role`` sees the thing now (None: an observer, who sees what its enemy sees)."""
        side = self.side_of(kind, ident)
        if role is None:
            return self.sees(self.ctx.scenario.enemy(side), kind, ident)
        if side == role:
            return True
        sc, state = self.ctx.scenario, self.ctx.state
        thing = state[{"unit": "units", "officer": "officers", "wagon": "wagons"}[kind]][ident]
        if kind == "unit" and thing["status"] in GONE or kind == "officer" and thing["status"] != "active" \
                or kind == "wagon" and thing["status"] != "active":
            return role in thing.get("last_seen_by", [])  # gone: seen as it went
        if kind == "unit":
            return unit_seen(sc, state, role, ident, self.key())
        if kind == "officer":
            if role not in self._officers:
                self._officers[role] = visible_officers(sc, state, role)
            return ident in self._officers[role]
        if role not in self._wagons:
            self._wagons[role] = visible_wagons(sc, state, role)
        return ident in self._wagons[role]

    def seen_by(self, things: list[tuple[str, str]]) -> tuple[list[str], bool]:
        """(the roles that see all of them, whether an observer does)."""
        roles = [r for r in self.ctx.scenario.roles if all(self.sees(r, k, i) for k, i in things)]
        return roles, all(self.sees(None, k, i) for k, i in things)


def censor(ctx, ev: dict, fallback=None, seen_before: dict | None = None) -> list[dict]:
    """The event as each role may be told it: the whole event to those who see all it names
    (to everyone, observers included, when all do), masked copies or the ``fallback`` (a
    function of the role, returning an event or None) to the others. ``seen_before``: for an
    event that tells where its subject went (its track), who saw it where it started; the
    others are told it only as they would be of an unseen subject."""
    subject, others = named(ev)
    if subject is None and not others:
        return [ev]
    moment = Moment(ctx)
    roles = list(ev.get("to") or ctx.scenario.roles)
    whole, masked, unseen = [], {}, []
    for role in roles:
        before = seen_before is None or role in seen_before["seen_by"] or moment.side_of(*subject) == role
        if subject and (not before or not moment.sees(role, *subject)):
            unseen.append(role)
            continue
        hidden = tuple(o for o in others if not moment.sees(role, *o))
        if hidden:
            masked.setdefault(hidden, []).append(role)
        else:
            whole.append(role)
    out = []
    if whole:
        public = "to" not in ev and whole == list(ctx.scenario.roles) and moment.seen_by(
            ([subject] if subject else []) + others)[1] and (seen_before is None or seen_before["public"])
        if public:
            ev.pop("to", None)
        else:
            ev["to"] = whole
        out.append(ev)
    for hidden, to in masked.items():
        for role in to:
            out.append(mask(ctx, ev, hidden, role))
    if fallback is not None:
        for role in unseen:
            told = fallback(role)
            if told is not None:
                told["to"] = [role]
                out.append(told)
    return out


def _name(ctx, kind: str, ident: str) -> str:
    return {"unit": lambda: ctx.scenario.units[ident]["name"], "officer": lambda: ctx.scenario.officers[ident]["name"],
            "wagon": lambda: ctx.scenario.wagons[ident]["name"]}[kind]()


def _centre(ctx, kind: str, ident: str) -> tuple[float, float]:
    if kind == "unit":
        return ctx.layout(ident).centre
    thing = ctx.state["officers" if kind == "officer" else "wagons"][ident]
    return thing["x"], thing["y"]


def compass(frm: tuple[float, float], to: tuple[float, float]) -> str:
    """The compass point (of 8) from one place to another, as a player says it."""
    return COMPASS[int(math.floor((bearing_to(*frm, *to) + 22.5) % 360.0 / 45.0))]


def mask(ctx, ev: dict, hidden: tuple, role: str) -> dict:
    """A copy of the event for ``role`` with each hidden enemy named only as "an unseen enemy
    unit (officer, wagon) to the <compass point>" of the role's own unit in the event."""
    subject, others = named(ev)
    own = [t for t in ([subject] if subject else []) + others if t not in hidden and t[0] == "unit"
           and ctx.state["units"][t[1]]["side"] == role]
    anchor = _centre(ctx, *own[0]) if own else None
    words = {}
    for kind, ident in hidden:
        where = f" to the {compass(anchor, _centre(ctx, kind, ident))}" if anchor else ""
        words[_name(ctx, kind, ident)] = f"an unseen enemy {kind}{where}"
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in sorted(words, key=len, reverse=True)) + r")(?!\w)")
    ids = {i for _, i in hidden}

    def scrub(value):
        if isinstance(value, str):
            return None if value in ids else pattern.sub(lambda m: words[m.group(0)], value)
        if isinstance(value, list):
            return [scrub(v) for v in value if not (isinstance(v, str) and v in ids)]
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items()}
        return value

    args = {k: scrub(v) for k, v in ev["args"].items()}
    return {"type": ev["type"], "msg": ev["msg"], "args": args, "to": [role]}


def unseen_fire(ctx, rec: dict, kind_words: str):
    """The fallback of a fire event for the side whose troops do not see the firer: the kind
    of fire, where it comes from (a compass point from the target, and woods or a town when
    the firer stands in them) and the hits."""
    def told(role: str):
        target = rec["target"]
        if ctx.state["units"][target]["side"] != role:
            return None
        firer_at = ctx.layout(rec["firer"]).centre
        ground = ctx.table.ground(*firer_at)
        return event("fire_unseen", N_("%(target)s came under %(what)s from out of sight to the %(direction)s%(ground)s: "
                                       "%(hits)s hit(s)."),
                     target=ctx.name(target), id=target, what=kind_words, hits=rec["hits"],
                     direction=compass(ctx.layout(target).centre, firer_at),
                     ground=f" (from the {ground})" if ground in ("woods", "town") else "")
    return told


def unseen_charge(ctx, attacker: str, target: str):
    """The fallback of a charge for the side whose troops do not see the attacker: that its
    unit is charged, and from where."""
    def told(role: str):
        if ctx.state["units"][target]["side"] != role:
            return None
        return event("charged_unseen", N_("%(target)s was charged by an enemy out of sight to the %(direction)s."),
                     target=ctx.name(target), id=target,
                     direction=compass(ctx.layout(target).centre, ctx.layout(attacker).centre))
    return told


def seen_by(ctx, uids: list[str]) -> dict:
    """For a record of this turn's moves, fire and combats: the roles that see every unit in
    it now, and whether an observer does."""
    roles, public = Moment(ctx).seen_by([("unit", u) for u in uids])
    return {"seen_by": roles, "public": public}


def both_ends(before: dict, after: dict) -> dict:
    """A move's record is shown to whoever saw the unit where it started and where it ended."""
    return {"seen_by": [r for r in before["seen_by"] if r in after["seen_by"]],
            "public": before["public"] and after["public"]}


def went(ctx, kind: str, ident: str) -> None:
    """A unit, officer or wagon is about to leave the table: keep who sees it as it goes, so
    the events that tell it go to them and their view still names it among the gone."""
    thing = ctx.state[{"unit": "units", "officer": "officers", "wagon": "wagons"}[kind]][ident]
    moment = Moment(ctx)
    thing["last_seen_by"] = [r for r in ctx.scenario.roles if moment.sees(r, kind, ident)]
