"""The designed player-aid tables (data/lfm/tables/*.json, reasons in data/lfm/README.md)
and the lookups the rules make in them. Read-only, loaded once."""

from __future__ import annotations

from functools import lru_cache

from pbem.resources import load_json


@lru_cache(maxsize=None)
def table(name: str) -> dict:
    return load_json("lfm", "tables", f"{name}.json")


def _row(modified: int, rows: list[int]) -> int:
    return max(rows[0], min(rows[-1], modified))


def odds_column(attack_sp: int, defence_sp: int) -> tuple[str, int]:
    """The odds column (rounded down, in the defender's favour) and the extra DRM below the lowest."""
    odds = table("odds")
    if defence_sp <= 0:
        return odds["columns"][-1]["name"], 0
    best = None
    for col in odds["columns"]:
        if attack_sp * col["defender"] >= defence_sp * col["attacker"]:
            best = col["name"]
    if best is None:
        return odds["columns"][0]["name"], int(odds["below_lowest_drm"])
    return best, 0


def crt(column: str, modified: int) -> tuple[int, str]:
    t = table("crt")
    row = _row(modified, t["rows"])
    return row, t["table"][column][row - t["rows"][0]]


def artillery_column(sp: int) -> str | None:
    for col in table("artillery")["columns"]:
        if col["min"] <= sp <= col["max"]:
            return col["name"]
    return None


def artillery(column: str, modified: int) -> tuple[int, int]:
    t = table("artillery")
    row = _row(modified, t["rows"])
    return row, int(t["table"][column][row - t["rows"][0]])


def charge_column(difference: int) -> str:
    for col in table("charge")["columns"]:
        if col["min"] <= difference <= col["max"]:
            return col["name"]
    raise ValueError(difference)


def charge(column: str, modified: int) -> tuple[int, str]:
    t = table("charge")
    row = _row(modified, t["rows"])
    return row, t["table"][column][row - t["rows"][0]]


def terrain() -> dict:
    return table("terrain")


def drm() -> dict:
    return table("drm")


def scale(name: str, column: str) -> list[dict]:
    """What each modified roll gives on one column of the CRT, the artillery or the charge table,
    as ranges: ``[{"low": None | n, "high": n | None, "result": r}]`` (None: and below / and
    above, the table's first and last rows taking every roll beyond them)."""
    t = table(name)
    out: list[dict] = []
    for row, result in zip(t["rows"], t["table"][column]):
        if out and out[-1]["result"] == result:
            out[-1]["high"] = row
        else:
            out.append({"low": row, "high": row, "result": result})
    out[0]["low"], out[-1]["high"] = None, None
    return out


def scale_text(ranges: list[dict], words: dict | None = None) -> str:
    """``≤1 AE, 2 AR, 3-4 NE, 7+ DE``: the number each result needs, for the report's line;
    ``words`` names a result (the artillery table's numbers of checks)."""
    def span(r: dict) -> str:
        if r["low"] is None:
            return f"≤{r['high']}" if r["high"] is not None else "any"
        if r["high"] is None:
            return f"{r['low']}+"
        return str(r["low"]) if r["low"] == r["high"] else f"{r['low']}-{r['high']}"
    return ", ".join(f"{span(r)} {(words or {}).get(r['result'], r['result'])}" for r in ranges)


def needs(name: str, column: str | None, words: dict | None = None) -> dict:
    """The event arguments that state what the roll had to reach: ``scale`` (the column's ranges)
    and ``needs`` (`` (on 2-1: ≤0 DR, 1-3 NE, 4+ AE)``, empty without a column)."""
    if column is None:
        return {"scale": [], "needs": ""}
    ranges = scale(name, column)
    return {"scale": ranges, "needs": f" (on {column}: {scale_text(ranges, words)})"}
