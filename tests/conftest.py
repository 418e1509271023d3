import pytest

from pbem.config import Settings
from pbem.service.service import Service
from tests.support import CORPUS_ABSENT, MAIL_CORPUS, SmtpSink, free_port


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


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    return longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


def pytest_terminal_summary(terminalreporter):
    """Say once, at the end, that the real-mail corpus was absent and how many tests that skipped."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if CORPUS_ABSENT in _skip_reason(r)]
    if skipped:
        terminalreporter.write_sep("-", "real-mail corpus", yellow=True)
        terminalreporter.write_line(
            f"{CORPUS_ABSENT} (looked in {MAIL_CORPUS}): {len(skipped)} corpus tests skipped. "
            "Put the corpus there or name its folder in PBEM_MAIL_CORPUS to run them.", yellow=True)
