"""Short names: what a counter carries on the picture and the positions list of a report
repeats (``Co. A`` -> ``A``, a Hunkpapa warband -> ``Hun2``, ``Sitting Bull`` -> ``S.Bull``)."""

from __future__ import annotations

TRIBE_SHORT = {
    "hunkpapa": "Hun", "oglala": "Ogl", "miniconjou": "Min", "sans_arc": "SA",
    "cheyenne": "Chy", "blackfeet": "Blk", "brule": "Bru",
}


def short_name(u: dict) -> str:
    """A unit's short name from its view entry (``short`` when the view gives one)."""
    if u.get("short"):
        return str(u["short"])
    name = str(u.get("name") or u.get("id") or "?")
    t = u.get("type")
    if name.lower().startswith("co. "):
        return name[4:].split()[0][:3]
    if t == "warriors":
        tribe = u.get("tribe") or ""
        if tribe not in TRIBE_SHORT:
            return name[:5]
        num = "".join(ch for ch in name if ch.isdigit())
        return (TRIBE_SHORT[tribe] + num)[:5]
    if t == "village":
        num = "".join(ch for ch in name if ch.isdigit())
        return ("V" + num)[:4]
    if t in ("us_leader", "tribe_leader"):
        words = name.split()
        if len(words) == 1:
            return name[:9]
        return ".".join(w[0] for w in words[:-1]) + "." + words[-1][:7]
    words = name.split()
    num = words[-1] if len(words) > 1 and words[-1].isdigit() else ""
    return (words[0][:4] + num)[:5]
