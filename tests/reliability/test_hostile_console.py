"""Issue 18, items 4, 5, 6 and 11: the moderators' console under attack.

4. A session lives on the server: a cookie copied before logout, a password change
   or the moderator's removal no longer opens the console.
5. The login limit holds under concurrency: an attempt is counted before its
   password is checked, in one transaction.
6. ``next`` after login is a same-site path without control characters, else the
   console's front page.
11. Whatever the console meets (disk full, database locked, a hostile ``next``)
    gets a clear page, never a 500.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading

import pytest
from argon2 import PasswordHasher

import pbem.service.moderators as moderators_module
from pbem.service.moderators import LOGIN_MAX_FAILURES
from pbem.web import create_app
from tests.core.helpers import new_game
from tests.web.conftest import MOD_EMAIL, MOD_PASSWORD, csrf_token, login

COOKIE = "pbem_session"


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    monkeypatch.setattr(moderators_module, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


@pytest.fixture
def app(svc):
    svc.settings = svc.settings.with_(secret_key=svc.settings.secret_key or "test-secret")
    svc.moderators.add(MOD_EMAIL, MOD_PASSWORD)
    return create_app(svc, testing=True)


def _logged_in(app):
    client = app.test_client()
    response = login(client)
    assert response.status_code == 302 and response.headers["Location"] == "/console/", response.get_data(as_text=True)
    return client


def _copy(client, app):
    """Another browser holding a copy of ``client``'s session cookie (stolen, or kept from before)."""
    thief = app.test_client()
    thief.set_cookie(COOKIE, client.get_cookie(COOKIE).value)
    return thief


def _opens_console(client) -> bool:
    return client.get("/console/").status_code == 200


# -- 4 --------------------------------------------------------------------------------------
def test_a_cookie_copied_before_logout_no_longer_opens_the_console(app):
    client = _logged_in(app)
    thief = _copy(client, app)
    assert _opens_console(thief)
    response = client.post("/logout", data={"csrf_token": csrf_token(client, "/console/")})
    assert response.status_code == 302
    assert not _opens_console(client)
    assert not _opens_console(thief), "logout ends the session on the server, not only in this browser"


def test_logout_in_one_browser_leaves_the_moderators_other_sessions_open(app):
    laptop, phone = _logged_in(app), _logged_in(app)
    laptop.post("/logout", data={"csrf_token": csrf_token(laptop, "/console/")})
    assert _opens_console(phone)


def test_a_new_password_ends_every_session(app, svc):
    client = _logged_in(app)
    thief = _copy(client, app)
    svc.moderators.add(MOD_EMAIL, "a brand new password")
    assert not _opens_console(client) and not _opens_console(thief)


def test_removing_a_moderator_ends_their_sessions(app, svc):
    client = _logged_in(app)
    thief = _copy(client, app)
    assert svc.moderators.remove(MOD_EMAIL)
    assert not _opens_console(client) and not _opens_console(thief)
    assert login(app.test_client()).status_code == 401


