"""What every part of the service is given when the Service composes it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from pbem.config import Settings
from pbem.engines import Engine
from pbem.service.records import Records


@dataclass(kw_only=True, eq=False)
class ServicePart:
    records: Records                  # the query layer: every question of the store
    engine: Callable[[str], Engine]   # an engine by name (tests may stand one in)
    now: Callable[[], datetime]       # the service's clock (tests may set it)


@dataclass(kw_only=True, eq=False)
class ConfiguredPart(ServicePart):
    """A part that reads the settings (read anew on each use: the service may replace them)."""
    settings_source: Callable[[], Settings]

    @property
    def settings(self) -> Settings:
        return self.settings_source()
