"""Last Full Measure: the rules engine (see docs/games/lfm.md and data/lfm/README.md)."""

from .engine import LastFullMeasureEngine

__all__ = ["LastFullMeasureEngine"]
