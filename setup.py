"""Packaging: every folder of pbem/ that holds Python modules is a package, found here so
that a new engine folder (pbem/engines/<name>/) needs no edit to the packaging; the rest
of the configuration is in pyproject.toml."""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def python_packages() -> list[str]:
    # By the files, not by __init__.py: pbem.service is a namespace package.
    return sorted({".".join(path.relative_to(ROOT).parent.parts) for path in (ROOT / "pbem").rglob("*.py")})


# templates/ and data/ travel inside the package (see package-dir in pyproject.toml).
setup(packages=[*python_packages(), "pbem._templates", "pbem._data"])
