"""ACW miniatures (January 1997 edition): a tabletop in inches, random move cards, by mail
(see docs/games/acw.md and data/acw/README.md)."""

from .engine import ACWMiniaturesEngine

__all__ = ["ACWMiniaturesEngine"]
