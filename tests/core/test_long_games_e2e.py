"""Issue 16's commands over real mail transport: `pbem serve` takes the mail by SMTP and sends
its answers to an SMTP sink. An outsider watches a game (OBSERVE, the code sent back), the
players play a phase by replying, then end the game with a draw; players and observer are told."""

from email.policy import SMTP

from pbem.demo import ScriptedPlayer
from pbem.server import Server
from tests.core.test_mail_loop_e2e import IND, US, _send
from tests.support import mail, text_of, to

WATCHER = "watcher@elsewhere.example"


def test_an_observed_game_played_and_drawn_by_mail_through_the_server(settings, sink):
    server = Server(settings.with_(smtp_url=sink.url), web=False).start()
    try:
        svc = server.svc
        general = f"pbem@{settings.mail_domain}"
        gid = svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND},
                               timing={"phase": {"kind": "duration", "seconds": 3600}, "early_close_seconds": 0})
        welcome = {addr: sink.wait_for(to(addr, "welcome"))[0]["msg"] for addr in (US, IND)}

        _send(server, mail(WATCHER, general, f"OBSERVE {gid}\n", subject="watch"), general, WATCHER)
        ask = text_of(sink.wait_for(to(WATCHER, "ack"))[0]["msg"])
        code = ask.split(f"OBSERVE {gid} ")[1].split()[0]
        _send(server, mail(WATCHER, general, f"OBSERVE {gid} {code}\n", subject="watch"), general, WATCHER)
        sink.wait_for(to(WATCHER, "ack"), count=2)

        players = {US: ScriptedPlayer("custer", "us", US), IND: ScriptedPlayer("custer", "indians", IND)}
        for addr, msg in welcome.items():
            reply = players[addr].reply_to(msg)
            if reply is not None:
                _send(server, reply.as_bytes(policy=SMTP), msg["Reply-To"], addr)
        watched = text_of(sink.wait_for(to(WATCHER, "observer"), timeout=30)[0]["msg"])
        assert "for observers" in watched and US not in watched and IND not in watched

        _send(server, mail(US, welcome[US]["Reply-To"], "PROPOSE DRAW\n", subject="peace"), welcome[US]["Reply-To"], US)
        proposal = text_of(sink.wait_for(to(IND, "press"))[0]["msg"])
        assert "proposes a draw" in proposal
        _send(server, mail(IND, welcome[IND]["Reply-To"], "ACCEPTER NULLE\n", subject="paix"), welcome[IND]["Reply-To"], IND)
        for addr in (US, IND):
            sink.wait_for(lambda r, a=addr: to(a, "press")(r) and "draw agreed by every player" in text_of(r["msg"]))
        sink.wait_for(lambda r: to(WATCHER, "observer")(r) and "draw agreed by every player" in text_of(r["msg"]))
        assert svc.records.game(gid)["status"] == "finished"
    finally:
        server.stop()
