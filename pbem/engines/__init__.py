"""Game engines, found through the ``pbem.engines`` entry-point group."""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points

from pbem.engines.base import Engine


class UnknownEngine(LookupError):
    pass


@lru_cache(maxsize=None)
def all_engines() -> dict[str, Engine]:
    found: dict[str, Engine] = {}
    for ep in entry_points(group="pbem.engines"):
        engine_cls = ep.load()
        found[ep.name] = engine_cls()
    return dict(sorted(found.items()))


def get_engine(name: str) -> Engine:
    try:
        return all_engines()[name]
    except KeyError:
        known = ", ".join(all_engines()) or "none"
        raise UnknownEngine(f"no engine {name!r} (installed: {known})") from None
