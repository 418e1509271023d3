"""Templates are compiled once, before any deadline needs them (issue 17): a server compiles
every mail and engine template at start, and closing a phase then compiles none."""

from pbem.service import render
from tests.core.helpers import new_game, orders_mail


def test_after_compiling_at_start_a_close_and_an_acknowledgement_compile_nothing(svc, monkeypatch):
    env = render.environment("en")
    assert render.compile_templates(["en"]) >= len([n for n in env.list_templates() if n.startswith("mail/")])
    compiled = []
    original = env.compile
    monkeypatch.setattr(env, "compile", lambda source, name=None, *a, **k: compiled.append(name) or original(source, name, *a, **k))
    gid = new_game(svc)
    svc.mailroom.receive(orders_mail(svc, gid, "us"))
    assert svc.phases.close(gid)["phase"]
    assert svc.store.one("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'report'")["n"] == 2
    assert compiled == [], f"compiled during the close: {compiled}"


def test_a_template_is_compiled_once_per_language():
    env = render.environment("fr")
    render.compile_templates(["fr"])
    assert env.get_template("mail/report.txt.j2") is env.get_template("mail/report.txt.j2")
    assert render.environment("fr") is env
