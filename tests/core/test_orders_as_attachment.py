"""Orders sent as an attached text file are read when the mail itself holds no command,
and the acknowledgement says where they were found."""

from email.message import EmailMessage

from pbem.mail.inbound import parse_message
from tests.core.helpers import IND, US, address_of, new_game, outbox, raw_text, submissions, template_for


def _with_attachment(svc, gid, body_text: str, attached: str, filename="orders.txt", mimetype=("text", "plain")) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = US, address_of(svc, gid, "us"), "my orders"
    m["Message-ID"] = f"<att{len(attached)}.{len(body_text)}.{filename}@players.example>"
    m.set_content(body_text)
    m.add_attachment(attached.encode("utf-8"), maintype=mimetype[0], subtype=mimetype[1], filename=filename)
    return m.as_bytes()


def test_orders_in_an_attached_file_are_taken_and_the_ack_says_so(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    orders = f"ORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\nEND\n"
    result = svc.mailroom.receive(_with_attachment(svc, gid, "Orders attached.\n\n-- \nGeorge", orders))
    assert result["status"] == "processed", result
    [sub] = submissions(svc, gid)
    assert sub["status"] == "accepted" and sub["role"] == "us"
    ack = raw_text(outbox(svc, kind="ack")[-1])
    assert "read from the attached file orders.txt" in ack


def test_a_command_in_the_body_wins_over_the_attachment(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    body = f"ORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\nEND\n"
    attached = f"ORDERS {gid} {phase}\nthis line is nonsense\nEND\n"
    svc.mailroom.receive(_with_attachment(svc, gid, body, attached))
    [sub] = submissions(svc, gid)
    assert sub["status"] == "accepted" and sub["errors"] == []
    assert "attached file" not in raw_text(outbox(svc, kind="ack")[-1])


def test_an_attachment_without_orders_still_gets_the_no_command_answer(svc):
    gid = new_game(svc)
    svc.mailroom.receive(_with_attachment(svc, gid, "See attached.", "just a letter, no orders at all\n"))
    assert submissions(svc, gid) == []
    error = raw_text(outbox(svc, kind="error")[-1])
    assert "No command was found in your mail" in error


def test_only_small_text_attachments_are_read():
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = IND, "g+t@pbem.test", "x"
    m.set_content("see attached")
    m.add_attachment(b"ORDERS g1 T1\nEND\n", maintype="text", subtype="plain", filename="a.txt")
    m.add_attachment(b"ORDERS g1 T1\nEND\n", maintype="application", subtype="octet-stream", filename="b.txt")
    m.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="map.png")
    m.add_attachment(b"x" * 70_000, maintype="text", subtype="plain", filename="huge.txt")
    parsed = parse_message(m.as_bytes())
    assert [name for name, _ in parsed.text_attachments] == ["a.txt", "b.txt"]
    assert parsed.text == "see attached"
    assert "the attached file huge.txt is larger than 64000 bytes and was not read" in parsed.problems


def test_a_too_large_orders_file_is_named_in_the_answer(svc):
    gid = new_game(svc)
    phase = svc.records.current_phase(gid)["label"]
    orders = f"ORDERS {gid} {phase}\n{template_for(svc, gid, 'us')}\n" + "# padding\n" * 8000 + "END\n"
    svc.mailroom.receive(_with_attachment(svc, gid, "Orders attached.", orders, filename="big-orders.txt"))
    assert submissions(svc, gid) == []
    error = raw_text(outbox(svc, kind="error")[-1])
    assert "No command was found in your mail" in error and "big-orders.txt is larger than 64000 bytes" in error


def test_a_forwarded_messages_attachments_are_not_read():
    inner = EmailMessage()
    inner["Subject"] = "old"
    inner.set_content("old mail")
    inner.add_attachment(b"ORDERS g1 T1\nEND\n", maintype="text", subtype="plain", filename="old.txt")
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = IND, "g+t@pbem.test", "fwd"
    m.set_content("forwarding")
    m.add_attachment(inner)
    assert parse_message(m.as_bytes()).text_attachments == []
