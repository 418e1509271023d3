"""A random but purposeful player, for random-play tests, the balance runs and the demo.

Every choice comes from the Dice. Each piece scores its legal destinations with
a simple plan plus noise and sometimes just wanders; each piece that can fire
mostly does, at the target its side values most. The Long Knives carry the flag
toward the nearer blue arrow with an escort; the Indians go for Custer, his
officers and the flag. The text is written in French or English at random, with
pieces named by code or in full, so both order languages get exercised.
"""

from __future__ import annotations

from collections import deque

from pbem.dice import Dice

from .board import BLOCKING, COVER, Board, board_for
from .orders import write_standing
from .pieces import CHIEFS, LC, LEADERS, PIECES, PR, display_name, kind_of, other, side_of
from .rules import Match, phase_id

WANDER = 6  # one move in WANDER is picked at random, ignoring the plan
OVERSHOOT = 3  # one rider in OVERSHOOT stopping next to the enemy is ordered past it instead
NAME_RETREAT = 3  # one winning-side choice of retreat square in NAME_RETREAT is written out
NOISE = 100  # noise added to every score, in hundredths of a point

_EXIT: dict[str, list[int]] = {}


def _noise(salt: int, i: int) -> int:
    """A number in range(NOISE) for option i, spread from one die draw (salt)."""
    return ((salt ^ (i * 0x9E3779B1)) * 0x85EBCA6B >> 11) % NOISE


def exit_distance(board: Board) -> list[int]:
    """Foot moves from each square to the nearer blue arrow (999 if none)."""
    got = _EXIT.get(board.name)
    if got is None:
        dist = [999] * board.size
        queue = deque()
        for a in board.arrows:
            dist[a] = 0
            queue.append(a)
        while queue:
            s = queue.popleft()
            for n in board.neighbours[s]:
                if dist[n] == 999 and board.passable(n, False):
                    dist[n] = dist[s] + 1
                    queue.append(n)
        got = _EXIT[board.name] = dist
    return got


