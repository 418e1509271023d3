"""Delivery into the Maildir outbox: a mail reaches new/ only once it is on disk, and
is marked sent only after that; a crash before then leaves it queued, to be sent again."""

import mailbox

from pbem.service import outbox

US, IND = "custer@players.example", "sitting.bull@players.example"


def _rows(store):
    return store.all("SELECT id, kind, status, raw FROM outbox ORDER BY id")


def test_a_message_reaches_new_only_when_flushed_and_keeps_its_bytes_with_local_line_ends(tmp_path):
    transport = outbox.MaildirTransport(tmp_path / "box")
    raw = b"From: pbem <pbem@pbem.test>\r\nTo: a@b.example\r\nSubject: x\r\n\r\nbody\r\n"
    transport.send("a@b.example", raw)
    assert list((tmp_path / "box" / "new").iterdir()) == []
    assert len(list((tmp_path / "box" / "tmp").iterdir())) == 1
    transport.flush()
    assert list((tmp_path / "box" / "tmp").iterdir()) == []
    [delivered] = list((tmp_path / "box" / "new").iterdir())
    assert delivered.read_bytes() == raw.replace(b"\r\n", b"\n") == outbox.maildir_bytes(raw)
    [message] = list(mailbox.Maildir(str(tmp_path / "box"), create=False))
    assert message["Subject"] == "x"


def test_names_in_one_maildir_never_collide(tmp_path):
    transport = outbox.MaildirTransport(tmp_path / "box")
    for n in range(300):
        transport.send("a@b.example", b"Subject: %d\r\n\r\n" % n)
    transport.flush()
    assert len(list((tmp_path / "box" / "new").iterdir())) == 300


def test_deliver_due_marks_mail_sent_after_it_is_flushed(svc):
    svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    transport = outbox.MaildirTransport(svc.settings.maildir)
    sent, failed = outbox.deliver_due(svc.store, transport, now=svc.now(), backoff=1, backoff_max=1, batch=1)
    assert (sent, failed) == (2, 0)
    assert {r["status"] for r in _rows(svc.store)} == {"sent"}
    assert sorted(p.read_bytes() for p in (svc.settings.maildir / "new").iterdir()) == sorted(outbox.maildir_bytes(r["raw"]) for r in _rows(svc.store))


class _CrashBeforeFlush(outbox.MaildirTransport):
    def flush(self):
        self._pending = []
        raise OSError("the machine went down")


def test_a_crash_before_the_flush_leaves_the_mail_queued_and_nothing_in_new(svc):
    svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    crashing = _CrashBeforeFlush(svc.settings.maildir)
    try:
        outbox.deliver_due(svc.store, crashing, now=svc.now(), backoff=1, backoff_max=1)
    except OSError:
        pass
    else:
        raise AssertionError("the flush failure must reach the caller, which retries later")
    assert {r["status"] for r in _rows(svc.store)} == {"queued"}
    assert list((svc.settings.maildir / "new").iterdir()) == []
    # after the restart, the same mails go out once each
    sent, _ = outbox.deliver_due(svc.store, outbox.MaildirTransport(svc.settings.maildir), now=svc.now(), backoff=1, backoff_max=1)
    assert sent == 2
    assert len(list((svc.settings.maildir / "new").iterdir())) == 2


def test_after_a_failed_flush_the_next_attempt_delivers_each_mail_once(svc, monkeypatch):
    svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    transport = outbox.MaildirTransport(svc.settings.maildir)
    real_fsync = outbox.os.fsync
    monkeypatch.setattr(outbox.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError("I/O error")))
    try:
        outbox.deliver_due(svc.store, transport, now=svc.now(), backoff=1, backoff_max=1)
    except OSError:
        pass
    monkeypatch.setattr(outbox.os, "fsync", real_fsync)
    assert {r["status"] for r in _rows(svc.store)} == {"queued"}
    sent, _ = outbox.deliver_due(svc.store, transport, now=svc.now(), backoff=1, backoff_max=1)
    assert sent == 2
    assert len(list((svc.settings.maildir / "new").iterdir())) == 2, "the failed batch is not delivered as well"


