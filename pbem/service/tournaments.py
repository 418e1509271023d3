"""Seasons and tournaments (issue 28): a host lists players and a two-sided scenario; pbem pairs
them (round robin, or Swiss by rating: pbem.service.pairing), starts each round's games, and when
the last game of a round ends mails every player the standings and starts the next round; after
the last round the tournament is over and the final standings go out. The standings page is
public (by display name, never by address)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

from pbem.i18n import N_, gettext_for
from pbem.mail.addresses import normalise_address
from pbem.service import pairing
from pbem.service.clock import to_iso
from pbem.service.errors import ServiceError
from pbem.service.games import Games
from pbem.service.mail_writer import MailWriter
from pbem.service.part import ConfiguredPart
from pbem.service.ratings import Ratings
from pbem.service.store import dumps, loads

FORMATS = ("round_robin", "swiss")
TOURNAMENT_ID = re.compile(r"^[a-z][a-z0-9-]{1,23}$")


def _winner_of(seats: dict[str, str], outcome: dict | None) -> tuple[bool, str | None]:
    """(whether the game is decided, the winning address or None for a draw)."""
    if not outcome:
        return False, None
    return True, seats.get(outcome.get("winner")) if outcome.get("winner") else None


@dataclass(kw_only=True, eq=False)
class Tournaments(ConfiguredPart):
    games: Games
    ratings: Ratings
    mail: MailWriter
    notify: Callable[..., None]

    # -- the host's side ----------------------------------------------------------------------------
    def create(self, name: str, engine_name: str, scenario: str, players: list[str], *, format: str = "swiss",
               rounds: int | None = None, options: dict | None = None, timing: dict | None = None, rated: bool = True,
               tournament_id: str | None = None, actor: str = "cli") -> str:
        """Start a tournament: check it, record it, pair and start its first round. Its id."""
        name = (name or "").strip()
        if not name:
            raise ServiceError(N_("a tournament needs a name"))
        if format not in FORMATS:
            raise ServiceError(f"a tournament is paired {' or '.join(FORMATS)}, not {format!r}")
        engine = self.engine(engine_name)
        info = engine.scenarios().get(scenario)
        if info is None:
            raise ServiceError(f"engine {engine_name} has no scenario {scenario!r} (it has: {', '.join(engine.scenarios())})")
        if len(engine.roles(scenario, {**info.options, **(options or {})})) != 2:
            raise ServiceError(f"a tournament plays a two-sided scenario; {scenario} has {len(info.roles)} roles")
        addresses = [normalise_address(p) for p in players]
        if None in addresses:
            raise ServiceError(f"{players[addresses.index(None)]!r} is not an e-mail address")
        if len(set(addresses)) != len(addresses) or len(addresses) < 2:
            raise ServiceError(N_("a tournament needs two players at least, each named once"))
        most = len(addresses) - 1 + len(addresses) % 2
        rounds = rounds or (most if format == "round_robin" else min(most, math.ceil(math.log2(len(addresses)))))
        if not 1 <= rounds <= most:
            raise ServiceError(f"{len(addresses)} players play 1 to {most} rounds, not {rounds}")
        records = self.records
        with records.write():
            tid = self._new_id(tournament_id)
            records.insert("tournaments", {
                "id": tid, "name": name, "engine": engine_name, "scenario": scenario, "format": format, "rounds": rounds,
                "players": dumps(addresses), "game_settings": dumps({"options": options or {}, "timing": timing, "rated": rated}),
                "created_by": actor, "created_at": to_iso(self.now())})
            records.audit(None, actor, "create tournament", "", {"tournament": tid, "players": len(addresses), "format": format,
                                                                 "rounds": rounds}, public=False)
            self._start_round(records.tournament(tid), 1)
        self.notify("outbox", None)
        return tid

    def _new_id(self, wanted: str | None) -> str:
        if wanted is None:
            n = self.records.count_tournaments() + 1
            while self.records.tournament(f"t{n}"):
                n += 1
            return f"t{n}"
        if not TOURNAMENT_ID.match(wanted) or self.records.tournament(wanted):
            raise ServiceError(f"{wanted!r} is taken or is not 2-24 lower-case letters, digits and hyphens")
        return wanted

    # -- rounds -------------------------------------------------------------------------------------
    def _records_so_far(self, t: dict) -> tuple[dict[str, pairing.Record], list[dict]]:
        players = loads(t["players"])
        rows = self.records.tournament_games(t["id"])
        played, byes = [], []
        for row in rows:
            seats = loads(row["seats"])
            if row["game_id"] is None:
                byes.append(seats["bye"])
                continue
            decided, winner = _winner_of(seats, loads(row["outcome"]))
            if decided:
                first, second = self._roles(t)
                played.append((seats[first], seats[second], winner))
        return pairing.records(players, played, byes), rows

    def _roles(self, t: dict) -> tuple[str, str]:
        options = loads(t["game_settings"])["options"]
        engine = self.engine(t["engine"])
        first, second = engine.roles(t["scenario"], {**engine.scenarios()[t["scenario"]].options, **options})
        return first, second

    def _rating(self, t: dict) -> dict[str, float]:
        return {row["player"]: row["ordinal"] for row in self.records.ladder(t["engine"])}

    def _start_round(self, t: dict, round_no: int) -> None:
        players = loads(t["players"])
        recs, _rows = self._records_so_far(t)
        if t["format"] == "round_robin":
            pairs, bye = pairing.round_robin(players, round_no, recs)
        else:
            pairs, bye = pairing.swiss(players, round_no, recs, self._rating(t))
        settings = loads(t["game_settings"])
        first, second = self._roles(t)
        names = self.ratings.shown_as(players)
        for a, b in pairs:
            title = f"{t['name']}, round {round_no}: {names[a]} v {names[b]}"
            game_id = self.games.create(t["engine"], t["scenario"], {first: a, second: b}, options=settings["options"],
                                        timing=settings["timing"], rated=settings["rated"], title=title, actor=f"tournament {t['id']}")
            self.records.insert("tournament_games", {"tournament_id": t["id"], "round": round_no, "game_id": game_id,
                                                     "seats": dumps({first: a, second: b})})
        if bye is not None:
            self.records.insert("tournament_games", {"tournament_id": t["id"], "round": round_no, "game_id": None,
                                                     "seats": dumps({"bye": bye})})
        self.records.update("tournaments", t["id"], {"round": round_no})

    def game_over(self, game_id: str) -> None:
        """A game has just finished (inside the caller's transaction): when it was its round's last,
        every player gets the standings and the next round starts, or the tournament ends."""
        row = self.records.tournament_of_game(game_id)
        if row is None:
            return
        t = self.records.tournament(row["tournament_id"])
        if t["status"] != "running" or row["round"] != t["round"]:
            return
        if any(r["game_id"] and r["status"] != "finished" for r in self.records.tournament_games(t["id"]) if r["round"] == t["round"]):
            return
        last = t["round"] >= t["rounds"]
        if last:
            self.records.update("tournaments", t["id"], {"status": "finished", "finished_at": to_iso(self.now())})
            t = self.records.tournament(t["id"])
        self._mail_standings(t, final=last)
        if not last:
            self._start_round(t, t["round"] + 1)

    # -- standings ----------------------------------------------------------------------------------
    def standings(self, tournament_id: str) -> list[dict]:
        """Best first: place, player (address), name, points, wins, draws, losses, byes, Buchholz."""
        t = self.records.tournament(tournament_id)
        players = loads(t["players"])
        recs, _rows = self._records_so_far(t)
        names = self.ratings.shown_as(players)
        return [{"place": i, "player": r.player, "name": names[r.player], "points": r.points, "wins": r.wins, "draws": r.draws,
                 "losses": r.losses, "byes": r.byes, "buchholz": r.buchholz, "played": r.wins + r.draws + r.losses}
                for i, r in enumerate(pairing.standings(players, recs, self._rating(t)), start=1)]

    def _mail_standings(self, t: dict, *, final: bool) -> None:
        table = self.standings(t["id"])
        link = f"{self.settings.web_url}/tournaments/{t['id']}"
        for address in loads(t["players"]):
            lang = self.records.latest_language(address)
            _ = gettext_for(lang)
            values = {"name": t["name"], "round": t["round"], "rounds": t["rounds"]}
            subject = (_("%(name)s: final standings") if final else _("%(name)s: standings after round %(round)d of %(rounds)d")) % values
            text = (_("The tournament %(name)s is over. The final standings:") if final
                    else _("Round %(round)d of %(rounds)d of %(name)s is over; the next round's games start now. The standings:")) % values
            lines = [_("%(place)d. %(name)s: %(points)s points (%(wins)d won, %(draws)d drawn, %(losses)d lost, %(byes)d byes)") % row
                     for row in table]
            self.mail.queue_message(kind="club", game_id=None, player=None, to_addr=address, lang=lang, subject=subject,
                                    template="mail/answer.txt.j2", key=f"tournament/{t['id']}/{t['round']}/{address}",
                                    text=text, lines=lines + ["", _("Standings and games: %(link)s") % {"link": link}])

    def page(self, tournament_id: str) -> dict | None:
        """The standings page's read model: the tournament, its standings and each round's games, by
        display name (never an address)."""
        t = self.records.tournament(tournament_id)
        if t is None:
            return None
        players = loads(t["players"])
        names = self.ratings.shown_as(players)
        rounds: dict[int, list[dict]] = {}
        for row in self.records.tournament_games(t["id"]):
            seats = loads(row["seats"])
            if row["game_id"] is None:
                rounds.setdefault(row["round"], []).append({"bye": names[seats["bye"]]})
                continue
            decided, winner = _winner_of(seats, loads(row["outcome"]))
            rounds.setdefault(row["round"], []).append({
                "game_id": row["game_id"], "sides": [names[a] for a in seats.values()], "decided": decided,
                "winner": names[winner] if winner else None})
        standings = [{k: v for k, v in row.items() if k != "player"} for row in self.standings(t["id"])]
        return {"id": t["id"], "name": t["name"], "engine": t["engine"], "scenario": t["scenario"], "format": t["format"],
                "rounds": t["rounds"], "round": t["round"], "status": t["status"], "standings": standings,
                "games": [{"round": n, "games": games} for n, games in sorted(rounds.items())]}

    def list(self) -> list[dict]:
        return [{"id": t["id"], "name": t["name"], "engine": t["engine"], "format": t["format"], "round": t["round"],
                 "rounds": t["rounds"], "status": t["status"], "players": len(loads(t["players"]))} for t in self.records.tournaments()]
