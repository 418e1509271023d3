"""One player's own page, opened only by the token link of their mail: their view, the
open phase and their orders, their reports, in their language and zone."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.i18n import gettext_for
from pbem.moments import format_moment
from pbem.service.clock import from_iso
from pbem.service.mail_writer import MailWriter
from pbem.service.pages.common import outcome_text, picture, pictures, pretty, resolved_phase
from pbem.service.part import ServicePart
from pbem.service.render import describe_errors
from pbem.service.roster import labels_for_reader
from pbem.service.store import loads

MAX_REPORTS = 30
MAX_SUBMISSIONS = 50


@dataclass(kw_only=True, eq=False)
class PlayerPages(ServicePart):
    mail: MailWriter

    def _token_player(self, game_id: str, token: str) -> dict | None:
        """The active player a token link names, or None (unknown, revoked, another game's)."""
        if not token or len(token) > 128:
            return None
        tok = self.records.token(token)
        if tok is None or tok["revoked_at"] is not None or tok["game_id"] != game_id:
            return None
        p = self.records.player(tok["player_id"])
        if p is None or p["status"] not in ("active",):
            return None
        return p

    def picture(self, game_id: str, token: str, name: str = "map") -> bytes | None:
        """The player's picture ``name`` (``map``: the whole map; others: an engine's close-ups)."""
        p = self._token_player(game_id, token)
        if p is None:
            return None
        g = self.records.game(game_id)
        engine, state = self.engine(g["engine"]), self.records.game_state(game_id)
        if name == "map":
            return picture(engine, state, p["role"], p["lang"])
        return pictures(engine, state, p["role"], p["lang"]).get(name)

    def report_json(self, game_id: str, token: str, seq: int) -> bytes | None:
        """The JSON of the player's report on resolved phase ``seq`` (a game whose
        ``report_json`` is 'link' sends this link instead of the attachment)."""
        p = self._token_player(game_id, token)
        return self.mail.report_json(game_id, p, seq) if p is not None else None

    def page(self, game_id: str, token: str) -> dict | None:
        """One player's page, or None when the token is unknown, revoked or not for this game."""
        p = self._token_player(game_id, token)
        if p is None:
            return None
        records = self.records
        g = records.game(game_id)
        engine = self.engine(g["engine"])
        role, lang = p["role"], p["lang"] or "en"
        state = records.game_state(game_id)
        view = engine.view(state, role)
        current = records.current_phase(game_id)
        resolved = [ph for ph in reversed(records.phase_rows(game_id)) if ph["status"] == "resolved"][:MAX_REPORTS]
        reports = [resolved_phase(self.mail, engine, ph, state, role, lang) for ph in resolved]
        history = [{"phase": s["phase_label"], "received_at": s["received_at"], "status": s["status"], "stands": bool(s["stands"]),
                    "text": s["text"], "canonical": s["canonical"], "source": s["source"],
                    "errors": describe_errors(loads(s["errors"], []), lang)}
                   for s in records.submissions_of_player(game_id, p["id"], MAX_SUBMISSIONS)]
        hand_key = engine.view_layout.hand
        return {
            "game": {"id": g["id"], "title": g["title"], "status": g["status"], "engine": engine.title or g["engine"]},
            "player": {"role": role, "name": p["name"], "email": p["email"], "tz": p["tz"], "lang": lang, "reminder_hours": p["reminder_hours"]},
            "orders_address": self.mail.orders_address(game_id, p["id"]),
            "phase": self._open_phase(g, current, p, lang) if current is not None else None,
            "view_json": pretty(view), "hand": view.get(hand_key) if hand_key and isinstance(view, dict) else None,
            "reports": reports, "history": history,
            "outcome": outcome_text(g["outcome"], lang),
            "has_picture": engine.draws_pictures,
            "pictures": list(pictures(engine, state, role, lang)),  # each linked at full size
            # issue 16: the players by their chosen names (the reader as "you"), the reader's absences
            "players": labels_for_reader(records.players(game_id), role, lang, lambda r: engine.role_title(r, gettext_for(lang))),
            "absences": [{"first": a["first_day"], "last": a["last_day"]} for a in records.absences(game_id, p["id"])],
            "absence_days": g["absence_days"],
        }

    def _open_phase(self, g: dict, current: dict, p: dict, lang: str) -> dict:
        """The open phase as the player sees it: the deadline, their standing orders, the form to fill in."""
        role = p["role"]
        awaited = role in loads(current["awaited"], [])
        standing = next((s for s in self.records.submissions_of_role(current["id"], role) if s["stands"]), None)
        return {
            "label": current["label"], "deadline": current["deadline"], "awaited": awaited,
            # in the player's zone and language, as the mails say it
            "deadline_text": format_moment(from_iso(current["deadline"]), p["tz"], lang, now=self.now()) if current["deadline"] else None,
            "commitment": current["commitment"], "standing": standing,
            "template": self.mail.orders_form(g["id"], g["engine"], current, role, lang) if awaited else None,
        }
