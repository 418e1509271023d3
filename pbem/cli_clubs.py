"""The `pbem` commands of clubs (issue 28): ratings, the host's policies, tournaments."""

from __future__ import annotations

import json

import click

from pbem.cli_common import db_option, fail, json_options, service
from pbem.engines import UnknownEngine
from pbem.service.errors import ServiceError
from pbem.service.host_policy import POLICIES
from pbem.service.ratings import OVERALL
from pbem.service.timing import TimingError, parse_deadline


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


@click.group()
def tournament():
    """Seasons and tournaments: pbem pairs the players, starts each round's games and mails the standings."""


@tournament.command("new")
@db_option
@click.option("--name", required=True, help="The tournament's name, as players read it.")
@click.option("--engine", required=True)
@click.option("--scenario", required=True, help="A two-sided scenario (see `pbem engines`).")
@click.option("--player", "players", multiple=True, required=True, help="A player's address; give it once per player.")
@click.option("--format", "pairing", type=click.Choice(["swiss", "round_robin"]), default="swiss", show_default=True,
              help="Swiss (paired by rating, then by points) or a round robin.")
@click.option("--rounds", type=int, default=None, help="Default: every opponent once (round robin), log2 of the players (Swiss).")
@click.option("--deadline", default="48h", show_default=True, help="The games' phase deadline.")
@click.option("--option", "options", multiple=True, help="Scenario option KEY=VALUE for every game (JSON values allowed).")
@click.option("--unrated", is_flag=True, help="Its games move nobody's rating.")
@click.option("--id", "tournament_id", default=None)
def tournament_new(db_path, name, engine, scenario, players, pairing, rounds, deadline, options, unrated, tournament_id):
    """Start a tournament: its first round's games start at once; prints its id."""
    try:
        tid = service(db_path).tournaments.create(
            name, engine, scenario, list(players), format=pairing, rounds=rounds, options=json_options(options),
            timing={"phase": parse_deadline(deadline)}, rated=not unrated, tournament_id=tournament_id, actor="cli")
    except (ServiceError, TimingError, UnknownEngine) as exc:
        fail(str(exc))
    click.echo(tid)


@tournament.command("list")
@db_option
def tournament_list(db_path):
    """Every tournament, its round and status."""
    for t in service(db_path).tournaments.list():
        click.echo(f"{t['id']:8} {t['engine']:13} {t['format']:11} round {t['round']}/{t['rounds']} {t['status']:9} "
                   f"{t['players']} players  {t['name']}")


@tournament.command("show")
@db_option
@click.argument("tournament_id")
def tournament_show(db_path, tournament_id):
    """The standings and each round's games."""
    svc = service(db_path)
    page = svc.tournaments.page(tournament_id)
    if page is None:
        fail(f"no tournament {tournament_id}")
    click.echo(f"{page['id']}: {page['name']} ({page['engine']} {page['scenario']}, {page['format']}), "
               f"round {page['round']} of {page['rounds']}, {page['status']}")
    for row in svc.tournaments.standings(tournament_id):
        click.echo(f"{row['place']:3}. {row['points']:4} pts  {row['wins']}-{row['draws']}-{row['losses']} byes {row['byes']} "
                   f"buchholz {row['buchholz']}  {row['name']} <{row['player']}>")
    for rnd in page["games"]:
        for g in rnd["games"]:
            click.echo(f"  round {rnd['round']}: " + (f"bye: {g['bye']}" if "bye" in g else
                       f"{g['game_id']} {' v '.join(g['sides'])}: " + (g["winner"] or "draw" if g["decided"] else "playing")))


CLUB_COMMANDS = (ratings, host, tournament)
