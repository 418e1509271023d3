"""The one place a blueprint gets the service from (the app holds it in its extensions)."""

from __future__ import annotations

from flask import current_app

from pbem.service.service import Service


def service() -> Service:
    """The Service behind the current app."""
    return current_app.extensions["pbem.service"]
