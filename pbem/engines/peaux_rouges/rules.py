"""The rules: movement, fire, duels, retreats, victory, and one player turn's resolution.

``Match`` is a working copy of the board position (piece -> square index) used by
the resolver, the order parser (to check a mail's moves one after another) and the bot.
"""

from __future__ import annotations

import json

from pbem.dice import Dice
from pbem.engines.base import event

from . import messages as M
from .board import FORD, OPEN, PARAPET, RIVER, ROCKS, WOODS, Board, board_for
from .options import default_options, options_of
from .pieces import CHIEFS, LC, LEADERS, ORDER, PIECES, PR, SIDE_CODE, kind_of, other, side_of

DEFAULT_TARGETS = {LC: list(CHIEFS), PR: list(LEADERS)}


def default_standing(role: str) -> dict:
    """What a player's pieces do on the other player's turn until he says otherwise."""
    return {
        "answer": True,  # answer fire at range (melee is always answered)
        "pieces": {},  # piece -> answer at range yes/no, overriding "answer"
        "fire": True,  # after the mover's shots, fire with the pieces that have not fired
        "fire_within": 3,  # ... only at enemies this many squares away or nearer (1: melee only)
        "fire_riders": True,  # ... and at riders too
        "targets": list(DEFAULT_TARGETS[role]),  # who those pieces aim at first
        "advance": False,  # a melee winner takes the loser's square
        "retreat_toward": None,  # a square: losers fall back toward it when no order names one
    }


def apply_standing(standing: dict, ops: list, role: str) -> dict:
    out = {**default_standing(role), **json.loads(json.dumps(standing))}
    for op in ops:
        what = op[0]
        if what == "default":
            out = default_standing(role)
        elif what == "fire_always":
            out.update(fire=True, fire_within=3, fire_riders=True)
        elif what == "fire_within":
            out["fire_within"] = int(op[1])
        elif what == "fire_riders":
            out["fire_riders"] = bool(op[1])
        elif what == "answer":
            out["answer"] = bool(op[1])
        elif what == "answer_piece":
            out["pieces"][op[1]] = bool(op[2])
        elif what == "fire":
            out["fire"] = bool(op[1])
        elif what == "targets":
            out["targets"] = list(op[1])
        elif what == "advance":
            out["advance"] = bool(op[1])
        elif what == "retreat_toward":
            out["retreat_toward"] = op[1]
    return out


def phase_id(state: dict) -> str:
    if state.get("outcome"):
        return "OVER"
    return f"T{state['turn']}.{SIDE_CODE[state['side']]}"


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


