"""A report's JSON (issue 17): compact, only the reader's view and this phase's events, the
result given by its hash; attached, or linked from the player's page when the game says so.
Either way `pbem verify --offline` checks a phase from two reports' JSON."""

import email
import gzip
import json
from email import policy

import pytest

from pbem.service.adjudication import state_hash
from pbem.service.errors import ServiceError
from pbem.service.verify import verify_attachments
from pbem.web import create_app
from tests.core.helpers import IND, US, outbox
from tests.support import attachment_json

TIMING = {"phase": {"kind": "duration", "seconds": 3600}}


def _msg(row):
    return email.message_from_bytes(row["raw"], policy=policy.default)


def _json_part(msg):
    return next((p for p in msg.walk() if p.get_content_type() == "application/gzip"), None)


def _game(svc, report_json="attach") -> str:
    return svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, timing=TIMING, report_json=report_json)


def test_the_attached_json_is_compact_and_holds_only_this_phase(svc):
    gid = _game(svc)
    svc.phases.close(gid)
    svc.phases.close(gid)
    rows = outbox(svc, kind="report", to_addr=US)
    part = _json_part(_msg(rows[1]))
    assert part.get_filename() == f"{gid}-T2-us.json.gz"
    assert part["Content-Transfer-Encoding"] == "base64"
    packed = part.get_payload(decode=True)
    raw_json = gzip.decompress(packed)
    assert len(packed) * 4 < len(raw_json), "gzip takes the repeated keys out: a quarter of the JSON at most"
    data = json.loads(raw_json)
    compact = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    assert raw_json == compact, "no indentation, no padding"
    assert set(data) == {"game", "role", "phase", "view", "events", "outcome", "replay", "next_phase"}
    assert data["phase"]["seq"] == 2
    assert data["events"] and all(set(ev) == {"type", "args"} for ev in data["events"]), \
        "each event's type and figures: neither its template nor its sentence (the mail's text says it)"
    # The previous report's result is this one's start, given there by its hash.
    first = attachment_json(_msg(rows[0]))
    assert first["replay"]["state_after_sha256"] == state_hash(data["replay"]["state_before"])


def test_offline_verification_follows_the_chain_of_hashes(svc):
    gid = _game(svc)
    for _ in range(3):
        svc.phases.close(gid)
    reports = [attachment_json(_msg(r)) for r in outbox(svc, kind="report", to_addr=US)]
    assert verify_attachments(reports[1], reports[2])["ok"]
    # A start that is not the previous report's result is caught even when the phase replays.
    assert not verify_attachments(reports[0], reports[2])["ok"]
    welcome = attachment_json(_msg(outbox(svc, kind="welcome", to_addr=US)[0]))
    assert verify_attachments(welcome, reports[0])["ok"], "a welcome mail gives the state itself"


def test_a_game_set_to_link_sends_the_json_as_a_link_that_serves_the_same_data(svc, settings):
    gid = _game(svc, "link")
    svc.phases.close(gid)
    svc.phases.close(gid)
    rows = outbox(svc, kind="report", to_addr=US)
    msg = _msg(rows[1])
    assert _json_part(msg) is None, "no attachment"
    text = msg.get_body(("plain",)).get_content()
    player = next(p for p in svc.records.players(gid) if p["role"] == "us")
    token = svc.records.token_for(player["id"])
    link = f"{svc.settings.web_url}/play/{gid}/{token}/report/2.json"
    assert link in text
    assert f'href="{link}"' in msg.get_body(("html",)).get_content()

    client = create_app(svc, testing=True).test_client()
    served = [client.get(f"/play/{gid}/{token}/report/{seq}.json") for seq in (1, 2)]
    assert all(r.status_code == 200 and r.mimetype == "application/json" for r in served)
    previous, current = (json.loads(r.data) for r in served)
    assert current["role"] == "us" and current["phase"]["seq"] == 2
    assert verify_attachments(previous, current)["ok"]
    assert client.get(f"/play/{gid}/{token}/report/9.json").status_code == 404, "no such resolved phase"
    assert client.get(f"/play/{gid}/{'x' * 40}/report/1.json").status_code == 404, "a wrong token sees nothing"


def test_an_unknown_report_json_setting_is_refused(svc):
    with pytest.raises(ServiceError, match="report_json"):
        svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND}, timing=TIMING, report_json="inline")
