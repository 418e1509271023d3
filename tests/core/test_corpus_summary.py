"""Without the real-mail corpus its tests skip, and the test summary says so once, with the count
and where it looked; with it, they run and nothing is said."""

import os
import subprocess
import sys

from tests.support import CORPUS_ABSENT, ROOT

CORPUS_TESTS = ["tests/core/test_corpus_inbound.py", "tests/mail/test_mail_commands.py::test_commands_in_a_real_gmail_reply"]


def run_pytest(corpus, *args) -> str:
    env = {**os.environ, "PBEM_MAIL_CORPUS": str(corpus)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    return proc.stdout + proc.stderr


def test_an_absent_corpus_is_named_once_with_the_number_of_tests_it_skipped(tmp_path):
    out = run_pytest(tmp_path / "nowhere", *CORPUS_TESTS)
    assert "2 skipped" in out
    line = f"{CORPUS_ABSENT} (looked in {tmp_path / 'nowhere'}): 2 corpus tests skipped."
    assert out.count(line) == 1, out


def test_a_present_corpus_runs_its_tests_and_the_summary_is_silent(tmp_path):
    corpus = tmp_path / "corpus"
    (corpus / "hand-made").mkdir(parents=True)
    (corpus / "hand-made" / "hello.eml").write_bytes(
        b"From: Ann <ann@players.example>\r\nTo: orders@pbem.test\r\nSubject: hello\r\n"
        b"Message-ID: <hello@players.example>\r\n\r\nHello.\r\n")
    out = run_pytest(corpus, CORPUS_TESTS[0])
    assert "1 passed" in out and CORPUS_ABSENT not in out, out
