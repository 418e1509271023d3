"""The service's errors: a leaf module every part and every caller may import."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses, with a message fit for a person.

    ``errors`` (order lines the engine refused) and ``retry_after`` (seconds, for a
    login refused after too many failures) are set where they apply."""

    def __init__(self, message: str, errors: list[dict] | None = None, *, retry_after: int | None = None):
        super().__init__(message)
        self.errors = errors or []
        self.retry_after = retry_after


class TemporaryFailure(Exception):
    """The message could not be stored; the sender's MTA should try again (SMTP 4xx)."""
