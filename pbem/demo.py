"""`pbem demo`: a short campaign played by scripted players through the real pipeline.

Scripted players read their mail from the outbox Maildir as a person reads an
inbox, take the game state from the report's JSON attachment, write orders with
the engine's bot and reply over SMTP to the embedded server, to the Reply-To
address that carries their token. The scheduler closes each turn.
"""

from __future__ import annotations

import base64
import email
import hashlib
import mailbox
import shutil
import smtplib
import sys
import threading
import time
from email import policy
from email.message import EmailMessage
from pathlib import Path

from pbem.config import Settings
from pbem.dice import Dice
from pbem.engines import get_engine
from pbem.engines.base import format_message
from pbem.server import Server
from pbem.service.adjudication import adjudicate
from pbem.service.outbox import MaildirTransport
from pbem.service.verify import read_report_json


class ScriptedPlayer:
    """A player who answers every mail that asks for orders with bot orders."""

    def __init__(self, engine_name: str, role: str, address: str, state_of=None):  # noqa: ANN001
        self.engine = get_engine(engine_name)
        self.role = role
        self.address = address
        self.answered: set[str] = set()
        # A game whose state holds secrets (Last Full Measure's standing orders) mails no state
        # to replay: this player, a bot seated by the demo's own server, then reads the store.
        self.state_of = state_of

    def reply_to(self, msg: EmailMessage) -> EmailMessage | None:
        """The reply this player sends to ``msg``, or None when it asks for nothing."""
        if msg.get("X-PBEM-Kind") not in ("welcome", "report", "correction", "reminder"):
            return None
        data = attachment_json(msg)
        state = state_after(self.engine, data) if data else None
        if state is None and data and data.get("next_phase") and self.state_of is not None:
            state = self.state_of(msg["X-PBEM-Game"])
            if self.engine.phase(state).id != data["next_phase"]["label"]:
                return None  # the game has moved on since this mail: a later one asks
        if state is None or not data.get("next_phase"):
            return None
        phase = data["next_phase"]["label"]
        if phase in self.answered:
            return None
        if self.role not in self.engine.phase(state).awaited:
            return None
        self.answered.add(phase)
        seed = hashlib.sha256(f"demo {self.role} {phase}".encode()).hexdigest()
        orders = self.engine.bot_orders(state, self.role, Dice(seed))
        game = msg["X-PBEM-Game"]
        reply = EmailMessage()
        reply["From"] = self.address
        reply["To"] = msg["Reply-To"]
        reply["Subject"] = "Re: " + (msg["Subject"] or "")
        reply["In-Reply-To"] = msg["Message-ID"]
        reply["Message-ID"] = email.utils.make_msgid(domain="demo.example")
        reply.set_content(f"My orders for {phase}.\n\nORDERS {game} {phase}\n{orders.rstrip()}\nEND\n\n-- \n{self.role}\n")
        return reply


def state_after(engine, data: dict) -> dict | None:  # noqa: ANN001 - an Engine
    """The state a mail's JSON leaves the game in: a welcome mail gives it; a report gives
    the phase's start, orders and seed, and the player replays it as `pbem verify` does."""
    if data.get("state_after") is not None:
        return data["state_after"]
    replay, seed = data.get("replay") or {}, (data.get("phase") or {}).get("seed")
    if replay.get("state_before") is None or replay.get("orders") is None or not seed:
        return None
    return adjudicate(engine, replay["state_before"], replay["orders"], seed)[0]


def attachment_json(msg: EmailMessage) -> dict | None:
    """The mail's JSON attachment: a report's as mailed (``.json.gz``) or a welcome's ``state.json``."""
    for part in msg.iter_attachments():
        name = part.get_filename() or ""
        if part.get_content_type() == "application/json" or name.endswith(".json.gz"):
            return read_report_json(part.get_payload(decode=True))
    return None


