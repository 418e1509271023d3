"""Units coming onto the map (rules 26 and 9.1.e): reinforcements on their turn and at their
entry hex, units that retreated off the map coming back, entry moved along the edge, the
column on one road (26.4), and arrivals nobody ordered."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .messages import N_
from .scenario import ROAD_TYPES
from .situation import OFF_MAP, WAITING, Context
from .tables import terrain

RETURN_REACH = 5  # 9.1.e: within five hexes of the exit hex
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def arrivals(ctx: Context, side: str) -> list[str]:
    """Units and commanders of ``side`` due this turn (reinforcements, units returning)."""
    turn = ctx.state["turn"]
    out = []
    for uid, u in ctx.sit.units.items():
        info = ctx.sc.units[uid]
        if info.side != side:
            continue
        if u["status"] == WAITING and info.enter and (u.get("entry") or info.enter)["turn"] <= turn:
            out.append(uid)
        elif u["status"] == OFF_MAP and u.get("return", {}).get("turn", 99) <= turn:
            out.append(uid)
    for cid, c in ctx.sit.cmds.items():
        info = ctx.sc.commanders[cid]
        if info.side == side and c["status"] == WAITING and info.enter and (c.get("entry") or info.enter)["turn"] <= turn:
            out.append(cid)
    return out


def scheduled(ctx: Context, ref: str) -> dict | None:
    """Where and when ``ref`` (waiting or off the map) is to enter: {"hex", "turn"}, or None."""
    if ref in ctx.sc.commanders:
        c = ctx.sit.cmds[ref]
        return (c.get("entry") or ctx.sc.commanders[ref].enter) if c["status"] == WAITING else None
    u = ctx.sit.units[ref]
    if u["status"] == OFF_MAP:
        return u.get("return")
    return (u.get("entry") or ctx.sc.units[ref].enter) if u["status"] == WAITING else None


def edge_delay(ctx: Context, hexes: int) -> int:
    """Turns of delay for moving an entry point ``hexes`` along the edge: one "for every 5 hexes"
    (26.7, 9.1.e), whole fives by default; option ``edge_delay: any_part`` counts part of five too."""
    if ctx.state.get("rules", {}).get("edge_delay", "whole_fives") == "any_part":
        return -(-hexes // 5)
    return hexes // 5


def move_entry(ctx: Context, side: str, refs: list[str], hex_: str, text: str) -> list[str]:
    """Rules 26.7 and 9.1.e: units not yet on the map may come on elsewhere along the edge, a
    turn later for every 5 hexes from their own entry hex; a unit that retreated off the map
    comes back within 5 hexes of its exit, not in an enemy ZOC. Returns the units whose order
    was refused: they wait this turn rather than come on where the player did not want them."""
    board = ctx.sc.board
    refused: list[str] = []

    def skip(why: str, who: list[str]) -> None:
        ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why, side=side, to=[side]))
        refused.extend(who)

    if not board.on_edge(hex_):
        skip(f"{hex_} is not on the map edge", refs)
        return refused
    for ref in refs:
        when = scheduled(ctx, ref)
        if when is None:
            who = ctx.sit.commander_name(ref) if ref in ctx.sc.commanders else ctx.name(ref)
            skip(f"{who} is not waiting to enter (not due, or already on the map)", [])
            continue
        far = distance(when["hex"], hex_)
        returning = ref in ctx.sc.units and ctx.sit.units[ref]["status"] == OFF_MAP
        if returning and far > RETURN_REACH:
            skip(f"{hex_} is more than five hexes from {ctx.name(ref)}'s exit hex {when['hex']} (rule 9.1.e)", [ref])
            continue
        if returning and hex_ in ctx.sit.zoc_hexes(ctx.sc.enemy(side)):
            skip(f"{hex_} is in an enemy ZOC (rule 9.1.e)", [ref])
            continue
        delay = edge_delay(ctx, far)
        new = {"hex": hex_, "turn": max(when["turn"], ctx.state["turn"]) + delay}
        if ref in ctx.sc.commanders:
            ctx.sit.cmds[ref]["entry"] = new
        elif returning:
            ctx.sit.units[ref]["return"] = new
        else:
            ctx.sit.units[ref]["entry"] = new
        name = ctx.sit.commander_name(ref) if ref in ctx.sc.commanders else ctx.name(ref)
        ctx.emit(event("entry_moved", N_("%(name)s will enter at %(hex)s on turn %(turn)s (%(delay)s turn(s) later for %(distance)s hexes along the edge)."),
                       unit=ref, name=name, hex=hex_, turn=new["turn"], delay=delay, distance=far, to=[side]))
    return refused


def entry_of(ctx: Context, ref: str) -> tuple[str, int]:
    """Entry hex and MP this turn of an arriving unit or commander."""
    if ref in ctx.sc.commanders:
        e = ctx.sc.commanders[ref].enter
        return (ctx.sit.cmds[ref].get("entry") or e)["hex"], int(e.get("mp", 8))
    u = ctx.sit.units[ref]
    if u["status"] == OFF_MAP:
        return u["return"]["hex"], ctx.sit.movement_points(ref)
    e = ctx.sc.units[ref].enter
    return (u.get("entry") or e)["hex"], int(e.get("mp", ctx.sit.movement_points(ref)))


def entry_road(board, h: str) -> str | None:
    """The best road leading from the entry hex onto the map (the road the units arrive by)."""
    kinds = {board.road(h, n) for n in board.neighbours[h]} - {None}
    return next((k for k in ROAD_TYPES if k in kinds), None)


@dataclass(frozen=True)
class Entry:
    """How a stack comes on at ``hex`` this turn (rules 26.4-26.6): its allowance ``mp``; the road
    it arrives by (``road``, its ``rate`` in twelfths of an MP a hex) unless an enemy ZOI covers
    the entry hex (``zoi_covered``: no road rate, 26.5); the entry hex's cost off the road
    (``plain``); ``partial`` (less than its full allowance: road movement used, 26.6); ``ahead``
    (stacks that came on there before it this phase with the same allowance: the column, 26.4)."""

    hex: str
    mp: int
    road: str | None
    rate: int
    plain: int
    zoi_covered: bool
    partial: bool
    ahead: int

    def starts(self) -> list[tuple[int, bool, int]]:
        """(MP left in twelfths once the entry hex is paid and the column counted, road rate used,
        the entry hex's cost) for each way of entering the first hex: along the road at its rate,
        or at its own cost."""
        out = []
        if self.road and not self.zoi_covered:
            out.append((self.mp * 12 - self.rate - self.ahead * self.rate, True, self.rate))
        space = self.rate if self.road and not self.zoi_covered else 12
        out.append((self.mp * 12 - self.plain - self.ahead * space, self.partial, self.plain))
        return out

    def column_text(self) -> str:
        """What a stack behind others on the road has left (rule 26.4)."""
        points = self.mp * 12 // self.rate - self.ahead
        nth = ORDINALS[self.ahead] if self.ahead < len(ORDINALS) else f"{self.ahead + 1}th"
        return f"the {points} road movement points of the {nth} stack in the column (rule 26.4)"


def entry_for(ctx: Context, refs: list[str], start: str, mode: str, zoi: set[str], ahead: int) -> Entry:
    """The terms a stack of ``refs`` enters on at ``start`` (``ahead``: stacks that came on there
    before it this phase with the same allowance)."""
    sit, board = ctx.sit, ctx.sc.board
    road = entry_road(board, start)
    tec = terrain()
    column = "mounted" if mode == "mounted" else "artillery" if mode == "artillery" else "cost"
    partial = any(entry_of(ctx, r)[1] < (sit.movement_points(r) if r in ctx.sc.units else 8) for r in refs)
    return Entry(hex=start, mp=min(entry_of(ctx, r)[1] for r in refs), road=road,
                 rate=tec["roads"][road]["rate"] if road else 12, plain=tec["hexes"][board.terrain[start]][column],
                 zoi_covered=start in zoi, partial=partial, ahead=ahead)


def enter_the_rest(ctx: Context, side: str, due: set[str], move) -> None:  # noqa: ANN001
    """Arrivals nobody ordered. A regiment entering apart from its brigade moves by itself to
    join it by the fastest way (22.2: ``move(ref) -> bool`` tries that); the others enter and stop on
    their entry hex while it is free of the enemy and within the stacking limits, else wait."""
    sit = ctx.sit
    by_hex: dict[str, list[str]] = {}
    for ref in sorted(due, key=lambda r: (r not in ctx.sc.units, r)):
        if ref in ctx.sc.units and move(ref):
            continue
        by_hex.setdefault(entry_of(ctx, ref)[0], []).append(ref)
    for h, refs in by_hex.items():
        placed, delayed = [], []
        for ref in refs:
            if ref in ctx.sc.commanders:
                if sit.side_at(h) in (None, side) and (placed or not any(r in ctx.sc.units for r in refs)):
                    sit.place_commander(ref, h)
                continue
            if sit.side_at(h) not in (None, side) or sit.stacking_problem(h, [ref]):
                delayed.append(ref)
                continue
            sit.place(ref, h)
            sit.units[ref].pop("return", None)
            placed.append(ref)
        if placed:
            cost = terrain()["hexes"][ctx.sc.board.terrain[h]]["cost"]
            ctx.emit(event("move", N_("%(names)s %(done)s %(path)s (%(mp)s MP%(road)s)%(why)s."), units=placed,
                           names=", ".join(ctx.name(u) for u in placed), path=h, hexes=[h], verb="enter at", done="entered at",
                           mp=mp_text(cost), road="", why="", dest=h, into_zoc=False))
        if delayed:
            ctx.emit(event("entry_delayed", N_("%(names)s cannot enter at %(hex)s this turn (blocked or full)."),
                           units=delayed, names=", ".join(ctx.name(u) for u in delayed), hex=h, to=[side]))


def mp_text(twelfths: int) -> str:
    whole, rest = divmod(twelfths, 12)
    frac = {0: "", 3: "1/4", 4: "1/3", 6: "1/2", 8: "2/3", 9: "3/4"}.get(rest, f"{rest}/12")
    return f"{whole} {frac}".strip() if whole and frac else (frac or str(whole))
