"""pbem: a play-by-email adjudication server for historical wargames and card games."""

__version__ = "0.1.0"
