"""Phase states decoded from their JSON, the last few kept by phase row."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from pbem.service.store import loads


class DecodedStates:
    """Every order mail to a game is read against its open phase's state, the same text until
    the phase closes; decoding it again for each mail was the largest single cost of reading
    orders (and the garbage it left, of the collector's). A state is reused only while its
    row holds the very same text. What is handed out is shared: a caller must not change it
    (the engines' ``parse_orders`` does not, tests/test_engine_contract.py holds them to it)."""

    def __init__(self, size: int = 64):
        self.size = size
        self._lock = threading.Lock()
        self._states: OrderedDict[int, tuple[str, Any]] = OrderedDict()

    def of(self, phase: dict) -> Any:
        """The decoded ``state`` of a ``phases`` row."""
        key, text = phase["id"], phase["state"]
        with self._lock:
            kept = self._states.get(key)
            if kept is not None and kept[0] == text:
                self._states.move_to_end(key)
                return kept[1]
        state = loads(text)
        with self._lock:
            self._states[key] = (text, state)
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)
        return state
