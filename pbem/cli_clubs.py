"""The `pbem` commands of clubs (issue 28): ratings, the host's policies, tournaments."""

from __future__ import annotations

import json

import click

from pbem.cli_common import db_option, fail, service
from pbem.service.errors import ServiceError
from pbem.service.host_policy import POLICIES
from pbem.service.ratings import OVERALL


@click.group()
def ratings():
    """Players' ratings and the ladders (OpenSkill), from the results of finished games."""


@ratings.command("show")
@db_option
@click.argument("engine", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (with the players' addresses).")
def ratings_show(db_path, engine, as_json):
    """The ladder of ENGINE, or of every game together."""
    rows = service(db_path).ratings.ladder(engine or OVERALL)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo(f"nobody is rated for {engine or 'every game'} yet")
    for r in rows:
        click.echo(f"{r['place']:3}. {r['rating']:6.1f}  mu {r['mu']:6.2f} sigma {r['sigma']:5.2f}  {r['games']:3} games "
                   f"({r['wins']} won, {r['draws']} drawn, {r['losses']} lost)  {r['name']} <{r['player']}>")


@ratings.command("recompute")
@db_option
def ratings_recompute(db_path):
    """Work every rating out again from the results table, in the order the games finished."""
    counted = service(db_path).ratings.recompute()
    click.echo(f"ratings recomputed from {counted} rated result(s)")


@click.group()
def host():
    """The host's policies: how conceded, drawn and stand-in games are rated; who may start games by mail."""


@host.command("show")
@db_option
def host_show(db_path):
    """Every policy, its value and what it means."""
    values = service(db_path).host.all()
    for name, policy in POLICIES.items():
        click.echo(f"{name} = {values[name] or '-'}    ({policy.what}; default {policy.default or '-'})")


@host.command("set")
@db_option
@click.argument("name")
@click.argument("value")
def host_set(db_path, name, value):
    """Set policy NAME to VALUE (a rating policy recomputes every rating)."""
    try:
        stored = service(db_path).host.set(name, value, actor="cli")
    except ServiceError as exc:
        fail(str(exc))
    click.echo(f"{name} = {stored}")


CLUB_COMMANDS = (ratings, host)
