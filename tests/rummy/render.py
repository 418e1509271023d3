"""Rendering the rummy templates the way the server does (same Jinja settings, no catalog)."""

from __future__ import annotations

import json

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from pbem.engines.base import event_text, event_visible
from pbem.resources import templates_dir

from .helpers import ENGINE

ENV = Environment(
    loader=FileSystemLoader(str(templates_dir())),
    autoescape=select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
    extensions=["jinja2.ext.i18n"], undefined=StrictUndefined,
    trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
)
ENV.install_null_translations(newstyle=True)
GAME = {"id": "lbr-1", "title": "Little Bighorn Rummy test", "engine": "rummy", "scenario": "two"}


def visible(events: list[dict], role: str | None) -> list[dict]:
    out = []
    for ev in events:
        if event_visible(ev, role):
            shown = {k: v for k, v in ev.items() if k != "to"}
            shown["text"] = event_text(ev)
            out.append(shown)
    return out


def report(state: dict, events: list[dict], role: str | None, phase_id: str = "H1.T1") -> dict[str, str]:
    """Every part of one role's report: mail text, HTML, and the JSON attachment."""
    view = ENGINE.view(state, role)
    evs = visible(events, role)
    ctx = {"game": dict(GAME, scenario=state["scenario"]), "role": role, "lang": "en", "phase_id": phase_id,
           "view": view, "events": evs, "orders": {}, "outcome": ENGINE.outcome(state), "picture_cid": "map"}
    return {
        "text": ENV.get_template("rummy/report.txt.j2").render(**ctx),
        "html": ENV.get_template("rummy/report.html.j2").render(**ctx),
        "json": json.dumps({"role": role, "view": view, "events": evs, "outcome": ctx["outcome"],
                            "state_after": ENGINE.public_state(state)}, ensure_ascii=False),
    }


def help_text() -> str:
    return ENV.get_template("rummy/help.txt.j2").render(game=GAME, lang="en")
