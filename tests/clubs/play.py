"""Playing games through the service by mail, every order a bot's (issue 28's tests): each awaited
role mails its engine's bot orders to its own orders address, and a phase the mail room did not
close at once (one that waits for its deadline) is closed as its deadline would."""

from __future__ import annotations

import hashlib

from pbem.dice import Dice
from pbem.mail.addresses import orders_address
from pbem.service.store import loads
from tests.support import mail


def address_of(svc, game_id: str, role: str) -> tuple[str, str]:
    """(the player's address, their orders address) for the role's active player."""
    player = svc.records.active_player(game_id, role)
    return player["email"], orders_address(game_id, svc.records.token_for(player["id"]), svc.settings.mail_domain)


def send(svc, game_id: str, role: str, body: str, subject: str = "orders") -> dict:
    sender, to_addr = address_of(svc, game_id, role)
    return svc.mailroom.receive(mail(sender, to_addr, body, subject=subject))


def bot_orders(svc, game_id: str, role: str, salt: str) -> str:
    phase = svc.records.current_phase(game_id)
    engine = svc.engine(svc.records.game_row(game_id)["engine"])
    seed = hashlib.sha256(f"{salt}/{game_id}/{phase['label']}/{role}".encode()).hexdigest()
    return engine.bot_orders(loads(phase["state"]), role, Dice(seed))


def play_phase(svc, game_id: str, salt: str = "bots", skip: tuple[str, ...] = ()) -> bool:
    """Every awaited role but ``skip`` mails a bot's orders; the phase closes. False when the game is over."""
    phase = svc.records.current_phase(game_id)
    if phase is None:
        return False
    for role in loads(phase["awaited"]):
        if role in skip:
            continue
        text = bot_orders(svc, game_id, role, salt)
        result = send(svc, game_id, role, f"ORDERS {game_id} {phase['label']}\n{text}\nEND\n")
        assert result["status"] == "processed", result
    still = svc.records.current_phase(game_id)
    if still is not None and still["id"] == phase["id"]:
        assert svc.phases.close(game_id, actor="test", reason="deadline") is not None
    return svc.records.current_phase(game_id) is not None


def play_to_end(svc, game_id: str, salt: str = "bots", limit: int = 3000) -> dict:
    """Play the game by mail until it is over (``limit`` phases at most); its outcome."""
    for _ in range(limit):
        if not play_phase(svc, game_id, salt):
            break
    game = svc.records.game(game_id)
    assert game["status"] == "finished", f"{game_id} not over after {limit} phases"
    return game["outcome"]
