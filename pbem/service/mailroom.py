"""Mail in: keep the raw bytes, decide who sent it and what it asks, answer.

Who may order: the From header proves nothing. Orders count only with a valid,
unrevoked token in the address they were sent to *and* a From address
registered to that token's player. A valid token from another address holds
the orders until the registered player confirms them. Refusals and warnings go
to the registered player, never to whoever sent the mail.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import sqlite3
import traceback

from pbem.i18n import N_, gettext_for
from pbem.mail.addresses import parse_orders_address
from pbem.mail.commands import find_commands
from pbem.mail.inbound import parse_message
from pbem.mail.reply_text import new_text
from pbem.service import letters
from pbem.service.clock import from_iso, to_iso
from pbem.service.outbox import replies_sent_recently
from pbem.service.store import dumps, loads

log = logging.getLogger("pbem.mailroom")


class TemporaryFailure(Exception):
    """The message could not be stored; the sender's MTA should try again (SMTP 4xx)."""


def receive(self, raw: bytes, *, via: str = "smtp", envelope_from: str | None = None, envelope_to=()) -> dict:
    """Store one inbound message and act on it. Never loses it: on a bug the raw
    bytes are kept with status 'error'; when nothing can be stored, raises
    :class:`TemporaryFailure`."""
    now = self.now()
    sha = hashlib.sha256(raw).hexdigest()
    msg = parse_message(raw, envelope_from=envelope_from, envelope_to=list(envelope_to))
    row = {
        "received_at": to_iso(now), "via": via, "envelope_from": envelope_from, "envelope_to": dumps(list(envelope_to)),
        "message_id": msg.message_id, "from_addr": msg.from_addr, "subject": (msg.subject or "")[:500],
        "sha256": sha, "raw": raw, "status": "processing",
    }
    room = _Room(self, msg, now)
    try:
        with self.store.write():
            if msg.message_id and self.store.one(
                "SELECT 1 FROM inbound WHERE message_id = ? AND status != 'error' LIMIT 1", (msg.message_id,)
            ):
                row.update(status="duplicate", note="the same Message-ID was received before")
                inbound_id = self.store.insert("inbound", row)
                return {"status": "duplicate", "inbound_id": inbound_id}
            room.inbound_id = self.store.insert("inbound", row)
            room.run()
            self.store.update("inbound", room.inbound_id, {
                "status": room.status, "note": "; ".join(room.notes)[:2000] or None,
                "game_id": room.game_id, "player_id": room.player["id"] if room.player else None,
            })
    except sqlite3.OperationalError as exc:  # locked, disk full, I/O: let the sender retry
        raise TemporaryFailure(str(exc)) from exc
    except Exception:
        log.exception("inbound message failed")
        try:
            with self.store.write():
                row.update(status="error", note=traceback.format_exc()[-2000:])
                inbound_id = self.store.insert("inbound", row)
        except sqlite3.OperationalError as exc:
            raise TemporaryFailure(str(exc)) from exc
        return {"status": "error", "inbound_id": inbound_id}
    for game_id in room.close_now:
        if self.defer_immediate_closes:
            self.notify("close_now", game_id)
            continue
        try:
            self.close_ready_phases(game_id)
        except Exception:
            log.exception("immediate close of %s failed", game_id)
    if room.phase_changed:
        self.notify("phase", room.game_id)
    self.notify("outbox", room.game_id)
    return {"status": room.status, "inbound_id": room.inbound_id, "notes": room.notes, "replies": room.replies}


