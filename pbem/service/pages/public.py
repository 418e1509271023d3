"""What anyone may read: the list of games, each game's archive (the turn history, the
public events, the moderation log) and each phase's picture from the observer's view.
Never a hidden hand, an order of the open phase or a seed not yet revealed."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engines import all_engines
from pbem.service.mail_writer import MailWriter
from pbem.service.pages.common import audit_log, engine_title, outcome_text, picture, resolved_phase, time_left
from pbem.service.part import ServicePart
from pbem.service.ratings import OVERALL, Ratings
from pbem.service.roster import shown_name
from pbem.service.store import loads
from pbem.service.upgrades import result_state, starting_state


@dataclass(kw_only=True, eq=False)
class PublicPages(ServicePart):
    mail: MailWriter
    ratings: Ratings

    def ladder(self, scope: str = OVERALL) -> dict | None:
        """A ladder page (every engine's games together, or one engine's): each player by display
        name, never by address, with rating, games and latest results; the other ladders to go to.
        None for an engine this server does not host."""
        if scope != OVERALL and scope not in all_engines():
            return None
        titles = {name: engine_title(self.engine, name) for name in {*self.ratings.scopes(), scope} - {OVERALL}}
        rows = [{k: v for k, v in row.items() if k != "player"} for row in self.ratings.ladder(scope)]
        return {"scope": scope, "title": titles.get(scope), "rows": rows,
                "scopes": [{"scope": s, "title": titles[s]} for s in sorted(titles)]}

    def games(self) -> list[dict]:
        out = []
        for g in self.records.games():
            ph = self.records.current_phase(g["id"])
            out.append({"id": g["id"], "title": g["title"], "engine": engine_title(self.engine, g["engine"]), "status": g["status"],
                        "phase": ph["label"] if ph else None, "created_at": g["created_at"]})
        return out

    def archive(self, game_id: str, lang: str = "en") -> dict | None:
        """A game's archive as an observer reads it, its texts in ``lang``."""
        records = self.records
        g = records.game(game_id)
        if g is None:
            return None
        engine = self.engine(g["engine"])
        current = records.current_phase(game_id)
        sealed_in = records.game_state(game_id)  # seeds that dealt cards still in play stay sealed
        history = [{**resolved_phase(self.mail, engine, ph, sealed_in, None, lang), "defaulted": loads(ph["defaulted"], []) or []}
                   for ph in records.phase_rows(game_id) if ph["status"] == "resolved"]
        players = [{"role": p["role"], "name": shown_name(p["name"]), "status": p["status"]}
                   for p in records.players(game_id) if p["status"] != "replaced"]
        return {
            "game": {"id": g["id"], "title": g["title"], "engine": engine.title or g["engine"], "scenario": g["scenario"],
                     "status": g["status"], "created_at": g["created_at"], "finished_at": g["finished_at"]},
            "outcome": outcome_text(g["outcome"], lang), "players": players,
            "current": {"seq": current["seq"], "label": current["label"], "deadline": current["deadline"],
                        "left": time_left(current["deadline"], self.now(), lang), "commitment": current["commitment"],
                        "awaited": loads(current["awaited"], [])} if current else None,
            "history": list(reversed(history)),
            "audit": self.audit_log(game_id, lang),
            "reveals_orders": engine.reveals_orders, "has_picture": engine.draws_pictures,
        }

    def audit_log(self, game_id: str, lang: str = "en") -> list[dict]:
        """The game's public moderation log, newest first, players and moderators unnamed."""
        return audit_log(self.records, game_id, public_only=True, lang=lang)

    def picture(self, game_id: str, seq: int, lang: str | None = None) -> bytes | None:
        """A phase's picture from the observer's view: the position after a
        resolved phase, the starting position of the open one; its words in ``lang``."""
        g = self.records.game(game_id)
        ph = self.records.live_phase(game_id, seq)
        if g is None or ph is None:
            return None
        engine = self.engine(g["engine"])
        return picture(engine, result_state(engine, ph) if ph["status"] == "resolved" else starting_state(engine, ph), None, lang)