class Match:
    """Where every piece and the flag are, with the rules that depend on it."""

    def __init__(self, board: Board, pos: dict[str, int | None], flag: int | None, options: dict | None = None):
        self.board = board
        self.pos = dict(pos)
        self.flag = flag
        self.options = dict(options or default_options())
        self.at: dict[int, list[str]] = {}
        self._zoc: dict[str, set[int]] = {}
        for code in PIECES:
            sq = self.pos.get(code)
            if sq is not None:
                self.at.setdefault(sq, []).append(code)

    @classmethod
    def from_state(cls, state: dict) -> "Match":
        board = board_for(state["scenario"])
        pos = {c: (board.index(s) if s else None) for c, s in state["pieces"].items()}
        flag = board.index(state["flag"]) if state.get("flag") else None
        return cls(board, pos, flag, options_of(state))

    def copy(self) -> "Match":
        return Match(self.board, self.pos, self.flag, self.options)

    def pieces_state(self) -> dict[str, str | None]:
        return {c: (self.board.name_of(s) if s is not None else None) for c, s in self.pos.items()}

    # who is where -----------------------------------------------------------
    def alive(self, code: str) -> bool:
        return self.pos.get(code) is not None

    def side_pieces(self, side: str) -> list[str]:
        return [c for c in PIECES if self.pos.get(c) is not None and side_of(c) == side]

    def enemy_at(self, sq: int, side: str) -> bool:
        occ = self.at.get(sq)
        return bool(occ) and side_of(occ[0]) != side

    def next_to_enemy(self, sq: int, side: str) -> bool:
        zone = self._zoc.get(side)
        if zone is None:
            zone = set()
            for other_sq, occ in self.at.items():
                if side_of(occ[0]) != side:
                    zone.update(self.board.neighbours[other_sq])
            self._zoc[side] = zone
        return sq in zone

    def adjacent_enemies(self, sq: int, side: str) -> list[str]:
        out = []
        for n in self.board.neighbours[sq]:
            occ = self.at.get(n)
            if occ and side_of(occ[0]) != side:
                out.extend(occ)
        return sorted(out, key=ORDER.__getitem__)

    def stack_ok(self, sq: int, code: str) -> bool:
        """Whether ``code`` may stand in ``sq`` with the friends already there:
        at most 3 foot, or 2 riders, or 1 foot and 1 rider (option ``stacking``
        "one": nobody else); never with enemies."""
        occ = [c for c in self.at.get(sq, ()) if c != code]
        if occ and side_of(occ[0]) != side_of(code):
            return False
        if self.options["stacking"] == "one":
            return not occ
        riders = sum(kind_of(c).mounted for c in occ) + kind_of(code).mounted
        foot = len(occ) + 1 - riders
        return (riders == 0 and foot <= 3) or (foot == 0 and riders <= 2) or (foot == 1 and riders == 1)

    def can_carry_flag(self, code: str) -> bool:
        """"Un soldat": the soldier pieces, or any Long Knife (option ``flag_carriers``)."""
        if side_of(code) != LC:
            return False
        return kind_of(code).name == "soldier" or self.options["flag_carriers"] == "long_knives"

    def flag_held(self) -> bool:
        return self.flag is not None and any(side_of(c) == LC for c in self.at.get(self.flag, ()))

    def _place(self, code: str, sq: int | None) -> None:
        self._zoc.clear()
        old = self.pos.get(code)
        if old is not None:
            self.at[old].remove(code)
            if not self.at[old]:
                del self.at[old]
        self.pos[code] = sq
        if sq is not None:
            self.at.setdefault(sq, []).append(code)
            self.at[sq].sort(key=ORDER.__getitem__)

    # movement ------------------------------------------------------------------
    def rider_reach(self, code: str) -> dict[int, int]:
        """Squares a rider can end on (stacking not checked) -> squares travelled.
        It moves 1 to 3 contiguous squares over open ground, parapets and fords,
        never through an enemy, and stops on reaching a square next to an enemy
        (or the unguarded flag, which an Indian takes by entering)."""
        steps, _ = self._ride(code)
        del steps[self.pos[code]]
        return steps

    def _ride(self, code: str) -> tuple[dict[int, int], dict[int, int | None]]:
        """Breadth-first over the squares a rider may ride through: square -> fewest
        steps to it, and the square it came from (stops are entered, never left)."""
        start = self.pos[code]
        side = side_of(code)
        board = self.board
        steps: dict[int, int] = {start: 0}
        came: dict[int, int | None] = {start: None}
        frontier = [start]
        for step in (1, 2, 3):
            nxt = []
            for s in frontier:
                if s != start and self.must_stop(s, side):
                    continue
                for n in board.neighbours[s]:
                    if n in steps or not board.passable(n, True) or self.enemy_at(n, side):
                        continue
                    steps[n] = step
                    came[n] = s
                    nxt.append(n)
            frontier = nxt
        return steps, came

    def must_stop(self, sq: int, side: str) -> bool:
        """A moving piece stops here: next to an enemy, or on the unguarded flag."""
        return self.next_to_enemy(sq, side) or sq == self.flag

    def rider_route(self, code: str, dest: int, stacking: bool = True) -> tuple[int, list[int]] | None:
        """Where a rider ordered to ``dest`` ends, and the squares it rides through to get there.

        It rides 1 to 3 contiguous squares over open ground, parapets and fords, never
        through an enemy. If it can reach ``dest`` without passing a square next to an
        enemy, it ends there. Otherwise every way there passes such a square, where the
        rider must stop ("s'arrêter sur toute case contiguë"): it ends on the first stop
        of one of those ways, the one nearest ``dest`` (then the one reached by the
        longer ride, then reading order), among those it may stand on (stacking). None:
        no way of three squares at all, or (with ``stacking``) no stop it may stand on."""
        board = self.board
        side = side_of(code)
        steps, came = self._ride(code)

        def way(sq: int) -> list[int]:
            out = []
            while came[sq] is not None:
                out.append(sq)
                sq = came[sq]
            return out[::-1]

        if dest in steps and dest != self.pos[code]:
            if stacking and not self.stack_ok(dest, code):
                return None
            return dest, way(dest)
        # how many steps from each square to dest, over any square a rider may cross
        left = {dest: 0}
        frontier = [dest]
        for step in (1, 2):
            nxt = []
            for s in frontier:
                for n in board.neighbours[s]:
                    if n not in left and board.passable(n, True) and not self.enemy_at(n, side):
                        left[n] = step
                        nxt.append(n)
            frontier = nxt
        stops = [s for s, k in steps.items() if k and self.must_stop(s, side) and k + left.get(s, 9) <= 3
                 and (not stacking or self.stack_ok(s, code))]
        if not stops:
            return None
        best = min(stops, key=lambda s: (board.distance(s, dest), -steps[s], s))
        return best, way(best)

    def move_end(self, code: str, dest: int) -> int:
        """The square a legal move to ``dest`` ends on (a rider may stop short)."""
        if kind_of(code).mounted:
            route = self.rider_route(code, dest)
            if route is not None:
                return route[0]
        return dest

    def destinations(self, code: str) -> list[int]:
        """Every square the piece may legally move to now."""
        side = side_of(code)
        if kind_of(code).mounted:
            cands = self.rider_reach(code)
        else:
            sq = self.pos[code]
            cands = [n for n in self.board.neighbours[sq]
                     if self.board.passable(n, False) and not self.enemy_at(n, side)]
        return [s for s in cands if self.stack_ok(s, code)]

    def move_error(self, code: str, dest: int, with_flag: bool = False):
        """None if the move is legal, else (msgid, args)."""
        board = self.board
        here = self.pos[code]
        name = board.name_of(dest)
        kind = kind_of(code)
        side = side_of(code)
        if dest == here:
            return M.E_SAME_SQUARE, {"piece": code, "square": name}
        terrain = board.terrain[dest]
        if terrain == RIVER:
            return M.E_RIVER, {"square": name}
        if kind.mounted and terrain == WOODS:
            return M.E_RIDER_WOODS, {"square": name}
        if kind.mounted and terrain == ROCKS:
            return M.E_RIDER_ROCKS, {"square": name}
        if self.enemy_at(dest, side):
            return M.E_ENEMY_SQUARE, {"square": name}
        if kind.mounted:
            if board.distance(here, dest) > 3:
                return M.E_TOO_FAR_RIDER, {"piece": code, "square": name}
            if self.rider_route(code, dest) is None:
                unstacked = self.rider_route(code, dest, stacking=False)
                if unstacked is not None:
                    return self.stacking_error(unstacked[0])
                return M.E_RIDER_NO_WAY, {"piece": code, "square": name}
        elif board.distance(here, dest) != 1:
            return M.E_TOO_FAR_FOOT, {"piece": code, "square": name, "distance": board.distance(here, dest)}
        elif not self.stack_ok(dest, code):
            return self.stacking_error(dest)
        if with_flag:
            if not self.can_carry_flag(code):
                if self.options["flag_carriers"] == "long_knives":
                    return M.E_FLAG_NOT_LONG_KNIFE, {}
                return M.E_FLAG_NOT_SOLDIER, {}
            if self.flag != here:
                return M.E_FLAG_NOT_HERE, {"piece": code, "square": board.name_of(here)}
        return None

    def stacking_error(self, sq: int):
        msg = M.E_STACKING_ONE if self.options["stacking"] == "one" else M.E_STACKING
        return msg, {"square": self.board.name_of(sq)}

    def do_move(self, code: str, dest: int, with_flag: bool = False) -> None:
        self._place(code, dest)
        if with_flag:
            self.flag = dest

    # fire -------------------------------------------------------------------------
    def attack_error(self, code: str, target: str):
        """None if ``code`` can attack ``target`` from where both stand, else (msgid, args).
        Adjacent is melee; otherwise fire, range 3 (the river crossed counts one
        more square), no woods or rocks square in between, no tomahawk."""
        board = self.board
        a, t = self.pos[code], self.pos[target]
        d = board.distance(a, t)
        if d == 1:
            return None
        if kind_of(code).reach < 2:
            return M.E_TOMAHAWK_RANGE, {"piece": code}
        if t in board.fire_targets(a):
            return None
        fd = board.fire_distance(a, t)
        if fd > 3:
            return M.E_OUT_OF_RANGE, {"piece": code, "target": target, "range": fd}
        if board.line_blocked(a, t):
            return M.E_BLOCKED, {"piece": code, "target": target}
        return None

    def targets(self, code: str) -> list[str]:
        """Enemies ``code`` can attack now."""
        side = side_of(code)
        here = self.pos[code]
        board = self.board
        fire = board.fire_targets(here) if kind_of(code).reach > 1 else {}
        out = []
        for t in PIECES:
            sq = self.pos.get(t)
            if sq is None or side_of(t) == side:
                continue
            if sq in fire or board.distance(here, sq) == 1:
                out.append(t)
        return out

    def bonuses(self, code: str, melee: bool) -> list[str]:
        """The bonus points a piece adds to its die, as message ids (one point each)."""
        if kind_of(code).mounted:
            return [M.BONUS_CAVALRY] if melee else []
        terrain = self.board.terrain[self.pos[code]]
        if terrain == PARAPET and side_of(code) == PR and self.options["parapet_bonus"] == "long_knives":
            return []  # the camp's parapets shelter its defenders only (option parapet_bonus)
        return {PARAPET: [M.BONUS_PARAPET], ROCKS: [M.BONUS_ROCKS], WOODS: [M.BONUS_WOODS]}.get(terrain, [])

    def retreat_squares(self, loser: str, away_from: int) -> list[int]:
        """Squares next to the loser, away from the winner (no step back toward
        it along either axis, and some step away), that the loser may enter."""
        board = self.board
        here = self.pos[loser]
        lx, ly = board.xy(here)
        wx, wy = board.xy(away_from)
        sx, sy = _sign(lx - wx), _sign(ly - wy)
        mounted = kind_of(loser).mounted
        side = side_of(loser)
        out = []
        for n in board.neighbours[here]:
            nx, ny = board.xy(n)
            ox, oy = nx - lx, ny - ly
            if ox * sx < 0 or oy * sy < 0 or ox * sx + oy * sy <= 0:
                continue
            if not board.passable(n, mounted) or self.enemy_at(n, side) or not self.stack_ok(n, loser):
                continue
            out.append(n)
        return out

    def choose_retreat(self, loser: str, squares: list[int], toward: int | None = None) -> int:
        """The winner's choice, made by the engine: never hand the flag to an
        Indian if another square will do; the square nearest ``toward`` if the
        winner's standing orders name one; a square without cover for the loser
        before one with cover; then the first in reading order."""
        board = self.board
        indian = side_of(loser) == PR
        mounted = kind_of(loser).mounted

        def key(sq: int):
            gives_flag = indian and sq == self.flag and not self.flag_held()
            near = board.distance(sq, toward) if toward is not None else 0
            cover = (not mounted) and board.terrain[sq] in (PARAPET, ROCKS, WOODS)
            return (gives_flag, near, cover, sq)

        return min(squares, key=key)

    def leaders_dead(self) -> bool:
        return all(not self.alive(c) for c in LEADERS)

    def chiefs_dead(self) -> bool:
        return all(not self.alive(c) for c in CHIEFS)


