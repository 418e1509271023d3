"""A refusal meant for a person: a message id and its values, translated by whoever tells the
reader (a mail in the reader's language, the console in English). A leaf module: the service
raises it and the mail commands, which never import the service, catch it."""

from __future__ import annotations


class Refusal(Exception):
    """Why a request is refused: ``msgid`` (N_ text with %(name)s fields) and ``values`` (moments
    among them as datetimes, for the reader's own way of writing them)."""

    def __init__(self, msgid: str, **values):
        super().__init__(msgid % values if values else msgid)
        self.msgid, self.values = msgid, values
