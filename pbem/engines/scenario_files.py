"""Scenario data files of a map game, by name: the shipped ones under data/<game>/ (a scenario
file naming its map file) plus fragments tests register in memory; each built once and cached."""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

from pbem.resources import load_json

T = TypeVar("T")


class ScenarioFiles(Generic[T]):
    """``load(name)`` builds ``build(map_data, scenario_data)`` from data/<game>/scenarios/<name>.json
    and the map file it names (data/<game>/maps/<map>.json), or from a registered fragment."""

    def __init__(self, game: str, shipped: tuple[str, ...], build: Callable[[dict, dict], T]):
        self.game, self.shipped, self.build = game, shipped, build
        self._registered: dict[str, tuple[dict, dict]] = {}
        self._cache: dict[str, T] = {}

    def register(self, map_data: dict, scenario_data: dict) -> str:
        """Make a scenario built from in-memory data loadable by name (tests, map fragments)."""
        name = scenario_data["name"]
        self._registered[name] = (map_data, scenario_data)
        self._cache.pop(name, None)
        return name

    def load(self, name: str) -> T:
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        if name in self._registered:
            map_data, data = self._registered[name]
        else:
            data = load_json(self.game, "scenarios", f"{name}.json")
            map_data = load_json(self.game, "maps", f"{data['map']}.json")
        built = self._cache[name] = self.build(map_data, data)
        return built

    def available(self) -> list[str]:
        """The shipped scenarios whose files exist, then the registered fragments."""
        names = []
        for name in self.shipped:
            try:
                self.load(name)
            except FileNotFoundError:
                continue
            names.append(name)
        return names + [n for n in self._registered if n not in names]
