"""IMAP polling against a real IMAP server (Debian's dovecot) on loopback, over IMAPS."""

import mailbox
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from pbem.service.imap import poll_once
from tests.core.helpers import new_game, orders_mail, submissions
from tests.support import free_port, wait_listening

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)
pytestmark = pytest.mark.skipif(not DOVECOT or not shutil.which("openssl"), reason="dovecot and openssl are needed (scripts/test installs them)")

CONFIG = """
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
ssl = required
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{mail}/%u
service imap-login {{
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    port = {port}
    ssl = yes
  }}
}}
service stats {{
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
passdb {{
  driver = static
  args = password=s3cret
}}
userdb {{
  driver = static
  args = uid=nobody gid=nogroup home={mail}/%u
}}
"""


@pytest.fixture
def imap_server():
    root = Path(tempfile.mkdtemp(prefix="dv"))  # short: dovecot's unix sockets live under it
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(root / "key.pem"), "-out", str(root / "cert.pem")],
                   check=True, capture_output=True, timeout=60)
    port = free_port()
    # The mailbox belongs to an unprivileged user (dovecot refuses root), in a folder it can reach.
    mail = Path(tempfile.mkdtemp(prefix="pbem-imap-"))
    mail.chmod(0o755)
    (root / "dovecot.conf").write_text(CONFIG.format(root=root, port=port, mail=mail))
    proc = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    log = root / "dovecot.log"
    try:
        # the timeout only stops a dovecot that never listens
        wait_listening(proc, port, timeout=120, what="dovecot", exited=lambda: log.read_text(errors="replace") if log.exists() else "(no log)")
    except BaseException:
        proc.kill()
        raise
    yield {"port": port, "maildir": mail / "orders", "cafile": str(root / "cert.pem")}
    proc.terminate()
    proc.wait(timeout=10)
    shutil.rmtree(mail, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)


def test_orders_fetched_from_an_imaps_mailbox_are_taken_once(svc, imap_server):
    gid = new_game(svc)
    imap_server["maildir"].parent.mkdir(parents=True, exist_ok=True)
    box = mailbox.Maildir(str(imap_server["maildir"]), create=True)  # what the MTA does on local delivery
    box.add(orders_mail(svc, gid, "us"))
    box.add(orders_mail(svc, gid, "indians"))
    subprocess.run(["chown", "-R", "nobody:nogroup", str(imap_server["maildir"])], check=True)
    args = dict(host="127.0.0.1", port=imap_server["port"], user="orders", password="s3cret", cafile=imap_server["cafile"])
    assert poll_once(svc, **args) == 2
    assert {s["role"] for s in submissions(svc, gid) if s["stands"]} == {"us", "indians"}
    assert poll_once(svc, **args) == 0, "a message taken once is marked seen and never taken again"
    assert len(submissions(svc, gid)) == 2


def test_a_wrong_password_is_an_error_not_a_loss(svc, imap_server):
    import imaplib
    with pytest.raises(imaplib.IMAP4.error):
        poll_once(svc, host="127.0.0.1", port=imap_server["port"], user="orders", password="wrong", cafile=imap_server["cafile"])