def test_a_crashed_writers_old_tmp_files_are_cleared_and_recent_ones_kept(tmp_path):
    import os
    import time
    outbox.MaildirTransport(tmp_path / "box")
    old, recent = tmp_path / "box" / "tmp" / "old.P1Q1", tmp_path / "box" / "tmp" / "recent.P1Q2"
    old.write_bytes(b"half a mail")
    recent.write_bytes(b"being written")
    two_days_ago = time.time() - 48 * 3600
    os.utime(old, (two_days_ago, two_days_ago))
    outbox.MaildirTransport(tmp_path / "box")
    assert not old.exists() and recent.exists()


def test_a_failed_sync_of_a_full_batch_marks_nothing_sent(svc, monkeypatch):
    """The batch that failed to reach the disk must stay queued, even though the worker
    tidies up (marks what it sent) on its way out."""
    svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    transport = outbox.MaildirTransport(svc.settings.maildir)
    monkeypatch.setattr(outbox.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError("I/O error")))
    try:
        outbox.deliver_due(svc.store, transport, now=svc.now(), backoff=1, backoff_max=1, batch=1)
    except OSError:
        pass
    assert {r["status"] for r in _rows(svc.store)} == {"queued"}
    assert list((svc.settings.maildir / "new").iterdir()) == []


# -- what a mail reader makes of the folder ---------------------------------------------------------
def _s_nail() -> str:
    """Debian's s-nail (the reader that reported "headers and body not separated"), installed when
    missing, as scripts/test installs the packages the tests drive."""
    import os
    import shutil
    import subprocess
    found = shutil.which("s-nail")
    if found is None and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for step in (["apt-get", "install", "-y", "-qq", "s-nail"], ["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "s-nail"]):
            subprocess.run(step, env=env, capture_output=True, timeout=600)
            found = shutil.which("s-nail")
            if found:
                break
    if found is None:
        pytest.fail("this test reads the Maildir with Debian's s-nail: apt-get install s-nail (scripts/test does)")
    return found


def test_a_mail_reader_reads_every_header_and_body_of_the_maildir(svc, tmp_path):
    """s-nail read the outbox as "headers and body not separated": each line kept its carriage
    return, so no line was empty. Now every mail opens with its headers, then its text."""
    import subprocess
    svc.games.create("custer", "little_bighorn", {"us": US, "indians": IND})
    svc.games.create("lfm", "east_cavalry_field", {"csa": "stuart@players.example", "usa": "gregg@players.example"})
    sent, _ = outbox.deliver_due(svc.store, outbox.MaildirTransport(svc.settings.maildir), now=svc.now(), backoff=1, backoff_max=1)
    assert sent == 4
    for path in (svc.settings.maildir / "new").iterdir():  # maildir(5): a message in the local format
        data = path.read_bytes()
        assert b"\r" not in data and b"\n\n" in data, path.name
    rows = _rows(svc.store)
    commands = "headers\n" + "".join(f"print {n}\n" for n in range(1, len(rows) + 1))
    run = subprocess.run([_s_nail(), "-:/", "-N", "-R", "-#", "-S", "headline=%>%a%m %s", "-S", "screen=0", "-f", str(svc.settings.maildir)],
                         input=commands.encode(), capture_output=True, timeout=60, env={"HOME": str(tmp_path), "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    out, err = run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace")
    assert run.returncode == 0 and "Not a header line" not in err and "\r" not in out, err[-2000:]
    subjects = {r["subject"] for r in svc.store.all("SELECT subject FROM outbox")}
    assert all(out.count(s) >= 2 for s in subjects), "each subject in the header list and in its printed mail"
    assert out.count("X-PBEM-Kind: welcome") == 4 and out.count("Welcome to ") >= 4, out[:3000]
