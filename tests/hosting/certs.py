"""A self-signed certificate for 127.0.0.1 and localhost, made by openssl as a host's would be."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

needs_openssl = pytest.mark.skipif(not shutil.which("openssl"), reason="openssl is needed (scripts/test installs it)")


def make_certificate(folder: Path, *, days: int = 2, name: str = "localhost") -> tuple[Path, Path]:
    """(certificate, key) PEM files in ``folder``."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", str(days), "-subj", f"/CN={name}",
                    "-addext", f"subjectAltName=DNS:{name},IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key
