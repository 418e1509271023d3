"""Jinja rendering for every mail and page: one environment per language."""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from pbem.engines.base import OrderError, event_text, event_visible, format_message
from pbem.i18n import gettext_for, translations
from pbem.resources import templates_dir


@lru_cache(maxsize=None)
def environment(lang: str | None) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        extensions=["jinja2.ext.i18n"],
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)
    env.globals["lang"] = lang or "en"
    return env


def render(template_name: str, lang: str | None, /, **context) -> str:
    return environment(lang).get_template(template_name).render(lang=lang or "en", **context)


def template_exists(name: str) -> bool:
    return (templates_dir() / name).is_file()


def visible_events(events: list[dict], role: str | None, lang: str | None) -> list[dict]:
    """The events a role may see, each with its sentence translated."""
    gettext = gettext_for(lang)
    out = []
    for ev in events:
        if event_visible(ev, role):
            shown = {k: v for k, v in ev.items() if k != "to"}
            shown["text"] = event_text(ev, gettext)
            out.append(shown)
    return out


def describe_missing(items: list, lang: str | None) -> list[str]:
    """What the orders still lack (``ParseResult.missing``), in the reader's language."""
    gettext = gettext_for(lang)
    return [format_message(item.get("msg", ""), item.get("args"), gettext) if isinstance(item, dict) else gettext(item)
            for item in items]


def describe_errors(errors: list[dict], lang: str | None) -> list[dict]:
    gettext = gettext_for(lang)
    out = []
    for raw in errors:
        err = OrderError(**raw)
        out.append({
            "line": err.line, "text": err.text, "kind": err.kind,
            "reason": err.describe(gettext), "suggestion": err.describe_suggestion(gettext),
        })
    return out
