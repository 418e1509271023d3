"""Every kind of mail pbem sends, made through the service as players and the scheduler make them."""

from __future__ import annotations

from tests.core.helpers import US, address_of, new_game, orders_mail
from tests.support import mail

WATCHER = "watcher@elsewhere.example"
#: what each kind of mail is called in the outbox (X-PBEM-Kind)
EVERY_KIND = {"welcome", "ack", "report", "error", "observer"}


def make_every_kind(svc) -> str:
    """A Custer game with a welcome per player, an acknowledgement, an error, and a resolved
    turn's reports (with their attachments) to the players and to an observer; its id."""
    gid = new_game(svc)
    assert svc.observers.observe(gid, WATCHER, svc.observers.confirmation_code(gid, WATCHER)) is None
    svc.mailroom.receive(orders_mail(svc, gid, "us"))  # acknowledged
    svc.mailroom.receive(mail(US, address_of(svc, gid, "us"), "no command in here"))  # an error answer
    svc.mailroom.receive(orders_mail(svc, gid, "indians"))
    svc.phases.close(gid)  # as its deadline would: the reports go out
    return gid
