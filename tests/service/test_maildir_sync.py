"""The Maildir transport syncs a batch's files together (from a few threads), and still moves a
file into new/ only once it is on disk, and syncs new/ after the moves."""

from __future__ import annotations

import os
import threading

import pytest

from pbem.service import outbox


def _record(monkeypatch) -> list[tuple[str, str]]:
    """(what, path) of every fsync and rename, in order."""
    events: list[tuple[str, str]] = []
    lock = threading.Lock()
    real_fsync, real_rename = os.fsync, os.rename

    def fsync(fd):
        real_fsync(fd)
        with lock:
            events.append(("sync", os.readlink(f"/proc/self/fd/{fd}")))

    def rename(src, dst):
        with lock:
            events.append(("rename", str(src)))
        real_rename(src, dst)

    monkeypatch.setattr(outbox.os, "fsync", fsync)
    monkeypatch.setattr(outbox.os, "rename", rename)
    return events


@pytest.mark.parametrize("count", [1, 2, 40])
def test_each_file_is_on_disk_before_it_moves_and_new_after(tmp_path, monkeypatch, count):
    transport = outbox.MaildirTransport(tmp_path / "md")
    events = _record(monkeypatch)
    for k in range(count):
        transport.send(f"p{k}@players.example", f"Subject: {k}\r\n\r\nbody {k}\r\n".encode())
    tmp_names = sorted(p.name for p in (tmp_path / "md" / "tmp").iterdir())
    transport.flush()
    transport.close()
    synced = [path for what, path in events if what == "sync"]
    renames = [i for i, (what, _) in enumerate(events) if what == "rename"]
    for name in tmp_names:
        sync_at = next(i for i, (what, path) in enumerate(events) if what == "sync" and path.endswith(f"/tmp/{name}"))
        move_at = next(i for i, (what, path) in enumerate(events) if what == "rename" and path.endswith(f"/tmp/{name}"))
        assert sync_at < move_at
    assert synced[-1] == str(tmp_path / "md" / "new") and events[-1][0] == "sync" and len(renames) == count
    assert sorted(p.name for p in (tmp_path / "md" / "new").iterdir()) == tmp_names
    assert [(tmp_path / "md" / "new" / n).read_bytes().endswith(b"\n") for n in tmp_names] == [True] * count


def test_a_failed_sync_moves_nothing_and_reaches_the_caller(tmp_path, monkeypatch):
    transport = outbox.MaildirTransport(tmp_path / "md")
    for k in range(5):
        transport.send("p@players.example", b"Subject: x\r\n\r\nx\r\n")
    real_fsync = os.fsync
    calls = []

    def failing(fd):
        calls.append(fd)
        if len(calls) == 3:
            raise OSError("I/O error")
        real_fsync(fd)

    monkeypatch.setattr(outbox.os, "fsync", failing)
    with pytest.raises(OSError):
        transport.flush()
    transport.close()
    assert list((tmp_path / "md" / "new").iterdir()) == []
    assert len(list((tmp_path / "md" / "tmp").iterdir())) == 5