def outcome_for(winner: str | None, msg: str, **args) -> dict:
    if winner is None:
        scores = {LC: 0.5, PR: 0.5}
    else:
        scores = {winner: 1, other(winner): 0}
    return {"winner": winner, "summary": msg, "args": args, "scores": scores}


class Turn:
    """One player turn being resolved: movement, then combat, then the other side's fire."""

    def __init__(self, state: dict, dice: Dice):
        self.state = state
        self.dice = dice
        self.m = Match.from_state(state)
        self.board = self.m.board
        self.side = state["side"]
        self.foe = other(self.side)
        self.prefix = phase_id(state)
        self.events: list[dict] = []
        self.outcome: dict | None = None
        self.shots = {c: kind_of(c).shots for c in PIECES}
        self.answered: set[str] = set()  # pieces that have answered fire at range
        self.first_target: dict[str, str] = {}  # each piece's first target this turn
        self.last = {"phase": self.prefix, "side": self.side, "moves": [], "shots": []}

    def emit(self, type_: str, msg: str, to=None, **args) -> None:
        self.events.append(event(type_, msg, to=to, **args))

    def name(self, sq: int | None) -> str | None:
        return None if sq is None else self.board.name_of(sq)

    # ------------------------------------------------------------------------------
    def run(self, orders: dict) -> tuple[dict, list[dict]]:
        st = self.state
        self.emit("turn", M.TURN_LC if self.side == LC else M.TURN_PR, turn=st["turn"], side=self.side)
        if orders.get("standing"):
            st["standing"][self.side] = apply_standing(st["standing"][self.side], orders["standing"], self.side)
            self.emit("standing", M.STANDING_SET, to=[self.side])
        moved = self.movement(orders.get("moves", []))
        if self.outcome is None:
            self.combat(orders.get("attacks", []), moved)
        if self.outcome is None:
            self.reply()
        return self.finish()

    def movement(self, moves: list[dict]) -> list[str]:
        m = self.m
        moved: list[str] = []
        for mv in moves:
            code, flag = mv["piece"], bool(mv.get("flag"))
            dest = self.board.parse(mv["to"])
            err = None
            if code not in PIECES or side_of(code) != self.side or not m.alive(code) or code in moved or dest is None:
                err = True
            else:
                err = m.move_error(code, dest, flag)
            if err:
                self.emit("move_skipped", M.MOVE_SKIPPED, piece=code, to_sq=mv.get("to"))
                continue
            frm = m.pos[code]
            end = m.move_end(code, dest)
            m.do_move(code, end, flag)
            moved.append(code)
            args = {"piece": code, "from_sq": self.name(frm), "to_sq": self.name(end)}
            if end != dest:
                # "devront obligatoirement s'arrêter sur toute case contiguë" to the enemy
                self.emit("move", M.MOVE_STOPPED_FLAG if end == m.flag else M.MOVE_STOPPED,
                          ordered_sq=self.name(dest), **args)
            else:
                self.emit("move", M.MOVE_FLAG if flag else M.MOVE, **args)
            self.last["moves"].append({"piece": code, "from": args["from_sq"], "to": args["to_sq"], "flag": flag})
            dest = end
            if not flag and m.flag == frm and not m.flag_held() and side_of(code) == LC:
                self.emit("flag_alone", M.FLAG_ALONE, square=self.name(frm))
            if flag and dest in self.board.arrows:
                self.outcome = outcome_for(LC, M.WIN_LC_FLAG, square=self.name(dest))
                return moved
            if side_of(code) == PR and dest == m.flag:
                self.outcome = outcome_for(PR, M.WIN_PR_FLAG, piece=code, square=self.name(dest))
                return moved
        return moved

    def combat(self, attacks: list[dict], moved: list[str]) -> None:
        m = self.m
        attacks = [dict(a) for a in attacks]
        for code in moved:
            if not m.alive(code):
                continue
            adjacent = m.adjacent_enemies(m.pos[code], self.side)
            if not adjacent:
                continue
            if any(a["piece"] == code and a["target"] in adjacent for a in attacks):
                continue
            target = choose_target(adjacent, m, code, self.state["standing"][self.side]["targets"])
            self.emit("obliged", M.OBLIGED, piece=code, target=target)
            attacks.append({"piece": code, "target": target, "melee": True, "advance": None})
        if not attacks:
            return
        ordered = [a for a in attacks if a.get("melee")] + [a for a in attacks if not a.get("melee")]
        if m.options["leader_shots"] == "consecutive":
            ordered = _second_shots_follow_the_first(ordered)
        if any(a.get("melee") for a in attacks) and any(not a.get("melee") for a in attacks):
            self.emit("combat_order", M.MELEE_PHASE)
        for atk in ordered:
            self.attack(atk["piece"], atk["target"], atk.get("advance"), declared_melee=bool(atk.get("melee")),
                        retreat=atk.get("retreat"))
            if self.outcome is not None:
                return

    def reply(self) -> None:
        """The other side's pieces that have not fired may fire, by their standing orders."""
        m = self.m
        standing = self.state["standing"][self.foe]
        able = [c for c in m.side_pieces(self.foe) if self.shots[c] > 0 and reply_targets(m, c, standing)]
        if not able:
            return
        if not standing["fire"]:
            self.emit("reply", M.REPLY_HELD_LC if self.foe == LC else M.REPLY_HELD_PR)
            return
        self.emit("reply", M.REPLY_PHASE_LC if self.foe == LC else M.REPLY_PHASE_PR)
        consecutive = m.options["leader_shots"] == "consecutive"
        for melee_round in (True, False):
            for code in m.side_pieces(self.foe):
                while m.alive(code) and self.shots[code] > 0:
                    cands = reply_targets(m, code, standing)
                    if melee_round:
                        cands = [t for t in cands if m.board.distance(m.pos[code], m.pos[t]) == 1]
                    if consecutive and self.shots[code] < kind_of(code).shots:
                        # the second of two consecutive shots goes at the same enemy, or not at all
                        cands = [t for t in cands if t == self.first_target.get(code)]
                    if not cands:
                        break
                    target = choose_target(cands, m, code, standing["targets"])
                    self.attack(code, target, None, declared_melee=melee_round, reply=True)
                    if self.outcome is not None:
                        return

    # one duel ------------------------------------------------------------------------
    def attack(self, code: str, target: str, advance, declared_melee: bool, reply: bool = False,
               retreat: list[str] | None = None) -> None:
        m = self.m
        if not m.alive(code):
            self.emit("shot_dropped", M.SHOT_DROPPED_GONE, piece=code, target=target)
            return
        if self.shots[code] <= 0:
            self.emit("shot_dropped", M.SHOT_DROPPED_SPENT, piece=code, target=target)
            return
        if not m.alive(target) or side_of(target) == side_of(code):
            self.emit("shot_dropped", M.SHOT_DROPPED_TARGET, piece=code, target=target)
            return
        dist = self.board.distance(m.pos[code], m.pos[target])
        if declared_melee and dist != 1:
            self.emit("shot_dropped", M.SHOT_DROPPED_CONTACT, piece=code, target=target)
            return
        if m.attack_error(code, target) is not None:
            self.emit("shot_dropped", M.SHOT_DROPPED_REACH, piece=code, target=target)
            return
        self.shots[code] -= 1
        self.first_target.setdefault(code, target)
        shot_no = kind_of(code).shots - self.shots[code]
        melee = dist == 1
        a_sq, t_sq = m.pos[code], m.pos[target]
        where = {"attacker": code, "attacker_square": self.name(a_sq), "target": target, "target_square": self.name(t_sq)}
        if melee:
            self.emit("duel", M.MELEE, melee=True, range=1, **where)
        else:
            fd = self.board.fire_distance(a_sq, t_sq)
            self.emit("duel", M.FIRE_RIVER if fd > dist else M.FIRE, melee=False, range=fd, **where)
        # Does the target answer? In melee always ("il est seulement obligatoire de répondre
        # ... dans le cas du corps à corps"), whatever it has done this turn, and that costs
        # it nothing. Fire at range it may answer once a turn, with its shot.
        foe_standing = self.state["standing"][side_of(target)]
        reason = None
        if melee:
            pass
        elif target in self.answered:
            reason = M.NO_ANSWER_ANSWERED
        elif self.shots[target] <= 0:
            reason = M.NO_ANSWER_SHOTS
        elif m.attack_error(target, code) is not None:
            reason = M.NO_ANSWER_REACH
        elif not foe_standing["pieces"].get(target, foe_standing["answer"]):
            reason = M.NO_ANSWER_HELD
        answered = reason is None
        if not answered:
            self.emit("no_answer", reason, attacker=code, target=target)
        a_bonus = m.bonuses(code, melee)
        t_bonus = m.bonuses(target, melee) if answered else []
        for b in a_bonus:
            self.emit("bonus", b, piece=code)
        for b in t_bonus:
            self.emit("bonus", b, piece=target)
        label = f"{self.prefix}{' reply' if reply else ''} {code} shot {shot_no} at {target}"
        a_die = self.dice.roll(6, label + " attacker")
        a_total = a_die + len(a_bonus)
        rolls = {"attacker": code, "target": target, "attacker_die": a_die, "attacker_bonus": len(a_bonus),
                 "attacker_total": a_total}
        shot = {"attacker": code, "from": self.name(a_sq), "target": target, "to": self.name(t_sq),
                "melee": melee, "answered": answered, "reply": reply}
        if answered:
            if not melee:
                self.shots[target] -= 1
                self.answered.add(target)
                self.first_target.setdefault(target, code)
            t_die = self.dice.roll(6, label + " target")
            t_total = t_die + len(t_bonus)
            rolls.update(target_die=t_die, target_bonus=len(t_bonus), target_total=t_total)
            self.emit("roll", M.ROLL_DUEL, **rolls)
            if a_total == t_total:
                self.emit("result", M.TIE, total=a_total, result="tie")
                shot["result"] = "tie"
                self.last["shots"].append(shot)
                return
            winner, loser = (code, target) if a_total > t_total else (target, code)
            total = max(a_total, t_total)
        else:
            rolls.update(target_die=None, target_bonus=None, target_total=None)
            self.emit("roll", M.ROLL_ALONE, **rolls)
            winner, loser, total = code, target, a_total
        shot["winner"] = winner
        shot["result"] = self.settle(winner, loser, total, melee, alone=not answered,
                                     advance=advance if winner == code else None,
                                     retreat=retreat if winner == code else None)
        self.last["shots"].append(shot)

    def settle(self, winner: str, loser: str, total: int, melee: bool, alone: bool, advance,
               retreat: list[str] | None = None) -> str:
        m = self.m
        loser_sq = m.pos[loser]
        args = {"winner": winner, "loser": loser, "total": total, "from_sq": self.name(loser_sq)}
        if total >= 6:
            self._eliminate(loser)
            self.emit("result", M.ALONE_KILL if alone else M.WIN_KILL, result="eliminated", **args)
            result = "eliminated"
        elif total >= 4:
            squares = m.retreat_squares(loser, m.pos[winner])
            if not squares:
                self._eliminate(loser)
                self.emit("result", M.ALONE_NO_ROOM if alone else M.WIN_NO_ROOM, result="eliminated", **args)
                result = "eliminated"
            else:
                dest = self.retreat_choice(winner, loser, squares, retreat)
                left_flag = m.flag == loser_sq and side_of(loser) == LC
                m.do_move(loser, dest)
                self.emit("result", M.ALONE_BACK if alone else M.WIN_BACK, result="retreat",
                          to_sq=self.name(dest), **args)
                self.last["moves"].append({"piece": loser, "from": self.name(loser_sq), "to": self.name(dest),
                                           "flag": False, "retreat": True})
                result = "retreat"
                if left_flag and m.can_carry_flag(loser):
                    self.emit("flag_left", M.FLAG_LEFT, square=self.name(loser_sq))
                elif left_flag and not m.flag_held():
                    self.emit("flag_alone", M.FLAG_ALONE, square=self.name(loser_sq))
                if side_of(loser) == PR and dest == m.flag:
                    self.outcome = outcome_for(PR, M.WIN_PR_FLAG, piece=loser, square=self.name(dest))
                    return result
        else:
            self.emit("result", M.ALONE_MISS if alone else M.WIN_MISS, result="miss", **args)
            return "miss"
        if self._victory_by_losses():
            return result
        if melee and m.alive(winner):
            self._maybe_advance(winner, loser_sq, advance)
        return result

    def retreat_choice(self, winner: str, loser: str, squares: list[int], wanted: list[str] | None) -> int:
        """"Le vainqueur décidera sur laquelle le vaincu devra se replier": the first
        square the winner's order names that is open, else the engine's choice."""
        for name in wanted or ():
            sq = self.board.parse(name)
            if sq in squares:
                return sq
        toward = self.state["standing"][side_of(winner)].get("retreat_toward")
        dest = self.m.choose_retreat(loser, squares, self.board.parse(toward) if toward else None)
        if wanted:
            self.emit("retreat_refused", M.RETREAT_REFUSED, winner=winner, loser=loser,
                      squares=" ".join(wanted), to_sq=self.name(dest))
        return dest

    def _eliminate(self, code: str) -> None:
        m = self.m
        sq = m.pos[code]
        m._place(code, None)
        if side_of(code) == LC and m.flag == sq and not m.flag_held():
            self.emit("flag_alone", M.FLAG_ALONE, square=self.name(sq))

    def _victory_by_losses(self) -> bool:
        if self.m.chiefs_dead():
            self.outcome = outcome_for(LC, M.WIN_LC_CHIEFS)
        elif self.m.leaders_dead():
            self.outcome = outcome_for(PR, M.WIN_PR_LEADERS)
        return self.outcome is not None

    def _maybe_advance(self, winner: str, sq: int, advance) -> None:
        m = self.m
        side = side_of(winner)
        if m.at.get(sq) or not m.board.passable(sq, kind_of(winner).mounted) or not m.stack_ok(sq, winner):
            return
        here = m.pos[winner]
        takes_flag = side == PR and sq == m.flag
        if takes_flag:
            want = True
        else:
            want = advance if advance is not None else self.state["standing"][side]["advance"]
            if side == LC and m.flag == here and [c for c in m.at.get(here, ()) if c != winner] == []:
                want = False  # never leave the flag alone
        if not want:
            return
        m.do_move(winner, sq)
        self.emit("advance", M.ADVANCE, piece=winner, square=self.name(sq))
        self.last["moves"].append({"piece": winner, "from": self.name(here), "to": self.name(sq), "flag": False, "advance": True})
        if takes_flag:
            self.outcome = outcome_for(PR, M.WIN_PR_FLAG, piece=winner, square=self.name(sq))

    # ------------------------------------------------------------------------------------
    def finish(self) -> tuple[dict, list[dict]]:
        st = self.state
        st["pieces"] = self.m.pieces_state()
        st["flag"] = self.name(self.m.flag)
        st["last"] = self.last
        if self.outcome is None and self.side == PR and st["turn"] >= st["turn_limit"]:
            self.outcome = outcome_for(None, M.DRAW, turns=st["turn_limit"])
        if self.outcome is not None:
            st["outcome"] = self.outcome
            self.emit("outcome", self.outcome["summary"], winner=self.outcome["winner"], **self.outcome["args"])
        elif self.side == LC:
            st["side"] = PR
        else:
            st["side"] = LC
            st["turn"] += 1
        return st, self.events


