"""The games a newcomer may watch or join (LIST at the general address)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.service.part import ServicePart


@dataclass(kw_only=True, eq=False)
class Lobby(ServicePart):
    def open_games(self) -> list[dict]:
        """Running games open to observers or with a free role: id, title, engine, scenario, phase,
        deadline (UTC, None while paused), free roles, whether it may be watched. No address, no code."""
        out = []
        for g in self.records.running_games():
            free = [p["role"] for p in self.records.players(g["id"]) if p["status"] == "open"]
            if not free and not g["observers_allowed"]:
                continue
            phase = self.records.current_phase(g["id"])
            out.append({"id": g["id"], "title": g["title"], "engine": g["engine"], "scenario": g["scenario"],
                        "phase": phase["label"] if phase else None, "deadline": phase["deadline"] if phase else None,
                        "free_roles": free, "watchable": bool(g["observers_allowed"])})
        return out
