import pytest

from pbem.config import Settings
from pbem.service.core import Service
from tests.support import SmtpSink, free_port


@pytest.fixture
def settings(tmp_path):
    return Settings(db_path=tmp_path / "pbem.db", maildir=tmp_path / "outbox", mail_domain="pbem.test",
                    smtp_port=free_port(), http_port=free_port(), outbox_backoff_seconds=0.2, scheduler_sync_seconds=1.0)


@pytest.fixture
def svc(settings):
    service = Service(settings).init()
    yield service
    service.close()


@pytest.fixture
def sink():
    with SmtpSink() as s:
        yield s
