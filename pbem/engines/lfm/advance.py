"""Advance after combat (rule 10) and after a voluntary retreat (12.3): who may advance, where,
by the ATTACK line's choice, its named advance (10.4) or the side's standing order."""

from __future__ import annotations

from pbem.engines.base import event
from pbem.engines.hexgrid import distance

from .messages import N_
from .situation import Context


class Advance:
    """Advances by ``side`` into hexes the enemy left."""

    def __init__(self, ctx: Context, side: str):
        self.ctx, self.side = ctx, side
        self.sit = ctx.sit
        self.enemy = ctx.sc.enemy(side)

    def may_advance(self, h: str) -> list[str]:
        """The units of a stack that may advance (10.3: not artillery; 16.4: not a shattered brigade)."""
        return [u for u in self.sit.units_at(h) if not self.ctx.sc.units[u].is_artillery and not self.sit.shattered(u)]

    def after_combat(self, vacated: str, participants: list[str], wanted: bool | str | None,
                     named: list[dict] | None, texts: list[str]) -> None:
        """Rule 10.1.b: stacks that took part in the combat may advance into the hex it emptied at
        once (10.2): as the ATTACK line names them (10.4), or by its ADVANCE choice, or by the
        standing order (True: the largest stack; "all": every stack, into the hex or one beside it)."""
        if self.sit.units_at(vacated):
            return
        if named:
            return self.named(vacated, participants, named, texts)
        if wanted is None:
            wanted = {"yes": True, "all": "all", "no": False}[self.ctx.standing(self.side)["advance"]]
        if not wanted:
            return
        frm = self.into(vacated, participants)
        if frm and wanted == "all":
            for other in [a for a in participants if a != frm]:
                self.beside(vacated, other)

    def after_withdrawal(self, vacated: str) -> None:
        """Rule 12.3: after the defender falls back, the attacker may advance units from one
        adjacent hex into the hex it left (never beside it), by its standing order."""
        if not self.ctx.standing(self.side)["advance"] in ("yes", "all"):
            return
        adjacent = [n for n in self.ctx.sc.board.neighbours[vacated] if self.sit.side_at(n) == self.side]
        self.into(vacated, adjacent)

    def into(self, vacated: str, stacks: list[str]) -> str | None:
        """The largest stack of ``stacks`` that fits advances into ``vacated``; its hex, or None."""
        sit = self.sit
        best = None
        for a in stacks:
            movers = self.may_advance(a)
            if movers and not sit.stacking_problem(vacated, movers, leaving=tuple(movers)):
                sp = sum(sit.sp(u) for u in movers)
                if best is None or sp > best[0]:
                    best = (sp, a, movers)
        if not best:
            return None
        _, frm, movers = best
        self.move(movers, frm, vacated, beside=False)
        return frm

    def beside(self, vacated: str, frm: str) -> None:
        """Rule 10.3-10.4: once a stack has advanced into the vacated hex, another that took part
        may advance one hex too: into the vacated hex while stacking allows, else into an empty
        hex next to both it and the vacated hex (the one nearest the enemy)."""
        sit, board = self.sit, self.ctx.sc.board
        movers = self.may_advance(frm)
        if not movers:
            return
        foes = sit.hexes_of(self.enemy)
        near = set(board.neighbours[vacated]) & set(board.neighbours[frm])
        choices = [vacated] + sorted(near, key=lambda h: (min((distance(h, f) for f in foes), default=0), h))
        dest = next((h for h in choices if (h == vacated or not sit.units_at(h))
                     and not sit.stacking_problem(h, movers, leaving=tuple(movers))), None)
        if dest is not None:
            self.move(movers, frm, dest, beside=dest != vacated)

    def named(self, vacated: str, participants: list[str], named: list[dict], texts: list[str]) -> None:
        """Rule 10.4 as the ATTACK line names it (``ADVANCE <units> TO <hex>; ...``): each unit one
        hex, into the vacated hex or an empty hex beside it and beside where it stood, provided at
        least one unit enters the vacated hex; within the stacking limits (10.3)."""
        ctx, sit, board = self.ctx, self.sit, self.ctx.sc.board
        text = "; ".join(texts) or "ADVANCE"

        def refuse(why: str) -> None:
            ctx.emit(event("order_skipped", N_("Skipped: %(order)s (%(why)s)."), order=text, why=why,
                           side=self.side, to=[self.side]))

        able = {u for a in participants for u in self.may_advance(a)}
        moves = []
        for part in named:
            for u in part["units"]:
                if u not in able:
                    return refuse(f"{ctx.name(u)} took no part in the combat or may not advance (rules 10.1, 10.3)")
                here, dest = sit.units[u]["hex"], part["to"]
                if dest != vacated and not (dest in board.neighbours[vacated] and dest in board.neighbours[here]
                                            and not sit.units_at(dest)):
                    return refuse(f"{dest} is neither the vacated hex {vacated} nor an empty hex beside it and "
                                  f"beside {ctx.name(u)} (rule 10.4)")
                moves.append((u, here, dest))
        if not any(dest == vacated for _, _, dest in moves):
            return refuse(f"no unit advances into the vacated hex {vacated}, so none may advance beside it (rule 10.4)")
        for dest in dict.fromkeys(d for _, _, d in moves):
            going = [u for u, _, d in moves if d == dest]
            if sit.stacking_problem(dest, going, leaving=tuple(going)):
                return refuse(f"{dest} would be over-stacked (rule 10.3: within stacking restrictions)")
        for (frm, dest) in dict.fromkeys((f, d) for _, f, d in moves):
            self.move([u for u, f, d in moves if (f, d) == (frm, dest)], frm, dest, beside=dest != vacated)

    def move(self, movers: list[str], frm: str, dest: str, beside: bool) -> None:
        ctx, sit = self.ctx, self.sit
        d = any(sit.units[u]["d"] for u in movers)
        for u in movers:
            sit.place(u, dest)
        if d or sit.disorganized(dest):
            sit.disorganize(dest)  # rule 14.3: a D marker spreads to the stack
        if not sit.units_at(frm):
            for cid in list(sit.commanders_at(frm)):
                sit.place_commander(cid, dest)
        ctx.state["last"]["moves"].append({"units": movers, "path": [frm, dest]})
        ctx.emit(event("advance", N_("%(names)s advanced from %(frm)s into %(hex)s."), units=movers,
                       names=", ".join(ctx.name(u) for u in movers), frm=frm, hex=dest, beside=beside))