def test_pbem_moderator_remove_ends_the_sessions(app, svc):
    client = _logged_in(app)
    env = {**os.environ, "PBEM_DB": str(svc.settings.db_path), "PBEM_MAIL_DOMAIN": "pbem.test"}
    proc = subprocess.run([sys.executable, "-m", "pbem.cli", "moderator", "remove", MOD_EMAIL], capture_output=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert not _opens_console(client)
    again = subprocess.run([sys.executable, "-m", "pbem.cli", "moderator", "remove", MOD_EMAIL], capture_output=True, env=env, timeout=120)
    assert again.returncode != 0 and b"no moderator" in again.stderr


def test_a_session_cookie_made_with_the_key_but_no_server_session_is_refused(app):
    """Signing a cookie that names a moderator is not enough: the server must hold the session."""
    client = _logged_in(app)
    forged = app.test_client()
    with forged.session_transaction() as session:
        session.update({k: v for k, v in _session_of(client).items() if k != "sid"})
        session["sid"] = "0" * 43
    assert not _opens_console(forged)


def _session_of(client) -> dict:
    with client.session_transaction() as session:
        return dict(session)


# -- 5 --------------------------------------------------------------------------------------
def test_forty_concurrent_guesses_have_at_most_the_limit_checked(svc, monkeypatch):
    checked = []

    class CountingHasher(PasswordHasher):
        def verify(self, hash_, password):
            checked.append(password)
            return super().verify(hash_, password)

    monkeypatch.setattr(moderators_module, "_hasher", CountingHasher(time_cost=1, memory_cost=1024, parallelism=1))
    svc.moderators.add(MOD_EMAIL, MOD_PASSWORD)
    guesses = 40
    barrier = threading.Barrier(guesses)
    outcomes: list[str] = []
    lock = threading.Lock()

    def guess(n: int) -> None:
        barrier.wait()
        try:
            result = svc.moderators.login(MOD_EMAIL, f"guess {n}", "203.0.113.9")
            outcome = "wrong" if result is None else "in"
        except Exception as exc:  # the limit's refusal
            outcome = type(exc).__name__
        finally:
            svc.release_thread_store()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(guesses)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(outcomes) == guesses
    assert len(checked) <= LOGIN_MAX_FAILURES, f"{len(checked)} of {guesses} guesses had their password checked"
    assert outcomes.count("wrong") == len(checked) and "in" not in outcomes
    # The right password now waits out the window like any other attempt.
    with pytest.raises(Exception):
        svc.moderators.login(MOD_EMAIL, MOD_PASSWORD, "203.0.113.9")


# -- 6 --------------------------------------------------------------------------------------
#: ``next`` as it stands in the query string of a link an attacker sends (percent-encoded)
HOSTILE_NEXT = [
    "/%09/evil.test", "/%0a/evil.test", "/%0d%0a/evil.test", "//evil.test", "/%2F/evil.test", "%2F%2Fevil.test",
    "/%5cevil.test", "/%5C%5Cevil.test", "https://evil.test/", "http:evil.test", "javascript:alert(1)", "/%00/evil.test",
    "%20//evil.test", "/%7f/evil.test", "/%E2%80%A8/evil.test", "evil.test", "/console/%0d%0aSet-Cookie:x=1",
]


def _location_is_safe(location: str) -> bool:
    return (location.startswith("/") and not location.startswith("//") and "\\" not in location
            and not any(ord(c) < 32 or ord(c) == 127 for c in location))


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_a_hostile_next_after_login_goes_to_the_front_page(app, target):
    client = app.test_client()
    token = csrf_token(client, "/login")
    response = client.post(f"/login?next={target}", data={"email": MOD_EMAIL, "password": MOD_PASSWORD, "csrf_token": token})
    assert response.status_code == 302, response.status_code
    assert response.headers["Location"] == "/console/", response.headers["Location"]


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_a_hostile_next_when_already_logged_in_goes_to_the_front_page(app, target):
    client = _logged_in(app)
    response = client.get(f"/login?next={target}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/console/"


def test_a_same_site_next_is_kept(app):
    client = app.test_client()
    token = csrf_token(client, "/login")
    response = client.post("/login?next=/console/outbox%3Fpage%3D2",
                           data={"email": MOD_EMAIL, "password": MOD_PASSWORD, "csrf_token": token})
    assert response.headers["Location"] == "/console/outbox?page=2"
    assert _location_is_safe(response.headers["Location"])


# -- 11 -------------------------------------------------------------------------------------
def _fill_the_disk(svc):
    """SQLITE_FULL for this thread's connection: the file may not grow, and the room left
    in its pages is filled (rows of shrinking size), so the next write fails."""
    pages = svc.store.one("PRAGMA page_count")["page_count"]
    svc.store.execute(f"PRAGMA max_page_count = {pages}")
    n = 0
    for size in (4000, 400, 40, 1):
        while True:
            n += 1
            try:
                svc.store.insert("login_failures", {"email": f"filler{n}", "ip": "x" * size, "at": "2000-01-01T00:00:00+00:00"})
            except sqlite3.OperationalError:
                break


@pytest.fixture
def one_thread(svc, monkeypatch):
    """Requests keep this thread's connection (the one whose disk is full) instead of closing it."""
    monkeypatch.setattr(svc, "release_thread_store", lambda: None)
    return svc


def test_logging_in_on_a_full_disk_gets_a_clear_page(app, one_thread):
    client = app.test_client()
    token = csrf_token(client, "/login")
    _fill_the_disk(one_thread)
    for password in (MOD_PASSWORD, "wrong password"):
        response = client.post("/login", data={"email": MOD_EMAIL, "password": password, "csrf_token": token})
        assert response.status_code == 503, (password, response.status_code)
        assert "try again" in response.get_data(as_text=True).lower()


def test_a_console_action_on_a_full_disk_gets_a_clear_page(app, one_thread):
    gid = new_game(one_thread)
    client = _logged_in(app)
    token = csrf_token(client, "/console/")
    _fill_the_disk(one_thread)
    response = client.post(f"/console/games/{gid}/pause", data={"csrf_token": token, "reason": "a storm"})
    assert response.status_code == 503
    assert "Nothing was changed" in response.get_data(as_text=True)
    assert one_thread.store.one("SELECT status FROM games WHERE id = ?", (gid,))["status"] == "active"


def test_logging_in_on_a_locked_database_gets_a_clear_page(app, svc):
    svc.settings = svc.settings.with_(db_busy_timeout_seconds=0.2)
    svc.release_thread_store()
    client = app.test_client()
    token = csrf_token(client, "/login")
    blocker = sqlite3.connect(str(svc.settings.db_path), isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        response = client.post("/login", data={"email": MOD_EMAIL, "password": MOD_PASSWORD, "csrf_token": token})
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert response.status_code == 503
    assert "try again" in response.get_data(as_text=True).lower()
    assert login(client).status_code == 302, "once the lock is gone the same login works"


def test_every_hostile_next_on_the_login_page_gets_a_page(app):
    client = app.test_client()
    for target in HOSTILE_NEXT:
        response = client.get(f"/login?next={target}")
        assert response.status_code == 200, (target, response.status_code)
