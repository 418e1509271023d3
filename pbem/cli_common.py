"""What every `pbem` command shares: the database option, the settings, the service, failing."""

from __future__ import annotations

import sys

import click

from pbem.config import Settings
from pbem.service.service import Service


def db_option(f):
    return click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="PBEM_DB", default=None,
                        help="SQLite database (default var/pbem.db; env PBEM_DB).")(f)


def settings_from(db_path=None, **overrides) -> Settings:
    return Settings.from_env(db_path=db_path, **overrides)


def service(db_path=None, **overrides) -> Service:
    return Service(settings_from(db_path, **overrides)).init()


def fail(message: str, code: int = 1):
    click.echo(f"pbem: {message}", err=True)
    sys.exit(code)