class Planner:
    def __init__(self, state: dict, role: str, dice: Dice):
        self.state = state
        self.role = role
        self.dice = dice
        self.m = Match.from_state(state)
        self.board = self.m.board
        self.label = f"{phase_id(state)} bot {role}"
        self.exit = exit_distance(self.board)
        self._threat: dict[str, list[int]] = {}
        self._foes: dict[str, list[int]] = {}

    def threat(self, side: str) -> list[int]:
        """For each square, how many shots the enemies of ``side`` could aim at it
        from where they stand (firearms within range and line of fire, tomahawks next to it)."""
        cached = self._threat.get(side)
        if cached is not None:
            return cached
        m, b = self.m, self.board
        out = [0] * b.size
        for f in m.side_pieces(other(side)):
            k = kind_of(f)
            here = m.pos[f]
            for sq in b.neighbours[here]:
                out[sq] += k.shots
            if k.reach > 1:
                for sq in b.fire_targets(here):
                    out[sq] += k.shots
        self._threat[side] = out
        return out

    def foe_squares(self, side: str) -> list[int]:
        got = self._foes.get(side)
        if got is None:
            got = self._foes[side] = [self.m.pos[f] for f in self.m.side_pieces(other(side))]
        return got

    def rnd(self, n: int, what: str) -> int:
        return self.dice.below(n, f"{self.label} {what}")

    # plans ---------------------------------------------------------------------------
    def carrier(self) -> str | None:
        m = self.m
        if m.flag is None:
            return None
        for c in m.at.get(m.flag, ()):
            if m.can_carry_flag(c):
                return c
        return None

    def score(self, code: str, sq: int, carrier: str | None, with_flag: bool) -> float:
        m, b = self.m, self.board
        side = side_of(code)
        kind = kind_of(code)
        cover = (not kind.mounted) and b.terrain[sq] in COVER
        foe_sqs = self.foe_squares(side)
        near = min((b.distance(sq, f) for f in foe_sqs), default=9)
        s = 0.0
        if side == LC:
            if with_flag or (code == carrier and sq == m.pos[code]):
                s -= 4 * self.exit[sq]
                s -= 1.5 * sum(1 for f in foe_sqs if b.distance(sq, f) <= 1)
                return s
            if m.flag is not None and not m.flag_held() and m.can_carry_flag(code):
                return -3 * b.distance(sq, m.flag)
            if carrier is not None and code != carrier:
                d = b.distance(sq, m.pos[carrier])
                s -= 1.5 * abs(d - 1)
                # walk ahead of the carrier, toward the exit
                s -= 0.5 * self.exit[sq]
            elif code == carrier and sq != m.pos[code]:
                return -1000.0  # the carrier does not leave the flag
            if code in LEADERS:
                s -= 1.0 * (near <= 1) + 0.4 * self.threat(LC)[sq]
            chiefs = [c for c in CHIEFS if m.alive(c)]
            if chiefs:
                s -= 0.3 * min(b.distance(sq, m.pos[c]) for c in chiefs)
            s += 0.8 * cover
            return s
        # Indians
        goals = [m.pos[c] for c in LEADERS if m.alive(c)]
        if m.flag is not None:
            goals.append(m.flag)
        if m.flag is not None and not m.flag_held():
            return -5 * b.distance(sq, m.flag)
        if carrier is not None:
            goals.append(m.pos[carrier])
        gd = min((b.distance(sq, g) for g in goals), default=9)
        if kind.name == "tomahawk":
            s -= 2 * gd
            s -= 0.5 * near
        elif kind.name == "chief":
            s -= 0.3 * gd + 1.5 * self.threat(PR)[sq]
            s -= 2.0 * (near <= 1)
        else:
            s -= abs(gd - 2) * 1.0 + 0.3 * near
            if carrier is not None:
                # stand between the flag and its exits
                s -= 0.6 * abs(self.exit[sq] - (self.exit[m.pos[carrier]] - 2))
            s += 0.8 * cover
        return s

    # orders -------------------------------------------------------------------------------
    def moves(self) -> list[dict]:
        m = self.m
        own = self.dice.shuffle(m.side_pieces(self.role), f"{self.label} order")
        out = []
        carrier = self.carrier() if self.role == LC else None
        if carrier is not None:
            own.remove(carrier)
            own.insert(0, carrier)
        for code in own:
            here = m.pos[code]
            options = [(here, False)] + [(d, False) for d in m.destinations(code)]
            if code == carrier:
                options += [(d, True) for d in m.destinations(code)]
            if self.rnd(WANDER, f"{code} wander") == 0:
                dest, flag = options[self.rnd(len(options), f"{code} pick")]
            else:
                best, choice = None, options[0]
                salt = self.rnd(1 << 30, f"{code} noise")
                for i, (d, flag) in enumerate(options):
                    val = self.score(code, d, carrier, flag) + _noise(salt, i) / 100
                    if best is None or val > best:
                        best, choice = val, (d, flag)
                dest, flag = choice
            if dest == here:
                continue
            if m.move_error(code, dest, flag):
                continue
            ordered = self.overshoot(code, dest)
            m.do_move(code, dest, flag)
            out.append({"piece": code, "to": self.board.name_of(ordered), "flag": flag, "from": here})
        return out

    def overshoot(self, code: str, dest: int) -> int:
        """Sometimes a rider stopping next to the enemy is ordered to a square beyond
        instead: the rules carry it to the same stop, so the plan is unchanged."""
        m, b = self.m, self.board
        if not kind_of(code).mounted or not m.next_to_enemy(dest, self.role):
            return dest
        if self.rnd(OVERSHOOT, f"{code} overshoot") != 0:
            return dest
        here = m.pos[code]
        beyond = [s for s in range(b.size) if s != dest and 1 < b.distance(here, s) <= 3
                  and m.move_error(code, s) is None and m.move_end(code, s) == dest]
        return beyond[self.rnd(len(beyond), f"{code} beyond")] if beyond else dest

    def attacks(self, moved: list[str]) -> list[dict]:
        m = self.m
        out = []
        value = {LC: {c: 5 for c in CHIEFS}, PR: {c: 5 for c in LEADERS}}[self.role]
        carrier = self.carrier()
        if carrier and self.role == PR:
            value[carrier] = 4
        consecutive = m.options["leader_shots"] == "consecutive"
        for code in m.side_pieces(self.role):
            forced = code in moved and m.adjacent_enemies(m.pos[code], self.role)
            first = None
            for shot in range(kind_of(code).shots):
                cands = m.targets(code)
                if first is not None and consecutive:
                    cands = [first]  # the second shot follows the first, at the same enemy
                if not cands:
                    break
                if not forced and self.rnd(8, f"{code} hold {shot}") == 0:
                    continue
                if forced and shot == 0:
                    cands = m.adjacent_enemies(m.pos[code], self.role)
                best, target = None, cands[0]
                for i, t in enumerate(cands):
                    v = value.get(t, 1) + 1.5 * (m.board.distance(m.pos[code], m.pos[t]) == 1 and kind_of(code).mounted)
                    v -= 0.8 * (m.board.terrain[m.pos[t]] in COVER and not kind_of(t).mounted)
                    v += self.rnd(NOISE, f"{code} target {shot} {i}") / 50
                    if best is None or v > best:
                        best, target = v, t
                first = first or target
                melee = m.board.distance(m.pos[code], m.pos[target]) == 1
                adv = None
                if melee:
                    adv = [None, True, False][self.rnd(3, f"{code} advance {shot}")]
                out.append({"piece": code, "target": target, "melee": melee, "advance": adv,
                            "retreat": self.retreat(code, target, shot)})
        return out

    def retreat(self, code: str, target: str, shot: int) -> list[str] | None:
        """Sometimes name where the loser must fall back: into the open, nearest our pieces."""
        m, b = self.m, self.board
        squares = m.retreat_squares(target, m.pos[code])
        if len(squares) < 2 or self.rnd(NAME_RETREAT, f"{code} retreat {shot}") != 0:
            return None
        own = [m.pos[c] for c in m.side_pieces(self.role)]
        best = min(squares, key=lambda sq: (b.terrain[sq] in COVER and not kind_of(target).mounted,
                                            min(b.distance(sq, o) for o in own), sq))
        return [b.name_of(best)]

    def standing(self) -> list:
        if self.rnd(12, "standing") != 0:
            return []
        pick = self.rnd(10, "standing kind")
        yes = self.rnd(4, "standing value") != 0
        own = self.m.side_pieces(self.role)
        foes = self.m.side_pieces(other(self.role))
        if pick == 0:
            return [["answer", yes]]
        if pick == 1 and own:
            return [["answer_piece", own[self.rnd(len(own), "standing piece")], yes]]
        if pick == 2:
            return [["fire", yes]]
        if pick == 3 and foes:
            return [["targets", self.dice.shuffle(foes, f"{self.label} standing targets")[:3]]]
        if pick == 4:
            return [["advance", yes]]
        if pick == 5:
            return [["fire_within", 1 + self.rnd(3, "standing within")]]
        if pick == 6:
            return [["fire_riders", yes]]
        if pick == 7:
            return [["fire_always"]]
        if pick == 8 and own:  # push losers toward one of our pieces
            return [["retreat_toward", self.board.name_of(self.m.pos[own[self.rnd(len(own), "standing toward")]])]]
        return [["default"]]


