"""Temporary: the mail room is being rebuilt on the command registry by another change and
still calls these; each passes to :class:`pbem.service.mail_writer.MailWriter`. This module
goes when the mail room calls ``svc.mail_writer`` itself."""

from __future__ import annotations


def queue_message(svc, **kwargs):
    return svc.mail_writer.queue_message(**kwargs)


def queue_ack(svc, *args, **kwargs):
    return svc.mail_writer.queue_ack(*args, **kwargs)


def queue_notice(svc, *args, **kwargs):
    return svc.mail_writer.queue_notice(*args, **kwargs)


def _game(svc, game_id):
    return svc.mail_writer.game_header(game_id)


def _help_text(svc, *args):
    return svc.mail_writer.help_text(*args)


def _deadline_text(svc, *args):
    return svc.mail_writer.deadline_text(*args)
