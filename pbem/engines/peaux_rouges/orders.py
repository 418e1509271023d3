"""Reading a player's mail (French or English order words), and writing orders back.

One line, one order::

    MOVE S2 G8                      DÉPLACER S2 G8
    MOVE S1 H9 WITH FLAG            DÉPLACER S1 H9 AVEC DRAPEAU
    FIRE C AT CH1                   TIRER C SUR CH1
    FIRE S1, S2 AT CH1              TIRER S1, S2 SUR CH1   (several pieces, one target)
    MELEE T1 AT S6 [ADVANCE|STAY]   MÊLÉE T1 SUR S6 [AVANCER|RESTER]
    ... RETREAT G8 [G9]             ... REPLI G8 [G9]   (where the loser falls back)
    STANDING ANSWER yes|no          CONSIGNES RIPOSTE oui|non
    STANDING ANSWER C no            CONSIGNES RIPOSTE C non
    STANDING FIRE yes|no            CONSIGNES TIR oui|non
    STANDING FIRE always|never      CONSIGNES TIR toujours|jamais
    STANDING FIRE WITHIN 2          CONSIGNES TIR À 2
    STANDING FIRE RIDERS no         CONSIGNES TIR CAVALIERS non
    STANDING TARGETS CH1 CH2 CH3    CONSIGNES CIBLES CH1 CH2 CH3
    STANDING ADVANCE yes|no         CONSIGNES AVANCE oui|non
    STANDING RETREAT H10|DEFAULT    CONSIGNES REPLI H10|DÉFAUT
    STANDING DEFAULT                CONSIGNES DÉFAUT

Keywords are read case-insensitively, with or without accents, in either
language (a mail may even mix them). Pieces are named by code (C, O1, S2, CH1,
T3, I4) or in full ("Soldier 2", "Soldat 2", "Chef 1", "General Custer").
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from pbem.engines.base import AMBIGUOUS, ILLEGAL, SYNTAX, OrderError, ParseResult

from . import messages as M
from .board import SQUARE_RE
from .pieces import ALIASES, KIND_WORDS, LC, PIECES, PR, kind_of, side_of
from .rules import DEFAULT_TARGETS, Match, choose_target

MOVE_WORDS = {"MOVE": "en", "MV": "en", "GO": "en", "DEPLACER": "fr", "DEPLACE": "fr",
              "DEPLACEMENT": "fr", "BOUGER": "fr", "ALLER": "fr"}
FIRE_WORDS = {"FIRE": "en", "SHOOT": "en", "TIRER": "fr", "TIR": "fr", "TIRE": "fr", "FEU": "fr"}
MELEE_WORDS = {"MELEE": None, "CHARGE": None, "ATTACK": "en", "ATTAQUER": "fr", "CORPS": "fr"}
STANDING_WORDS = {"STANDING": "en", "CONSIGNES": "fr", "CONSIGNE": "fr"}
AT_WORDS = {"AT": "en", "ON": "en", "VS": None, "AGAINST": "en", "SUR": "fr", "CONTRE": "fr"}
TO_WORDS = {"TO": "en", "INTO": "en", "EN": "fr", "VERS": "fr", "A": "fr"}
FLAG_WORDS = {"WITH": "en", "THE": "en", "FLAG": "en", "AVEC": "fr", "LE": "fr", "DRAPEAU": "fr"}
RETREAT_WORDS = {"RETREAT": "en", "BACK": "en", "REPLI": "fr", "RECUL": "fr", "RECULER": "fr"}
WITHIN_WORDS = {"WITHIN": "en", "RANGE": "en", "A": "fr", "PORTEE": "fr", "JUSQU": "fr"}
RIDER_WORDS = {"RIDERS": "en", "RIDER": "en", "MOUNTED": "en", "CAVALIERS": "fr", "CAVALIER": "fr",
               "CAVALERIE": "fr"}
ALWAYS = {"ALWAYS": "en", "TOUJOURS": "fr"}
NEVER = {"NEVER": "en", "JAMAIS": "fr"}
ADVANCE_WORDS = {"ADVANCE": ("en", True), "STAY": ("en", False), "AVANCER": ("fr", True),
                 "AVANCE": ("fr", True), "RESTER": ("fr", False), "RESTE": ("fr", False)}
KEY_WORDS = {
    "ANSWER": ("answer", "en"), "REPLY": ("answer", "en"), "RIPOSTE": ("answer", "fr"),
    "RIPOSTER": ("answer", "fr"), "REPONSE": ("answer", "fr"), "REPONDRE": ("answer", "fr"),
    "FIRE": ("fire", "en"), "TIR": ("fire", "fr"), "TIRER": ("fire", "fr"), "FEU": ("fire", "fr"),
    "TARGETS": ("targets", "en"), "TARGET": ("targets", "en"), "PRIORITY": ("targets", "en"),
    "CIBLES": ("targets", "fr"), "CIBLE": ("targets", "fr"), "PRIORITE": ("targets", "fr"),
    "ADVANCE": ("advance", "en"), "AVANCE": ("advance", "fr"), "AVANCER": ("advance", "fr"),
    "RETREAT": ("retreat", "en"), "BACK": ("retreat", "en"), "REPLI": ("retreat", "fr"),
    "RECUL": ("retreat", "fr"), "RECULER": ("retreat", "fr"),
    "DEFAULT": ("default", "en"), "RESET": ("default", "en"), "DEFAUT": ("default", "fr"),
    "DEFAUTS": ("default", "fr"),
}
YES = {"YES": "en", "Y": "en", "TRUE": "en", "OUI": "fr", "O": "fr", "ON": "en"}
NO = {"NO": "en", "N": "en", "FALSE": "en", "NON": "fr", "OFF": "en"}
PIECE_LANG = {"SOLDIER": "en", "OFFICER": "en", "CHIEF": "en", "INDIAN": "en", "WARRIOR": "en",
              "SOLDAT": "fr", "OFFICIER": "fr", "CHEF": "fr", "INDIEN": "fr", "GUERRIER": "fr"}

WORDS = {
    "en": {"move": "MOVE", "fire": "FIRE", "melee": "MELEE", "standing": "STANDING", "at": "AT",
           "flag": "WITH FLAG", "advance": "ADVANCE", "stay": "STAY", "answer": "ANSWER",
           "sfire": "FIRE", "targets": "TARGETS", "sadvance": "ADVANCE", "default": "DEFAULT",
           "retreat": "RETREAT", "within": "WITHIN", "riders": "RIDERS", "always": "always",
           "yes": "yes", "no": "no"},
    "fr": {"move": "DÉPLACER", "fire": "TIRER", "melee": "MÊLÉE", "standing": "CONSIGNES", "at": "SUR",
           "flag": "AVEC DRAPEAU", "advance": "AVANCER", "stay": "RESTER", "answer": "RIPOSTE",
           "sfire": "TIR", "targets": "CIBLES", "sadvance": "AVANCE", "default": "DÉFAUT",
           "retreat": "REPLI", "within": "À", "riders": "CAVALIERS", "always": "toujours",
           "yes": "oui", "no": "non"},
}

# The verbs a suggestion may name, as written in each language.
VERBS_BY_LANG = {
    "en": {"MOVE": "MOVE", "FIRE": "FIRE", "SHOOT": "SHOOT", "MELEE": "MELEE", "STANDING": "STANDING"},
    "fr": {"DEPLACER": "DÉPLACER", "TIRER": "TIRER", "MELEE": "MÊLÉE", "CONSIGNES": "CONSIGNES"},
}
_TAGGED = {**MOVE_WORDS, **FIRE_WORDS, **MELEE_WORDS, **STANDING_WORDS, **AT_WORDS, **TO_WORDS, **FLAG_WORDS,
           **PIECE_LANG, **YES, **NO, **RETREAT_WORDS, **WITHIN_WORDS, **RIDER_WORDS, **ALWAYS, **NEVER}
_FRENCH_ONLY = ({w for w, lang in _TAGGED.items() if lang == "fr"}
                | {w for w, (_, lang) in KEY_WORDS.items() if lang == "fr"}
                | {w for w, (lang, _) in ADVANCE_WORDS.items() if lang == "fr"}) - {"A", "O", "EN", "LE"}
_ENGLISH_ONLY = ({w for w, lang in _TAGGED.items() if lang == "en"}
                 | {w for w, (_, lang) in KEY_WORDS.items() if lang == "en"}
                 | {w for w, (lang, _) in ADVANCE_WORDS.items() if lang == "en"}) - {"Y", "N", "ON", "GO"}


def guess_language(words) -> str:
    """French if the words include more French order words than English ones."""
    fr = en = 0
    for w in words:
        fr += w in _FRENCH_ONLY
        en += w in _ENGLISH_ONLY
    return "fr" if fr > en else "en"
TOKEN_RE = re.compile(r"[A-Z0-9]+")


def normalise(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).upper()


def tokens(text: str) -> list[str]:
    return TOKEN_RE.findall(normalise(text))


def empty_orders() -> dict:
    return {"moves": [], "attacks": [], "standing": []}


class _Line:
    def __init__(self, no: int, text: str):
        self.no = no
        self.text = text
        self.tokens = tokens(text)
        self.votes = {"en": 0, "fr": 0}

    def vote(self, lang: str | None) -> None:
        if lang:
            self.votes[lang] += 1


class Parser:
    def __init__(self, state: dict, role: str, text: str):
        self.state = state
        self.role = role
        self.text = text
        self.errors: list[OrderError] = []
        self.votes = {"en": 0, "fr": 0}
        self.m = Match.from_state(state)
        self.board = self.m.board

    # helpers ---------------------------------------------------------------------
    def error(self, line: _Line, reason: str, kind: str = SYNTAX, hint: str | None = None, **args) -> None:
        self.errors.append(OrderError(line=line.no, text=line.text.strip(), reason=reason, kind=kind,
                                      suggestion=hint, args=args))

    def piece(self, line: _Line, toks: list[str], side: str | None):
        """A piece code from the tokens naming it, or None (error recorded)."""
        joined = "".join(toks)
        for t in toks:
            line.vote(PIECE_LANG.get(t))
        if not joined:
            return None
        code = ALIASES.get(joined)
        if code is None:
            # A kind named without its number: fine when only one such piece is left.
            for kind, words in KIND_WORDS.items():
                if joined in words and len(joined) > 1:
                    left = [c for c in PIECES if PIECES[c] == kind and self.m.alive(c)]
                    if len(left) == 1:
                        return left[0]
                    if left:
                        self.error(line, M.E_AMBIGUOUS_PIECE, AMBIGUOUS, name=" ".join(toks),
                                   choices=", ".join(left))
                        return None
            close = difflib.get_close_matches(joined, list(ALIASES), n=1, cutoff=0.6)
            self.error(line, M.E_NO_PIECE, SYNTAX, M.S_DID_YOU_MEAN if close else None,
                       name=" ".join(toks), **({"suggestion": ALIASES[close[0]]} if close else {}))
            return None
        if side is not None and side_of(code) != side:
            self.error(line, M.E_NOT_YOURS if side == self.role else M.E_NOT_ENEMY, ILLEGAL, piece=code)
            return None
        if not self.m.alive(code):
            self.error(line, M.E_DEAD, ILLEGAL, piece=code)
            return None
        return code

    def square(self, line: _Line, tok: str):
        m = SQUARE_RE.match(tok)
        if not m:
            return None
        sq = self.board.parse(tok)
        if sq is None:
            self.error(line, M.E_BAD_SQUARE, ILLEGAL, square=tok, first="A",
                       last=chr(64 + self.board.cols), rows=self.board.rows)
            return False
        return sq

    # the pass ---------------------------------------------------------------------
    def parse(self) -> ParseResult:
        lines = [_Line(i, t) for i, t in enumerate(self.text.splitlines(), start=1)]
        self.text_lang = guess_language(t for line in lines for t in line.tokens)
        moves, attacks, standing = [], [], []
        over = bool(self.state.get("outcome"))
        my_turn = self.state["side"] == self.role and not over
        for line in lines:
            if not line.text.strip() or line.text.strip().startswith("#") or not line.tokens:
                continue
            verb = line.tokens[0]
            rest = line.tokens[1:]
            if over:
                self.error(line, M.E_GAME_OVER, ILLEGAL)
                continue
            if verb in STANDING_WORDS:
                line.vote(STANDING_WORDS[verb])
                op = self.standing_line(line, rest)
                if op is not None:
                    standing.append(op)
            elif verb in MOVE_WORDS or verb in FIRE_WORDS or verb in MELEE_WORDS:
                if not my_turn:
                    self.error(line, M.E_NOT_YOUR_TURN, ILLEGAL)
                    continue
                if verb in MOVE_WORDS:
                    line.vote(MOVE_WORDS[verb])
                    mv = self.move_line(line, rest)
                    if mv is not None:
                        moves.append((line, mv))
                else:
                    melee = verb in MELEE_WORDS
                    line.vote((MELEE_WORDS if melee else FIRE_WORDS)[verb])
                    if verb == "CORPS":  # CORPS-À-CORPS
                        while rest and rest[0] in ("A", "CORPS"):
                            rest = rest[1:]
                    for at in self.attack_line(line, rest, melee) or []:
                        attacks.append((line, at))
            else:
                verbs = VERBS_BY_LANG[self.text_lang]
                close = difflib.get_close_matches(verb, list(verbs), n=1, cutoff=0.6)
                self.error(line, M.E_UNKNOWN_WORD, SYNTAX, M.S_DID_YOU_MEAN if close else None,
                           **({"suggestion": verbs[close[0]]} if close else {}))
            for k in ("en", "fr"):
                self.votes[k] += line.votes[k]
        orders = empty_orders()
        orders["standing"] = standing
        if my_turn:
            orders["moves"], moved = self.check_moves(moves)
            orders["attacks"] = self.check_attacks(attacks, moved)
        lang = "fr" if self.votes["fr"] > self.votes["en"] else "en"
        errors = sorted(self.errors, key=lambda e: e.line)
        return ParseResult(orders=orders, canonical=write_orders(orders, lang), errors=errors)

    # line readers -------------------------------------------------------------------
    def move_line(self, line: _Line, rest: list[str]):
        flag = False
        while rest and rest[-1] in FLAG_WORDS:
            if rest[-1] in ("FLAG", "DRAPEAU"):
                flag = True
            line.vote(FLAG_WORDS[rest[-1]])
            rest = rest[:-1]
        if len(rest) < 2:
            self.error(line, M.E_MOVE_FORM, SYNTAX)
            return None
        sq = self.square(line, rest[-1])
        if sq is False:
            return None
        if sq is None:
            self.error(line, M.E_MOVE_FORM, SYNTAX)
            return None
        names = rest[:-1]
        if len(names) > 1 and names[-1] in TO_WORDS:
            line.vote(TO_WORDS[names[-1]])
            names = names[:-1]
        code = self.piece(line, names, self.role)
        if code is None:
            return None
        return {"piece": code, "to": self.board.name_of(sq), "flag": flag}

    def attack_line(self, line: _Line, rest: list[str], melee: bool):
        advance = None
        retreat = None
        for _ in range(2):  # "... ADVANCE RETREAT G8" or "... RETREAT G8 ADVANCE"
            if rest and rest[-1] in ADVANCE_WORDS and advance is None:
                lang, advance = ADVANCE_WORDS[rest[-1]]
                line.vote(lang)
                rest = rest[:-1]
            at = max((i for i, t in enumerate(rest) if t in RETREAT_WORDS and i > 0), default=None)
            if at is not None and retreat is None:
                line.vote(RETREAT_WORDS[rest[at]])
                retreat = []
                for tok in rest[at + 1:]:
                    if tok in TO_WORDS and not retreat:  # "RETREAT TO G8", "REPLI EN G8"
                        continue
                    sq = self.square(line, tok)
                    if sq is False:
                        return None
                    if sq is None:
                        self.error(line, M.E_RETREAT_FORM, SYNTAX)
                        return None
                    retreat.append(self.board.name_of(sq))
                if not retreat:
                    self.error(line, M.E_RETREAT_FORM, SYNTAX)
                    return None
                rest = rest[:at]
        split = [i for i, t in enumerate(rest) if t in AT_WORDS and 0 < i < len(rest) - 1]
        form = M.E_MELEE_FORM if melee else M.E_FIRE_FORM
        if split:
            i = split[0]
            line.vote(AT_WORDS[rest[i]])
            left, right = rest[:i], rest[i + 1:]
        else:
            # "FIRE S2 CH1": take the split where both sides name pieces.
            left = right = None
            for i in range(1, len(rest)):
                if "".join(rest[:i]) in ALIASES and "".join(rest[i:]) in ALIASES:
                    left, right = rest[:i], rest[i:]
                    break
            if left is None:
                self.error(line, form, SYNTAX)
                return None
        groups = _split_names(left)
        if "".join(left) in ALIASES or len(groups) < 2:
            groups = [left]  # "SOLDIER 2" is one piece; "S1 S2", "S1, S2" are two firing at one target
        codes = [self.piece(line, group, self.role) for group in groups]
        if None in codes:
            return None
        target = self.piece(line, right, PR if self.role == LC else LC)
        if target is None:
            return None
        out = []
        for code in dict.fromkeys(codes):
            one = {"piece": code, "target": target, "melee": melee, "advance": advance}
            if retreat:
                one["retreat"] = list(retreat)
            out.append(one)
        return out

    def standing_line(self, line: _Line, rest: list[str]):
        if rest and rest[0] == "ORDERS":
            rest = rest[1:]
        if rest and rest[0] == "PAR":
            rest = rest[1:]
        if not rest or rest[0] not in KEY_WORDS:
            self.error(line, M.E_STANDING_FORM, SYNTAX)
            return None
        key, lang = KEY_WORDS[rest[0]]
        line.vote(lang)
        args = rest[1:]
        if key == "default":
            return ["default"] if not args else self._bad_standing(line)
        if key == "targets":
            if len(args) == 1 and args[0] in ("DEFAULT", "DEFAUT"):
                line.vote("en" if args[0] == "DEFAULT" else "fr")
                return ["targets", list(DEFAULT_TARGETS[self.role])]
            enemy = PR if self.role == LC else LC
            codes = []
            for group in _split_names(args):
                code = self.piece(line, group, enemy)
                if code is None:
                    return None
                if code not in codes:
                    codes.append(code)
            if not codes:
                return self._bad_standing(line)
            return ["targets", codes]
        if key == "retreat":
            return self.standing_retreat(line, args)
        if not args:
            return self._bad_standing(line)
        if key == "fire":
            return self.standing_fire(line, args)
        value = self._yes_no(line, args[-1])
        if value is None:
            return None
        if key == "answer" and len(args) > 1:
            code = self.piece(line, args[:-1], self.role)
            if code is None:
                return None
            return ["answer_piece", code, value]
        if len(args) > 1:
            return self._bad_standing(line)
        return [key, value]

    def standing_retreat(self, line: _Line, args: list[str]):
        """RETREAT <square>: losers your pieces beat fall back toward it; RETREAT DEFAULT."""
        if len(args) == 2 and args[0] in TO_WORDS:  # "RETREAT TO H10", "REPLI VERS H10"
            args = args[1:]
        if len(args) != 1:
            return self._bad_standing(line)
        if args[0] in ("DEFAULT", "DEFAUT"):
            line.vote("en" if args[0] == "DEFAULT" else "fr")
            return ["retreat_toward", None]
        sq = self.square(line, args[0])
        if sq is None:
            return self._bad_standing(line)
        return None if sq is False else ["retreat_toward", self.board.name_of(sq)]

    def standing_fire(self, line: _Line, args: list[str]):
        """FIRE yes/no/always/never, FIRE WITHIN n, FIRE RIDERS yes/no."""
        head = args[0]
        if head == "JUSQU":
            args = args[1:]
            head = args[0] if args else ""
        if len(args) == 1 and head in ALWAYS:
            line.vote(ALWAYS[head])
            return ["fire_always"]
        if len(args) == 1 and head in NEVER:
            line.vote(NEVER[head])
            return ["fire", False]
        if head in WITHIN_WORDS and len(args) == 2:
            line.vote(WITHIN_WORDS[head])
            if args[1] not in ("1", "2", "3"):
                self.error(line, M.E_FIRE_WITHIN, SYNTAX, word=args[1])
                return None
            return ["fire_within", int(args[1])]
        if head in RIDER_WORDS and len(args) == 2:
            line.vote(RIDER_WORDS[head])
            value = self._yes_no(line, args[1])
            return None if value is None else ["fire_riders", value]
        if head in WITHIN_WORDS or head in RIDER_WORDS:
            return self._bad_standing(line)
        value = self._yes_no(line, args[-1])
        if value is None:
            return None
        return ["fire", value] if len(args) == 1 else self._bad_standing(line)

    def _bad_standing(self, line: _Line):
        self.error(line, M.E_STANDING_FORM, SYNTAX)
        return None

    def _yes_no(self, line: _Line, word: str):
        if word in YES:
            line.vote(YES[word])
            return True
        if word in NO:
            line.vote(NO[word])
            return False
        self.error(line, M.E_YES_NO, SYNTAX, word=word)
        return None

    # legality, in order ------------------------------------------------------------
    def check_moves(self, moves):
        m = self.m
        out, moved = [], []
        first: dict[str, int] = {}
        for line, mv in moves:
            code = mv["piece"]
            if code in first:
                self.error(line, M.E_ORDERED_TWICE, ILLEGAL, name=code, first=first[code])
                continue
            first[code] = line.no
            dest = self.board.index(mv["to"])
            err = m.move_error(code, dest, mv["flag"])
            if err:
                self.error(line, err[0], ILLEGAL, **err[1])
                continue
            m.do_move(code, m.move_end(code, dest), mv["flag"])  # a rider may have to stop short
            moved.append(code)
            out.append(mv)
        return out, moved

    def check_attacks(self, attacks, moved):
        m = self.m
        out = []
        used: dict[str, int] = {}
        first: dict[str, str] = {}
        first_line: dict[str, int] = {}
        consecutive = m.options["leader_shots"] == "consecutive"
        in_contact = [c for c in moved if m.adjacent_enemies(m.pos[c], self.role)]
        has_melee = set()
        for line, at in attacks:
            code, target = at["piece"], at["target"]
            if m.board.distance(m.pos[code], m.pos[target]) == 1:
                at["melee"] = True
                has_melee.add(code)
        for line, at in attacks:
            code, target = at["piece"], at["target"]
            shots = kind_of(code).shots
            if used.get(code, 0) >= shots:
                if shots == 1:  # one attack a turn: the second line is a second order
                    self.error(line, M.E_ORDERED_TWICE, ILLEGAL, name=code, first=first_line[code])
                else:
                    self.error(line, M.E_NO_SHOTS, ILLEGAL, piece=code, shots=shots)
                continue
            err = m.attack_error(code, target)
            if err:
                self.error(line, err[0], ILLEGAL, **err[1])
                continue
            adjacent = m.board.distance(m.pos[code], m.pos[target]) == 1
            if at["melee"] and not adjacent:
                self.error(line, M.E_NOT_ADJACENT, ILLEGAL, piece=code, target=target)
                continue
            if code in in_contact and code not in has_melee and not adjacent:
                self.error(line, M.E_MUST_MELEE, ILLEGAL, piece=code)
                continue
            if consecutive and first.get(code, target) != target:
                self.error(line, M.E_SAME_TARGET, ILLEGAL, piece=code, target=first[code])
                continue
            if at.get("retreat") and not self.retreat_ok(line, code, target, at["retreat"]):
                continue
            if not at["melee"]:
                at["advance"] = None
            used[code] = used.get(code, 0) + 1
            first.setdefault(code, target)
            first_line.setdefault(code, line.no)
            out.append(at)
        # A piece that moved into contact fights even if its player named no target.
        standing = self.state["standing"][self.role]
        for code in in_contact:
            if code in has_melee and any(a["piece"] == code and a["melee"] for a in out):
                continue
            if used.get(code, 0) >= kind_of(code).shots:
                continue
            target = choose_target(m.adjacent_enemies(m.pos[code], self.role), m, code, standing["targets"])
            out.append({"piece": code, "target": target, "melee": True, "advance": None})
            used[code] = used.get(code, 0) + 1
        return out


    def retreat_ok(self, line: _Line, code: str, target: str, squares: list[str]) -> bool:
        """Whether each square named for the loser's retreat is one it could fall back to
        now (after the moves), should ``code`` win."""
        m = self.m
        open_now = m.retreat_squares(target, m.pos[code])
        if not open_now:
            self.error(line, M.E_RETREAT_NONE, ILLEGAL, piece=code, target=target)
            return False
        for name in squares:
            if self.board.index(name) not in open_now:
                self.error(line, M.E_RETREAT_SQUARE, ILLEGAL, piece=code, target=target, square=name,
                           squares=" ".join(self.board.name_of(s) for s in sorted(open_now)))
                return False
        return True


def _split_names(args: list[str]) -> list[list[str]]:
    """'CH1 CH2', 'CHIEF 1 CHIEF 2', 'CHEF 1, CHEF 2' -> one token group per piece."""
    groups: list[list[str]] = []
    for tok in args:
        if tok.isdigit() and groups and not groups[-1][-1].isdigit():
            groups[-1].append(tok)
        else:
            groups.append([tok])
    return groups


def parse(state: dict, role: str, text: str) -> ParseResult:
    return Parser(state, role, text).parse()


def write_orders(orders: dict, lang: str = "en") -> str:
    """Orders as text in one language; parsing it back gives the same orders."""
    w = WORDS["fr" if lang == "fr" else "en"]
    out = []
    for mv in orders.get("moves", []):
        line = f"{w['move']} {mv['piece']} {mv['to']}"
        if mv.get("flag"):
            line += f" {w['flag']}"
        out.append(line)
    for at in orders.get("attacks", []):
        line = f"{w['melee'] if at.get('melee') else w['fire']} {at['piece']} {w['at']} {at['target']}"
        if at.get("melee") and at.get("advance") is not None:
            line += f" {w['advance'] if at['advance'] else w['stay']}"
        if at.get("retreat"):
            line += f" {w['retreat']} {' '.join(at['retreat'])}"
        out.append(line)
    out.extend(write_standing(orders.get("standing", []), lang))
    return "\n".join(out)


def write_standing(ops: list, lang: str = "en") -> list[str]:
    w = WORDS["fr" if lang == "fr" else "en"]
    yes_no = lambda v: w["yes"] if v else w["no"]  # noqa: E731
    forms = {
        "default": lambda op: w["default"],
        "answer": lambda op: f"{w['answer']} {yes_no(op[1])}",
        "answer_piece": lambda op: f"{w['answer']} {op[1]} {yes_no(op[2])}",
        "fire": lambda op: f"{w['sfire']} {yes_no(op[1])}",
        "fire_always": lambda op: f"{w['sfire']} {w['always']}",
        "fire_within": lambda op: f"{w['sfire']} {w['within']} {op[1]}",
        "fire_riders": lambda op: f"{w['sfire']} {w['riders']} {yes_no(op[1])}",
        "targets": lambda op: f"{w['targets']} {' '.join(op[1])}",
        "advance": lambda op: f"{w['sadvance']} {yes_no(op[1])}",
        "retreat_toward": lambda op: f"{w['retreat']} {op[1] or w['default']}",
    }
    return [f"{w['standing']} {forms[op[0]](op)}" for op in ops]


def standing_as_ops(standing: dict) -> list:
    """The ops that set a standing-orders dict from scratch (for the order template)."""
    ops = [["answer", standing["answer"]]]
    for code, value in sorted(standing["pieces"].items()):
        ops.append(["answer_piece", code, value])
    ops.append(["fire", standing["fire"]])
    ops.append(["fire_within", standing.get("fire_within", 3)])
    ops.append(["fire_riders", standing.get("fire_riders", True)])
    ops.append(["targets", list(standing["targets"])])
    ops.append(["advance", standing["advance"]])
    ops.append(["retreat_toward", standing.get("retreat_toward")])
    return ops
