"""Shared fixtures for the web tests: a service with a game played a few
phases through the mail room, a Flask test client, a moderator, and for the
browser tests a real `pbem serve` (pbem.server.Server) on loopback with an
SMTP sink as the outside world."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.mail.addresses import orders_address
from pbem.resources import templates_dir
from pbem.service.store import loads
from pbem.web import create_app
from tests.support import free_port, mail

ENGINE, SCENARIO = "custer", "little_bighorn"
if not (templates_dir() / ENGINE / "report.txt.j2").is_file():  # until the Custer report templates land
    ENGINE, SCENARIO = "peaux_rouges", "little_big_horn"

MOD_EMAIL, MOD_PASSWORD = "mod@pbem.test", "correct horse battery"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


def roles_of(svc=None) -> tuple[str, ...]:
    return get_engine(ENGINE).scenarios()[SCENARIO].roles


def player_email(role: str) -> str:
    return f"{role.replace('_', '')}@players.example"


def new_game(svc, **kwargs) -> str:
    return svc.games.create(ENGINE, SCENARIO, {r: player_email(r) for r in roles_of()},
                           timing={"phase": {"kind": "duration", "seconds": 48 * 3600}}, **kwargs)


def active_player(svc, game_id: str, role: str) -> dict:
    return next(p for p in svc.records.players(game_id) if p["role"] == role and p["status"] == "active")


def address_of(svc, game_id: str, role: str) -> str:
    return orders_address(game_id, svc.records.token_for(active_player(svc, game_id, role)["id"]), svc.settings.mail_domain)


def send_orders(svc, game_id: str, role: str, body: str, *, subject: str = "orders", from_name: str | None = None) -> dict:
    phase = svc.records.current_phase(game_id)["label"]
    sender = player_email(role) if from_name is None else f"{from_name} <{player_email(role)}>"
    raw = mail(sender, address_of(svc, game_id, role), f"My orders.\n\nORDERS {game_id} {phase}\n{body}\nEND\n", subject=subject)
    return svc.mailroom.receive(raw)


def bot_text(svc, game_id: str, role: str, salt: str) -> str:
    ph = svc.records.current_phase(game_id)
    engine = get_engine(svc.records.game(game_id)["engine"])
    seed = (salt.encode().hex() * 64)[:64]
    return engine.bot_orders(loads(ph["state"]), role, Dice(seed))


def play_phases(svc, game_id: str, n: int, salt: str = "p") -> None:
    """Every awaited role sends a bot's orders, then the phase closes; n times."""
    for i in range(n):
        ph = svc.records.current_phase(game_id)
        if ph is None:
            return
        for role in loads(ph["awaited"]):
            result = send_orders(svc, game_id, role, bot_text(svc, game_id, role, f"{salt}{i}{role}"))
            assert result["status"] == "processed", result
        if svc.records.current_phase(game_id) and svc.records.current_phase(game_id)["id"] == ph["id"]:
            assert svc.phases.close(game_id, reason="test", actor="test") is not None


class _SeededSecrets:
    """Stands in for the ``secrets`` module in the service, so a test game's
    setup and phase seeds (and so its dice) are the same on every run."""

    def __init__(self):
        import secrets
        self._real, self._n = secrets, 0

    def token_hex(self, nbytes: int = 32) -> str:
        import hashlib
        self._n += 1
        return hashlib.sha256(f"web-test-{self._n}".encode()).hexdigest()[: 2 * nbytes]

    def __getattr__(self, name):
        return getattr(self._real, name)


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    """argon2 with test-sized costs: the same code path, a fraction of the time."""
    from argon2 import PasswordHasher
    import pbem.service.moderators as moderators_module
    monkeypatch.setattr(moderators_module, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    import pbem.service.games as games_module
    import pbem.service.phases as phases_module
    fake = _SeededSecrets()
    monkeypatch.setattr(games_module, "secrets", fake)
    monkeypatch.setattr(phases_module, "secrets", fake)
    return fake


@pytest.fixture(scope="session")
def game_template(tmp_path_factory):
    """A database holding one game two phases in, built once per session."""
    import pbem.service.games as games_module
    import pbem.service.phases as phases_module
    from pbem.config import Settings
    from pbem.service.service import Service
    path = tmp_path_factory.mktemp("template") / "pbem.db"
    saved = games_module.secrets, phases_module.secrets
    games_module.secrets = phases_module.secrets = _SeededSecrets()
    try:
        svc = Service(Settings(db_path=path, maildir=path.parent / "outbox", mail_domain="pbem.test")).init()
        gid = new_game(svc)
        play_phases(svc, gid, 2)
        svc.close()
    finally:
        games_module.secrets, phases_module.secrets = saved
    return path, gid


@pytest.fixture
def game(svc, game_template):
    """That game, copied into this test's database (the fixture's service must use domain pbem.test)."""
    import sqlite3
    path, gid = game_template
    assert svc.settings.mail_domain == "pbem.test"
    source = sqlite3.connect(str(path))
    try:
        source.backup(svc.store.conn)
    finally:
        source.close()
    return gid


@pytest.fixture
def moderator(svc, request):
    if "game" in request.fixturenames:
        request.getfixturevalue("game")  # the game's database copy first, then the moderator in it
    svc.moderators.add(MOD_EMAIL, MOD_PASSWORD)
    return MOD_EMAIL


@pytest.fixture
def app(svc):
    svc.settings = svc.settings.with_(secret_key=svc.settings.secret_key or "test-secret")
    return create_app(svc, testing=True)


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_token(client, url: str = "/login") -> str:
    html = client.get(url).get_data(as_text=True)
    match = CSRF_RE.search(html)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def login(client, email: str = MOD_EMAIL, password: str = MOD_PASSWORD):
    token = csrf_token(client, "/login")
    return client.post("/login", data={"email": email, "password": password, "csrf_token": token})


def post(client, url: str, data: dict, *, token_from: str = "/console/", follow: bool = False):
    """A form post as the browser sends it: with the CSRF token of a page."""
    token = csrf_token(client, token_from)
    return client.post(url, data={**data, "csrf_token": token}, follow_redirects=follow)


@pytest.fixture
def logged_in(client, moderator):
    response = login(client)
    assert response.status_code == 302, response.get_data(as_text=True)
    return client


# -- a real server for the browser tests --------------------------------------------------
@pytest.fixture
def live(settings, sink, tmp_path):
    """`pbem serve` on loopback (SMTP in, web, scheduler, outbox to the sink)."""
    from pbem.server import Server
    server = Server(settings.with_(smtp_url=sink.url, http_port=free_port(), secret_key="browser-test-secret")).start()
    try:
        server.svc.moderators.add(MOD_EMAIL, MOD_PASSWORD)
        yield server
    finally:
        server.stop()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
