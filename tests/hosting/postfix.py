"""A Postfix of the test's own (Debian's package), on a loopback port, in a temporary folder:
never the system's configuration nor its queue. It stands for a club's mail server in front of
pbem: mail for the game domain goes through its pipe transport to `pbem ingest` (as
docs/hosting.md sets it up), pbem sends through it, and the players' providers are Maildirs it
delivers into (``players.example``) or a domain whose mail always bounces (``dead.example``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import free_port, wait_listening

POSTFIX = "/usr/sbin/postfix"
MASTER = "/usr/lib/postfix/sbin/master"
needs_postfix = pytest.mark.skipif(not (Path(POSTFIX).exists() and Path(MASTER).exists()) or os.geteuid() != 0,
                                   reason="Postfix is needed (scripts/test installs Debian's postfix), and root to start its master")
#: the unprivileged user the pipe runs `pbem ingest` as (Postfix never runs a command as root)
PIPE_USER = "nobody"


def _reachable_by_others(path: Path) -> bool:
    """Whether a user other than the owner can run ``path`` (every folder above it searchable)."""
    path = path.resolve()
    return all(p.stat().st_mode & 0o001 for p in [path, *path.parents])


def pbem_command() -> str:
    """How the pipe's user runs pbem. A club installs pbem where its user can run it; here the
    test's interpreter may live where only root can reach (a python under /root): then Debian's
    own python3 of the same version runs this worktree with the virtualenv's packages."""
    if _reachable_by_others(Path(sys.executable)):
        return str(Path(sys.executable).with_name("pbem"))
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    if not system.exists():
        pytest.skip(f"the pipe's user cannot run {sys.executable}, and there is no {system}")
    site = next(p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())
    root = Path(__file__).resolve().parents[2]
    return f"PYTHONPATH={root}:{site} {system} -m pbem.cli"

MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
maillog_file_prefixes = {root}
maillog_file = {root}/postfix.log
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.{domain}
mydomain = {domain}
myorigin = {domain}
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtp_dns_support_level = disabled
smtpd_peername_lookup = no
# a deferred mail is tried again within seconds (the test of `pbem ingest`'s exit 75 waits for it)
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
# dead.example stands for a provider that takes the mail and bounces it later (a DSN), as most do
smtpd_reject_unlisted_recipient = no
alias_maps =
alias_database =
local_recipient_maps =
biff = no
# The game domain: every address of it goes through the pipe to pbem ingest.
relay_domains = {domain}
transport_maps = inline:{{ {domain}=pbem, {{ dead.example = error:5.1.1 mailbox unavailable }} }}
pbem_destination_recipient_limit = 1
# The players' providers: every address of players.example lands in one Maildir.
virtual_mailbox_domains = players.example
virtual_mailbox_base = {root}/mailboxes
virtual_mailbox_maps = static:players/
virtual_uid_maps = static:{uid}
virtual_gid_maps = static:{gid}
"""

MASTER_CF = """\
127.0.0.1:{port} inet n - n - - smtpd
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
pbem      unix  -       n       n       -       -       pipe
  flags=Rq user={user} null_sender=
  argv=/usr/bin/env PBEM_DB={db} PBEM_MAIL_DOMAIN={domain} {pbem} ingest --sender ${{sender}} --recipient ${{original_recipient}}
"""


@dataclass
class Postfix:
    root: Path
    port: int
    mailbox: Path  # the Maildir of players.example
    process: subprocess.Popen

    @property
    def log(self) -> str:
        path = self.root / "postfix.log"
        return path.read_text(errors="replace") if path.exists() else "(no log)"


def flush_queue(postfix: Postfix) -> None:
    """Ask Postfix to try every queued mail now (`postqueue -f`, as an administrator would)."""
    subprocess.run(["/usr/sbin/postqueue", "-c", str(postfix.root / "conf"), "-f"], capture_output=True, timeout=30)


def start_postfix(db: Path, domain: str) -> Postfix:
    root = Path(tempfile.mkdtemp(prefix="pf"))  # short: Postfix's sockets live under it
    root.chmod(0o755)
    for name in ("conf", "queue", "data"):
        (root / name).mkdir()
    mailboxes = root / "mailboxes"
    mailboxes.mkdir()
    shutil.chown(mailboxes, PIPE_USER, "nogroup")
    shutil.chown(root / "data", "postfix")
    port = free_port()
    uid = int(subprocess.run(["id", "-u", PIPE_USER], capture_output=True, text=True, check=True).stdout)
    gid = int(subprocess.run(["id", "-g", PIPE_USER], capture_output=True, text=True, check=True).stdout)
    (root / "conf" / "main.cf").write_text(MAIN_CF.format(root=root, domain=domain, uid=uid, gid=gid))
    (root / "conf" / "master.cf").write_text(MASTER_CF.format(port=port, user=PIPE_USER, db=db, domain=domain, pbem=pbem_command()))
    conf = str(root / "conf")
    # makes the queue's folders with the owners Postfix wants; touches nothing outside root
    done = subprocess.run([POSTFIX, "-c", conf, "check"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"postfix check failed: {done.stdout}{done.stderr}")
    process = subprocess.Popen([MASTER, "-c", conf, "-d"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    postfix = Postfix(root=root, port=port, mailbox=mailboxes / "players", process=process)

    try:
        wait_listening(process, port, timeout=60, what="Postfix's master",
                       exited=lambda: process.stdout.read().decode(errors="replace") + postfix.log)
    except BaseException:
        stop_postfix(postfix)
        raise
    return postfix


def stop_postfix(postfix: Postfix) -> None:
    postfix.process.terminate()  # master stops its children and exits
    try:
        postfix.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        postfix.process.kill()
        postfix.process.wait()
    shutil.rmtree(postfix.root, ignore_errors=True)