def report_html_file(msg: EmailMessage, path: Path) -> Path | None:
    """Write a report's HTML with its picture inlined, to open in a browser."""
    html_part = msg.get_body(("html",))
    if html_part is None:
        return None
    html = html_part.get_content()
    for part in msg.walk():
        cid = part.get("Content-ID")
        if cid and part.get_content_type() == "image/png":
            data = base64.b64encode(part.get_payload(decode=True)).decode("ascii")
            html = html.replace(f"cid:{cid.strip('<>')}", f"data:image/png;base64,{data}")
    path.write_text(html, encoding="utf-8")
    return path


class _RingingMaildir(MaildirTransport):
    """The server's Maildir delivery, ringing ``bell`` once delivered mail is in new/:
    the scripted players wait on it instead of polling the folder."""

    def __init__(self, path: Path, bell: threading.Event):
        super().__init__(path)
        self.bell = bell

    def flush(self) -> None:
        super().flush()
        self.bell.set()


def _final_reports(svc, game_id: str) -> set[tuple[str, str]]:
    """(phase label, role) of each report the last resolved phase mails to an active player."""
    resolved = [ph for ph in svc.records.phase_rows(game_id) if ph["status"] == "resolved"]
    if not resolved:
        return set()
    roles = {p["role"] for p in svc.games.summary(game_id)["players"] if p["status"] == "active"}
    return {(resolved[-1]["label"], role) for role in roles}


def pbem_command() -> str:
    """The pbem command as a user can type it: the venv's script by its full path when the
    venv is not on the PATH (./scripts/demo does not change the caller's shell)."""
    script = Path(sys.executable).parent / "pbem"
    on_path = shutil.which("pbem")
    if on_path and Path(on_path).resolve() == script.resolve():
        return "pbem"
    return str(script) if script.exists() else "pbem"


# The demo's game for each engine that has one chosen: scenario and players' addresses (any
# other engine plays its first scenario, each role at <role>@demo.example).
DEMO_GAMES = {
    "custer": ("little_bighorn", {"us": "custer@demo.example", "indians": "sitting.bull@demo.example"}),
    "lfm": ("east_cavalry_field", {"csa": "stuart@demo.example", "usa": "gregg@demo.example"}),
    "acw": ("herbst_woods", {"union": "meredith@demo.example", "confederate": "archer@demo.example"}),
}


def demo_game(engine_name: str, scenario: str | None) -> tuple[str, dict[str, str]]:
    """(scenario, role -> address) of the demo game of an engine."""
    engine = get_engine(engine_name)
    default_scenario, players = DEMO_GAMES.get(engine_name, (None, {}))
    scenario = scenario or default_scenario or next(iter(engine.scenarios()))
    roles = engine.roles(scenario)
    return scenario, {role: players.get(role, f"{role}@demo.example") for role in roles}


def keep_last_run(workdir: Path, echo) -> Path | None:  # noqa: ANN001 - echo: print or click.echo
    """Each run starts afresh; the previous run's folder (its mail, report pages and database)
    is kept as ``<workdir>.last``, replacing the one before it, and the run says so."""
    if not workdir.exists():
        return None
    last = workdir.with_name(workdir.name + ".last")
    if last.exists():
        shutil.rmtree(last)
    workdir.rename(last)
    echo(f"The previous demo's mail, report pages and database are kept in {last} (the run before it is cleared).")
    return last