def bot_orders(state: dict, role: str, dice: Dice, lang: str | None = None) -> str:
    if state.get("outcome") or state["side"] != role:
        return ""
    p = Planner(state, role, dice)
    if lang is None:
        lang = "fr" if p.rnd(2, "language") else "en"
    full = p.rnd(3, "names") == 0
    moves = p.moves()
    attacks = p.attacks([mv["piece"] for mv in moves])
    standing = p.standing()
    return write_bot_text(moves, attacks, standing, lang, full)


def _name(code: str, lang: str, full: bool) -> str:
    return display_name(code, lang) if full else code


def write_bot_text(moves, attacks, standing, lang: str, full: bool) -> str:
    fr = lang == "fr"
    lines = []
    for mv in moves:
        line = f"{'DÉPLACER' if fr else 'MOVE'} {_name(mv['piece'], lang, full)} {mv['to']}"
        if mv["flag"]:
            line += " AVEC DRAPEAU" if fr else " WITH FLAG"
        lines.append(line)
    for at in attacks:
        verb = ("MÊLÉE" if fr else "MELEE") if at["melee"] else ("TIRER" if fr else "FIRE")
        line = f"{verb} {_name(at['piece'], lang, full)} {'SUR' if fr else 'AT'} {_name(at['target'], lang, full)}"
        if at["advance"] is not None:
            line += (" AVANCER" if at["advance"] else " RESTER") if fr else (" ADVANCE" if at["advance"] else " STAY")
        if at.get("retreat"):
            line += f" {'REPLI' if fr else 'RETREAT'} {' '.join(at['retreat'])}"
        lines.append(line)
    lines.extend(write_standing(standing, lang))
    return "\n".join(lines) + ("\n" if lines else "")


__all__ = ["bot_orders", "exit_distance", "BLOCKING", "PIECES", "PR", "board_for"]


#: what the cautious stand-in leaves out of the random player's orders (issue 28).
#: The Peaux-Rouges stand-in (``CAUTIOUS_PLAY``) gives the same orders without any melee: its pieces
#: move and fire as the random player's would.
CAUTIOUS_DROPS = ("MELEE", "MÊLÉE", "MELEE:")
