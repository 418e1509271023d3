"""Times are written one way in every mail (issue 16: a game mixed "2026-11-24T12:29:06+00:00",
"... +00:00 UTC" and "Thu 26 Nov 2026 12:29 UTC"): pbem.moments.format_moment's form, in the
reader's time zone and language."""

from __future__ import annotations

import email
import re
from email import policy

from pbem.moments import format_moment
from pbem.service.clock import from_iso
from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, submissions
from tests.support import mail

#: what a stored time looks like (ISO 8601): it must never reach a reader
ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|[+-]\d{2}:\d{2} UTC")


def _text_parts(raw: bytes) -> list[str]:
    msg = email.message_from_bytes(raw, policy=policy.default)
    return [part.get_content() for part in msg.walk() if part.get_content_type() in ("text/plain", "text/html")]


def _set_reader(svc, gid, role, tz, lang):
    p = next(p for p in svc.records.players(gid) if p["role"] == role)
    with svc.records.write():
        svc.records.update("players", p["id"], {"tz": tz, "lang": lang})


def test_every_mail_of_a_game_writes_its_times_in_the_one_form(svc):
    """Welcome, acknowledgements, reports, STATUS, a stale block's refusal, a withdrawn address's
    warning: no stored ISO time in any text part, subject included."""
    gid = new_game(svc)
    _set_reader(svc, gid, "indians", "Europe/Paris", "fr")
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    old = svc.records.current_phase(gid)["label"]
    svc.phases.close(gid)
    svc.mailroom.receive(orders_mail(svc, gid, "us", phase=old))  # a block quoted from an old mail
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "STATUS\n"))
    svc.mailroom.receive(mail(IND, address_of(svc, gid, "indians"), "STATUT\n"))
    withdrawn = address_of(svc, gid, "us")
    svc.games.rotate_token(gid, "us", actor="mod@pbem.test", reason="a leaked address")
    svc.mailroom.receive(mail(US, withdrawn, "STATUS\n"))
    rows = outbox(svc)
    assert {"welcome", "ack", "report", "error"} <= {r["kind"] for r in rows}
    for row in rows:
        for text in [row["subject"], *_text_parts(row["raw"])]:
            assert not ISO_TIME.search(text), f"{row['kind']} to {row['to_addr']}: {ISO_TIME.search(text).group()!r} in {text[:300]!r}"


def test_the_acknowledgement_gives_the_receipt_time_in_the_players_zone_and_language(svc):
    gid = new_game(svc)
    _set_reader(svc, gid, "indians", "Europe/Paris", "fr")
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    sub = submissions(svc, gid)[-1]
    local = format_moment(from_iso(sub["received_at"]), "Europe/Paris", "fr")
    assert re.fullmatch(r"\w+\. \d{1,2} \w+\.? 20\d\d \d\d:\d\d \S+", local), local  # "mar. 24 nov. 2026 16:29 UTC+1"
    [ack] = [r for r in outbox(svc, kind="ack") if r["to_addr"] == IND]
    assert f"Reçus par le serveur : {local}" in _text_parts(ack["raw"])[0]


def test_a_stale_block_is_told_when_its_phase_was_resolved_in_the_players_form(svc):
    gid = new_game(svc)
    old = svc.records.current_phase(gid)
    svc.phases.close(gid)
    svc.mailroom.receive(orders_mail(svc, gid, "us", phase=old["label"]))
    resolved = svc.records.resolved_phase(gid, old["seq"])["resolved_at"]
    text = _text_parts(outbox(svc, kind="error", to_addr=US)[-1]["raw"])[0]
    assert f"which was resolved on {format_moment(from_iso(resolved), 'UTC', 'en')}." in " ".join(text.split())


def test_the_one_form_follows_the_zone_and_the_language():
    moment = from_iso("2026-11-26T12:29:06+00:00")
    assert format_moment(moment, "UTC", "en") == "Thu 26 Nov 2026 12:29 UTC"
    assert format_moment(moment, "America/Denver", "en") == "Thu 26 Nov 2026 05:29 MST"
    assert format_moment(moment, "Europe/Paris", "fr").startswith("jeu. 26 nov. 2026 13:29")
