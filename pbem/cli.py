"""The `pbem` command."""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from pathlib import Path

import click

from pbem.cli_clubs import CLUB_COMMANDS
from pbem.cli_common import db_option, fail, json_options, pairs, service, settings_from
from pbem.config import LOG_FORMAT
from pbem.demo import run_demo
from pbem.engines import UnknownEngine, all_engines
from pbem.service.delivery import DeliveryFailedToStart, deliver_once, make_transport
from pbem.service.errors import ServiceError, TemporaryFailure
from pbem.service.imap import poll_forever, poll_once
from pbem.service.timing import NORMAL, TimingError, parse_deadline, parse_duration
from pbem.service.verify import NotReportJSON, read_report_json, verify_attachments
from pbem.tls import TlsFilesError

EX_TEMPFAIL = 75  # sysexits: the MTA keeps the message and retries


def _server():
    """pbem.server, imported only by the commands that run or send (`pbem ingest`, run once
    per mail by an MTA, should not pay for the SMTP server and the scheduler)."""
    import pbem.server  # lazy: `pbem ingest`, run once per mail, should not load the SMTP server and scheduler
    return pbem.server


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", is_flag=True, help="Log what the server does.")
def main(verbose: bool) -> None:
    """pbem: a play-by-email adjudication server for historical wargames and card games."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format=LOG_FORMAT)


@main.command()
@db_option
@click.option("--smtp-host", default=None, help="Inbound SMTP address (default 127.0.0.1).")
@click.option("--smtp-port", type=int, default=None, help="Inbound SMTP port (default 2525).")
@click.option("--http-host", default=None, help="Web address (default 127.0.0.1).")
@click.option("--http-port", type=int, default=None, help="Web port (default 8000).")
@click.option("--maildir", type=click.Path(file_okay=False), default=None, help="Outbox Maildir when no relay is set (default var/outbox; env PBEM_MAILDIR).")
@click.option("--domain", default=None, help="Mail domain of the orders addresses (env PBEM_MAIL_DOMAIN).")
def serve(db_path, smtp_host, smtp_port, http_host, http_port, maildir, domain):
    """Run inbound SMTP, the web app and the scheduler, with the processes that deliver mail and close turns."""
    server_module = _server()
    settings = settings_from(db_path, smtp_host=smtp_host, smtp_port=smtp_port, http_host=http_host,
                             http_port=http_port, maildir=maildir, mail_domain=domain)
    try:
        server = server_module.Server(settings).start()
    except (server_module.AlreadyServing, DeliveryFailedToStart, TlsFilesError) as exc:
        fail(str(exc))
    s = server.settings
    click.echo(f"pbem serving: SMTP {s.smtp_host}:{s.smtp_port}, web {s.web_url}, database {s.db_path}, "
               f"mail out {'via ' + s.smtp_url if s.smtp_url else 'to the Maildir ' + str(s.maildir)}. Ctrl-C stops.")
    try:
        server.wait()
    finally:
        server.stop()


@main.command()
@db_option
@click.option("--via", default="ingest", hidden=True)
@click.option("--sender", default=None, help="The envelope sender (Postfix's pipe: ${sender}, with null_sender= so a bounce's is empty).")
@click.option("--recipient", "recipients", multiple=True, help="The envelope recipient (Postfix's pipe: ${original_recipient}).")
def ingest(db_path, via, sender, recipients):
    """Read one RFC 5322 message on stdin and act on it (for an MTA pipe).

    Exits 75 (temporary failure) when the message could not be stored, so the MTA retries."""
    raw = sys.stdin.buffer.read()
    try:
        result = service(db_path).mailroom.receive(raw, via=via, envelope_from=sender, envelope_to=list(recipients))
    except TemporaryFailure as exc:
        fail(f"not stored, try again later: {exc}", EX_TEMPFAIL)
    click.echo(f"stored as #{result['inbound_id']}: {result['status']}")


@main.command("imap-poll")
@db_option
@click.option("--host", required=True, help="IMAP server (IMAPS, port 993 unless --port).")
@click.option("--port", type=int, default=993)
@click.option("--user", required=True)
@click.option("--password-env", default="PBEM_IMAP_PASSWORD", show_default=True, help="Environment variable holding the password.")
@click.option("--folder", default="INBOX", show_default=True)
@click.option("--plain", is_flag=True, help="Plain IMAP without TLS (loopback only).")
@click.option("--cafile", type=click.Path(exists=True, dir_okay=False), default=None, help="CA certificate to trust for IMAPS.")
@click.option("--once", is_flag=True, help="Poll once and exit.")
@click.option("--interval", type=float, default=60.0, show_default=True)
def imap_poll(db_path, host, port, user, password_env, folder, plain, cafile, once, interval):
    """Fetch unseen mail from an existing mailbox and act on it."""
    password = os.environ.get(password_env, "")
    svc = service(db_path)
    if once:
        n = poll_once(svc, host=host, port=port, user=user, password=password, folder=folder, tls=not plain, cafile=cafile)
        click.echo(f"{n} message(s) taken")
    else:
        poll_forever(svc, host=host, port=port, user=user, password=password, folder=folder, tls=not plain, cafile=cafile, interval=interval)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def engines(as_json):
    """Every installed engine with its scenarios and their roles."""
    out = {name: {"title": e.title, "languages": list(e.languages),
                  "deadline_kinds": {k.name: {"hours": k.hours, "description": k.description} for k in e.deadline_kinds},
                  "scenarios": {s.name: {"title": s.title, "roles": list(s.roles), "options": s.options} for s in e.scenarios().values()}}
           for name, e in all_engines().items()}
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    for name, e in out.items():
        click.echo(f"{name}: {e['title']} (languages: {', '.join(e['languages'])}; deadline kinds: {', '.join(e['deadline_kinds'])})")
        for sname, s in e["scenarios"].items():
            click.echo(f"  {sname}: {s['title']} — roles: {', '.join(s['roles'])}")


@main.group()
def game():
    """Create, list, show and run games."""


@game.command("new")
@db_option
@click.option("--engine", required=True, help="Engine name (see `pbem engines`).")
@click.option("--scenario", required=True)
@click.option("--player", "players", multiple=True, help="ROLE=EMAIL; roles left out are open to JOIN.")
@click.option("--deadline", default=None, help="Deadline of the game's phases: 48h, 90m, 2d or 'daily 18:00 Europe/Paris'. "
              "It times the kind of phase the game opens with: Custer's turns; every phase of Last Full Measure, rummy and "
              "Peaux-Rouges, which are one side's each. Default: that kind's own (48h for a phase, 24h for a side's turn).")
@click.option("--turn-deadline", default=None, help="Deadline of a single player's turn (a Custer activation, a rummy draw, a "
              "Last Full Measure side's phase), where --deadline should not time it; default 24h.")
@click.option("--kind-deadline", "kind_deadlines", multiple=True, help="KIND=DEADLINE for another deadline kind the engine declares (see `pbem engines`).")
@click.option("--early-close", default=None, help="Close once every awaited role has ordered, after this delay (e.g. 10m, 0s).")
@click.option("--no-orders", type=click.Choice(["hold", "wait"]), default="hold", show_default=True, help="At the deadline without orders: default orders (hold) or wait for a moderator.")
@click.option("--option", "options", multiple=True, help="Scenario option KEY=VALUE (JSON values allowed).")
@click.option("--lang", "langs", multiple=True, help="ROLE=LANG for a player's language (en, fr).")
@click.option("--tz", "tzs", multiple=True, help="ROLE=ZONE for a player's time zone.")
@click.option("--id", "game_id", default=None, help="Game id (default: from the scenario, e.g. lb7).")
@click.option("--title", default=None)
@click.option("--absence-days", type=click.IntRange(0, 366), default=14, show_default=True, help="Most days of absence each player may declare (ABSENCE by mail).")
@click.option("--closed-to-observers", is_flag=True, help="Refuse OBSERVE: nobody outside the game receives its reports.")
@click.option("--report-json", type=click.Choice(["attach", "link"]), default="attach", show_default=True,
              help="Each report's JSON (for pbem verify --offline): attached, or a link to it on the player's page (a lighter mail).")
@click.option("--unrated", is_flag=True, help="The game's result moves nobody's rating (it is still recorded).")
@click.option("--stand-in", "stand_in", default="off", show_default=True, metavar="after:N|off",
              help="after:N: the engine's cautious bot plays a seat that missed N deadlines in a row, until its player writes again.")
def game_new(db_path, engine, scenario, players, deadline, turn_deadline, kind_deadlines, early_close, no_orders, options, langs, tzs, game_id, title,
             absence_days, closed_to_observers, report_json, unrated, stand_in):
    """Create a game; prints its id alone. Players get a welcome mail."""
    try:
        timing = {NORMAL: parse_deadline(deadline) if deadline else None,
                  "turn": parse_deadline(turn_deadline) if turn_deadline else None, "no_orders": no_orders,
                  "early_close_seconds": parse_duration(early_close) if early_close else None,
                  **{kind: parse_deadline(spec) for kind, spec in pairs(kind_deadlines, "--kind-deadline").items()}}
    except TimingError as exc:
        fail(str(exc))
    opts = json_options(options)
    after = re.fullmatch(r"after:(\d{1,3})", stand_in.strip().lower())
    if after is None and stand_in.strip().lower() != "off":
        fail(f"--stand-in is after:N (N missed deadlines in a row) or off, not {stand_in!r}")
    try:
        gid = service(db_path).games.create(engine, scenario, pairs(players, "--player"), options=opts, timing=timing,
                                           game_id=game_id, title=title, languages=pairs(langs, "--lang"), timezones=pairs(tzs, "--tz"),
                                           absence_days=absence_days, observers_allowed=not closed_to_observers,
                                           report_json=report_json, rated=not unrated,
                                           stand_in_after=int(after.group(1)) if after else 0)
    except (ServiceError, UnknownEngine) as exc:
        fail(str(exc))
    click.echo(gid)


@game.command("list")
@db_option
def game_list(db_path):
    """Every game with its phase and status."""
    svc = service(db_path)
    for g in svc.records.games():
        s = svc.games.summary(g["id"])
        click.echo(f"{g['id']:8} {g['engine']:13} {g['scenario']:16} {g['status']:9} phase {s['phase'] or '-':8} deadline {s['deadline'] or '-'}")


@game.command("show")
@db_option
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True)
def game_show(db_path, game_id, as_json):
    """One game: phase, deadline, players, who has ordered, problems."""
    svc = service(db_path)
    summary = svc.games.summary(game_id)
    if not summary:
        fail(f"no game {game_id}")
    if as_json:
        click.echo(json.dumps(summary, indent=2, ensure_ascii=False, default=str))
        return
    click.echo(f"{summary['id']}: {summary['title']} [{summary['status']}]")
    click.echo(f"phase {summary['phase']}, deadline {summary['deadline']}, awaiting {', '.join(summary['awaited']) or '-'}, ordered {', '.join(summary['ordered']) or '-'}")
    for p in summary["players"]:
        click.echo(f"  {p['role']:16} {p['email'] or '(open)':32} {p['status']}")
    if summary["outcome"]:
        click.echo(f"outcome: {json.dumps(summary['outcome'], ensure_ascii=False)}")


@game.command("close-turn")
@db_option
@click.argument("game_id")
@click.option("--phase", "label", default=None, help="close only this phase (e.g. T3): run twice, it closes it once")
def game_close_turn(db_path, game_id, label):
    """Resolve the current phase now, as its deadline would."""
    svc = service(db_path)
    phase_row_id = None
    if label is not None:
        summary = svc.games.summary(game_id)
        open_now = summary.get("phase")
        if open_now is None or open_now.lower() != label.lower():
            fail(f"phase {label} of game {game_id} is not open (open now: {open_now or 'none'}); nothing was done")
        phase_row_id = summary["phase_row_id"]
    result = svc.phases.close(game_id, reason="deadline", phase_row_id=phase_row_id)
    if result is None:
        fail(f"game {game_id} has no open phase to close (over, paused, or unknown)")
    click.echo(json.dumps(result))


@main.command()
@db_option
@click.argument("game_id", required=False)
@click.option("--offline", nargs=2, type=click.Path(exists=True, dir_okay=False), metavar="PREVIOUS.json.gz THIS.json.gz",
              help="Check a report's JSON attachment (.json.gz as mailed, or .json) against the previous mail's, without the server.")
def verify(db_path, game_id, offline):
    """Replay every resolved phase from its stored state, orders and revealed seed."""
    if offline:
        reports = []
        for path in offline:
            try:
                reports.append(read_report_json(Path(path).read_bytes()))
            except NotReportJSON as exc:
                fail(f"{path} is not a report's JSON ({exc}): give the .json.gz a report mail carries, or its .json")
        prev, cur = reports
        result = verify_attachments(prev, cur)
        for note in result["notes"]:
            click.echo(f"ok: {note}")
        for problem in result["problems"]:
            click.echo(f"DIFFERENCE: {problem}")
        sys.exit(0 if result["ok"] else 1)
    if not game_id:
        fail("name a game, or use --offline PREVIOUS.json.gz THIS.json.gz")
    result = service(db_path).verifier.verify_game(game_id)
    if not result["exists"]:
        fail(f"there is no game {game_id!r} in this database (`pbem game list` lists them)")
    for note in result["notes"]:
        click.echo(f"note: {note}")
    for correction in result["corrections"]:
        click.echo(f"correction: {correction}")
    for phase in result["not_replayed"]:
        click.echo(f"NOT REPLAYED: {phase}")
    for problem in result["problems"]:
        click.echo(f"DIFFERENCE: {problem}")
    verdict = "all agree" if result["ok"] else ", ".join(
        f"{n} {what}" for n, what in ((len(result["problems"]), "difference(s)"), (len(result["not_replayed"]), "not replayed")) if n)
    click.echo(f"{game_id}: {result['phases']} phase(s) replayed, {verdict}")
    sys.exit(0 if result["ok"] else 1)


@main.command()
@db_option
@click.argument("path", type=click.Path(dir_okay=False))
def backup(db_path, path):
    """Write a consistent copy of the database, even while the server runs."""
    service(db_path).store.backup(path)
    click.echo(f"backup written to {path}")


@main.command()
@db_option
@click.option("--mx", "mail_host", default=None, help="The host name of the domain's mail server, for the MX record (default mail.DOMAIN).")
@click.option("--no-dns", is_flag=True, help="Print the records the domain needs without asking DNS what is published.")
@click.option("--strict", is_flag=True, help="Exit 2 when there are warnings and no problem.")
def doctor(db_path, mail_host, no_dns, strict):
    """Check what a host gets wrong (web address, relay, TLS, DKIM, disk, backups, database), and print
    the DNS records the domain needs. One line per finding, with its fix; exit 1 on any problem."""
    from pbem.doctor import Doctor, dns_lookup, render  # lazy: `pbem ingest`, run per mail, needs none of it
    settings = settings_from(db_path)
    if settings.secret_key is None:
        settings = settings.with_(secret_key="-")  # the return paths' key is not checked here
    report = Doctor(settings, lookup=None if no_dns else dns_lookup(), mail_host=mail_host).examine()
    click.echo(render(report))
    sys.exit(report.exit_code(strict))


@main.group()
def dkim():
    """The domain's DKIM key: every mail sent is signed with it (PBEM_DKIM_SELECTOR, PBEM_DKIM_KEY)."""


