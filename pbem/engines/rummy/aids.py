"""Little Bighorn Rummy for players: how the game is won (``Engine.how_to_win``: the target,
the points of each hand, the scores now and what each side needs) and the player aids
(``Engine.player_aids``: every card with its points and how many the deck holds, the targets),
from the card data the rules read, in the reader's language (card names stay as printed)."""

from __future__ import annotations

from pbem.engines.aids import AidTable, PlayerAids, labelled, render
from pbem.engines.base import HowToWin

from . import cards as C
from .messages import N_

CATEGORIES = {
    "company": N_("company"), "staff": N_("staff"), "scout": N_("scout"), "brave": N_("brave"), "village": N_("village"),
    "chief": N_("chief"), "custer": N_("Custer"), "coup_stick": N_("coup stick"), "sundance": N_("Sundance"),
    "draw_two": N_("support: draw two"), "pick_two": N_("support: pick two"), "hoka_hey": N_("support: Hoka Hey"),
    "sabers": N_("support: sabers"),
}

LABELS = {  # each table's name as the reader writes it after TABLES
    "CARDS": N_("CARDS"),
    "TARGETS": N_("TARGETS"),
}


def _english(msgid: str) -> str:
    return msgid


def _sides(st: dict) -> list[list[str]]:
    teams = st.get("teams")
    return [list(t) for t in teams] if teams else [[p] for p in st["roles"]]


def how_to_win(st: dict, role: str | None, gettext=None) -> HowToWin:
    _ = gettext or _english
    conditions = (
        _("At the end of each hand every player scores what the cards on their own table are worth as they lie (each meld's points are in the report); the player who went out scores %(bonus)s more.")
        % {"bonus": C.BONUS_OUT},
        _("The first side with %(target)s points or more at the end of a hand wins; sides level on top past the target play another hand.")
        % {"target": st["target"]},
    )
    totals = {" & ".join(s): sum(st["totals"][p] for p in s) for s in _sides(st)}
    score = "; ".join(f"{who} {pts}" for who, pts in totals.items())
    needs = []
    if not st.get("outcome"):
        mine = [s for s in _sides(st) if role in s]
        for side in mine + [s for s in _sides(st) if s not in mine]:
            have = sum(st["totals"][p] for p in side)
            needs.append((" & ".join(side), _("%(n)s points more to reach %(target)s") % {"n": max(0, st["target"] - have), "target": st["target"]}))
    outcome = st.get("outcome")
    decided = _(outcome["summary"]) % outcome["args"] if outcome else None
    return HowToWin(conditions=conditions, score=score, needs=tuple(needs), decided=decided)


def tables(_) -> list[AidTable]:
    cards = tuple((k["name"], _(CATEGORIES.get(k["category"], k["category"])), str(k["points"]), str(k["count"]))
                  for k in C.DATA["kinds"])
    targets = tuple((_("teams") if who == "teams" else _("%(n)s players") % {"n": who}, str(points))
                    for who, points in C.TARGETS.items())
    return [
        AidTable("CARDS", _("The cards"), (_("card"), _("kind"), _("worth"), _("in the deck")), cards,
                 (_("%(n)s cards in all.") % {"n": sum(k["count"] for k in C.DATA["kinds"])},
                  _("Points as printed on the card; some melds count a card otherwise (a wild card 1, for one): the report shows each meld's points.")),
                 aliases=("CARTES", "POINTS")),
        AidTable("TARGETS", _("Points to win"), (_("players"), _("points to reach")), targets,
                 (_("Going out scores %(bonus)s more.") % {"bonus": C.BONUS_OUT},), aliases=("CIBLES", "TARGET")),
    ]


def player_aids(title: str, table: str | None, gettext=None) -> PlayerAids:
    _ = gettext or _english
    return render(title, labelled(tables(_), LABELS, _), table, _)
