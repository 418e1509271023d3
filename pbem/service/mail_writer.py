"""Every mail the server writes: what goes in it, rendered from templates/mail/
(pbem.mail.mime then makes the MIME bytes, pbem.service.outbox queues and sends them).

Templates only ever see views (``engine.view(state, role)``), never a whole state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import deflate

from pbem.i18n import N_, gettext_for
from pbem.mail.addresses import orders_address
from pbem.mail.mime import calendar_event
from pbem.moments import format_moment
from pbem.service import acks, outbox
from pbem.service.adjudication import state_hash
from pbem.service.clock import from_iso
from pbem.service.outbox import ComposedMail, Outgoing, answering, game_subject, thread_headers
from pbem.service.part import ConfiguredPart
from pbem.service.render import render, template_exists, visible_events
from pbem.service.roster import named_sides
from pbem.service.store import loads
from pbem.service.unsubscribe import REMINDERS
from pbem.service.unsubscribe import headers as unsubscribe_headers
from pbem.service.upgrades import result_state, starting_state


_ENVELOPE = {"fr": ("ORDRES", "FIN")}


def orders_block(game_id: str, phase_label: str, body: str, lang: str = "en") -> str:
    begin, end = _ENVELOPE.get(lang, ("ORDERS", "END"))
    return f"{begin} {game_id} {phase_label}\n{body.rstrip()}\n{end}\n"


def _json_bytes(value) -> bytes:
    """Compact JSON (no indentation): a report's attachment is read by programs (`pbem verify
    --offline`, a player's tools), and every byte of it is carried to a phone as base64."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def _report_attachment(name: str, value) -> tuple[str, str, bytes]:
    """A report's JSON as ``NAME.json.gz``: the same compact JSON, gzipped by libdeflate (no
    time in its header, so the same report gives the same bytes). JSON repeats its keys; gzip
    takes it to about a seventh (Custer's busiest turn: 72 KB to 10 KB), so the mail carries
    13 KB of base64 instead of 79 KB of quoted-printable. `pbem verify --offline` reads it as
    it is. Level 6: as small as zlib's 6 in half its 1 ms (level 9: 3 % smaller, twice the time)."""
    return f"{name}.json.gz", "application/gzip", bytes(deflate.gzip_compress(_json_bytes(value), 6))


#: a game's ``report_json`` setting: the report's JSON as an attachment, or as a link to the player's page
REPORT_JSON_CHOICES = ("attach", "link")


#: the file name of the game's tables as a page to print (the welcome's and TABLES')
AIDS_FILE = N_("player-aids.html")
DEFAULTED = N_("(no orders: default orders stood)")
SEALED_SEED = N_("(sealed: these dice decided something still hidden from a player; revealed once it no longer is)")


def sealed_labels(engine, state) -> set:
    """Labels of the phases whose seeds must stay secret in this state (an engine with
    hidden cards seals the dice that dealt them: ``secret_seeds``)."""
    return set(engine.secret_seeds(state)) if state is not None else set()


def shown_seed(engine, state, phase: dict, lang: str | None = "en") -> str:
    """A phase's seed as pages and mail may show it now (a sealed one: the engine's note, else the generic one)."""
    if phase["label"] not in sealed_labels(engine, state):
        return phase["seed"]
    return gettext_for(lang)(engine.sealed_seed_note or SEALED_SEED)


def _engine_template(engine_name: str, name: str, fallback: str) -> str:
    own = f"{engine_name}/{name}"
    return own if template_exists(own) else fallback


@dataclass(kw_only=True, eq=False)
class MailWriter(ConfiguredPart):
    """What goes in every mail the server writes; each method queues one mail inside the
    caller's transaction."""

    #: `pbem serve` sets it: its delivery process makes the acknowledgements' bytes
    compose_acks_later: bool = False

    def game_header(self, game_id: str, row: dict | None = None) -> dict:
        """What a mail's templates read of its game (from ``row`` when the caller has read it)."""
        g = row or self.records.game_row(game_id)
        return {"id": g["id"], "title": g["title"], "engine": g["engine"], "scenario": g["scenario"], "status": g["status"]}

    def queue(self, mail: Outgoing, marks: dict | None = None) -> str | None:
        """Compose and queue ``mail`` inside the caller's transaction (None: already queued);
        ``marks``: an answer's columns (:func:`outbox.answer_marks`)."""
        return outbox.queue(self.records.store, mail, domain=self.settings.mail_domain, now=self.now(), marks=marks)

    def compose(self, mail: Outgoing) -> ComposedMail:
        """``mail`` composed to its bytes, to be queued later by :func:`outbox.queue_composed`."""
        return outbox.compose_outgoing(mail, domain=self.settings.mail_domain, now=self.now())

    def thread_root(self, game_id: str, player: dict) -> str:
        return outbox.thread_root(self.settings.mail_domain, game_id, player["id"])

    def _envelope(self, game_id: str, player: dict, token: str | None = None) -> dict:
        return thread_headers(self.settings.mail_domain, game_id, player["id"], token or self.records.token_for(player["id"]))

    def player_link(self, game_id: str, player: dict, token: str | None = None) -> str | None:
        token = token or self.records.token_for(player["id"])
        return f"{self.settings.web_url}/play/{game_id}/{token}" if token else None

    def deadline_text(self, phase: dict | None, player: dict) -> str:
        """A phase's deadline in the player's zone and language, with the time left."""
        if phase is None:
            return ""
        return format_moment(from_iso(phase["deadline"]), player["tz"], player["lang"], now=self.now())

    def order_text(self, engine_name: str, state: dict, role: str, lang: str = "en") -> str:
        """The text of the engine's order template: pre-filled orders, keywords and comments in the player's language."""
        return self.engine(engine_name).order_template(state, role, lang=lang, gettext=gettext_for(lang))

    def orders_form(self, game_id: str, engine_name: str, phase: dict, role: str, lang: str) -> str:
        """The block a player fills in for a phase: 'ORDERS game phase', the order text, 'END'."""
        return orders_block(game_id, phase["label"], self.order_text(engine_name, loads(phase["state"]), role, lang), lang)

    def orders_address(self, game_id: str, player_id: int) -> str | None:
        """The player's own address for orders (it carries their token)."""
        token = self.records.token_for(player_id)
        return orders_address(game_id, token, self.settings.mail_domain) if token else None

    def _calendar(self, game: dict, phase: dict, player: dict) -> str | None:
        deadline = from_iso(phase["deadline"]) if phase else None
        if deadline is None:
            return None
        _ = gettext_for(player["lang"])
        return calendar_event(
            uid=f"{game['id']}-{phase['label']}-{player['role']}@{self.settings.mail_domain}",
            summary=_("Orders due: %(game)s %(phase)s") % {"game": game["id"], "phase": phase["label"]},
            starts_utc=deadline,
            description=_("Deadline for your orders in game %(game)s, phase %(phase)s.") % {"game": game["id"], "phase": phase["label"]},
        )

    def help_text(self, engine_name: str, game: dict, lang: str, with_victory: bool = True) -> str:
        """The engine's order syntax help, when it has one, with how the game is won (the
        welcome shows that on its own: ``with_victory=False``)."""
        name = f"{engine_name}/help.txt.j2"
        if template_exists(name):
            victory = self.how_to_win(game["id"], engine_name, None, lang) if with_victory else None
            return render(name, lang, game=game, how_to_win=victory)
        return ""

    def how_to_win(self, game_id: str, engine_name: str, role: str | None, lang: str, state: dict | None = None):  # noqa: ANN201
        """The engine's ``how_to_win`` for the game's state now (or ``state``), in ``lang``; None
        when the engine says nothing of it or the game has no state yet."""
        state = state if state is not None else self.records.game_state(game_id)
        if state is None:
            return None
        return self.engine(engine_name).how_to_win(state, role, gettext_for(lang))

    def player_aids(self, engine_name: str, game_id: str | None, table: str | None, lang: str):  # noqa: ANN201
        """The engine's designed tables (all, or the one named ``table``) in ``lang``, for a game
        (its scenario's own) or, with no game, the engine's general ones; None: it has none."""
        state = self.records.game_state(game_id) if game_id else None
        return self.engine(engine_name).player_aids(state, table, lang, gettext_for(lang))

    def queue_tables(self, engine_name: str, game_id: str | None, aids, *, player: dict | None, to_addr: str, lang: str,
                     key: str, inbound_msgid: str | None, keyword: str) -> str | None:
        """The TABLES answer: ``aids`` (:meth:`player_aids`) as the mail's text and as a page to
        print; to a player in the game's thread, or to a bare address (an observer)."""
        _ = gettext_for(lang)
        file_name = _(AIDS_FILE)
        return self.queue_message(
            kind="ack", game_id=game_id, player=player, to_addr=to_addr, lang=lang,
            subject=_("Tables of %(title)s") % {"title": self.engine(engine_name).title}, template="mail/tables.txt.j2",
            key=key, inbound_msgid=inbound_msgid, attachments=[(file_name, "text/html", aids.html.encode("utf-8"))],
            aids=aids, aids_file=file_name, keyword=keyword, title=self.engine(engine_name).title)

    def queue_welcome(self, game_id: str, player: dict, phase: dict | None, key_suffix: str = "") -> str | None:
        """The first mail of a player's thread (its Message-ID is the thread's root),
        or, with ``key_suffix``, a later one (a rotated token) in the same thread."""
        g = self.game_header(game_id)
        engine = self.engine(g["engine"])
        lang = player["lang"]
        _ = gettext_for(lang)
        state = loads(phase["state"]) if phase else None
        awaited = player["role"] in (loads(phase["awaited"]) if phase else [])
        view = engine.view(state, player["role"]) if state is not None else {}
        picture = engine.picture(view, _) if state is not None else None
        aids = engine.player_aids(state, None, lang, _) if not key_suffix else None
        ctx = {
            "game": g, "player": player, "role": player["role"], "phase": phase,
            "role_title": engine.role_title(player["role"], _),
            "deadline": self.deadline_text(phase, player), "awaited": awaited,
            "template": self.orders_form(game_id, g["engine"], phase, player["role"], lang) if awaited else "",
            "help": self.help_text(g["engine"], g, lang, with_victory=False), "link": self.player_link(game_id, player),
            "how_to_win": self.how_to_win(game_id, g["engine"], player["role"], lang, state) if state is not None else None,
            "picture_cid": "map" if picture else None, "rotated": bool(key_suffix), "aids": aids,
            "aids_file": _(AIDS_FILE),
        }
        attachments = []
        if aids is not None:  # the game's tables, printable (TABLES sends them again on request)
            attachments.append((ctx["aids_file"], "text/html", aids.html.encode("utf-8")))
        if state is not None:
            attachments.append(("state.json", "application/json", _json_bytes({
                "game": g, "role": player["role"], "view": view, "state_after": engine.public_state(state),
                "next_phase": {"label": phase["label"], "commitment": phase["commitment"], "deadline": phase["deadline"]},
            })))
        env = self._envelope(game_id, player)
        if key_suffix:
            key, subject = f"welcome/{game_id}/{player['id']}/{key_suffix}", _("Your new orders address")
        else:  # the thread's root: no parent
            key, subject = f"thread/{game_id}/{player['id']}", _("Welcome to %(title)s") % {"title": g["title"]}
            env["references"], env["in_reply_to"] = [], None
        return self.queue(Outgoing(
            kind="welcome", to_addr=player["email"], subject=game_subject(game_id, subject),
            text=render("mail/welcome.txt.j2", lang, **ctx), html=render("mail/welcome.html.j2", lang, **ctx),
            images={"map": picture} if picture else {}, attachments=attachments,
            calendar=self._calendar(g, phase, player) if awaited else None,
            key=key, game_id=game_id, player_id=player["id"], **env,
        ))

    def revealed_orders(self, phase: dict, lang: str | None = "en") -> dict[str, str]:
        """role -> the canonical text of the orders that stood (shown once resolved)."""
        out = {role: sub["canonical"] or "" for role, sub in self.records.standing_orders(phase["id"]).items()}
        for role in loads(phase["defaulted"], []) or []:
            out[role] = gettext_for(lang)(DEFAULTED)
        return out

    def report_parts(self, game_id: str, player: dict | None, role: str | None, phase: dict, next_phase: dict | None, lang: str,
                     game: dict | None = None) -> dict:
        """Everything one role's report on a resolved phase shows (also used by the web pages);
        ``game``: the games row as the report is to show it (a close that ends the game)."""
        g = self.game_header(game_id, game)
        engine = self.engine(g["engine"])
        result = result_state(engine, phase)  # an old phase's, in the installed format
        view = engine.view(result, role)
        record = loads(phase["events"], {"events": [], "rolls": []})
        events = visible_events(record["events"], role, lang)
        pictures = engine.pictures(view, gettext_for(lang))
        orders = self.revealed_orders(phase, lang) if engine.reveals_orders else {}
        outcome = engine.outcome(result)
        public = engine.public_state(starting_state(engine, phase))
        sealed = phase["label"] in sealed_labels(engine, result)
        # Only this role's view and this phase's events (their type and figures: the sentences are
        # the mail's own text, and a message template is neither), and what replays the phase; the
        # whole history is on the web page and in HISTORY. The result is given by its hash: the
        # next report's state_before is it.
        attachment = {
            "game": g, "role": role,
            "phase": {"label": phase["label"], "seq": phase["seq"], "commitment": phase["commitment"],
                      "seed": None if sealed else phase["seed"], "sealed": sealed, "resolved_at": phase["resolved_at"]},
            "view": view, "events": [{k: v for k, v in ev.items() if k not in ("msg", "text")} for ev in events], "outcome": outcome,
            "replay": {
                "engine": g["engine"], "rules_version": phase["rules_version"], "state_before": public,
                "orders": loads(phase["orders"]) if (public is not None and engine.reveals_orders) else None,
                # A hash of a state with hidden cards would let a player test guesses about them.
                "state_after_sha256": state_hash(result) if engine.public_state(result) is not None else None,
            },
            "next_phase": {"label": next_phase["label"], "commitment": next_phase["commitment"], "deadline": next_phase["deadline"]} if next_phase else None,
        }
        return {"game": g, "view": view, "events": events, "picture": pictures.get("map"), "pictures": pictures,
                "orders": orders, "outcome": outcome, "attachment": attachment}

    def report_json_link(self, game_id: str, player: dict, phase: dict) -> str | None:
        """Where the report's JSON is fetched when the game's ``report_json`` setting is 'link'
        (the player's private page; a player without a token gets the attachment)."""
        if self.records.game_row(game_id)["report_json"] != "link":
            return None
        link = self.player_link(game_id, player)
        return f"{link}/report/{phase['seq']}.json" if link else None

    def report_json(self, game_id: str, player: dict, seq: int) -> bytes | None:
        """The JSON a report on resolved phase ``seq`` carries for ``player`` (what the link serves)."""
        phase = self.records.resolved_phase(game_id, seq)
        if phase is None:
            return None
        next_phase = self.records.live_phase(game_id, seq + 1)
        return _json_bytes(self.report_parts(game_id, player, player["role"], phase, next_phase, player["lang"])["attachment"])

    def queue_report(self, game_id: str, player: dict, phase: dict, next_phase: dict | None, copy: int = 0, kind: str = "report", note: str | None = None) -> str | None:
        return self.queue(self.report_mail(game_id, player, phase, next_phase, copy=copy, kind=kind, note=note))

    def report_mail(self, game_id: str, player: dict, phase: dict, next_phase: dict | None, *, copy: int = 0, kind: str = "report",
                    note: str | None = None, game: dict | None = None) -> Outgoing:
        """A player's report on a resolved phase (``game``: the games row as the report shows it)."""
        lang = player["lang"]
        parts = self.report_parts(game_id, player, player["role"], phase, next_phase, lang, game)
        g = parts["game"]
        awaited_next = next_phase is not None and player["role"] in loads(next_phase["awaited"])
        template = ""
        if awaited_next:
            template = self.orders_form(game_id, g["engine"], next_phase, player["role"], lang)
        engine = self.engine(g["engine"])
        shown_phase = dict(phase, seed=shown_seed(engine, result_state(engine, phase), phase, lang))
        ctx = {
            "game": g, "player": player, "role": player["role"], "phase": shown_phase, "phase_id": phase["label"],
            "role_title": self.engine(g["engine"]).role_title(player["role"], gettext_for(lang)),
            "next_phase": next_phase, "awaited_next": awaited_next, "template": template,
            "deadline": self.deadline_text(next_phase, player), "view": parts["view"], "events": parts["events"],
            "orders": parts["orders"], "outcome": parts["outcome"], "picture_cid": "map" if parts["picture"] else None,
            "picture_cids": {name: name for name in parts["pictures"]},
            "how_to_win": self.how_to_win(game_id, g["engine"], player["role"], lang, result_state(engine, phase)),
            # An engine without report templates of its own gets the plain event list.
            "engine_txt": _engine_template(g["engine"], "report.txt.j2", "mail/_events.txt.j2"),
            "engine_html": _engine_template(g["engine"], "report.html.j2", "mail/_events.html.j2"),
            "link": self.player_link(game_id, player), "note": note, "kind": kind,
            "defaulted": loads(phase["defaulted"], []) or [],
            "stand_in": loads(phase.get("stand_in"), []) or [],  # the roles a stand-in played (issue 28)
            "sides": named_sides(self.records.players(game_id), player["role"], lang,  # SET NAME
                                 lambda role: self.engine(g["engine"]).role_title(role, gettext_for(lang))),
        }
        _ = gettext_for(lang)
        if parts["outcome"]:
            subject = _("Report %(phase)s: the game is over") % {"phase": phase["label"]}
        elif awaited_next:
            subject = _("Report %(phase)s; orders for %(next)s due %(deadline)s") % {"phase": phase["label"], "next": next_phase["label"], "deadline": ctx["deadline"]}
        else:
            subject = _("Report %(phase)s") % {"phase": phase["label"]}
        if kind == "correction":
            subject = _("Correction to %(phase)s") % {"phase": phase["label"]}
        ctx["json_link"] = self.report_json_link(game_id, player, phase)
        attachments = [] if ctx["json_link"] else [
            _report_attachment(f"{game_id}-{phase['label']}-{player['role']}", parts["attachment"])]
        env = self._envelope(game_id, player)
        key = f"{kind}/{game_id}/{phase['seq']}.{phase['revision']}/{phase['label']}/{player['role']}/{player['id']}" + (f"/copy{copy}" if copy else "")
        return Outgoing(
            kind=kind, to_addr=player["email"], subject=game_subject(game_id, subject),
            text=render("mail/report.txt.j2", lang, **ctx), html=render("mail/report.html.j2", lang, **ctx),
            images=dict(parts["pictures"]), attachments=attachments,
            calendar=self._calendar(g, next_phase, player) if awaited_next else None,
            key=key, game_id=game_id, player_id=player["id"], **env,
        )

    def queue_ack(self, game_id: str, player: dict, submission: dict, phase: dict, inbound_msgid: str | None,
                  notes: list[str] | None = None, game: dict | None = None, token: str | None = None,
                  marks: dict | None = None) -> str | None:
        """The acknowledgement of a submission (``game``, ``token``: the games row and the
        player's current token, when the caller has read them): made now, or with
        :attr:`compose_acks_later` queued as a draft the delivery process makes (pbem.service.acks)."""
        draft = acks.ack_draft(self.game_header(game_id, game), player, submission, phase, inbound_msgid, notes,
                               token or self.records.token_for(player["id"]), self.now())
        store, domain, now = self.records.store, self.settings.mail_domain, from_iso(draft["now"])
        if self.compose_acks_later:
            return outbox.queue_draft(store, acks.queued_row(draft, domain), draft, now=now, marks=marks)
        return outbox.queue(store, acks.ack_mail(draft, self.settings), domain=domain, now=now, marks=marks)

    def queue_message(self, *, marks: dict | None = None, **what) -> str | None:
        """Queue :meth:`message_mail`'s mail (inside the caller's transaction; ``marks``: an answer's columns)."""
        return self.queue(self.message_mail(**what), marks)

    def message_mail(self, *, kind: str, game_id: str | None, player: dict | None, to_addr: str, lang: str,
                     subject: str, template: str, key: str, inbound_msgid: str | None = None, calendar: str | None = None,
                     game: dict | None = None, unsubscribe: tuple[str, int] | None = None,
                     attachments: list | None = None, **ctx) -> Outgoing:
        """A plain-text mail from a template: errors, warnings, help, status, press, notices
        (``calendar``: an .ics event to attach, as :meth:`calendar_for` makes; ``game``: the
        games row as the mail shows it, when the caller has it; ``unsubscribe``: what its
        one-click unsubscribe stops, pbem.service.unsubscribe; ``attachments``: (file name,
        content type, bytes), the tables' page to print)."""
        env = self._envelope(game_id, player) if (game_id and player) else {"reply_to": None, "references": [], "in_reply_to": None}
        env = answering(env, inbound_msgid)
        game = self.game_header(game_id, game) if game_id else None
        headers = {"X-PBEM-Status": "rejected"} if kind == "error" else {}
        if unsubscribe is not None:
            headers.update(unsubscribe_headers(self.settings, *unsubscribe))
        return Outgoing(
            kind=kind, to_addr=to_addr, subject=game_subject(game_id, subject) if game_id else f"[pbem] {subject}",
            text=render(template, lang, game=game, player=player, **ctx), key=key,
            game_id=game_id, player_id=player["id"] if player else None, headers=headers, calendar=calendar,
            attachments=list(attachments or ()), **env,
        )

    def calendar_for(self, game_id: str, phase: dict, player: dict) -> str | None:
        """The .ics event of a phase's deadline for a player (the same UID as the report's, so it replaces it)."""
        return self._calendar(self.game_header(game_id), phase, player)

    def queue_reminder(self, game_id: str, player: dict, phase: dict) -> str | None:
        _ = gettext_for(player["lang"])
        g = self.game_header(game_id)
        return self.queue_message(
            kind="reminder", game_id=game_id, player=player, to_addr=player["email"], lang=player["lang"],
            subject=_("Reminder: orders for %(phase)s due %(deadline)s") % {"phase": phase["label"], "deadline": self.deadline_text(phase, player)},
            template="mail/reminder.txt.j2", key=f"reminder/{game_id}/{phase['seq']}.{phase['revision']}/{phase['label']}/{player['id']}",
            unsubscribe=(REMINDERS, player["id"]),
            phase=phase, deadline=self.deadline_text(phase, player),
            template_text=self.orders_form(game_id, g["engine"], phase, player["role"], player["lang"]),
        )

    def queue_deadline_moved(self, game_id: str, phase: dict, reason: str, serial: int) -> int:
        """Tell every active player that a moderator moved the open phase's deadline
        (``phase`` holds the new one), each in their own zone and language, with the reason."""
        def words(p: dict, _) -> tuple[str, str]:
            figures = {"phase": phase["label"], "deadline": self.deadline_text(phase, p)}
            text = _("The moderator moved the deadline of %(phase)s to %(deadline)s.") % figures
            return (_("Deadline moved: %(phase)s now due %(deadline)s") % figures,
                    text + "\n" + _("Reason: %(reason)s") % {"reason": reason})
        return self._to_every_player(game_id, f"deadline/{game_id}/{phase['label']}/{serial}", words)

    def queue_notice(self, game_id: str, text: str, serial, args: dict | None = None, own: dict[str, str] | None = None) -> int:
        """A notice to every active player. With ``args``, ``text`` is a message id
        translated for each reader; without, it is a moderator's own words. ``own``: role ->
        the message id its player reads instead, speaking to them ("You rejected the draw")
        where the others read of them in the third person."""
        def words(p: dict, _) -> tuple[str, str]:
            if args is None:
                return _("Notice from the moderator"), text
            return _("Notice from the server"), _((own or {}).get(p["role"], text)) % args
        return self._to_every_player(game_id, f"notice/{game_id}/{serial}", words)

    def _to_every_player(self, game_id: str, key: str, words) -> int:
        """A notice to each active player, its (subject, text) from ``words(player, gettext)``
        in the player's language; how many were queued (a key already queued is not again)."""
        count = 0
        for p in self.records.players(game_id):
            if p["status"] != "active":
                continue
            subject, text = words(p, gettext_for(p["lang"]))
            if self.queue_message(kind="press", game_id=game_id, player=p, to_addr=p["email"], lang=p["lang"],
                                  subject=subject, template="mail/notice.txt.j2", key=f"{key}/{p['id']}", text=text):
                count += 1
        return count
