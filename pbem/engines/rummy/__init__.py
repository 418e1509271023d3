"""Little Bighorn Rummy: see ``engine.py`` and ``docs/games/rummy.md``."""

from pbem.engines.rummy.engine import RummyEngine

__all__ = ["RummyEngine"]
