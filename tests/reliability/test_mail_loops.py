"""Mail loops with a real auto-responder: a loopback SMTP relay whose handler mails
an answer back to the server over SMTP for every mail it gets, as an out-of-office
robot does, with and without the headers that say so. The server must send only a
bounded number of replies to the robot's address, and the loop must stop."""

import queue
import threading
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbem.server import Server
from tests.reliability.helpers import IND, US, smtp_send
from tests.support import SmtpSink, wait_until

LIMIT = 5  # replies per address per hour, for the test


class AutoResponder:
    """Answers every mail that reaches ``address`` through the relay, from another thread
    (an SMTP handler must not block on sending)."""

    def __init__(self, relay: SmtpSink, address: str, server_settings, style: str):
        self.address, self.style, self.s = address, style, server_settings
        self.outgoing: queue.Queue = queue.Queue()
        self.got = 0  # mails that reached the robot (counted by the relay's thread, as they arrive)
        self.done = 0  # of those, answered or failed to answer (counted by the robot's thread)
        self.sent = 0
        self.orders = None
        self.errors: list[str] = []
        self.stop = threading.Event()
        relay.handler.on_message = self._on_message
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _on_message(self, rec):
        if rec["to"] == self.address:
            self.got += 1
            self.outgoing.put(rec)

    def _answer(self, rec) -> tuple[EmailMessage, str]:
        orig = rec["msg"]
        body_text = orig.get_body(("plain",))
        original = body_text.get_content() if body_text is not None else ""
        m = EmailMessage()
        m["From"] = self.address
        # Only the marked robots say so in the subject; the others look like a person's reply.
        prefix = "Out of office: " if self.style in ("auto-submitted", "x-autoreply", "subject-only") else "Re: "
        m["Subject"] = prefix + (orig["Subject"] or "")
        m["Message-ID"] = make_msgid(domain="robot.example")
        m["In-Reply-To"] = orig["Message-ID"]
        text = "I am out of the office until the 14th and will read your mail when I return.\n"
        reply_to = orig["Reply-To"] or orig["From"]
        if self.style == "auto-submitted":
            m["Auto-Submitted"] = "auto-replied"
        elif self.style == "x-autoreply":
            m["X-Autoreply"] = "yes"
        elif self.style == "quoted":
            text += "\nOn a day, pbem wrote:\n" + "\n".join("> " + line for line in original.splitlines())
        elif self.style == "original-below":  # Outlook style: the original unquoted under a separator
            text += "\n-----Original Message-----\n" + original
        elif self.style == "to-general-address":  # answers the From:, the server's general address
            reply_to = orig["From"]
        elif self.style == "echo":  # a broken robot that sends back the whole mail as new text
            text = original
        elif self.style == "orders-bot":  # a broken script that re-sends its orders on every mail it gets
            if self.orders is None and "ORDERS " in original:
                start = original.index("ORDERS ")
                self.orders = original[start: original.index("\nEND", start) + 4]
            text += "\n" + (self.orders or "") + "\n"
        m["To"] = reply_to
        m.set_content(text)
        return m, str(m["To"].addresses[0].addr_spec)

    def _run(self):
        while not self.stop.is_set():
            try:
                rec = self.outgoing.get(timeout=0.1)
            except queue.Empty:
                continue
            try:
                msg, rcpt = self._answer(rec)
                smtp_send(self.s.smtp_host, self.s.smtp_port, msg.as_bytes(), "" if self.style == "null-sender" else self.address, rcpt)
                self.sent += 1
            except Exception as exc:  # noqa: BLE001 - reported by the test
                self.errors.append(repr(exc))
            finally:
                self.done += 1


@pytest.mark.parametrize("style", ["auto-submitted", "x-autoreply", "subject-only", "quoted", "original-below",
                                   "to-general-address", "echo", "orders-bot"])
def test_a_looping_auto_responder_gets_a_bounded_number_of_replies(settings, style):
    relay = SmtpSink().start()
    settings = settings.with_(smtp_url=relay.url, replies_per_address_per_hour=LIMIT)
    server = Server(settings, web=False).start()
    robot = AutoResponder(relay, US, server.settings, style)
    try:
        svc = server.svc
        gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                              timing={"phase": {"kind": "duration", "seconds": 3600}})
        # Let the loop run until it has stopped: the robot has answered every mail it got, the server
        # has stored every mail the robot sent (it queues its answer before it says 250) and delivered
        # all it queued (the relay hands a mail to the robot before it says 250). The robot's counts
        # are read before and after the database's, so the picture is of one moment. Then nothing is
        # under way anywhere and nothing can start again; a loop that never stops fails the wait.
        def stopped() -> bool:
            svc.notify("outbox")  # a retry goes at once rather than after its backoff
            before = (robot.got, robot.done, robot.sent)
            stored = svc.store.one("SELECT COUNT(*) AS n FROM inbound")["n"]
            queued = svc.store.one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'queued'")["n"]
            got, done, sent = after = (robot.got, robot.done, robot.sent)
            return before == after and done == got and sent == stored and queued == 0
        wait_until(stopped, timeout=120, what="the mail loop to stop", interval=0.05)
        to_robot = [r for r in relay.received if r["to"] == US]
        kinds = [r["kind"] for r in to_robot]
        replies = [k for k in kinds if k in ("ack", "error")]
        assert kinds[0] == "welcome"
        assert len(replies) <= LIMIT, kinds
        assert len(to_robot) <= LIMIT + 1, kinds
        if style in ("auto-submitted", "x-autoreply", "subject-only"):
            assert replies == [], "a mail marked automatic is never answered"
        elif style == "to-general-address":
            assert replies == [], "mail without a token and without HELP or JOIN is never answered"
        else:
            assert len(replies) == LIMIT, ("the robot kept answering until the brake", kinds)
        inbound = svc.store.all("SELECT status, note FROM inbound")
        assert len(inbound) == robot.sent, "every robot mail is kept"
        assert not robot.errors, robot.errors
        # The other player is untouched by the loop.
        assert [r["kind"] for r in relay.received if r["to"] == IND] == ["welcome"]
        # Every mail the robot sent is kept, and when answers stop, the reason is logged.
        if len(replies) == LIMIT:
            assert any("rate limit" in (row["note"] or "") for row in inbound)
    finally:
        robot.stop.set()
        server.stop()
        relay.stop()
