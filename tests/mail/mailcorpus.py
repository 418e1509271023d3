"""Shared helpers for the pbem.mail tests (imported as ``mailcorpus``; not a conftest, so the name stays unique).

The real-mail corpus lives outside the repository (../shared/fixtures/emails, see
its MANIFEST.md, or the folder PBEM_MAIL_CORPUS names) and is read in place; tests that
need it skip when it is absent (``tests.support.needs_corpus``; the test summary counts them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import CORPUS_ABSENT, MAIL_CORPUS

CORPUS = MAIL_CORPUS


def corpus_files(*patterns: str) -> list[Path]:
    """Corpus files matching the glob patterns (relative to the corpus root); [] when absent."""
    if not CORPUS.is_dir():
        return []
    out: set[Path] = set()
    for pattern in patterns:
        out.update(p for p in CORPUS.glob(pattern) if p.is_file() and not p.name.startswith("_"))
    return sorted(out)


#: complete RFC 5322 messages in the corpus (MANIFEST kind "msg")
def message_files() -> list[Path]:
    return corpus_files("**/*.eml", "cpython-test_email/*.txt")


#: decoded plain-text bodies (MANIFEST kind "body")
def body_files() -> list[Path]:
    msgs = set(message_files())
    trimmed = set(corpus_files("discourse-email_reply_trimmer/trimmed/*"))
    files = corpus_files("*/*.txt", "*/emails/*.txt", "mailgun-talon/signature/emails/stripped/*_body")
    return [p for p in files if p not in msgs and p not in trimmed and p.name != "MANIFEST.md"]


def html_files() -> list[Path]:
    return corpus_files("**/*.html")


def rel(p: Path) -> str:
    return str(p.relative_to(CORPUS))


def read_corpus(name: str) -> bytes:
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS_ABSENT} ({CORPUS})")
    path = CORPUS / name
    if not path.is_file():  # the corpus is there but not this file: a failure, not a skip
        pytest.fail(f"mail corpus file {name} not found in {CORPUS}")
    return path.read_bytes()