@dkim.command("keygen")
@click.option("--selector", default="pbem", show_default=True, help="The selector: the key's name in DNS (SELECTOR._domainkey.DOMAIN).")
@click.option("--key", "key_path", type=click.Path(dir_okay=False), envvar="PBEM_DKIM_KEY", default=None,
              help="Where to write the private key (default var/dkim/SELECTOR.pem; env PBEM_DKIM_KEY).")
@click.option("--domain", envvar="PBEM_MAIL_DOMAIN", default="pbem.localhost", help="The mail domain (env PBEM_MAIL_DOMAIN).")
def dkim_keygen(selector, key_path, domain):
    """Write a new 2048-bit key and print the DNS TXT record to publish for it."""
    from pbem.mail.dkim_signing import dns_name, dns_record, new_private_key, zone_file_entry  # lazy: `pbem ingest`, run per mail, needs no cryptography
    if not re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?", selector):
        fail(f"a selector is one DNS label (letters, digits, hyphens), not {selector!r}")
    path = Path(key_path or f"var/dkim/{selector}.pem")
    if path.exists():
        fail(f"{path} exists already: a key in use is never overwritten (choose another --selector, publish its record, then switch)")
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = new_private_key()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # only its owner reads a private key
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    click.echo(f"key written to {path} (mode 600)")
    click.echo(f"publish this TXT record at {dns_name(selector, domain)}:")
    click.echo(f"  {dns_record(pem)}")
    click.echo("as a zone file line:")
    click.echo(f"  {zone_file_entry(selector, domain, pem)}")
    click.echo(f"then set PBEM_DKIM_SELECTOR={selector} and PBEM_DKIM_KEY={path.resolve()}, restart, and run `pbem doctor`.")


