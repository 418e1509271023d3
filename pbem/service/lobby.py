"""The games a newcomer may watch or join (LIST at the general address)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.service.part import ServicePart


@dataclass(kw_only=True, eq=False)
class Lobby(ServicePart):
    def open_games(self) -> list[dict]:
        """Running games open to observers or with a free role: id, title, engine, scenario, phase,
        deadline (UTC, None while paused), free roles, roles held for a newcomer who has not
        confirmed yet (role -> when the hold expires), whether it may be watched; for a game started by
        mail and waiting for players, when it lapses and, when its starter listed it, its invitation
        code. No address; no other code."""
        out = []
        for g in self.records.running_games():
            held = {h["role"]: h["expires_at"] for h in self.records.live_seat_holds(g["id"])}
            free = [p["role"] for p in self.records.players(g["id"]) if p["status"] == "open" and p["role"] not in held]
            if not free and not held and not g["observers_allowed"]:
                continue
            phase = self.records.current_phase(g["id"])
            waiting = g["status"] == "open"  # started by mail, waiting for players (issue 28)
            out.append({"id": g["id"], "title": g["title"], "engine": g["engine"], "scenario": g["scenario"],
                        "phase": phase["label"] if phase else None, "deadline": phase["deadline"] if phase else None,
                        "free_roles": free, "held_roles": held, "watchable": bool(g["observers_allowed"]),
                        "waiting": waiting, "lapses_at": g["lapses_at"] if waiting else None,
                        # a game its starter listed shows its invitation code to everyone: anyone may JOIN it
                        "code": g["invitation_code"] if waiting and g["listed"] else None})
        return out
