"""Jinja filters and globals for the web pages."""

from __future__ import annotations

import json

from pbem.service.clock import from_iso


def when(value) -> str:
    """An ISO moment as a moderator reads it: 'Sat 21 Nov 2026 18:00 UTC'."""
    moment = from_iso(value) if isinstance(value, str) else value
    if moment is None:
        return "—"
    return moment.strftime("%a %d %b %Y %H:%M UTC")


def short(value) -> str:
    moment = from_iso(value) if isinstance(value, str) else value
    if moment is None:
        return "—"
    return moment.strftime("%d %b %H:%M")


def pretty(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def install(app) -> None:
    app.jinja_env.filters["when"] = when
    app.jinja_env.filters["short"] = short
    app.jinja_env.filters["pretty"] = pretty
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
