"""One-click unsubscribe (RFC 8058) on observer reports and reminders: the headers are in the
mail as delivered, and the link is POSTed over real HTTP to `pbem serve`'s web app as a mail
provider posts it (no cookie, no form token)."""

from __future__ import annotations

import email
import mailbox
import urllib.error
import urllib.request
from email import policy

import pytest

from pbem.server import Server
from tests.core.helpers import IND, US, orders_mail
from tests.hosting.mails import WATCHER
from tests.support import wait_until


@pytest.fixture
def served(settings, tmp_path):
    server = Server(settings.with_(maildir=tmp_path / "out"), web=True).start()
    yield server, tmp_path / "out"
    server.stop()


def _delivered(folder, kind: str, to_addr: str):
    def find():
        box = mailbox.Maildir(str(folder), create=False)
        for key in box.iterkeys():
            msg = email.message_from_bytes(box.get_bytes(key), policy=policy.default)
            if msg["X-PBEM-Kind"] == kind and msg["To"] == to_addr:
                return msg
        return None
    return wait_until(find, timeout=30, what=f"the {kind} mail to {to_addr} in the Maildir")


def _post_one_click(url: str) -> int:
    """What Gmail or Yahoo do with the button: a POST of the one field, nothing else."""
    request = urllib.request.Request(url, data=b"List-Unsubscribe=One-Click", method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode("utf-8")


def _link(msg) -> str:
    value = msg["List-Unsubscribe"]
    assert value.startswith("<http") and value.endswith(">"), value
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    return value[1:-1]


def test_an_observer_unsubscribes_with_one_click(served):
    server, folder = served
    svc = server.svc
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    assert svc.observers.observe(gid, WATCHER, svc.observers.confirmation_code(gid, WATCHER)) is None
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    svc.phases.close(gid)
    url = _link(_delivered(folder, "observer", WATCHER))
    assert url.startswith(svc.settings.web_url + "/unsubscribe/observer/")
    status, page = _get(url)  # opening the link (a link checker, a person) stops nothing
    assert status == 200 and "<form method=\"post\">" in page
    assert len(svc.records.observers(gid)) == 1
    assert _post_one_click(url) == 200
    assert svc.records.observers(gid) == []
    assert _post_one_click(url) == 200, "again is harmless"
    with pytest.raises(urllib.error.HTTPError) as refused:
        _post_one_click(url[:-3] + "aaa")
    assert refused.value.code == 404, "a link whose signature is wrong stops nothing"


def test_a_player_stops_reminders_with_one_click_and_still_gets_reports(served):
    server, folder = served
    svc = server.svc
    gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    player = next(p for p in svc.records.players(gid) if p["role"] == "us")
    with svc.records.write():
        svc.mail_writer.queue_reminder(gid, player, svc.records.current_phase(gid))
    svc.notify("outbox", gid)
    reminder = _delivered(folder, "reminder", US)
    assert _post_one_click(_link(reminder)) == 200
    assert svc.records.player(player["id"])["reminder_hours"] == 0
    welcome = _delivered(folder, "welcome", US)
    assert welcome["List-Unsubscribe"] is None, "the mail a player needs to play has no unsubscribe"
