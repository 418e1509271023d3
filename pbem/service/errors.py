"""The service's errors: a leaf module every part and every caller may import."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses, with a message fit for a person.

    ``errors`` (order lines the engine refused) and ``retry_after`` (seconds, for a
    login refused after too many failures) are set where they apply; ``params`` fill the
    ``%(name)s`` placeholders of a message id."""

    def __init__(self, message: str, errors: list[dict] | None = None, *, retry_after: int | None = None,
                 params: dict | None = None):
        super().__init__(message % params if params else message)
        self.errors = errors or []
        self.retry_after = retry_after
        # message is a message id (N_) where it is marked so, filled from params: the
        # console shows it in the moderator's language (describe); str() is the English
        self.msgid, self.params = message, params or {}

    def describe(self, gettext) -> str:
        """The message in the language of ``gettext`` (English when it is no message id)."""
        text = gettext(self.msgid)
        return text % self.params if self.params else text


class TemporaryFailure(Exception):
    """The message could not be stored; the sender's MTA should try again (SMTP 4xx)."""
