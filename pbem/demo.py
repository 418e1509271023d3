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
import json
import mailbox
import shutil
import smtplib
import time
from email import policy
from email.message import EmailMessage
from pathlib import Path

from pbem.config import Settings
from pbem.dice import Dice
from pbem.engines import get_engine


class ScriptedPlayer:
    """A player who answers every mail that asks for orders with bot orders."""

    def __init__(self, engine_name: str, role: str, address: str):
        self.engine = get_engine(engine_name)
        self.role = role
        self.address = address
        self.answered: set[str] = set()

    def reply_to(self, msg: EmailMessage) -> EmailMessage | None:
        """The reply this player sends to ``msg``, or None when it asks for nothing."""
        if msg.get("X-PBEM-Kind") not in ("welcome", "report", "correction", "reminder"):
            return None
        data = attachment_json(msg)
        if not data or not data.get("next_phase") or data.get("state_after") is None:
            return None
        phase = data["next_phase"]["label"]
        if phase in self.answered:
            return None
        state = data["state_after"]
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


def attachment_json(msg: EmailMessage) -> dict | None:
    for part in msg.iter_attachments():
        if part.get_content_type() == "application/json":
            return json.loads(part.get_content() if isinstance(part.get_content(), str) else part.get_content().decode("utf-8"))
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


def run_demo(workdir: Path, *, scenario: str = "little_bighorn", turns: int | None = None,
             smtp_port: int = 2526, http_port: int = 8001, echo=print, timeout: float = 600.0) -> dict:
    from pbem.server import Server

    workdir = Path(workdir)
    if workdir.exists():
        shutil.rmtree(workdir)
    (workdir / "reports").mkdir(parents=True)
    settings = Settings.from_env().with_(
        db_path=workdir / "pbem.db", maildir=workdir / "outbox", smtp_url=None,
        smtp_port=smtp_port, http_port=http_port, mail_domain="pbem.localhost",
    )
    server = Server(settings).start()
    svc = server.svc
    players = {"us": "custer@demo.example", "indians": "sitting.bull@demo.example"}
    scripted = {addr: ScriptedPlayer("custer", role, addr) for role, addr in players.items()}
    game_id = svc.create_game("custer", scenario, players, timing={
        "phase": {"kind": "duration", "seconds": 60}, "early_close_seconds": 0,
    })
    echo(f"Game {game_id} created: Custer's Last Stand, {scenario}. Players: "
         + ", ".join(f"{r} <{a}>" for r, a in players.items()))
    box = mailbox.Maildir(str(settings.maildir), factory=None, create=True)
    seen: set[str] = set()
    reports = 0
    started = time.monotonic()
    try:
        while time.monotonic() - started < timeout:
            progressed = False
            for key in sorted(box.keys()):
                if key in seen:
                    continue
                seen.add(key)
                msg = email.message_from_bytes(box.get_bytes(key), policy=policy.default)
                kind = msg.get("X-PBEM-Kind")
                to = (msg["To"] or "").strip().lower()
                if kind == "report":
                    reports += 1
                    data = attachment_json(msg) or {}
                    label = (data.get("phase") or {}).get("label", "?")
                    report_html_file(msg, workdir / "reports" / f"{game_id}-{label}-{data.get('role')}.html")
                    if data.get("role") == "us":
                        echo(f"  {label} resolved; report mailed to both sides")
                player = scripted.get(to)
                reply = player.reply_to(msg) if player else None
                if reply is not None:
                    with smtplib.SMTP(settings.smtp_host, settings.smtp_port) as smtp:
                        smtp.send_message(reply)
                    progressed = True
            summary = svc.game_summary(game_id)
            if summary["status"] == "finished":
                break
            if turns is not None and (summary["phase_seq"] or 0) > turns:
                break
            if not progressed:
                time.sleep(0.2)
        summary = svc.game_summary(game_id)
        verified = svc.verifier.verify_game(game_id)
    finally:
        server.stop()
    echo("")
    echo(f"Game {game_id}: {summary['status']}, {verified['phases']} phase(s) resolved; "
         f"pbem verify {'agrees' if verified['ok'] else 'found differences: ' + '; '.join(verified['problems'])}.")
    if summary.get("outcome"):
        from pbem.engines.base import format_message
        outcome = summary["outcome"]
        scores = ", ".join(f"{side} {points}" for side, points in (outcome.get("scores") or {}).items())
        echo(f"Outcome: {format_message(outcome['summary'], outcome.get('args'))}" + (f" Score: {scores}." if scores else ""))
    echo(f"Every mail the server sent is in the Maildir {settings.maildir}/new (open any file in a mail client, or `less`).")
    echo(f"Each report as a web page, picture included: {workdir / 'reports'}/*.html (open in a browser).")
    echo(f"Database: {settings.db_path} (try: pbem --help; PBEM_DB={settings.db_path} pbem game show {game_id}; pbem verify --db {settings.db_path} {game_id}).")
    return {"game": game_id, "summary": summary, "verified": verified, "reports": reports}
