"""Closing phases: exactly once, defaults, reports with picture, JSON and calendar; verify."""

import email
import threading
from email import policy

from pbem.dice import commitment
from tests.core.helpers import IND, US, new_game, orders_mail, outbox
from tests.support import attachment_json


def _msg(row):
    return email.message_from_bytes(row["raw"], policy=policy.default)


def test_phase_closes_exactly_once_when_two_closers_race(svc, settings):
    """Three closers of one phase (its deadline's, as the scheduler, a worker and the mail
    room name it) on three connections: one closes it, the others find it closed. Unnamed,
    a closer that came after the first had finished would close the next phase, as asked."""
    from pbem.service.service import Service
    gid = new_game(svc)
    phase_row_id = svc.records.current_phase(gid)["id"]
    other = Service(settings).init()
    results = []
    threads = [threading.Thread(target=lambda s=s: results.append(s.phases.close(gid, phase_row_id=phase_row_id)))
               for s in (svc, other, svc)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for r in results if r) == 1
    resolved = svc.store.all("SELECT * FROM phases WHERE game_id = ? AND status = 'resolved'", (gid,))
    assert len(resolved) == 1
    assert len(outbox(svc, kind="report")) == 2, "one report per role, once"
    other.close()


def test_missing_orders_get_the_default_and_the_report_says_so(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    result = svc.phases.close(gid)
    assert result["defaulted"] == ["indians"]
    report = _msg(outbox(svc, kind="report", to_addr=US)[0])
    assert "indians" in report.get_body(("plain",)).get_content()


def test_no_orders_policy_wait_holds_the_phase_for_a_moderator(svc):
    gid = new_game(svc, no_orders="wait")
    assert svc.phases.close(gid) == {"waiting": ["us", "indians"]}
    assert svc.records.game(gid)["status"] == "waiting"
    assert svc.records.current_phase(gid)["deadline"] is None
    svc.games.resume(gid, actor="mod@example.org", reason="players are back")
    assert svc.records.game(gid)["status"] == "active"


def test_report_has_html_with_inline_picture_text_json_and_calendar(svc):
    gid = new_game(svc)
    svc.phases.close(gid)
    row = outbox(svc, kind="report", to_addr=US)[0]
    msg = _msg(row)
    assert msg["X-PBEM-Game"] == gid and msg["X-PBEM-Kind"] == "report"
    html = msg.get_body(("html",)).get_content()
    assert 'src="cid:map' in html
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert images and images[0]["Content-ID"]
    data = attachment_json(msg)
    assert data["role"] == "us"
    assert commitment(data["phase"]["seed"]) == data["phase"]["commitment"]
    assert any(p.get_content_type() == "text/calendar" for p in msg.walk())
    text = msg.get_body(("plain",)).get_content()
    assert f"ORDERS {gid} {data['next_phase']['label']}" in text, "the report ends with the next order template"


def test_the_order_template_sent_back_unchanged_is_accepted(svc):
    gid = new_game(svc)
    svc.phases.close(gid)
    msg = _msg(outbox(svc, kind="report", to_addr=US)[0])
    text = msg.get_body(("plain",)).get_content()
    block = text[text.index(f"ORDERS {gid}"):]
    block = block[: block.index("\nEND") + 4]
    from tests.support import mail
    from tests.core.helpers import address_of, submissions
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), block))
    assert submissions(svc, gid)[-1]["status"] == "accepted"


def test_messages_thread_and_carry_stable_ids(svc):
    gid = new_game(svc)
    svc.phases.close(gid)
    welcome = _msg(outbox(svc, kind="welcome", to_addr=US)[0])
    report = _msg(outbox(svc, kind="report", to_addr=US)[0])
    assert report["In-Reply-To"] == welcome["Message-ID"]
    assert welcome["Message-ID"] in report["References"]


def test_verify_agrees_after_several_phases(svc):
    gid = new_game(svc)
    for _ in range(3):
        svc.mailroom.receive(orders_mail(svc, gid, "us"))
        svc.phases.close(gid)
    result = svc.verifier.verify_game(gid)
    assert result["ok"], result["problems"]
    assert result["phases"] == 3


def test_verify_detects_a_tampered_result(svc):
    gid = new_game(svc)
    svc.phases.close(gid)
    with svc.store.write():
        svc.store.execute("UPDATE phases SET result_state = replace(result_state, '\"turn\":2', '\"turn\":9') WHERE game_id = ? AND status = 'resolved'", (gid,))
        svc.store.execute("UPDATE phases SET seed = ? WHERE game_id = ? AND status = 'resolved'", ("00" * 32, gid))
    result = svc.verifier.verify_game(gid)
    assert not result["ok"]
    assert any("commitment" in p for p in result["problems"])


def test_offline_verification_from_two_report_attachments(svc):
    from pbem.service.verify import verify_attachments
    gid = new_game(svc)
    svc.phases.close(gid)
    svc.phases.close(gid)
    reports = [attachment_json(_msg(r)) for r in outbox(svc, kind="report", to_addr=US)]
    result = verify_attachments(reports[0], reports[1])
    assert result["ok"], result
    tampered = dict(reports[1], replay=dict(reports[1]["replay"], state_after_sha256="0" * 64))
    assert not verify_attachments(reports[0], tampered)["ok"]
