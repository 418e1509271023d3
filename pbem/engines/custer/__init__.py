"""Custer's Last Stand: the rules engine (see docs/games/custer.md)."""

from .engine import CusterEngine

__all__ = ["CusterEngine"]
