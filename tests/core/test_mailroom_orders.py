"""Orders by mail: acknowledgement, per-line errors, stale and late blocks, duplicates."""

from datetime import timedelta

from tests.core.helpers import IND, US, address_of, new_game, orders_mail, outbox, raw_text, submissions


def test_valid_orders_are_acknowledged_with_receipt(svc):
    gid = new_game(svc)
    result = svc.mailroom.receive(orders_mail(svc, gid, "us"), envelope_to=[address_of(svc, gid, "us")])
    assert result["status"] == "processed"
    [sub] = submissions(svc, gid)
    assert sub["status"] == "accepted" and sub["stands"] == 1
    [ack] = outbox(svc, kind="ack")
    assert ack["to_addr"] == US
    text = raw_text(ack)
    assert sub["sha256"] in text, "the receipt names the submission's SHA-256"
    assert "X-PBEM-Status: accepted" in ack["raw"].decode()
    assert "Deadline" in text


def test_bad_line_is_reported_with_its_number_and_the_rest_stands(svc):
    gid = new_game(svc)
    body = "MARCH TO THE SEA AT ONCE\n"
    svc.mailroom.receive(orders_mail(svc, gid, "us", body=body + "\n"))
    [sub] = submissions(svc, gid)
    assert sub["errors"] and sub["errors"][0]["line"] == 1
    assert sub["errors"][0]["text"].startswith("MARCH TO THE SEA")
    [ack] = outbox(svc, kind="ack")
    assert "line 1" in raw_text(ack)
    assert "X-PBEM-Status: rejected" in ack["raw"].decode() or "X-PBEM-Status: partial" in ack["raw"].decode()


def test_last_valid_submission_stands(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    subs = submissions(svc, gid)
    assert [s["stands"] for s in subs] == [0, 1]


def test_rejected_submission_leaves_the_previous_one_standing(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "us", body="NONSENSE ONE\nNONSENSE TWO"))
    subs = submissions(svc, gid)
    assert subs[0]["stands"] == 1 and subs[1]["status"] == "rejected" and subs[1]["stands"] == 0


def test_stale_block_quoted_from_an_old_report_is_refused(svc):
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    old = svc.records.current_phase(gid)["label"]
    svc.phases.close(gid, reason="test")
    assert svc.records.current_phase(gid)["label"] != old
    before = len(submissions(svc, gid))
    svc.mailroom.receive(orders_mail(svc, gid, "us", phase=old))
    assert len(submissions(svc, gid)) == before, "a stale block is not a submission"
    err = outbox(svc, kind="error")[-1]
    assert err["to_addr"] == US
    assert old in raw_text(err) and "resolved" in raw_text(err)


def test_quoted_orders_block_in_a_reply_is_not_read(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    from tests.support import mail
    quoted = "\n".join("> " + line for line in f"ORDERS {gid} {phase}\nHOLD\nEND".splitlines())
    raw = mail(US, address_of(svc, gid, "us"), f"Thanks!\n\nOn Mon, someone wrote:\n{quoted}\n")
    svc.mailroom.receive(raw)
    assert submissions(svc, gid) == []


def test_orders_after_the_deadline_close_the_phase_first_and_are_refused_for_it(svc):
    """Nothing closed the phase at its deadline yet (here no scheduler runs): the mail closes it
    first, so the orders are judged against the deadline and refused for a closed phase, never
    called late while the phase is open."""
    gid = new_game(svc)
    svc.clock = lambda real=svc.clock: real() + timedelta(hours=2)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    assert svc.records.current_phase(gid)["label"] != "T1", "T1 was closed before the mail was read"
    assert [s for s in submissions(svc, gid) if s["stands"]] == []
    assert "which was resolved" in raw_text(outbox(svc, kind="error")[-1])


def test_same_message_delivered_twice_is_one_submission(svc):
    gid = new_game(svc)
    raw = orders_mail(svc, gid, "us")
    first = svc.mailroom.receive(raw, via="smtp")
    second = svc.mailroom.receive(b"Received: from relay by mx; Mon, 1 Jan 2026 00:00:00 +0000\r\n" + raw, via="ingest")
    assert first["status"] == "processed" and second["status"] == "duplicate"
    assert len(submissions(svc, gid)) == 1
    assert len(outbox(svc, kind="ack")) == 1
    kept = svc.store.all("SELECT status FROM inbound ORDER BY id")
    assert [k["status"] for k in kept] == ["processed", "duplicate"], "both raw copies are kept"


def test_orders_block_without_end_is_taken_and_the_ack_says_end_was_missing(svc):
    from tests.support import mail
    from tests.core.helpers import template_for
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), f"ORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\n"))
    [sub] = submissions(svc, gid)
    assert sub["status"] == "accepted"
    assert "END" in raw_text(outbox(svc, kind="ack")[-1]).split("NOTES ON YOUR MAIL", 1)[1]


def test_set_with_an_unknown_zone_is_explained(svc):
    from tests.support import mail
    gid = new_game(svc)
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "SET TZ Mars/Olympus\n"))
    err = outbox(svc, kind="error")[-1]
    assert "Mars/Olympus" in raw_text(err)
    assert svc.records.players(gid)[0]["tz"] == "UTC"
