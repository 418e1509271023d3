"""Peaux-Rouges contre Longs-Couteaux (Rojas y Malaret, 1962): the Little Big Horn
on a square board, for two players, in French or English."""

from pbem.engines.peaux_rouges.engine import PeauxRougesEngine

__all__ = ["PeauxRougesEngine"]
