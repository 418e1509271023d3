"""Peaux-Rouges for players: how the battle is won (``Engine.how_to_win``: the flag, the chiefs,
Custer and his officers, the turn limit; what stands now and what each side needs) and the
player aids (``Engine.player_aids``: the pieces, the duel, the bonuses), from the numbers the
rules read, in the reader's language."""

from __future__ import annotations

from pbem.engines.aids import AidTable, PlayerAids, labelled, render
from pbem.engines.base import HowToWin

from .board import board_for
from .messages import N_
from .pieces import CHIEFS, KINDS, LC, LEADERS, PR, ROLES, ROSTER

SIDES = {LC: N_("Long Knives"), PR: N_("Indians")}
KILL, BACK = 6, 4  # the winner's total that eliminates the loser, that drives it back (rules.settle)

LABELS = {  # each table's name as the reader writes it after TABLES
    "PIECES": N_("PIECES"),
    "DUEL": N_("DUEL"),
    "BONUS": N_("BONUS"),
}


def _english(msgid: str) -> str:
    return msgid


def how_to_win(state: dict, role: str | None, gettext=None) -> HowToWin:
    _ = gettext or _english
    board = board_for(state["scenario"])
    arrows = ", ".join(sorted(board.name_of(sq) for sq in board.arrows))
    conditions = (
        _("The Long Knives win when a piece carrying the flag reaches a blue arrow (%(arrows)s), or when the three chiefs are dead.")
        % {"arrows": arrows},
        _("The Indians win when an Indian piece enters the flag's square while no Long Knife guards it, or when General Custer and his two officers are dead."),
        _("After %(turns)s turns with neither, the battle is a draw.") % {"turns": state["turn_limit"]},
    )
    pieces = state["pieces"]
    chiefs = [c for c in CHIEFS if pieces.get(c) is not None]
    leaders = [c for c in LEADERS if pieces.get(c) is not None]
    flag = state.get("flag") or "-"  # squares are kept by name
    score = _("turn %(turn)s of %(limit)s; the flag at %(flag)s; chiefs alive: %(chiefs)s; Custer and officers alive: %(leaders)s") % {
        "turn": state["turn"], "limit": state["turn_limit"], "flag": flag,
        "chiefs": " ".join(chiefs) or "-", "leaders": " ".join(leaders) or "-"}
    needs = []
    if not state.get("outcome"):
        order = ([role] if role in ROLES else []) + [r for r in ROLES if r != role]
        for side in order:
            if side == LC:
                need = _("carry the flag from %(flag)s to a blue arrow (%(arrows)s), or kill %(chiefs)s") % {
                    "flag": flag, "arrows": arrows, "chiefs": " ".join(chiefs)}
            else:
                need = _("enter the flag's square %(flag)s unguarded, or kill %(leaders)s") % {
                    "flag": flag, "leaders": " ".join(leaders)}
            needs.append((_(SIDES[side]), need))
    decided = None
    outcome = state.get("outcome")
    if outcome:
        decided = _(outcome["summary"]) % outcome.get("args", {})
    return HowToWin(conditions=conditions, score=score, needs=tuple(needs), decided=decided)


def tables(lang: str, _) -> list[AidTable]:
    yes, no = _("yes"), _("no")
    pieces = tuple((prefix if count == 1 else f"{prefix}1-{prefix}{count}",
                    KINDS[kind].fr if lang == "fr" else KINDS[kind].en, _(SIDES[KINDS[kind].side]),
                    yes if KINDS[kind].mounted else no, str(KINDS[kind].reach), str(KINDS[kind].shots))
                   for prefix, kind, count in ROSTER)
    return [
        AidTable("PIECES", _("Pieces"), (_("codes"), _("piece"), _("side"), _("mounted"), _("reach (squares)"), _("shots a turn")),
                 pieces, (_("Foot move one square, diagonals included. Riders move one, two or three contiguous squares, never into woods or rocks."),
                          _("At most 3 foot, or 2 riders, or 1 foot and 1 rider in a square.")),
                 aliases=("PIONS", "PIECES")),
        AidTable("DUEL", _("Duels"), (_("winner's total"), _("the loser")),
                 ((f"{KILL}+", _("is eliminated")),
                  (f"{BACK}-{KILL - 1}", _("falls back one square away from the winner (eliminated if it cannot)")),
                  (f"1-{BACK - 1}", _("nothing: both miss"))),
                 (_("Each piece rolls a d6 and adds its bonuses; the higher total wins, a tie does nothing. A piece that does not answer leaves the shooter's die to decide alone."),),
                 aliases=("COMBAT", "CRT", "DUELS")),
        AidTable("BONUS", _("Bonuses"), (_("when"), _("bonus")),
                 ((_("a piece on foot on a parapet of the camp (only the Long Knives, when the game says so)"), "+1"),
                  (_("a piece on foot in the rocks"), "+1"), (_("a piece on foot in the woods"), "+1"),
                  (_("a rider in melee"), "+1")),
                 aliases=("BONUSES", "BONUS")),
    ]


def player_aids(title: str, table: str | None, lang: str | None, gettext=None) -> PlayerAids:
    _ = gettext or _english
    return render(title, labelled(tables(lang or "en", _), LABELS, _), table, _)
