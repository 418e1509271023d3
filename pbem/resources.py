"""Where the templates/ and data/ folders are, in a checkout or an installed copy."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(top_level: str, installed: str) -> Path:
    # A checkout (or an editable install) has the folder beside the package;
    # a wheel carries it inside the package (see package-dir in pyproject.toml).
    for candidate in (_PACKAGE.parent / top_level, _PACKAGE / installed):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"cannot find the {top_level}/ folder near {_PACKAGE}")


@lru_cache(maxsize=None)
def templates_dir() -> Path:
    return _find("templates", "_templates")


@lru_cache(maxsize=None)
def data_dir() -> Path:
    return _find("data", "_data")


def data_path(*parts: str) -> Path:
    return data_dir().joinpath(*parts)


@lru_cache(maxsize=None)
def _load_json_text(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def load_json(*parts: str):
    """A data file parsed afresh on every call (so no caller can mutate a shared copy);
    the file itself is read once."""
    import json

    return json.loads(_load_json_text(str(data_path(*parts))))
