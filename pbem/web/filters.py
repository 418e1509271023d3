"""Jinja filters and globals for the web pages."""

from __future__ import annotations

import json

from flask import g

from pbem.moments import format_moment
from pbem.service.clock import from_iso


def when(value) -> str:
    """An ISO moment in the one form every mail and page uses ('Sat 21 Nov 2026 18:00 UTC'),
    in the page's language and the reader's zone (a player's page: the player's; else UTC)."""
    moment = from_iso(value) if isinstance(value, str) else value
    if moment is None:
        return "—"
    return format_moment(moment, g.get("tz"), g.get("lang"))


def pretty(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def install(app) -> None:
    app.jinja_env.filters["when"] = when
    app.jinja_env.filters["short"] = when  # one form of time everywhere (issue 16)
    app.jinja_env.filters["pretty"] = pretty
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