@main.group()
def moderator():
    """Moderators of the web console."""


@moderator.command("add")
@db_option
@click.argument("email")
@click.option("--game", "games", multiple=True, help="Limit to these games (default: every game).")
@click.option("--password", default=None, help="Password (prompted when left out).")
@click.option("--lang", default=None, help="The console's language for this moderator (en, fr; default: the browser's).")
def moderator_add(db_path, email, games, password, lang):
    """Create a moderator (or reset the password of one)."""
    if password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        service(db_path).moderators.add(email, password, list(games) or None, lang=lang)
    except ServiceError as exc:
        fail(str(exc))
    click.echo(f"moderator {email} ready")


@moderator.command("remove")
@db_option
@click.argument("email")
def moderator_remove(db_path, email):
    """Remove a moderator; their console sessions end at once."""
    if not service(db_path).moderators.remove(email):
        fail(f"there is no moderator {email}")
    click.echo(f"moderator {email} removed")


@main.command("deliver")
@db_option
def deliver(db_path):
    """Send what waits in the outbox now (the server does this by itself)."""
    svc = service(db_path)
    s = svc.settings
    sent, failed = deliver_once(svc.store, make_transport(s), s, now=svc.now())
    click.echo(f"{sent} sent, {failed} failed")


@main.command()
@click.option("--dir", "workdir", type=click.Path(file_okay=False), default="var/demo", show_default=True)
@click.option("--engine", "engine_name", default="custer", show_default=True,
              help="The game to play: custer (Custer's Last Stand), lfm (Last Full Measure), acw (ACW miniatures), or any installed engine.")
@click.option("--scenario", default=None, help="Default: the engine's demo scenario (little_bighorn; lfm: east_cavalry_field; acw: herbst_woods).")
@click.option("--turns", type=int, default=None, help="Stop after this many phases (default: the whole game).")
@click.option("--smtp-port", type=int, default=2526, show_default=True)
@click.option("--http-port", type=int, default=8001, show_default=True)
def demo(workdir, engine_name, scenario, turns, smtp_port, http_port):
    """Play a short game by mail on the embedded defaults (Custer's Last Stand unless --engine)."""
    result = run_demo(Path(workdir), engine=engine_name, scenario=scenario, turns=turns, smtp_port=smtp_port,
                      http_port=http_port, echo=click.echo)
    if result["stalled"]:
        fail("the demo stopped before the game got as far as asked")


for _club_command in CLUB_COMMANDS:  # issue 28: ratings, the host's policies, tournaments
    main.add_command(_club_command)


if __name__ == "__main__":
    main()
