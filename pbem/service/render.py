"""Jinja rendering for every mail and page: one environment per language."""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, pass_eval_context, select_autoescape
from markupsafe import Markup

from pbem.engines.base import OrderError, event_text, event_visible, format_message
from pbem.i18n import available_languages, gettext_for, translations
from pbem.resources import templates_dir


_BYTECODE_CACHE = FileSystemBytecodeCache()  # per user, mode 0700 (Jinja checks both)


@lru_cache(maxsize=None)
def environment(lang: str | None) -> Environment:
    """The templates for one language, each compiled once per process (no reload: a running
    server's templates do not change) and its compiled code kept in Jinja's per-user cache
    directory, so a new process (`pbem ingest`, a worker) loads it instead of compiling."""
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        auto_reload=False,
        bytecode_cache=_BYTECODE_CACHE,
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        extensions=["jinja2.ext.i18n"],
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)
    env.globals["_"] = _direct_gettext(translations(lang).gettext)
    env.globals["lang"] = lang or "en"
    env.filters["event_runs"] = event_runs
    return env


def _direct_gettext(translate):
    """``_()`` for templates, as Jinja's newstyle gettext does it (the translation marked safe
    where the output is escaped, then formatted with its arguments, escaped, even when there
    are none) in one call instead of three nested ones: a report calls it a hundred times and
    more, and the nesting cost about 3 of its 4.5 microseconds."""
    @pass_eval_context
    def gettext(eval_ctx, string: str, /, **variables):  # noqa: ANN001, ANN202
        rv = translate(string)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables
    return gettext


def event_runs(events: list[dict], starts: tuple[str, ...], trailing: tuple[str, ...] = ()) -> dict:
    """A report's events in runs, for a template: ``groups`` (each ``{"draw": the event of a
    type in ``starts``, "items": the events after it up to the next such}``), ``before`` (the
    events before the first of them) and ``after`` (the events of a type in ``trailing``,
    wherever they came). One pass in Python: the same loop in Jinja took a tenth of a
    Custer report's rendering."""
    before, groups, after = [], [], []
    for ev in events:
        kind = ev.get("type")
        if kind in starts:
            groups.append({"draw": ev, "items": []})
        elif kind in trailing:
            after.append(ev)
        elif groups:
            groups[-1]["items"].append(ev)
        else:
            before.append(ev)
    return {"before": before, "groups": groups, "after": after}


def compile_templates(langs=None) -> int:  # noqa: ANN001 - an iterable of language codes
    """Compile every mail and engine template for each language now (a server at start, so
    that no deadline pays for it); returns how many were compiled."""
    count = 0
    for lang in langs if langs is not None else available_languages():
        env = environment(lang)
        for name in env.list_templates(filter_func=lambda n: n.endswith(".j2")):
            env.get_template(name)
            count += 1
    return count


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
    """What the orders still lack (``ParseResult.missing``), in the reader's language; the
    warnings recorded beside them (``ParseResult.noted``) are ``describe_warnings``'."""
    gettext = gettext_for(lang)
    return [format_message(item.get("msg", ""), item.get("args"), gettext) if isinstance(item, dict) else gettext(item)
            for item in items if not (isinstance(item, dict) and item.get("warning"))]


def describe_warnings(items: list, lang: str | None) -> list[dict]:
    """The warnings among a submission's recorded notes (``ParseResult.warnings``): lines taken
    that may still fail, each with its line number, text and why, in the reader's language."""
    gettext = gettext_for(lang)
    return [{"line": item.get("line"), "text": item.get("text", ""), "reason": format_message(item["msg"], item.get("args"), gettext)}
            for item in items if isinstance(item, dict) and item.get("warning")]


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
