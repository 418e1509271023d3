"""An order's acknowledgement, made from a draft: what it says is frozen when the orders come
in (the player, the submission, the phase's deadline, the notes on the mail, the moment), and
its bytes are made from that alone, the same bytes whenever they are made.

Alone (tests, `pbem ingest`) the mail is made at once. In `pbem serve` the delivery process
makes it (:attr:`MailWriter.compose_acks_later`): drawing and composing it was a fifth of the
work between an order mail's arrival and its SMTP answer, and the server's process is the one
every sender waits for."""

from __future__ import annotations

from datetime import datetime

from pbem.config import Settings
from pbem.i18n import gettext_for
from pbem.moments import format_moment
from pbem.service.clock import from_iso, to_iso
from pbem.service.outbox import ComposedMail, Outgoing, answering, compose_outgoing, game_subject, message_id, thread_headers
from pbem.service.render import describe_errors, describe_missing, describe_warnings, render
from pbem.service.store import loads

ACK = "ack"
#: the columns of a phases row an acknowledgement reads (never its state or its seed)
PHASE_FIELDS = ("id", "game_id", "seq", "label", "deadline", "status", "revision")
#: the columns of a submission it reads (not the orders' text: the mail does not repeat it)
SUBMISSION_FIELDS = ("id", "phase_label", "role", "status", "canonical", "errors", "missing", "sha256", "received_at")


def ack_draft(game: dict, player: dict, submission: dict, phase: dict, inbound_msgid: str | None, notes: list[str] | None,
              token: str | None, now: datetime) -> dict:
    """What the acknowledgement of ``submission`` will say (JSON); ``game`` is the mail's game
    header, ``token`` the player's current one, ``notes`` what the mail room noted on the mail."""
    return {"kind": ACK, "game": game, "player": dict(player), "submission": {k: submission[k] for k in SUBMISSION_FIELDS},
            "phase": {k: phase[k] for k in PHASE_FIELDS}, "inbound_msgid": inbound_msgid, "notes": list(notes or []),
            "token": token, "now": to_iso(now)}


def _status(draft: dict) -> str:
    return {"accepted": "accepted", "partial": "partial"}.get(draft["submission"]["status"], "rejected")


def _subject(draft: dict) -> str:
    _ = gettext_for(draft["player"]["lang"])
    words = {"accepted": _("accepted"), "partial": _("accepted in part"), "rejected": _("rejected")}
    text = _("Orders for %(phase)s %(status)s") % {"phase": draft["submission"]["phase_label"], "status": words[_status(draft)]}
    return game_subject(draft["game"]["id"], text)


def key_of(game_id: str, phase_label: str, role: str, submission_id: int) -> str:
    """What the Message-ID of a submission's acknowledgement is made from (the console finds it so)."""
    return f"ack/{game_id}/{phase_label}/{role}/{submission_id}"


def _key(draft: dict) -> str:
    submission = draft["submission"]
    return key_of(draft["game"]["id"], submission["phase_label"], draft["player"]["role"], submission["id"])


def queued_row(draft: dict, domain: str) -> ComposedMail:
    """The outbox row of a draft, before its bytes are made."""
    return ComposedMail(message_id=message_id(_key(draft), domain), kind=ACK, to_addr=draft["player"]["email"],
                        subject=_subject(draft), raw=b"", game_id=draft["game"]["id"], player_id=draft["player"]["id"])


def ack_mail(draft: dict, settings: Settings) -> Outgoing:
    """The acknowledgement a draft describes."""
    game, player, submission, phase = draft["game"], draft["player"], draft["submission"], draft["phase"]
    game_id, lang, token, now = game["id"], player["lang"], draft["token"], from_iso(draft["now"])
    status = _status(draft)
    ctx = {
        "game": game, "player": player, "submission": submission, "phase": phase,
        "errors": describe_errors(loads(submission["errors"], []), lang),
        "missing": describe_missing(loads(submission["missing"], []), lang),
        "warnings": describe_warnings(loads(submission["missing"], []), lang),
        "deadline": format_moment(from_iso(phase["deadline"]), player["tz"], lang, now=now), "status": status,
        "received": format_moment(from_iso(submission["received_at"]), player["tz"], lang),
        "held": submission["status"] == "held", "link": f"{settings.web_url}/play/{game_id}/{token}" if token else None,
        "notes": draft["notes"],
    }
    env = answering(thread_headers(settings.mail_domain, game_id, player["id"], token), draft["inbound_msgid"])
    return Outgoing(kind=ACK, to_addr=player["email"], subject=_subject(draft), text=render("mail/ack.txt.j2", lang, **ctx),
                    key=_key(draft), game_id=game_id, player_id=player["id"], headers={"X-PBEM-Status": status}, **env)


def compose_draft(text: str, settings: Settings) -> bytes:
    """A queued draft's bytes (the outbox's ``draft`` column): what the delivery process sends."""
    draft = loads(text)
    if draft.get("kind") != ACK:
        raise ValueError(f"no mail is made from a draft of kind {draft.get('kind')!r}")
    return compose_outgoing(ack_mail(draft, settings), domain=settings.mail_domain, now=from_iso(draft["now"])).raw
