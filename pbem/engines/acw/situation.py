"""The state of a game being resolved: units and officers on the table, their shapes,
and the events told so far."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.dice import Dice

from .formations import Layout
from .scenario import Scenario

ON_TABLE = ("formed", "falling_back", "routed")
GONE = ("left", "destroyed", "captured", "surrendered")


@dataclass
class Context:
    scenario: Scenario
    state: dict
    dice: Dice
    events: list = field(default_factory=list)
    censor: object = None  # fog.censor while a turn resolves: who may be told each event
    _layouts: dict = field(default_factory=dict, repr=False)

    @property
    def scale(self) -> str:
        return self.scenario.scale

    @property
    def table(self):
        return self.scenario.table

    @property
    def turn(self) -> int:
        return self.state["turn"]

    def emit(self, ev: dict, fallback=None, seen_before: dict | None = None) -> dict:
        """Tell an event; with a censor, as each side may be told it (``fallback``: what a side
        that cannot see the event's subject is told instead, a function of the role;
        ``seen_before``: who saw the subject where its move began, ``fog.seen_by``)."""
        if self.censor is None:
            self.events.append(ev)
        else:
            self.events.extend(self.censor(self, ev, fallback, seen_before))
        return ev

    def unit(self, uid: str) -> dict:
        return self.state["units"][uid]

    def on_table(self, side: str | None = None) -> list[str]:
        return [uid for uid, u in sorted(self.state["units"].items())
                if u["status"] in ON_TABLE and (side is None or u["side"] == side)]

    def layout(self, uid: str) -> Layout:
        """The unit's shapes, kept while it stands where it stands (they are asked for often)."""
        u = self.state["units"][uid]
        key = (uid, u["x"], u["y"], u["facing"], u["formation"], u.get("mounted"), len(u["stands"]))
        lay = self._layouts.get(key)
        if lay is None:
            lay = self._layouts[key] = Layout(u, self.scale)
        return lay

    def footprints(self, exclude: tuple[str, ...] = ()) -> list:
        return [self.layout(u).footprint for u in self.on_table() if u not in exclude]

    def name(self, uid: str) -> str:
        return self.scenario.unit_name(uid)

    def label(self, *parts) -> str:
        """A structural dice label for this turn (``T3 fire wis2``)."""
        return " ".join([f"T{self.turn}", *map(str, parts)])