class _Room:
    """One message's handling, inside the receiving transaction."""

    def __init__(self, svc, msg, now):
        self.svc, self.msg, self.now = svc, msg, now
        self.store = svc.store
        self.inbound_id: int | None = None
        self.status = "processed"
        self.notes: list[str] = []
        self.replies = 0
        self.game_id: str | None = None
        self.game: dict | None = None  # the games row of the token's game, read once
        self.read_from: str | None = None  # the attached file the commands came from
        self.player: dict | None = None
        self.close_now: list[str] = []
        self.phase_changed = False

    # -- replies ------------------------------------------------------------------
    def _allowed(self, address: str | None) -> bool:
        if not address:
            self.notes.append("no reply: the mail has no usable sender address")
            return False
        if address.lower().rsplit("@", 1)[-1] == self.svc.settings.mail_domain.lower():
            self.notes.append(f"no reply to {address}: an address of this server")  # never mail ourselves
            return False
        if replies_sent_recently(self.store, address, self.now) >= self.svc.settings.replies_per_address_per_hour:
            self.notes.append(f"no reply to {address}: rate limit reached")
            return False
        return True

    def reply(self, kind: str, template: str, subject: str, *, player: dict | None = None, to_addr: str | None = None,
              lang: str = "en", **ctx) -> None:
        to_addr = player["email"] if player else to_addr
        if not self._allowed(to_addr):
            return
        key = f"{kind}/in{self.inbound_id}/{template}/{self.replies}"
        if letters.queue_message(self.svc, kind=kind, game_id=self.game_id if player else None, player=player,
                                 to_addr=to_addr, lang=player["lang"] if player else lang, subject=subject,
                                 template=template, key=key, inbound_msgid=self.msg.message_id, **ctx):
            self.replies += 1

    def problem(self, player: dict | None, problem: str, advice: str = "", *, to_addr: str | None = None, **args) -> None:
        """An error reply: what was wrong and what to do, in the reader's language."""
        lang = player["lang"] if player else "en"
        _ = gettext_for(lang)
        self.reply("error", "mail/error.txt.j2", _("Your mail could not be used"), player=player, to_addr=to_addr,
                   lang=lang, problem=_(problem) % args if args else _(problem),
                   advice=(_(advice) % args if args else _(advice)) if advice else "",
                   quoted_subject=self.msg.subject or "", problems=self.msg.problems)

    # -- the decision -------------------------------------------------------------
    def run(self) -> None:
        msg = self.msg
        if msg.automatic:
            self.status = "ignored"
            self.notes.append(f"automatic mail ({msg.automatic}): never answered")
            return
        if len(msg.raw) > self.svc.settings.max_message_bytes:
            self.status = "refused"
            self.notes.append("message larger than the limit")
            self._answer_unknown(N_("Your message is larger than this server accepts (%(limit)d bytes)."), limit=self.svc.settings.max_message_bytes)
            return
        addressed = [parse_orders_address(a, self.svc.settings.mail_domain) for a in msg.recipients]
        addressed = [a for a in addressed if a]
        text = new_text(msg.text or "")
        commands = find_commands(text, msg.subject or "")
        if not commands:
            # orders sent as an attached file: read when the mail itself holds no command
            for name, attached in msg.text_attachments:
                commands = find_commands(attached, "")
                if commands:
                    self.read_from = name
                    self.notes.append(f"commands read from the attached file {name}")
                    break
        if addressed:
            self._with_token(addressed[0], commands)
        else:
            self._without_token(commands)

    def _answer_unknown(self, problem: str, advice: str = "", **args) -> None:
        """An answer to a sender we cannot tie to any player: generic, nothing about any game."""
        if self.msg.from_addr:
            self.problem(None, problem, advice, to_addr=self.msg.from_addr, **args)
        else:
            self.notes.append("no reply: the mail has no usable sender address")

    def _registered_players(self, address: str | None) -> list[dict]:
        if not address:
            return []
        return self.store.all(
            "SELECT p.* FROM players p JOIN addresses a ON a.player_id = p.id WHERE a.email = ? AND a.confirmed_at IS NOT NULL AND p.status = 'active'",
            (address,),
        )

    def _with_token(self, addressed: tuple[str, str], commands) -> None:
        game_id, token = addressed
        tok = self.store.one("SELECT * FROM tokens WHERE token = ?", (token,))
        game = self.game = self.store.one("SELECT * FROM games WHERE id = ?", (game_id,))
        if game is None or tok is None or tok["game_id"] != game_id:
            self.status = "refused"
            self.notes.append("unknown token" if game else "unknown game")
            self.game_id = game["id"] if game else None
            # Tell a registered player of that game who appears to have sent it; nobody else.
            for p in self._registered_players(self.msg.from_addr):
                if p["game_id"] == game_id:
                    self.game_id = game_id
                    self.problem(p, N_("A mail naming your address reached game %(game)s with an orders address that is not valid, so it was refused."),
                                 N_("Send orders by replying to the latest mail from the game: its Reply-To address is your own orders address."), game=game_id)
                    return
            return
        self.game_id = game_id
        player = self.store.one("SELECT * FROM players WHERE id = ?", (tok["player_id"],))
        if tok["revoked_at"] or player["status"] != "active":
            current = self.store.one("SELECT * FROM players WHERE game_id = ? AND role = ? AND status = 'active' ORDER BY id DESC LIMIT 1",
                                     (game_id, player["role"]))
            self.status = "refused"
            self.notes.append("revoked token")
            if current:
                self.player = current
                self.problem(current, N_("Someone sent a mail to game %(game)s with an orders address that was withdrawn on %(when)s (sender: %(sender)s). It was refused."),
                             N_("Nothing to do if it was not you. Use the orders address in the latest mail from the game."),
                             game=game_id, when=tok["revoked_at"] or "-", sender=self.msg.from_addr or "?")
            return
        self.player = player
        confirmed = self.store.one("SELECT 1 FROM addresses WHERE player_id = ? AND email = ? AND confirmed_at IS NOT NULL",
                                   (player["id"], self.msg.from_addr or ""))
        if not commands:
            self.status = "refused"
            self.notes.append("no command found")
            if confirmed:
                self.problem(player, N_("No command was found in your mail."),
                             N_("Orders go between a line 'ORDERS %(game)s <phase>' and a line 'END'. Send HELP for the order syntax."), game=game_id)
            return
        for cmd in commands:
            if confirmed:
                self._command(cmd, player)
            elif cmd.name == "ORDERS":
                self._orders(cmd, player, held=True)
            else:
                self.status = "refused"
                self.notes.append(f"{cmd.name} from an unregistered address")
                self.problem(player, N_("A mail from %(sender)s, which is not registered to you, asked for %(command)s in game %(game)s with your orders address. It was refused."),
                             N_("If it was you, send it from your registered address, or register this one with SET ADDRESS."),
                             sender=self.msg.from_addr or "?", command=cmd.name, game=game_id)

    def _without_token(self, commands) -> None:
        names = [c.name for c in commands]
        if "JOIN" in names:
            for cmd in commands:
                if cmd.name == "JOIN":
                    self._join(cmd)
            return
        registered = self._registered_players(self.msg.from_addr)
        if "ORDERS" in names:
            self.status = "refused"
            self.notes.append("orders without a token")
            wanted = {c.args[0].lower() for c in commands if c.name == "ORDERS" and c.args}
            for p in registered:
                if p["game_id"] in wanted:
                    self.game_id = p["game_id"]
                    self.player = p
                    self.problem(p, N_("Orders for game %(game)s reached the server's general address, without your token, so they were not used."),
                                 N_("Reply to the latest mail from the game instead: its Reply-To address carries your token."), game=p["game_id"])
                    return
            self._answer_unknown(N_("Orders must be sent to your own orders address, which the game gave you."),
                                 N_("Reply to the latest mail from your game. To take part in a game you need an invitation from its moderator."))
            return
        if "HELP" in names:
            from pbem.engines import all_engines
            self.reply("ack", "mail/general_help.txt.j2", gettext_for("en")(N_("How to play by mail")), to_addr=self.msg.from_addr,
                       engines=[(name, e.title, sorted(e.scenarios())) for name, e in all_engines().items()])
            return
        self.status = "refused"
        self.notes.append("no token and no command")
        self._answer_unknown(N_("This server only reads game mail, and this message was not addressed to any game."),
                             N_("Reply to the latest mail from your game, or send HELP."))

    # -- commands -------------------------------------------------------------------
    def _command(self, cmd, player: dict) -> None:
        if cmd.problems and cmd.name != "ORDERS":
            # The command could not be read as written (unknown zone, missing argument...).
            self.status = "refused"
            self.reply("error", "mail/error.txt.j2", gettext_for(player["lang"])("Your mail could not be used"), player=player,
                       problem=gettext_for(player["lang"])(N_("The command %(command)s could not be carried out.")) % {"command": cmd.name},
                       advice="", quoted_subject=self.msg.subject or "", problems=_translated(cmd, player["lang"]))
            return
        handler = {
            "ORDERS": self._orders, "HELP": self._help, "STATUS": self._status, "PRESS": self._press,
            "SET": self._set, "RESIGN": self._resign, "CONFIRM": self._confirm, "JOIN": self._join_again,
        }.get(cmd.name)
        if handler is None:
            self.problem(player, N_("The command %(command)s is not known."), N_("Send HELP for the commands."), command=cmd.name)
            return
        handler(cmd, player)

    def _orders(self, cmd, player: dict, held: bool = False) -> None:
        svc, store = self.svc, self.store
        game_id = self.game_id
        if len(cmd.args) < 2:
            self.problem(player, N_("The ORDERS line must name the game and the phase, as in 'ORDERS %(game)s T3'."), game=game_id)
            return
        named_game, named_phase = cmd.args[0].lower(), cmd.args[1]
        g = self.game
        ph = store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open' ORDER BY seq DESC LIMIT 1", (game_id,))
        if named_game != game_id:
            self.status = "refused"
            self.problem(player, N_("This block names game %(named)s but was sent to your address for game %(game)s; it was not used."),
                         N_("Reply to a mail from game %(named)s to order there."), named=named_game, game=game_id)
            return
        if g["status"] == "finished" or ph is None:
            self.problem(player, N_("Game %(game)s is over; no more orders are taken."), game=game_id)
            return
        if named_phase.lower() != ph["label"].lower():
            old = store.one("SELECT label, resolved_at FROM phases WHERE game_id = ? AND lower(label) = lower(?) AND status = 'resolved'", (game_id, named_phase))
            self.status = "refused"
            if old:
                self.notes.append("stale orders block")
                self.problem(player, N_("This orders block is for phase %(named)s, which was resolved on %(when)s. The game is now at phase %(current)s, so these orders were not used (a block quoted from an old mail is never taken as new orders)."),
                             N_("Write new orders under 'ORDERS %(game)s %(current)s'; the latest report holds a pre-filled template."),
                             named=named_phase, when=old["resolved_at"], current=ph["label"], game=game_id)
            else:
                self.problem(player, N_("There is no phase %(named)s in game %(game)s; the current phase is %(current)s."),
                             N_("Write 'ORDERS %(game)s %(current)s'."), named=named_phase, current=ph["label"], game=game_id)
            return
        awaited = loads(ph["awaited"])
        if player["role"] not in awaited:
            self.status = "refused"
            self.problem(player, N_("Phase %(phase)s does not wait for orders from the %(role)s player (it waits for: %(awaited)s)."),
                         N_("Your next report will say when your orders are due."), phase=ph["label"], role=player["role"], awaited=", ".join(awaited))
            return
        deadline = from_iso(ph["deadline"])
        if g["status"] == "active" and deadline is not None and self.now > deadline:
            self.status = "refused"
            self.notes.append("late")
            self._record(player, ph, cmd, status="late", errors=[], orders=None, canonical=None, missing=[])
            self.problem(player, N_("Your orders for %(phase)s arrived after the deadline (%(deadline)s) and were not used."),
                         N_("The phase is being resolved with the orders that stood at the deadline."), phase=ph["label"], deadline=ph["deadline"])
            return
        body = cmd.body or ""
        if len(body) > svc.settings.max_orders_chars:
            self.status = "refused"
            self.problem(player, N_("Your orders are %(length)d characters long; the limit is %(limit)d."),
                         length=len(body), limit=svc.settings.max_orders_chars)
            return
        engine = svc.engine(g["engine"])
        state = loads(ph["state"])
        try:
            result = engine.parse_orders(state, player["role"], body)
        except Exception:
            log.exception("engine %s failed to parse orders", g["engine"])
            self.status = "error"
            self.notes.append("the engine failed to read the orders:\n" + traceback.format_exc()[-1500:])
            self.problem(player, N_("The server failed while reading your orders; a moderator has been told. Your previous orders, if any, still stand."))
            return
        errors = [e.to_json() for e in result.errors]
        if held:
            status = "held"
        elif not errors:
            status = "accepted"
        elif (result.canonical or "").strip():  # something was understood
            status = "partial"
        else:
            status = "rejected"
        sub = self._record(player, ph, cmd, status=status, errors=errors, orders=result.orders,
                           canonical=result.canonical, missing=list(result.missing))
        if held:
            code = secrets.token_hex(4)
            store.update("submissions", sub["id"], {"confirm_code": code})
            self.status = "held"
            _ = gettext_for(player["lang"])
            self.reply("error", "mail/held.txt.j2", _("Orders held: please confirm"), player=player,
                       sender=self.msg.from_addr or "?", phase=ph, canonical=result.canonical, code=code)
            return
        if status in ("accepted", "partial"):
            store.execute("UPDATE submissions SET stands = (id = ?) WHERE phase_id = ? AND role = ? AND stands != (id = ?)",
                          (sub["id"], ph["id"], player["role"], sub["id"]))
            sub["stands"] = 1
        # Acknowledgements count against the per-address brake too: a script that
        # re-sends its orders on every mail it gets would otherwise loop for ever.
        # The orders are taken either way; only the answer is withheld (and noted).
        if self._allowed(player["email"]):
            notes = _translated(cmd, player["lang"]) + list(self.msg.problems)
            if self.read_from:
                notes.insert(0, gettext_for(player["lang"])(N_("Your orders were read from the attached file %(name)s.")) % {"name": self.read_from})
            letters.queue_ack(svc, game_id, player, sub, ph, self.msg.message_id, notes=notes)
            self.replies += 1
        self._maybe_close_early(g, ph)

    def _record(self, player, ph, cmd, *, status, errors, orders, canonical, missing) -> dict:
        body = cmd.body or ""
        row = {
            "game_id": self.game_id, "phase_id": ph["id"], "phase_label": ph["label"], "player_id": player["id"],
            "role": player["role"], "inbound_id": self.inbound_id, "text": body,
            "orders": dumps(orders) if orders is not None else None, "canonical": canonical,
            "errors": dumps(errors), "missing": dumps(missing), "status": status, "stands": 0,
            "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(), "received_at": to_iso(self.now),
        }
        row["id"] = self.store.insert("submissions", row)
        return row

    def _maybe_close_early(self, g: dict, ph: dict) -> None:
        awaited = set(loads(ph["awaited"]))
        ordered = {r["role"] for r in self.store.all("SELECT role FROM submissions WHERE phase_id = ? AND stands = 1", (ph["id"],))}
        if not awaited <= ordered or g["status"] != "active":
            return
        if ph["immediate"]:
            self.close_now.append(g["id"])
            return
        delay = loads(g["timing"], {}).get("early_close_seconds")
        if delay is not None:
            from datetime import timedelta
            early = self.now + timedelta(seconds=delay)
            deadline = from_iso(ph["deadline"])
            if deadline is None or early < deadline:
                self.store.execute("UPDATE phases SET deadline = ? WHERE id = ?", (to_iso(early), ph["id"]))
                self.phase_changed = True

    def _help(self, cmd, player: dict) -> None:
        g = letters._game(self.svc, self.game_id)
        _ = gettext_for(player["lang"])
        self.reply("ack", "mail/help.txt.j2", _("Help for %(title)s") % {"title": g["title"]}, player=player,
                   help=letters._help_text(self.svc, g["engine"], g, player["lang"]))

    def _status(self, cmd, player: dict) -> None:
        summary = self.svc.game_summary(self.game_id)
        ph = self.store.one("SELECT * FROM phases WHERE game_id = ? AND status = 'open' ORDER BY seq DESC LIMIT 1", (self.game_id,))
        _ = gettext_for(player["lang"])
        self.reply("ack", "mail/status.txt.j2", _("Status of %(game)s") % {"game": self.game_id}, player=player,
                   summary=summary, deadline=letters._deadline_text(self.svc, ph, player) if ph else "")

    def _press(self, cmd, player: dict) -> None:
        body = (cmd.body or "").strip()
        if not body:
            self.problem(player, N_("The PRESS message is empty."), N_("Write PRESS, your message, then END."))
            return
        targets = [a.lower() for a in cmd.args if a.lower() not in ("to", "all")]
        recipients = [p for p in self.svc.players(self.game_id) if p["status"] == "active" and p["id"] != player["id"]
                      and (not targets or p["role"].lower() in targets)]
        if not recipients:
            self.problem(player, N_("No player matches %(targets)s."), N_("Write PRESS TO <role>, or PRESS ALL."), targets=", ".join(targets))
            return
        for p in recipients:
            _ = gettext_for(p["lang"])
            letters.queue_message(self.svc, kind="press", game_id=self.game_id, player=p, to_addr=p["email"], lang=p["lang"],
                                  subject=_("Press from the %(role)s player") % {"role": player["role"]}, template="mail/press.txt.j2",
                                  key=f"press/{self.game_id}/in{self.inbound_id}/{p['id']}", sender_role=player["role"],
                                  text=body, to_roles=[q["role"] for q in recipients])
        self.svc.audit(self.game_id, player["role"], "press", "", {"to": [p["role"] for p in recipients]}, public=False)

    def _set(self, cmd, player: dict) -> None:
        from pbem.i18n import available_languages
        from pbem.service.render import zone
        if len(cmd.args) < 2:
            self.problem(player, N_("SET needs a setting and a value: SET TZ Europe/Paris, SET LANG fr, SET REMINDERS 12h, SET ADDRESS you@example.org."))
            return
        what, value = cmd.args[0].upper(), cmd.args[1]
        _ = gettext_for(player["lang"])
        if what in ("TZ", "ZONE", "FUSEAU"):
            if zone(value).key != value and value != "UTC":
                self.problem(player, N_("Unknown time zone %(zone)s."), N_("Use a name such as Europe/Paris or America/Denver."), zone=value)
                return
            self.store.update("players", player["id"], {"tz": value})
        elif what in ("LANG", "LANGUE", "LANGUAGE"):
            value = value.lower()[:2]
            if value not in available_languages():
                self.problem(player, N_("Language %(lang)s is not available (available: %(langs)s)."), lang=value, langs=", ".join(available_languages()))
                return
            self.store.update("players", player["id"], {"lang": value})
        elif what in ("REMINDERS", "RAPPELS", "REMINDER"):
            hours = 0 if value.lower() in ("off", "no", "non", "0") else _hours(value)
            if hours is None:
                self.problem(player, N_("Cannot read %(value)s: write SET REMINDERS 24h or SET REMINDERS off."), value=value)
                return
            self.store.update("players", player["id"], {"reminder_hours": hours})
        elif what in ("ADDRESS", "ADRESSE"):
            email = value.strip().lower()
            if "@" not in email:
                self.problem(player, N_("%(value)s is not an email address."), value=value)
                return
            code = secrets.token_hex(4)
            self.store.insert("addresses", {"player_id": player["id"], "email": email, "confirm_code": code, "created_at": to_iso(self.now)})
            self.reply("ack", "mail/confirm_address.txt.j2", _("Confirm your second address"), player=player, email=email, code=code)
            return
        else:
            self.problem(player, N_("Unknown setting %(what)s."), N_("Settings: TZ, LANG, REMINDERS, ADDRESS."), what=what)
            return
        player = self.store.one("SELECT * FROM players WHERE id = ?", (player["id"],))
        self.player = player
        self.reply("ack", "mail/settings.txt.j2", gettext_for(player["lang"])(N_("Settings changed")), player=player)

    def _resign(self, cmd, player: dict) -> None:
        self.store.update("players", player["id"], {"status": "resigned"})
        self.svc.audit(self.game_id, player["role"], "resign", "", {"player": player["id"]})
        letters.queue_notice(self.svc, self.game_id,
                             N_("The %(role)s player has resigned; a moderator may replace them. Until then that role's orders are the defaults."),
                             serial=f"resign{player['id']}", args={"role": player["role"]})

    def _confirm(self, cmd, player: dict) -> None:
        code = (cmd.args[0] if cmd.args else "").lower()
        sub = self.store.one("SELECT * FROM submissions WHERE player_id = ? AND status = 'held' AND confirm_code = ?", (player["id"], code)) if code else None
        if sub is not None:
            ph = self.store.one("SELECT * FROM phases WHERE id = ?", (sub["phase_id"],))
            if ph["status"] != "open":
                self.problem(player, N_("Those held orders were for phase %(phase)s, which is closed."), phase=ph["label"])
                return
            errors = loads(sub["errors"], [])
            status = "accepted" if not errors else ("partial" if (sub["canonical"] or "").strip() else "rejected")
            self.store.execute("UPDATE submissions SET status = ?, confirm_code = NULL WHERE id = ?", (status, sub["id"]))
            if status != "rejected":
                self.store.execute("UPDATE submissions SET stands = (id = ?) WHERE phase_id = ? AND role = ?", (sub["id"], ph["id"], sub["role"]))
            sub = self.store.one("SELECT * FROM submissions WHERE id = ?", (sub["id"],))
            if self._allowed(player["email"]):
                letters.queue_ack(self.svc, self.game_id, player, sub, ph, self.msg.message_id)
            self._maybe_close_early(self.store.one("SELECT * FROM games WHERE id = ?", (self.game_id,)), ph)
            return
        addr = self.store.one("SELECT * FROM addresses WHERE player_id = ? AND confirm_code = ? AND confirmed_at IS NULL", (player["id"], code)) if code else None
        if addr is not None:
            self.store.execute("UPDATE addresses SET confirmed_at = ?, confirm_code = NULL WHERE id = ?", (to_iso(self.now), addr["id"]))
            self.reply("ack", "mail/settings.txt.j2", gettext_for(player["lang"])(N_("Address confirmed")), player=player)
            return
        self.problem(player, N_("No held orders or address wait for the code %(code)s."), code=code or "-")

    def _join(self, cmd) -> None:
        from pbem.service.core import ServiceError
        if len(cmd.args) < 2 or not self.msg.from_addr:
            self._answer_unknown(N_("JOIN needs the game and the invitation code: JOIN lb7 1a2b3c4d."))
            return
        try:
            p = self.svc.join_game(cmd.args[0].lower(), cmd.args[1], self.msg.from_addr, role=cmd.args[2] if len(cmd.args) > 2 else None)
        except ServiceError as exc:
            self.status = "refused"
            self._answer_unknown(N_("Could not join: %(reason)s."), reason=str(exc))
            return
        self.game_id, self.player = p["game_id"], p

    def _join_again(self, cmd, player: dict) -> None:
        self.problem(player, N_("You already play the role %(role)s in game %(game)s."), role=player["role"], game=self.game_id)


def _translated(cmd, lang: str) -> list[str]:
    """A command's problems in the reader's language."""
    _ = gettext_for(lang)
    out = []
    for msgid, args in getattr(cmd, "problem_ids", []) or []:
        try:
            out.append(_(msgid) % args)
        except (KeyError, ValueError, TypeError):
            out.append(msgid % args)
    return out or list(cmd.problems)


def _hours(value: str) -> int | None:
    text = value.lower().rstrip("h")
    return int(text) if text.isdigit() and 0 < int(text) <= 24 * 14 else None