def _second_shots_follow_the_first(attacks: list[dict]) -> list[dict]:
    """Each piece's later attacks moved to straight after its first (consecutive shots)."""
    out: list[dict] = []
    for atk in attacks:
        if any(a is atk for a in out):
            continue
        out.append(atk)
        out.extend(a for a in attacks if a is not atk and a["piece"] == atk["piece"])
    return out


def reply_targets(m: Match, code: str, standing: dict) -> list[str]:
    """The enemies ``code`` may attack in its side's fire after the mover's, by the
    standing orders: within ``fire_within`` squares (the river counting one more), and
    riders only if ``fire_riders``."""
    within = standing.get("fire_within", 3)
    riders = standing.get("fire_riders", True)
    here = m.pos[code]
    out = []
    for t in m.targets(code):
        if not riders and kind_of(t).mounted:
            continue
        if m.board.distance(here, m.pos[t]) > 1 and m.board.fire_distance(here, m.pos[t]) > within:
            continue
        out.append(t)
    return out


def choose_target(cands: list[str], m: Match, code: str, priority: list[str]) -> str:
    """The standing-orders choice: first in the priority list, then nearest, then roster order."""
    here = m.pos[code]
    rank = {c: i for i, c in enumerate(priority)}
    return min(cands, key=lambda t: (rank.get(t, len(rank)), m.board.distance(here, m.pos[t]), ORDER[t]))


def resolve_turn(state: dict, orders: dict, dice: Dice) -> tuple[dict, list[dict]]:
    st = json.loads(json.dumps(state))
    mine = (orders or {}).get(st["side"]) or {"moves": [], "attacks": [], "standing": []}
    return Turn(st, dice).run(mine)


def initial_state(scenario: str, turn_limit: int | None = None, options: dict | None = None) -> dict:
    board = board_for(scenario)
    return {
        "scenario": scenario,
        "turn": 1,
        "side": LC,
        "turn_limit": int(turn_limit or board.turn_limit),
        "pieces": {c: board.name_of(board.start[c]) for c in PIECES},
        "flag": board.name_of(board.flag_start),
        "options": dict(options or default_options()),
        "standing": {LC: default_standing(LC), PR: default_standing(PR)},
        "last": None,
        "outcome": None,
    }


__all__ = ["Match", "Turn", "resolve_turn", "initial_state", "default_standing", "apply_standing",
           "choose_target", "phase_id", "OPEN", "FORD"]
