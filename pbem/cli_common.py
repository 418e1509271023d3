"""What every `pbem` command shares: the database option, the settings, the service, failing."""

from __future__ import annotations

import json
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


def pairs(values, what: str) -> dict[str, str]:
    """KEY=VALUE options, as a dict."""
    out = {}
    for v in values:
        if "=" not in v:
            fail(f"{what} must be written KEY=VALUE, not {v!r}")
        k, val = v.split("=", 1)
        out[k.strip()] = val.strip()
    return out


def json_options(values) -> dict:
    """--option KEY=VALUE, each value read as JSON where it is JSON (30, true, "x") and as text otherwise."""
    opts = {}
    for k, v in pairs(values, "--option").items():
        try:
            opts[k] = json.loads(v)
        except json.JSONDecodeError:
            opts[k] = v
    return opts