def run_demo(workdir: Path, *, engine: str = "custer", scenario: str | None = None, turns: int | None = None,
             smtp_port: int = 2526, http_port: int = 8001, echo=print, timeout: float = 600.0) -> dict:
    """Play a game of ``engine`` (its demo scenario unless ``scenario`` is given) until it is
    over (or ``turns`` phases are resolved), then return once the last phase's reports are in
    the Maildir and written as web pages. ``timeout`` only bounds a demo that stopped moving
    (the result then says so)."""
    workdir = Path(workdir)
    keep_last_run(workdir, echo)
    (workdir / "reports").mkdir(parents=True)
    settings = Settings.from_env().with_(
        db_path=workdir / "pbem.db", maildir=workdir / "outbox", smtp_url=None,
        smtp_port=smtp_port, http_port=http_port, mail_domain="pbem.localhost",
    )
    delivered = threading.Event()
    server = Server(settings, transport=_RingingMaildir(settings.maildir, delivered)).start()
    svc = server.svc
    scenario, players = demo_game(engine, scenario)
    first_role = next(iter(players))
    scripted = {addr: ScriptedPlayer(engine, role, addr, state_of=svc.records.game_state) for role, addr in players.items()}
    timing = {kind.name: {"kind": "duration", "seconds": 60} for kind in get_engine(engine).deadline_kinds}
    game_id = svc.games.create(engine, scenario, players, timing={**timing, "early_close_seconds": 0})
    echo(f"Game {game_id} created: {get_engine(engine).title}, {scenario}. Players: "
         + ", ".join(f"{r} <{a}>" for r, a in players.items()))
    box = mailbox.Maildir(str(settings.maildir), factory=None, create=True)
    seen: set[str] = set()
    reports_read: set[tuple[str, str]] = set()
    reports = 0
    stalled = False
    deadline = time.monotonic() + timeout
    try:
        while True:
            delivered.clear()  # a delivery during this pass rings again: no wake-up is lost
            arrived = sorted(set(box.keys()) - seen)
            # Read after the folder: a report in it was queued with the phase it opens, so the
            # game state read now is at least that far. Once the game has gone far enough the
            # players stop answering, and the reports still to read are known.
            summary = svc.games.summary(game_id)
            done = summary["status"] == "finished" or (turns is not None and (summary["phase_seq"] or 0) > turns)
            for key in arrived:
                seen.add(key)
                msg = email.message_from_bytes(box.get_bytes(key), policy=policy.default)
                if msg.get("X-PBEM-Kind") == "report":
                    reports += 1
                    data = attachment_json(msg) or {}
                    label = (data.get("phase") or {}).get("label", "?")
                    reports_read.add((label, data.get("role")))
                    report_html_file(msg, workdir / "reports" / f"{game_id}-{label}-{data.get('role')}.html")
                    if data.get("role") == first_role:
                        echo(f"  {label} resolved; report mailed to every side")
                player = None if done else scripted.get((msg["To"] or "").strip().lower())
                reply = player.reply_to(msg) if player else None
                if reply is not None:
                    with smtplib.SMTP(settings.smtp_host, settings.smtp_port) as smtp:
                        smtp.send_message(reply)
            if done and _final_reports(svc, game_id) <= reports_read:
                break
            if not delivered.wait(max(deadline - time.monotonic(), 0)):
                stalled = True
                break
        summary = svc.games.summary(game_id)
        verified = svc.verifier.verify_game(game_id)
    finally:
        server.stop()
    if stalled:
        echo(f"The demo stopped: no mail came for {timeout:g} s (see the log above).")
    echo("")
    echo(f"Game {game_id}: {summary['status']}, {verified['phases']} phase(s) resolved; "
         f"pbem verify {'agrees' if verified['ok'] else 'found differences: ' + '; '.join(verified['problems'])}.")
    if summary.get("outcome"):
        outcome = summary["outcome"]
        scores = ", ".join(f"{side} {points}" for side, points in (outcome.get("scores") or {}).items())
        echo(f"Outcome: {format_message(outcome['summary'], outcome.get('args'))}" + (f" Score: {scores}." if scores else ""))
    echo(f"Every mail the server sent is in the Maildir {settings.maildir}/new (open any file in a mail client, or `less`).")
    echo(f"Each report as a web page, picture included: {workdir / 'reports'}/*.html (open in a browser).")
    command = pbem_command()
    echo(f"Database: {settings.db_path}. Try: {command} --help; PBEM_DB={settings.db_path} {command} game show {game_id}; "
         f"{command} verify --db {settings.db_path} {game_id}")
    echo("(or `source .venv/bin/activate` first, then type just `pbem`)")
    return {"game": game_id, "summary": summary, "verified": verified, "reports": reports, "stalled": stalled}
