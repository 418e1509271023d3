"""One-click unsubscribe (RFC 8058) from the mail nobody has to receive to play: an observer's
reports and notices, and a player's reminders. Each such mail carries ``List-Unsubscribe`` with
a signed link to the web app and ``List-Unsubscribe-Post``; a mail provider's button POSTs to
it, and so does the button of the page the link opens (which alone, opened, does nothing: link
checkers open every link). The signature (a keyed hash of what the link stops) is what makes
the link work: nothing else is asked, nothing is stored for it."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from pbem.config import Settings
from pbem.service.part import ConfiguredPart

#: what a link can stop: an observer's mail (its observers row), a player's reminders (the players row)
OBSERVER, REMINDERS = "observer", "reminders"
KINDS = (OBSERVER, REMINDERS)


def signature(secret: str, kind: str, row_id: int) -> str:
    digest = hmac.new(secret.encode("utf-8"), f"unsubscribe/{kind}/{row_id}".encode("ascii"), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:26]


def link(settings: Settings, kind: str, row_id: int) -> str:
    return f"{settings.web_url}/unsubscribe/{kind}/{row_id}/{signature(settings.secret_key, kind, row_id)}"


def headers(settings: Settings, kind: str, row_id: int) -> dict[str, str]:
    """The pair RFC 8058 asks for (both are signed by DKIM: pbem.mail.dkim_signing)."""
    return {"List-Unsubscribe": f"<{link(settings, kind, row_id)}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


@dataclass(kw_only=True, eq=False)
class Unsubscribe(ConfiguredPart):
    def valid(self, kind: str, row_id: int, sig: str) -> bool:
        return kind in KINDS and hmac.compare_digest(sig.encode("ascii", "replace"),
                                                     signature(self.settings.secret_key, kind, row_id).encode("ascii"))

    def what(self, kind: str, row_id: int) -> dict | None:
        """What a valid link stops, for the page it opens: the game, and whether it is stopped already."""
        records = self.records
        if kind == OBSERVER:
            row = records.observer_row(row_id)
            return {"game": row["game_id"], "stopped": row["removed_at"] is not None} if row else None
        row = records.player(row_id)
        return {"game": row["game_id"], "stopped": row["reminder_hours"] == 0} if row else None

    def apply(self, kind: str, row_id: int, sig: str) -> dict | None:
        """Stop what a link names (again is harmless); None for a link that is not ours."""
        if not self.valid(kind, row_id, sig):
            return None
        records = self.records
        with records.write():
            found = self.what(kind, row_id)
            if found is None:
                return None
            if not found["stopped"]:
                if kind == OBSERVER:
                    records.remove_observer(row_id)
                else:
                    records.update("players", row_id, {"reminder_hours": 0})
                records.audit(found["game"], "unsubscribe", "unsubscribe", "", {"what": kind}, public=False)
        return {**found, "stopped": True}
